"""The club's fixed "now", seating zones, prices and refund rules, shared by tools and generator.

Everything time-dependent is pinned to one "now" so a task replays the same way on any day;
the policy tells the agent the same date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Literal

from tau_emotion.domains.common import money

ID_WIDTH = 5
"""Ids are a prefix, the database's lead digit, then a running number of this many digits."""

NOW = datetime(2025, 2, 14, 10, 0)
TODAY = NOW.date()

Zone = Literal["family", "upper", "lower", "courtside"]


@dataclass(frozen=True)
class ZoneSpec:
    rank: int
    """Upgrades go up in rank only."""
    capacity: int
    """Seats per game this office sells in the zone (passes included)."""
    single_price: Decimal
    pass_per_game: Decimal
    letter: str


ZONES: dict[Zone, ZoneSpec] = {
    "family": ZoneSpec(1, 40, Decimal("28.00"), Decimal("22.00"), "F"),
    "upper": ZoneSpec(2, 80, Decimal("36.00"), Decimal("28.00"), "U"),
    "lower": ZoneSpec(3, 60, Decimal("72.00"), Decimal("58.00"), "L"),
    "courtside": ZoneSpec(4, 12, Decimal("185.00"), Decimal("150.00"), "C"),
}
PREMIUM_MULTIPLIER = Decimal("1.25")
"""Rivalry and holiday games cost a quarter more."""
SERVICE_FEE = Decimal("3.50")
"""Per ticket; refunded only when a game is cancelled."""
EXCHANGE_FEE = Decimal("10.00")
"""Per ticket; waived for season-pass holders."""
PASS_DISCOUNT = Decimal("0.10")
"""Season-pass holders pay 10% less for extra single-game tickets."""
MAX_TICKETS_PER_GAME = 8
EXCHANGE_NOTICE = timedelta(hours=48)
RETURN_WINDOW_DAYS = 30
SIBLING_DISCOUNT = Decimal("0.10")
CAMP_FULL_REFUND_DAYS = 14
CAMP_HALF_REFUND_DAYS = 7


def single_price(zone: Zone, premium: bool) -> Decimal:
    price = ZONES[zone].single_price
    return money(price * PREMIUM_MULTIPLIER) if premium else price


def pass_price(price: Decimal) -> Decimal:
    """A single-game price with the season-pass holder discount."""
    return money(price * (1 - PASS_DISCOUNT))


def age_on(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def camp_refund_share(start: date) -> Decimal:
    """Share of the price refunded when a camp registration is cancelled today."""
    days = (start - TODAY).days
    if days >= CAMP_FULL_REFUND_DAYS:
        return Decimal("1")
    if days >= CAMP_HALF_REFUND_DAYS:
        return Decimal("0.5")
    return Decimal("0")


def seat_label(zone: Zone, number: int) -> str:
    return f"{ZONES[zone].letter}-{number:03d}"


def card_expired(expires: str | None) -> bool:
    """Cards are valid through the end of their expiry month ('YYYY-MM')."""
    return expires is not None and expires < TODAY.isoformat()[:7]
