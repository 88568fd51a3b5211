"""Retail: the back office of an online shop (orders, returns, exchanges, payments)."""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.retail.checks import CHECKS
from tau_emotion.domains.retail.db import RetailDB
from tau_emotion.domains.retail.generate import generate
from tau_emotion.domains.retail.tools import RetailTools

DESCRIPTION = (
    "Online shop customer service: cancel or change pending orders, return or exchange "
    "delivered items, move payments, late-delivery credit, profile address."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=RetailDB, tools=RetailTools, checks=CHECKS, generate=generate
)
