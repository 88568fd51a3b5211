"""Larkspur Bank: accounts and balances, debit cards (freeze, replace, limits), transfers
with limits and holds, card disputes, fee reversals, and strong identity checks."""

from __future__ import annotations

from tau_emotion.domains.bank.checks import CHECKS
from tau_emotion.domains.bank.db import BankDB
from tau_emotion.domains.bank.generate import SPLIT
from tau_emotion.domains.bank.tools import BankTools
from tau_emotion.domains.kit.package import domain_package

DESCRIPTION = (
    "Customer service of a retail bank: balances and transactions, debit card freezes, "
    "replacements and limits, transfers with limits and holds, card disputes, fee "
    "reversals, with strong identity verification before money moves."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=BankDB, tools=BankTools, checks=CHECKS, generate=SPLIT
)
