"""The league, the home schedule, the team store and the youth camps: fixed for both
databases (each numbers them in its own id space)."""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.basketball.db import Category, GameStatus, Position

LEAGUE = (
    ("Portland", "Lumberjacks"),
    ("Boise", "Rangers"),
    ("Spokane", "Thunder Birds"),
    ("Tacoma", "Tides"),
    ("Eugene", "Ducks Landing"),
    ("Reno", "Aces"),
    ("Sacramento", "Gold Rush"),
    ("Salt Lake", "Summit"),
    ("Fresno", "Heat Wave"),
    ("Anchorage", "Glaciers"),
    ("Vancouver", "Orcas"),
)
"""Opponents, as (city, name)."""

HOME_CLUBS = {
    "train": ("Riverton", "Rapids", "Riverton Arena"),
    "eval": ("Harbor City", "Hawks", "Harbor City Center"),
}
"""(city, name, arena) of the club whose desk this is, per database."""

# (start, opponent index, premium, status, rescheduled_to); past games are "played".
SCHEDULE: tuple[tuple[str, int, bool, GameStatus, str | None], ...] = (
    ("2024-10-19T19:30", 3, True, "played", None),
    ("2024-10-26T19:30", 0, False, "played", None),
    ("2024-11-02T19:30", 5, False, "played", None),
    ("2024-11-09T19:30", 1, False, "played", None),
    ("2024-11-16T17:00", 7, False, "played", None),
    ("2024-11-27T19:30", 2, True, "played", None),
    ("2024-12-07T19:30", 8, False, "played", None),
    ("2024-12-14T17:00", 9, False, "played", None),
    ("2024-12-21T19:30", 4, False, "played", None),
    ("2024-12-31T18:00", 6, True, "played", None),
    ("2025-01-11T19:30", 10, False, "cancelled", None),
    ("2025-01-18T19:30", 0, False, "played", None),
    ("2025-01-25T17:00", 1, False, "played", None),
    ("2025-02-01T19:30", 5, False, "played", None),
    ("2025-02-08T19:30", 7, False, "postponed", "2025-03-27T19:30"),
    ("2025-02-15T19:30", 2, False, "scheduled", None),
    ("2025-02-22T17:00", 8, False, "scheduled", None),
    ("2025-03-01T19:30", 9, False, "scheduled", None),
    ("2025-03-08T19:30", 3, True, "scheduled", None),
    ("2025-03-15T19:30", 4, False, "scheduled", None),
    ("2025-03-22T17:00", 6, False, "scheduled", None),
    ("2025-04-05T19:30", 10, False, "scheduled", None),
    ("2025-04-12T19:30", 3, True, "scheduled", None),
)

ROSTER_POSITIONS: tuple[Position, ...] = ("guard",) * 6 + ("forward",) * 5 + ("center",) * 3


@dataclass(frozen=True)
class ProductSpec:
    name: str
    category: Category
    price: str
    sizes: tuple[str, ...]
    personalizable: bool = False


ADULT = ("XS", "S", "M", "L", "XL", "XXL")
YOUTH = ("YS", "YM", "YL")
ONE = ("one size",)

PRODUCTS = (
    ProductSpec("Home Jersey", "jersey", "110.00", ADULT, True),
    ProductSpec("Away Jersey", "jersey", "110.00", ADULT, True),
    ProductSpec("City Edition Jersey", "jersey", "125.00", ADULT, True),
    ProductSpec("Youth Home Jersey", "jersey", "80.00", YOUTH, True),
    ProductSpec("Logo T-Shirt", "apparel", "32.00", ADULT),
    ProductSpec("Youth Logo T-Shirt", "apparel", "24.00", YOUTH),
    ProductSpec("Warm-Up Hoodie", "apparel", "68.00", ADULT),
    ProductSpec("Quarter-Zip Pullover", "apparel", "74.00", ADULT),
    ProductSpec("Practice Shorts", "apparel", "55.00", ADULT),
    ProductSpec("Snapback Cap", "headwear", "30.00", ONE),
    ProductSpec("Knit Beanie", "headwear", "24.00", ONE),
    ProductSpec("Mini Basketball", "accessory", "22.00", ONE),
    ProductSpec("Team Scarf", "accessory", "28.00", ONE),
    ProductSpec("Crew Socks", "accessory", "16.00", ("S/M", "L/XL")),
    ProductSpec("Stadium Blanket", "accessory", "45.00", ONE),
)
PERSONALIZATION_FEE = "25.00"
SHIPPING = "7.95"
FREE_SHIPPING_FROM = "100.00"


@dataclass(frozen=True)
class CampSpec:
    name: str
    start: str
    end: str
    min_age: int
    max_age: int
    capacity: int
    price: str
    fill: float
    """Share of places taken in the snapshot."""


CAMPS = (
    CampSpec("Holiday Camp", "2024-12-27", "2024-12-30", 8, 14, 40, "175.00", 0.8),
    CampSpec("Presidents' Day Mini Camp", "2025-02-17", "2025-02-19", 8, 12, 30, "195.00", 0.85),
    CampSpec("Winter Shooting Clinic", "2025-02-22", "2025-02-23", 10, 16, 24, "120.00", 0.7),
    CampSpec("Youth Hoops Clinic", "2025-03-08", "2025-03-08", 9, 15, 20, "60.00", 1.0),
    CampSpec("Spring Break Skills Camp", "2025-04-14", "2025-04-18", 8, 14, 40, "325.00", 0.5),
    CampSpec("Summer Camp Week 1", "2025-06-23", "2025-06-27", 7, 12, 50, "395.00", 0.3),
    CampSpec("Summer Elite Camp", "2025-07-14", "2025-07-18", 13, 17, 30, "450.00", 0.3),
)
