"""Telehealth clinic: appointments, prescriptions and refills, billing and vouchers, and
remote-monitoring devices, served to patients who are often worried or unwell."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Database, Domain
from tau_emotion.domains.telehealth.checks import CHECKS
from tau_emotion.domains.telehealth.db import TelehealthDB
from tau_emotion.domains.telehealth.generate import generate
from tau_emotion.domains.telehealth.tools import TelehealthTools

DOMAIN = Domain(
    name="telehealth",
    description=(
        "Patient-support desk of a telehealth clinic: visits, refills, pharmacies, insurance, "
        "vouchers, refunds and remote-monitoring devices."
    ),
    root=Path(__file__).parent,
    db_model=TelehealthDB,
    toolset=TelehealthTools,
    databases={"main": Database("db.json", generate)},
    split_database={"train": "main", "test": "main"},
    checks=CHECKS,
)
