"""The judgement rules of policy.md, judged on the database as it stood before each write.

The tools carry these writes out (they enforce integrity only: records exist, a trip under way
cannot change, seats, rooms and tour places must exist, payments must cover); a judge says why
the policy forbids one, or None. A judge only reads; the toolset's lookups raise ToolError for
an unknown record, which means "not a valid write", never a breach.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_emotion.domains.checks import Judge, PolicyCheck, judged
from tau_emotion.domains.common import calendar_date
from tau_emotion.domains.travel import pricing, rules
from tau_emotion.domains.travel.db import Booking
from tau_emotion.domains.travel.tools import TravelTools

Args = Mapping[str, Any]


def _start(tools: TravelTools, booking: Booking) -> str:
    return tools.db.departures[booking.departure_id].start_date


def _booking_window(tools: TravelTools, args: Args) -> str | None:
    # book_trip names the departure `departure_id`, change_departure `new_departure_id`.
    departure = tools._departure(args.get("departure_id") or args["new_departure_id"])
    days = rules.days_until(departure.start_date)
    if not rules.BOOK_MIN_LEAD_DAYS <= days <= rules.BOOK_MAX_LEAD_DAYS:
        return (
            f"departure {departure.id} is {days} days ahead, outside "
            f"{rules.BOOK_MIN_LEAD_DAYS} to {rules.BOOK_MAX_LEAD_DAYS}"
        )
    return None


def _departs_under(tools: TravelTools, args: Args, min_days: int) -> str | None:
    # Changes and insurance share one lead-time rule, each with its own minimum.
    booking = tools._booking(args["booking_code"])
    start = _start(tools, booking)
    if rules.days_until(start) < min_days:
        return f"booking {booking.code} departs on {start}, under {min_days} days away"
    return None


def _change_window(tools: TravelTools, args: Args) -> str | None:
    return _departs_under(tools, args, rules.CHANGE_MIN_LEAD_DAYS)


def _saver_date_change(tools: TravelTools, args: Args) -> str | None:
    booking = tools._booking(args["booking_code"])
    if rules.CHANGE_FEE_PER_TRAVELLER[booking.fare] is None:
        return f"booking {booking.code} is a {booking.fare} fare"
    return None


def _name_correction(tools: TravelTools, args: Args) -> str | None:
    booking = tools._booking(args["booking_code"])
    traveller = next((t for t in booking.travellers if t.id == args["traveller_id"]), None)
    if traveller is None:
        return None  # the tool refuses an unknown traveller
    name = rules.clean_name(args["full_name"])
    moved = rules.edit_distance(name, traveller.full_name)
    if moved > rules.MAX_NAME_EDITS:
        return (
            f"{traveller.full_name!r} -> {name!r} changes {moved} letters, more than "
            f"{rules.MAX_NAME_EDITS}"
        )
    return None


def _tour_lead(tools: TravelTools, args: Args) -> str | None:
    tools._booking(args["booking_code"])
    day = calendar_date(args["date"]).isoformat()
    if rules.days_until(day) < rules.TOUR_MIN_LEAD_DAYS:
        return f"the tour on {day} is under {rules.TOUR_MIN_LEAD_DAYS} days ahead"
    return None


def _insurance_window(tools: TravelTools, args: Args) -> str | None:
    return _departs_under(tools, args, rules.INSURANCE_MIN_LEAD_DAYS)


def _claim(tools: TravelTools, args: Args) -> str | None:
    booking = tools._booking(args["booking_code"])
    kind = args["claim_type"]
    earlier = [
        c
        for c in tools.db.claims.values()
        if c.booking_code == booking.code and c.claim_type == kind and c.status != "rejected"
    ]
    if earlier:
        return f"booking {booking.code} already has {kind} claim {earlier[0].id}"
    opens = pricing.claim_window_start(booking, tools.db.departures[booking.departure_id], kind)
    if opens and rules.days_until(opens) < -rules.CLAIM_WINDOW_DAYS:
        return f"the {kind} claim window opened on {opens}, over {rules.CLAIM_WINDOW_DAYS} days ago"
    return None


def _judged(rule: str, description: str, tools: list[str], judge: Judge) -> PolicyCheck:
    return judged(f"travel.{rule}", description, tools, judge)


JUDGED: list[PolicyCheck] = [
    _judged(
        "booking_window",
        "Book a departure, or move a booking to one, only 7 to 365 days before it leaves.",
        ["book_trip", "change_departure"],
        _booking_window,
    ),
    _judged(
        "change_window",
        "Change a booking's dates or room type only until 14 days before its departure.",
        ["change_departure", "change_room_type"],
        _change_window,
    ),
    _judged(
        "saver_no_date_change",
        "Never change the dates of a saver fare.",
        ["change_departure"],
        _saver_date_change,
    ),
    _judged(
        "name_correction_only",
        "Correct a traveller's name only for a misspelling of up to 3 letters, never to "
        "another person.",
        ["correct_traveller_name"],
        _name_correction,
    ),
    _judged(
        "tour_booking_lead",
        "Book a tour at least 2 days before the day it runs.",
        ["add_tour"],
        _tour_lead,
    ),
    _judged(
        "insurance_window",
        "Add travel insurance only until 14 days before departure.",
        ["buy_insurance"],
        _insurance_window,
    ),
    _judged(
        "claim_eligibility",
        "File a claim within 30 days after the trip ends (after the cancellation for trip "
        "cancellation), and one claim per type per booking.",
        ["file_insurance_claim"],
        _claim,
    ),
]
