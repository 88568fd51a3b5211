"""Policy checks of the movie domain: the rules no single tool call can enforce."""

from __future__ import annotations

from collections.abc import Iterable

from tau_emotion.domains.checks import (
    CallRecord,
    PolicyCheck,
    Trajectory,
    act_as_authenticated,
    read_before_change,
    result_dict,
    session_checks,
    writes_and,
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


def _code(call: CallRecord) -> str:
    return str(call.call.arguments.get("booking_code", "")).strip().upper()


def _seat_map_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Seats are chosen from a seat map of the showtime they are in."""
    mapped: set[str] = set()
    showtime_of: dict[str, str] = {}
    for c in t.successful():
        args = c.call.arguments
        if c.call.name == "get_seat_map":
            mapped.add(str(args.get("showtime_id", "")))
        if c.call.name in {"get_booking", "exchange_booking"}:
            showtime_of[_code(c)] = str(result_dict(c).get("showtime_id", ""))
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
    *session_checks("movie", AUTH_TOOLS, writes_and(ACCOUNT_READS)),
    act_as_authenticated(
        "movie.authenticated_customer_only",
        "Act only on the customer an identity lookup returned.",
        AUTH_TOOLS,
        "customer_id",
    ),
    read_before_change(
        "movie.read_booking_first",
        "Look the booking up with get_booking before changing it.",
        reads={"get_booking": "booking_code"},
        changes=dict.fromkeys(BOOKING_CHANGES, "get_booking"),
    ),
    PolicyCheck(
        "movie.seat_map_first",
        "Check the seat map of a showtime before choosing seats in it.",
        _seat_map_first,
    ),
]
