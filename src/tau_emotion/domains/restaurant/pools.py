"""Fixed word pools for the generator: names, streets, the menu and the two cities.

The two databases (train and eval) draw from disjoint surname pools, area codes, zip codes,
card-number ranges and id ranges, so that no person or id of one appears in the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.common import Money
from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.names import FamilyNamed
from tau_emotion.domains.kit.reference import Reference

FIRST_NAMES = names.given("restaurant")

STREET_NAMES = (
    "Alder",
    "Birch",
    "Cedar",
    "Dogwood",
    "Elm",
    "Fir",
    "Hawthorn",
    "Juniper",
    "Larch",
    "Maple",
    "Oak",
    "Pine",
    "Quince",
    "Rowan",
    "Spruce",
    "Sycamore",
    "Willow",
    "Yew",
)
STREET_KINDS = ("St", "Ave", "Rd", "Ln", "Way", "Ct")

EMAIL_DOMAINS = names.email_domains("example")

ALLERGIES = ("peanuts", "tree_nuts", "shellfish", "gluten", "dairy", "egg", "soy", "sesame", "fish")


@dataclass(frozen=True)
class City(FamilyNamed):
    """Everything that differs between the two generated databases."""

    seed: int
    digit: str
    """Leading digit of every numeric id, card number range and phone exchange block."""
    city: str
    area_code: str
    zip_codes: tuple[str, ...]
    family_names: str
    """Its own family-name list in the shared name pool."""
    locations: tuple[tuple[str, str, str], ...]
    """(name, street, zip) of each location."""
    card_range: tuple[int, int]
    """Inclusive range of card last-4 numbers, disjoint between the databases."""


_REFERENCE = Reference(__package__ or __name__, "cities.json")
MENU = _REFERENCE.table(
    "menu", tuple[tuple[str, str, Money, tuple[str, ...], tuple[str, ...]], ...]
)
"""(name, category, price, allergens, dietary tags) of every dish; the prices are JSON numbers
in cities.json, made cent-exact `Money` as the table is read."""
TRAIN_CITY = _REFERENCE.table("train", City)
EVAL_CITY = _REFERENCE.table("eval", City)
