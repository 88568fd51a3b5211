"""Telehealth clinic: appointments, prescriptions and refills, billing and vouchers, and
remote-monitoring devices, served to patients who are often worried or unwell."""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.telehealth.checks import CHECKS
from tau_emotion.domains.telehealth.db import TelehealthDB
from tau_emotion.domains.telehealth.generate import generate
from tau_emotion.domains.telehealth.tools import TelehealthTools

DESCRIPTION = (
    "Patient-support desk of a telehealth clinic: visits, refills, pharmacies, insurance, "
    "vouchers, refunds and remote-monitoring devices."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=TelehealthDB, tools=TelehealthTools, checks=CHECKS, generate=generate
)
