"""Larkspur Airways: book, change and cancel flights, bags, passengers and compensation."""

from __future__ import annotations

from tau_emotion.domains.airline.checks import CHECKS
from tau_emotion.domains.airline.db import AirlineDB
from tau_emotion.domains.airline.generate import generate
from tau_emotion.domains.airline.tools import AirlineTools
from tau_emotion.domains.kit.package import domain_package

DESCRIPTION = (
    "Airline customer service: search flights, book, change flights, cabin, bags and "
    "passengers, cancel with refunds, and compensate disrupted flights."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=AirlineDB, tools=AirlineTools, checks=CHECKS, generate=generate
)
