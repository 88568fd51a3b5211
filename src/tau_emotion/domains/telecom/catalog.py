"""The fixed catalog (plans, add-ons, device models) and the word lists the generator draws from."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.reference import Reference
from tau_emotion.domains.telecom.db import Addon, Plan

_REFERENCE = Reference(__package__ or __name__, "offer.json")
PLANS = _REFERENCE.table("plans", tuple[Plan, ...])

ADDONS = _REFERENCE.table("addons", tuple[Addon, ...])

# (model, full price, release date): no device is bought before its release.
DEVICE_MODELS: tuple[tuple[str, Decimal, date], ...] = (
    ("iPhone 16", money("829.00"), date(2024, 9, 20)),
    ("iPhone 16 Pro", money("999.00"), date(2024, 9, 20)),
    ("iPhone 15", money("729.00"), date(2023, 9, 22)),
    ("iPhone SE", money("429.00"), date(2022, 3, 18)),
    ("Galaxy S25", money("859.00"), date(2025, 2, 7)),
    ("Galaxy S24 FE", money("649.00"), date(2024, 10, 3)),
    ("Galaxy A35", money("399.00"), date(2024, 3, 11)),
    ("Pixel 9", money("799.00"), date(2024, 8, 22)),
    ("Pixel 8a", money("499.00"), date(2024, 5, 14)),
    ("Moto G Power", money("299.00"), date(2024, 6, 3)),
    ("OnePlus 13R", money("599.00"), date(2025, 1, 7)),
)

FIRST_NAMES = names.given("telecom")

LAST_NAMES = names.family("telecom")

AREA_CODES: tuple[str, ...] = (
    "206",
    "212",
    "303",
    "312",
    "404",
    "415",
    "503",
    "512",
    "602",
    "617",
    "702",
    "713",
    "808",
    "919",
)

ZIP_CODES: tuple[str, ...] = (
    "98101",
    "10027",
    "80205",
    "60614",
    "30308",
    "94110",
    "97214",
    "78704",
    "85004",
    "02139",
    "89109",
    "77002",
    "96815",
    "27601",
    "98052",
    "10463",
    "80302",
    "60201",
    "30030",
    "94703",
)

EMAIL_DOMAINS = names.email_domains("example.short")

CARD_BRANDS: tuple[str, ...] = ("Visa", "Mastercard", "Amex", "Discover")
BANKS: tuple[str, ...] = ("Harbor Credit Union", "First Plains Bank", "Cascade Savings")
