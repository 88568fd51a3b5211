"""The tour operator's business rules as constants and pure functions.

Tools and the generator share them, so that the generated history obeys the rules the agent
is held to; policy.md states the same numbers.
"""

from __future__ import annotations

import math
from datetime import date, datetime

from tau_emotion.domains.common import float_money

NOW = datetime(2025, 5, 20, 10, 0)
"""The fixed 'current' time of every episode (a Tuesday morning); policy.md states it."""
TODAY = NOW.date()

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Booking
MAX_TRAVELLERS = 9
BOOK_MIN_LEAD_DAYS = 7
BOOK_MAX_LEAD_DAYS = 365
CHILD_AGE = 12
"""Travellers younger than this on the departure date pay the child rate."""
CHILD_RATE = 0.75
ADULT_AGE = 18
FARES: dict[str, float] = {"saver": 0.90, "standard": 1.00, "flexible": 1.15}

# Changes
CHANGE_MIN_LEAD_DAYS = 14
"""Date and room changes must be made at least this many days before the current departure."""
CHANGE_FEE_PER_TRAVELLER: dict[str, float | None] = {
    "saver": None,
    "standard": 75.00,
    "flexible": 0.0,
}
"""None: the fare does not allow date changes."""
MAX_NAME_EDITS = 3

# Tours
TOUR_MIN_LEAD_DAYS = 2

# Insurance
INSURANCE_RATES: dict[str, float] = {"basic": 0.04, "premium": 0.07}
INSURANCE_MIN_LEAD_DAYS = 14
CLAIM_WINDOW_DAYS = 30
COVER: dict[str, dict[str, tuple[float, float]]] = {
    # plan -> claim type -> (limit, deductible); trip_cancellation's limit is the money lost.
    "basic": {"medical": (10000.00, 100.00), "baggage": (1000.00, 100.00)},
    "premium": {
        "medical": (50000.00, 0.0),
        "baggage": (2500.00, 0.0),
        "trip_delay": (500.00, 0.0),
        "trip_cancellation": (math.inf, 0.0),
    },
}
COVERED_CANCEL_REASONS = ("illness", "bereavement")


def parse_date(value: str) -> date:
    return date.fromisoformat(value)


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def days_until(day: str) -> int:
    return (parse_date(day) - TODAY).days


def age_on(birth: str, day: str) -> int:
    born, on = parse_date(birth), parse_date(day)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def fare_price(base: float, fare: str) -> float:
    return float_money(base * FARES[fare])


def traveller_price(base: float, fare: str, birth: str, departure: str) -> float:
    price = fare_price(base, fare)
    return float_money(price * CHILD_RATE) if age_on(birth, departure) < CHILD_AGE else price


def rooms_needed(travellers: int, occupancy: int) -> int:
    return -(-travellers // occupancy)


def refund_share(fare: str, days: int) -> float:
    """Share of the package price refunded on cancellation, by fare and days before departure."""
    if days < 1:
        return 0.0
    if fare == "flexible":
        return 1.0 if days >= 14 else 0.5
    if fare == "standard":
        return 0.9 if days >= 45 else 0.5 if days >= 15 else 0.0
    return 0.5 if days >= 60 else 0.0


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance, case-insensitive: how far a name correction moves a name."""
    a, b = a.lower(), b.lower()
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def clean_name(name: str) -> str:
    """One spelling of a name however it was typed: single spaces, capitalised words."""
    words = name.split()
    return " ".join(w.capitalize() if w.islower() or w.isupper() else w for w in words)
