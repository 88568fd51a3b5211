"""Policy rules of the tour operator, audited per trajectory.

The tools enforce integrity (records exist, a trip under way cannot change, seats, rooms and
tour places must exist, payments must cover); the booking, change, insurance and claim windows
and the fare rules are the agent's to apply, judged in `judged.py` on the database as it stood
before each write. The checks here audit what only the conversation shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tau_emotion.domains.checks import (
    PolicyCheck,
    nothing_after_transfer,
    read_before_change,
    records_of_authenticated,
    session_checks,
    writes_and,
)
from tau_emotion.domains.trajectory import Trajectory, result_json
from tau_emotion.domains.travel.judged import JUDGED

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_dob")
ACCOUNT_READS = ("get_customer_details", "get_booking")
# Booking changes that need the departure quoted first, and the argument naming it.
QUOTED: dict[str, str] = {"book_trip": "departure_id", "change_departure": "new_departure_id"}


def _key(value: Any) -> str:
    return str(value).strip().upper()


def _quoted_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    quoted: set[str] = set()
    for c in t.successful():
        if c.call.name == "get_departures":
            data = result_json(c)
            for row in data if isinstance(data, list) else []:
                if isinstance(row, dict) and "departure_id" in row:
                    quoted.add(_key(row["departure_id"]))
        elif c.call.name in QUOTED:
            departure = c.call.arguments.get(QUOTED[c.call.name])
            if departure is not None and _key(departure) not in quoted:
                yield (
                    f"{c.call.name} used departure {departure} without quoting it from "
                    "get_departures",
                    c.message_index,
                )


CHECKS: list[PolicyCheck] = [
    *session_checks("travel", AUTH_TOOLS, writes_and(ACCOUNT_READS)),
    records_of_authenticated(
        "travel.own_records_only",
        "Show or change only bookings, policies and claims of the authenticated customer.",
        AUTH_TOOLS,
        writes_and(ACCOUNT_READS),
    ),
    read_before_change(
        "travel.read_before_change",
        "Look up a booking with get_booking before changing, cancelling or claiming on it.",
        reads={"get_booking": "booking_code"},
    ),
    PolicyCheck(
        "travel.quote_departure_first",
        "Quote a departure's seats and prices from get_departures before booking or moving to it.",
        _quoted_first,
    ),
    nothing_after_transfer(
        "travel.transfer_ends_conversation",
        "After transferring to a human agent, make no further tool calls.",
    ),
    *JUDGED,
]
