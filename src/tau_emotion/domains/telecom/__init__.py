"""Telecom: the customer care desk of a postpaid mobile carrier (Brightwave Mobile).

Customers hold lines on rate plans, financed devices, monthly bills with late fees and
autopay, add-ons (data top-ups, travel passes), suspensions and support tickets.
"""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.telecom.checks import CHECKS
from tau_emotion.domains.telecom.db import TelecomDB
from tau_emotion.domains.telecom.generate import generate
from tau_emotion.domains.telecom.tools import TelecomTools

DESCRIPTION = (
    "Mobile carrier customer care: bills, payments and late fees, autopay, plan changes, "
    "add-ons and roaming, lost or stolen phones, line holds, device payoff and unlocks, "
    "troubleshooting and tickets."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=TelecomDB, tools=TelecomTools, checks=CHECKS, generate=generate
)
