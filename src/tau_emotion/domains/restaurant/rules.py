"""The restaurant's business rules as constants and pure functions.

Tools and the generator both use these, so that the generated history obeys the same rules
the agent is held to, and policy.md states the same numbers.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from tau_emotion.domains.common import money

NOW = datetime(2025, 6, 14, 15, 0)
"""The fixed 'current' time of every episode (Saturday afternoon); policy.md states it."""

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Reservations
MAX_PARTY = 10
"""Larger groups are private events."""
GUARANTEE_PARTY = 6
"""Parties of this size or more need a credit card on file to guarantee the table."""
LATE_CANCEL_FEE_PER_GUEST = money("15.00")
LATE_CANCEL_HOURS = 24
MIN_LEAD_HOURS = 2
"""Bookings and changes must be at least this far before the seating time."""
MAX_ADVANCE_DAYS = 60
NO_SHOW_LIMIT = 2
NO_SHOW_WINDOW_DAYS = 90
FIRST_SEATING = "11:30"
LAST_SEATING_BEFORE_CLOSE_MIN = 60

# Orders
DELIVERY_FEE = money("4.99")
DELIVERY_MIN_SUBTOTAL = money("20.00")
PICKUP_READY_MIN = 25
DELIVERY_PROMISE_MIN = 45
MAX_QUANTITY = 20
POINTS_BLOCK = 100
POINTS_BLOCK_VALUE = money("5.00")
REFUND_WINDOW_HOURS = 48
LATE_DELIVERY_GRACE_MIN = 15
LATE_DELIVERY_POINTS = 150
CANCELLABLE_ORDER_STATUSES = ("placed",)

# Private events
EVENT_PACKAGES: dict[str, Decimal] = {
    "cocktail": money("38.00"),
    "dinner": money("62.00"),
    "chefs_table": money("95.00"),
}
EVENT_DEPOSIT_RATE = Decimal("0.25")
EVENT_MIN_LEAD_DAYS = 7
EVENT_MAX_ADVANCE_DAYS = 180
EVENT_FULL_REFUND_DAYS = 30
EVENT_HALF_REFUND_DAYS = 14


def parse_date(text: str) -> date:
    return date.fromisoformat(text)


def parse_dt(day: str, hhmm: str) -> datetime:
    return datetime.fromisoformat(f"{day}T{hhmm}")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def weekday(day: str) -> str:
    return WEEKDAYS[parse_date(day).weekday()]


def minutes(hhmm: str) -> int:
    hours, mins = hhmm.split(":")
    return int(hours) * 60 + int(mins)


def clock(total_minutes: int) -> str:
    return f"{total_minutes // 60:02d}:{total_minutes % 60:02d}"


def seating_times(close: str) -> list[str]:
    """Half-hour seatings from the first seating to one hour before closing."""
    last = minutes(close) - LAST_SEATING_BEFORE_CLOSE_MIN
    return [clock(m) for m in range(minutes(FIRST_SEATING), last + 1, 30)]


def hours_until(moment: datetime) -> float:
    return (moment - NOW) / timedelta(hours=1)


def outside_booking_window(seating: datetime) -> str | None:
    """Why the policy does not book or move a table to this seating now, or None: at least
    2 hours ahead, at most 60 days ahead."""
    if hours_until(seating) < MIN_LEAD_HOURS:
        return f"the seating {stamp(seating)} is less than {MIN_LEAD_HOURS} hours away"
    if (seating.date() - NOW.date()).days > MAX_ADVANCE_DAYS:
        return f"the seating {stamp(seating)} is more than {MAX_ADVANCE_DAYS} days ahead"
    return None


def outside_event_window(event_day: date) -> str | None:
    """Why the policy does not book a private event on this day now, or None."""
    lead = (event_day - NOW.date()).days
    if lead < EVENT_MIN_LEAD_DAYS:
        return f"{event_day.isoformat()} is less than {EVENT_MIN_LEAD_DAYS} days ahead"
    if lead > EVENT_MAX_ADVANCE_DAYS:
        return f"{event_day.isoformat()} is more than {EVENT_MAX_ADVANCE_DAYS} days ahead"
    return None


def late_cancel_fee(party_size: int, seating: datetime, guarantee_card: str | None) -> Decimal:
    """Fee for cancelling a guaranteed table inside the late window (0 otherwise). A large
    party booked without a card (against the policy) has no card to charge, so no fee."""
    if not guarantee_card or party_size < GUARANTEE_PARTY:
        return money(0)
    if hours_until(seating) >= LATE_CANCEL_HOURS:
        return money(0)
    return money(party_size * LATE_CANCEL_FEE_PER_GUEST)


def points_value(points: int) -> Decimal:
    return money(points // POINTS_BLOCK * POINTS_BLOCK_VALUE)


def event_deposit(guests: int, package: str) -> Decimal:
    return money(guests * EVENT_PACKAGES[package] * EVENT_DEPOSIT_RATE)


def event_refund(deposit: Decimal, event_day: str, on: date | None = None) -> Decimal:
    """Deposit refund by notice: full from 30 days out, half from 14, nothing later. Half of
    an odd number of cents rounds up, half a cent to the guest (23.75 -> 11.88)."""
    days = (parse_date(event_day) - (on or NOW.date())).days
    if days >= EVENT_FULL_REFUND_DAYS:
        return deposit
    if days >= EVENT_HALF_REFUND_DAYS:
        return money(deposit / 2)
    return money(0)
