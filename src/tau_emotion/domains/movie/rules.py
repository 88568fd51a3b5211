"""Lumen Cinemas price list and the pure rules the tools apply (kept apart so that the
generator prices its bookings exactly as the tools do)."""

from __future__ import annotations

import re
import string
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.movie.db import NOW, Plan, Screen, Showtime, TicketType, parse_time
from tau_emotion.errors import ToolError

TYPE_DISCOUNT: dict[str, Decimal] = {
    "adult": money("0"),
    "child": money("3.00"),
    "senior": money("2.50"),
}
PREMIUM_SURCHARGE = money("3.00")
BOOKING_FEE = money("1.00")
"""Per ticket, for customers without a membership (pass bookings carry none)."""
EXCHANGE_FEE = money("2.00")
"""Per ticket, for customers without a membership."""
MAX_TICKETS = 10
FULL_REFUND_HOURS = 24
CUTOFF_HOURS = 2
PLAN_FEES: dict[str, Decimal] = {"club": money("9.99"), "club_plus": money("17.99")}
CONCESSION_DISCOUNT: dict[str, Decimal] = {
    "none": Decimal("0"),
    "club": Decimal("0.10"),
    "club_plus": Decimal("0.20"),
}
PASS_PRICES: dict[str, Decimal] = {"five_film": money("55.00"), "ten_film": money("100.00")}
PASS_ADMISSIONS: dict[str, int] = {"five_film": 5, "ten_film": 10}
MIN_MEMBER_AGE = 18

MENU: dict[str, tuple[str, Decimal]] = {
    "popcorn_medium": ("Medium popcorn", money("7.00")),
    "popcorn_large": ("Large popcorn", money("8.50")),
    "soda_medium": ("Medium fountain drink", money("4.50")),
    "soda_large": ("Large fountain drink", money("5.50")),
    "water": ("Bottled water", money("3.00")),
    "nachos": ("Nachos with cheese", money("7.50")),
    "hot_dog": ("Hot dog", money("6.00")),
    "candy": ("Boxed candy", money("4.25")),
    "combo_duo": ("Duo combo: large popcorn and two large drinks", money("16.50")),
    "combo_kids": ("Kids pack: small popcorn, juice and candy", money("7.75")),
}

_SEAT = re.compile(r"^([A-Z])(\d{1,2})$")


def is_member(plan: Plan) -> bool:
    return plan != "none"


def split_seat(seat: str) -> tuple[str, int]:
    match = _SEAT.match(seat.strip().upper())
    if not match:
        raise ToolError(f"{seat!r} is not a seat label; seats look like 'F7' (row letter, number)")
    return match.group(1), int(match.group(2))


def screen_rows(screen: Screen) -> list[str]:
    return list(string.ascii_uppercase[: screen.rows])


def check_seat(screen: Screen, seat: str) -> str:
    """The normalised seat label, or a refusal if the screen has no such seat."""
    row, number = split_seat(seat)
    if row not in screen_rows(screen) or not 1 <= number <= screen.seats_per_row:
        raise ToolError(
            f"seat {seat} does not exist in {screen.name} "
            f"(rows A-{screen_rows(screen)[-1]}, seats 1-{screen.seats_per_row})"
        )
    return f"{row}{number}"


def ticket_price(
    showtime: Showtime, screen: Screen, seat: str, ticket_type: TicketType, plan: Plan
) -> Decimal:
    price = showtime.adult_price - TYPE_DISCOUNT[ticket_type]
    if split_seat(seat)[0] in screen.premium_rows and plan != "club_plus":
        price += PREMIUM_SURCHARGE
    return money(price)


def concession_unit_price(item_id: str, plan: Plan) -> Decimal:
    return money(MENU[item_id][1] * (1 - CONCESSION_DISCOUNT[plan]))


def hours_until(showtime: Showtime) -> float:
    return (parse_time(showtime.starts_at) - NOW).total_seconds() / 3600


def age_on(date_of_birth: str) -> int:
    born = parse_time(date_of_birth)
    return NOW.year - born.year - ((NOW.month, NOW.day) < (born.month, born.day))
