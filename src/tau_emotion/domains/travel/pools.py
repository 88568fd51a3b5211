"""The generator's fixed pools: names from the kit's shared pool, and the two markets (train
and eval) with their catalogues from `markets.json`.

The two databases sell different destinations and draw customers from disjoint surname
pools, area codes, zip codes, card ranges and id ranges, so nothing identifies the same
person or record in both.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.names import FamilyNamed
from tau_emotion.domains.kit.reference import Reference

FIRST_NAMES = names.given("travel")
CHILD_NAMES = names.given("travel.children")


EMAIL_DOMAINS = names.email_domains("example")


@dataclass(frozen=True)
class TourSpec:
    """A tour as the database keeps it (`db.Tour`), less its id and destination."""

    name: str
    weekdays: tuple[str, ...]
    duration_hours: float
    price_per_person: Decimal
    min_age: int
    capacity: int


@dataclass(frozen=True)
class PackageSpec:
    name: str
    nights: int
    base_price: Decimal
    adults_only: bool
    highlights: str


@dataclass(frozen=True)
class DestinationSpec:
    city: str
    country: str
    hotel: str
    stars: int
    packages: tuple[PackageSpec, ...]
    tours: tuple[TourSpec, ...]


@dataclass(frozen=True)
class Market(FamilyNamed):
    """Everything that differs between the two generated databases."""

    seed: int
    digit: str
    """Leading digit of every numeric id and of card and phone number blocks."""
    area_code: str
    zip_codes: tuple[str, ...]
    family_names: str
    """The market's own list in the shared name pool."""
    catalogue: tuple[DestinationSpec, ...]
    card_range: tuple[int, int]


_REFERENCE = Reference(__package__ or __name__, "markets.json")

ROOM_TYPES = _REFERENCE.table("room_types", tuple[tuple[str, str, int, Decimal], ...])
"""(code, name, occupancy, supplement per night at a 4-star hotel)."""
TRAIN_MARKET = _REFERENCE.table("train", Market)
EVAL_MARKET = _REFERENCE.table("eval", Market)
