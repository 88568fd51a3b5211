"""Policy checks of the movie domain.

The tools enforce integrity: records exist and are the caller's, seats exist and are free,
sales close when a showtime starts, payments cover. The judgement rules of policy.md (the
2-hour cutoffs, one exchange per booking, no child tickets for R-rated films, who gets
incident credit, one live film pass, the membership age) are the agent's to apply; the judged
checks below audit them on the database as it stood before each write. The others audit what
only the conversation shows: who was authenticated, what the customer agreed to, what was
looked up first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tau_emotion.domains.checks import (
    PolicyCheck,
    act_as_authenticated,
    judged,
    read_before_change,
    session_checks,
    writes_and,
)
from tau_emotion.domains.movie.db import Booking
from tau_emotion.domains.movie.rules import CUTOFF_HOURS, MIN_MEMBER_AGE, age_on, hours_until
from tau_emotion.domains.movie.tools import TODAY, MovieTools
from tau_emotion.domains.trajectory import CallRecord, Trajectory, result_dict

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


def _child_tickets_r_rated(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    show = tools.showtime(args["showtime_id"])
    movie = tools.db.movies[show.movie_id]
    if int(args.get("child_tickets", 0)) > 0 and movie.rating == "R":
        return f"{movie.title} is rated R and the booking has child tickets"
    return None


def _named_booking(tools: MovieTools, args: Mapping[str, Any]) -> Booking:
    return tools.owned_booking(args["customer_id"], args["booking_code"])


def _past_cutoff(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    """Exchanges and cancellations share one cutoff before the showtime. A booking no longer
    active, or a screening under way, is the tool's to refuse: the cutoff judges only what
    the tool would carry out."""
    booking = _named_booking(tools, args)
    show = tools.showtime(booking.showtime_id)
    if booking.status != "active" or (show.status != "cancelled" and hours_until(show) <= 0):
        return None
    if show.status != "cancelled" and hours_until(show) < CUTOFF_HOURS:
        return (
            f"{booking.booking_code}'s showtime {show.showtime_id} starts in under "
            f"{CUTOFF_HOURS} hours and Lumen did not cancel it"
        )
    return None


def _one_exchange(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    booking = _named_booking(tools, args)
    if booking.exchanged:
        return f"{booking.booking_code} was already exchanged once"
    return None


def _incident_credit(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    booking = _named_booking(tools, args)
    if booking.status != "used":
        return f"{booking.booking_code} is {booking.status}, not an attended booking"
    if tools.showtime(booking.showtime_id).incident is None:
        return f"no technical incident was logged for {booking.booking_code}'s screening"
    return None


def _one_live_pass(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    customer_id = args["customer_id"]
    live = [
        p.pass_id
        for p in tools.db.passes.values()
        if p.customer_id == customer_id and p.admissions_left > 0 and p.expires_on >= TODAY
    ]
    if live:
        return f"{customer_id} already holds film pass {live[0]} with admissions left"
    return None


def _member_age(tools: MovieTools, args: Mapping[str, Any]) -> str | None:
    customer = tools.customer(args["customer_id"])
    age = age_on(customer.date_of_birth)
    if args["plan"] != "none" and age < MIN_MEMBER_AGE:
        return f"{customer.customer_id} is {age}, under {MIN_MEMBER_AGE}"
    return None


# The ticket, exchange, refund, incident, pass and membership rules of policy.md, judged on
# the database before the write.
JUDGED: list[PolicyCheck] = [
    judged(
        "movie.no_child_tickets_for_r",
        "Never sell child tickets for an R-rated movie.",
        ["book_tickets"],
        _child_tickets_r_rated,
    ),
    judged(
        "movie.exchange_cutoff",
        "Exchange a booking only 2 hours or more before its showtime, unless Lumen cancelled "
        "the showtime.",
        ["exchange_booking"],
        _past_cutoff,
    ),
    judged(
        "movie.one_exchange",
        "Exchange a booking at most once.",
        ["exchange_booking"],
        _one_exchange,
    ),
    judged(
        "movie.cancellation_cutoff",
        "Cancel a booking only 2 hours or more before its showtime, unless Lumen cancelled "
        "the showtime.",
        ["cancel_booking"],
        _past_cutoff,
    ),
    judged(
        "movie.incident_credit_eligibility",
        "Give incident credit only to an attended booking whose screening had a logged "
        "technical incident.",
        ["issue_incident_credit"],
        _incident_credit,
    ),
    judged(
        "movie.one_live_pass",
        "Sell a film pass only to a customer holding no unexpired pass with admissions left.",
        ["buy_film_pass"],
        _one_live_pass,
    ),
    judged(
        "movie.member_age",
        "Members must be 18 or older.",
        ["change_membership"],
        _member_age,
    ),
]

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
    *JUDGED,
]
