"""Larkspur Airways: book, change and cancel flights, bags, passengers and compensation."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.airline.checks import CHECKS
from tau_emotion.domains.airline.db import AirlineDB
from tau_emotion.domains.airline.generate import generate
from tau_emotion.domains.airline.tools import AirlineTools
from tau_emotion.domains.base import Database, Domain

DOMAIN = Domain(
    name="airline",
    description=(
        "Airline customer service: search flights, book, change flights, cabin, bags and "
        "passengers, cancel with refunds, and compensate disrupted flights."
    ),
    root=Path(__file__).parent,
    db_model=AirlineDB,
    toolset=AirlineTools,
    databases={"main": Database("db.json", generate)},
    split_database={"train": "main", "test": "main"},
    checks=CHECKS,
)
