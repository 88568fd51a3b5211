"""Larkspur Bank: accounts and balances, debit cards (freeze, replace, limits), transfers
with limits and holds, card disputes, fee reversals, and strong identity checks."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.bank.checks import CHECKS
from tau_emotion.domains.bank.db import BankDB
from tau_emotion.domains.bank.generate import SPLIT
from tau_emotion.domains.bank.tools import BankTools
from tau_emotion.domains.base import Domain
from tau_emotion.domains.kit.split import SPLIT_DATABASE

DOMAIN = Domain(
    name="bank",
    description=(
        "Customer service of a retail bank: balances and transactions, debit card freezes, "
        "replacements and limits, transfers with limits and holds, card disputes, fee "
        "reversals, with strong identity verification before money moves."
    ),
    root=Path(__file__).parent,
    db_model=BankDB,
    toolset=BankTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
