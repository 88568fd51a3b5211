"""Retail: the back office of an online shop (orders, returns, exchanges, payments)."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Database, Domain
from tau_emotion.domains.retail.checks import CHECKS
from tau_emotion.domains.retail.db import RetailDB
from tau_emotion.domains.retail.generate import generate
from tau_emotion.domains.retail.tools import RetailTools

DOMAIN = Domain(
    name="retail",
    description=(
        "Online shop customer service: cancel or change pending orders, return or exchange "
        "delivered items, move payments, late-delivery credit, profile address."
    ),
    root=Path(__file__).parent,
    db_model=RetailDB,
    toolset=RetailTools,
    databases={"main": Database("db.json", generate)},
    split_database={"train": "main", "test": "main"},
    checks=CHECKS,
)
