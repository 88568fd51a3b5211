"""The tour operator's business rules as constants and pure functions.

Tools and the generator share them, so that the generated history obeys the rules the agent
is held to; policy.md states the same numbers.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from tau_emotion.domains.common import money

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
CHILD_RATE = Decimal("0.75")
ADULT_AGE = 18
FARES: dict[str, Decimal] = {
    "saver": Decimal("0.90"),
    "standard": Decimal("1.00"),
    "flexible": Decimal("1.15"),
}

# Changes
CHANGE_MIN_LEAD_DAYS = 14
"""Date and room changes must be made at least this many days before the current departure."""
CHANGE_FEE_PER_TRAVELLER: dict[str, Decimal | None] = {
    "saver": None,
    "standard": Decimal("75.00"),
    "flexible": Decimal("0.00"),
}
"""None: the fare does not allow date changes."""
MAX_NAME_EDITS = 3

# Tours
TOUR_MIN_LEAD_DAYS = 2

# Insurance
INSURANCE_RATES: dict[str, Decimal] = {"basic": Decimal("0.04"), "premium": Decimal("0.07")}
INSURANCE_MIN_LEAD_DAYS = 14
CLAIM_WINDOW_DAYS = 30
COVER: dict[str, dict[str, tuple[Decimal, Decimal]]] = {
    # plan -> claim type -> (limit, deductible); trip_cancellation's limit is the money lost
    # (`pricing.payout` uses that, never this infinite placeholder).
    "basic": {
        "medical": (Decimal("10000.00"), Decimal("100.00")),
        "baggage": (Decimal("1000.00"), Decimal("100.00")),
    },
    "premium": {
        "medical": (Decimal("50000.00"), Decimal("0.00")),
        "baggage": (Decimal("2500.00"), Decimal("0.00")),
        "trip_delay": (Decimal("500.00"), Decimal("0.00")),
        "trip_cancellation": (Decimal("Infinity"), Decimal("0.00")),
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


def fare_price(base: Decimal, fare: str) -> Decimal:
    return money(base * FARES[fare])


def traveller_price(base: Decimal, fare: str, birth: str, departure: str) -> Decimal:
    price = fare_price(base, fare)
    return money(price * CHILD_RATE) if age_on(birth, departure) < CHILD_AGE else price


def rooms_needed(travellers: int, occupancy: int) -> int:
    return -(-travellers // occupancy)


def refund_share(fare: str, days: int) -> Decimal:
    """Share of the package price refunded on cancellation, by fare and days before departure."""
    if days < 1:
        return Decimal("0")
    if fare == "flexible":
        return Decimal("1") if days >= 14 else Decimal("0.5")
    if fare == "standard":
        return Decimal("0.9") if days >= 45 else Decimal("0.5") if days >= 15 else Decimal("0")
    return Decimal("0.5") if days >= 60 else Decimal("0")


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
