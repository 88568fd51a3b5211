"""Policy checks of the movie domain: the rules no single tool call can enforce."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tau_emotion.domains.checks import (
    CallRecord,
    PolicyCheck,
    Trajectory,
    authentication_before,
    confirmation_before_writes,
    one_customer,
)

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
ACCOUNT_READS = frozenset({"get_customer_details", "get_booking"})
BOOKING_CHANGES = frozenset(
    {
        "change_seats",
        "exchange_booking",
        "cancel_booking",
        "add_concessions",
        "issue_incident_credit",
    }
)
SEAT_PICKS = frozenset({"book_tickets", "change_seats", "exchange_booking"})


def _result(call: CallRecord) -> dict[str, Any]:
    try:
        data = json.loads(call.result)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _code(call: CallRecord) -> str:
    return str(call.call.arguments.get("booking_code", "")).strip().upper()


def _guarded(call: CallRecord) -> bool:
    return call.kind == "write" or call.call.name in ACCOUNT_READS


def _authenticated_customer(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Only the customer an identity lookup returned may be acted on or shown."""
    verified: set[str] = set()
    for c in t.successful():
        if c.call.name in AUTH_TOOLS:
            verified.add(str(_result(c).get("customer_id", "")))
            continue
        customer_id = c.call.arguments.get("customer_id")
        if customer_id is not None and customer_id not in verified:
            yield (
                f"{c.call.name} used customer {customer_id}, whom no identity lookup returned",
                c.message_index,
            )


def _booking_read_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """A booking is looked up with get_booking before anything changes it."""
    read: set[str] = set()
    for c in t.successful():
        if c.call.name == "get_booking":
            read.add(_code(c))
        elif c.call.name in BOOKING_CHANGES and _code(c) not in read:
            yield (
                f"{c.call.name} changed booking {_code(c)} without get_booking first",
                c.message_index,
            )


def _seat_map_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Seats are chosen from a seat map of the showtime they are in."""
    mapped: set[str] = set()
    showtime_of: dict[str, str] = {}
    for c in t.successful():
        args = c.call.arguments
        if c.call.name == "get_seat_map":
            mapped.add(str(args.get("showtime_id", "")))
        if c.call.name in {"get_booking", "exchange_booking"}:
            showtime_of[_code(c)] = str(_result(c).get("showtime_id", ""))
        if c.call.name not in SEAT_PICKS:
            continue
        if c.call.name == "book_tickets":
            target = str(args.get("showtime_id", ""))
        elif c.call.name == "exchange_booking":
            target = str(args.get("new_showtime_id", ""))
        else:
            target = showtime_of.get(_code(c), "")
        if target not in mapped:
            yield (
                f"{c.call.name} chose seats for showtime {target or '(unknown)'} "
                "without get_seat_map first",
                c.message_index,
            )


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("movie.confirm_before_write"),
    authentication_before("movie.authenticate_first", AUTH_TOOLS, _guarded),
    one_customer("movie.one_customer", "customer_id"),
    PolicyCheck(
        "movie.authenticated_customer_only",
        "Act only on the customer an identity lookup returned.",
        _authenticated_customer,
    ),
    PolicyCheck(
        "movie.read_booking_first",
        "Look the booking up with get_booking before changing it.",
        _booking_read_first,
    ),
    PolicyCheck(
        "movie.seat_map_first",
        "Check the seat map of a showtime before choosing seats in it.",
        _seat_map_first,
    ),
]
