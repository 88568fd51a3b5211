"""Word pools for the bank generator. Train and eval draw from disjoint pools (surnames,
cities, phone area codes, number ranges) so that no identifier appears in both databases."""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.names import FamilyNamed
from tau_emotion.domains.kit.reference import Reference

FIRST_NAMES = names.given("bank")

EMAIL_DOMAINS = names.email_domains("test")

STREETS = (
    "Alder St", "Birch Ave", "Canal Rd", "Dover Ln", "Elmwood Dr", "Fern Way", "Granite Ct",
    "Hillcrest Ave", "Ivy Ln", "Juniper St", "Kestrel Rd", "Linden Ave",
)  # fmt: skip

MERCHANTS = (
    ("Corner Grocer", 18, 140),
    ("FuelStop", 25, 80),
    ("Bluebird Coffee", 4, 16),
    ("StreamMax Subscription", 16, 16),
    ("Metro Transit", 2, 45),
    ("Aurora Electronics", 60, 900),
    ("Pine Hardware", 12, 220),
    ("ShopRight Online", 15, 300),
    ("Harbor Pharmacy", 6, 90),
    ("Trattoria Nove", 30, 160),
    ("City Parking", 5, 30),
    ("Skyway Airlines", 120, 780),
    ("Greenleaf Market", 20, 180),
    ("Pixel Games Store", 10, 70),
)  # fmt: skip

BUSINESS_PAYEES = (
    "Oakridge Property Management", "Summit Auto Loans", "Bright Path Tutoring",
    "Riverbend Dental", "Keystone Insurance", "Evergreen Storage",
)  # fmt: skip

BANKS = ("First Meridian Bank", "Coastline Credit Union", "Unity Savings", "Northfield Bank")


@dataclass(frozen=True)
class Series(FamilyNamed):
    """What makes one database's identifiers its own."""

    digit: str
    """Leading digit of every numeric id."""
    seed: int
    family_names: str
    """Its own family-name list in the shared name pool."""
    cities: tuple[tuple[str, str, str, str], ...]
    """(city, state, zip prefix, phone area code)."""
    numbers: tuple[int, int]
    """Range for card, account and SSN last-four digits."""


_REFERENCE = Reference(__package__ or __name__, "series.json")
TRAIN = _REFERENCE.table("train", Series)
EVAL = _REFERENCE.table("eval", Series)
