"""The airline's fixed clock and its price and eligibility tables.

The generator, the tools and policy.md all read these numbers from here, so the policy text,
the data and the enforcement cannot drift apart. All money is in whole US dollars: the fees
and compensation here are integers, the records store the kit's `Money` (`db.py`), and the
tools show every amount as a whole number (`tools_base.dollars`), so that the values an
agent must say ("245") match however it formats them ("$245.00").
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

AIRLINE = "Larkspur Airways"
FLIGHT_PREFIX = "LK"

NOW = datetime(2025, 6, 12, 10, 0)
"""The domain's current date and time. Every window (24-hour cancellation, departed flights,
booking cut-off) is measured from this constant so that episodes are deterministic."""

FIRST_DAY = date(2025, 6, 1)
LAST_DAY = date(2025, 6, 28)
"""Flights operate (and have per-day records) from FIRST_DAY to LAST_DAY inclusive."""

Cabin = Literal["basic", "economy", "premium", "business"]
Tier = Literal["member", "silver", "gold", "platinum"]
TripType = Literal["one_way", "round_trip"]
FlightStatus = Literal["scheduled", "delayed", "departed", "landed", "cancelled"]

CABINS: tuple[Cabin, ...] = ("basic", "economy", "premium", "business")
TIERS: tuple[Tier, ...] = ("member", "silver", "gold", "platinum")

FREE_BAGS: dict[Cabin, dict[Tier, int]] = {
    "basic": {"member": 0, "silver": 0, "gold": 1, "platinum": 1},
    "economy": {"member": 1, "silver": 1, "gold": 2, "platinum": 2},
    "premium": {"member": 1, "silver": 2, "gold": 2, "platinum": 3},
    "business": {"member": 2, "silver": 2, "gold": 3, "platinum": 3},
}
"""Free checked bags per passenger, by cabin and the account holder's tier."""

BAG_FEE = 40
"""Price of each checked bag beyond the free allowance (per reservation, not per flight)."""
MAX_BAGS_PER_PASSENGER = 4

PROTECTION_PER_PASSENGER = 30
"""Travel protection, sold only at booking."""

CANCEL_FEE: dict[Cabin, int] = {"economy": 100, "premium": 75, "business": 0}
"""Per-passenger fee withheld when a reservation is cancelled outside the free cases.
Basic fares cannot be cancelled outside the free cases at all."""

FREE_CANCEL_WINDOW = timedelta(hours=24)
BOOKING_CUTOFF = timedelta(hours=2)
"""A flight can be booked or changed onto only if it departs more than this after NOW."""

MAX_PASSENGERS = 5
MIN_CONNECTION = timedelta(minutes=45)
MAX_CONNECTION = timedelta(hours=6)

DELAY_THRESHOLD_MINUTES = 180
"""A delay of at least this many minutes qualifies for compensation."""

COMPENSATION: dict[Literal["cancelled", "delayed"], dict[Tier, int]] = {
    "cancelled": {"member": 50, "silver": 100, "gold": 150, "platinum": 200},
    "delayed": {"member": 0, "silver": 50, "gold": 75, "platinum": 100},
}
"""Certificate value per passenger, by disruption and tier (0: not eligible)."""

CERTIFICATE_VALIDITY = timedelta(days=365)


def free_bags(cabin: Cabin, tier: Tier) -> int:
    return FREE_BAGS[cabin][tier]
