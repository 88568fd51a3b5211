"""Policy checks of the airline domain, audited over a finished trajectory.

The tools enforce integrity: the records exist and are the caller's, a cancelled reservation
or a flown trip cannot change, flights must be sellable and connect, payments must cover. The
fare rules and who is compensated are the agent's to apply, as a human agent would; the
judged checks below audit them on the database as it stood before each write. The others
audit what only the conversation shows: who was authenticated, what the user agreed to, and
how many certificates one conversation handed out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tau_emotion.domains.airline.rules import DELAY_THRESHOLD_MINUTES, FREE_CANCEL_WINDOW, NOW
from tau_emotion.domains.airline.tools import AirlineTools
from tau_emotion.domains.airline.tools_base import booked_at
from tau_emotion.domains.checks import (
    PolicyCheck,
    authentication_before,
    confirmation_before_writes,
    id_key,
    judged,
    nothing_after_transfer,
    one_customer,
    single_identity,
    writes_and,
)
from tau_emotion.domains.trajectory import CallRecord, Trajectory, result_field

AUTH_TOOLS = ("find_user_by_email", "find_user_by_name_and_birth_date", "find_user_by_name_and_zip")
ACCOUNT_READS = ("get_user_details", "get_reservation_details")


def _authenticated_users(t: Trajectory) -> Iterable[tuple[CallRecord, str | None]]:
    """Each call with the user id the latest successful authentication lookup returned.

    A second lookup that finds someone else is `airline.single_identity`'s to report; here
    each call is held to whoever was authenticated when it ran."""
    current: str | None = None
    for call in t.calls:
        if call.ok and call.call.name in AUTH_TOOLS:
            current = id_key(result_field(call, "user_id"))
        yield call, current


def _acts_for_authenticated(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    for call, user in _authenticated_users(t):
        # The tools strip the id they are given, so 'u123 ' acts for u123.
        named = id_key(call.call.arguments.get("user_id"))
        if call.ok and named is not None and user is not None and named != user:
            yield (
                f"{call.call.name} acted on {named}, not the authenticated {user}",
                call.message_index,
            )


def _own_reservations(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    for call, user in _authenticated_users(t):
        if call.ok and call.call.name == "get_reservation_details":
            owner = result_field(call, "user_id")
            if owner is not None and owner != user:
                yield (
                    (
                        f"showed reservation {result_field(call, 'reservation_code')} of {owner} "
                        f"to {user}"
                    ),
                    call.message_index,
                )


def _one_certificate(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    issued = [c for c in t.successful("write") if c.call.name == "issue_compensation_certificate"]
    for extra in issued[1:]:
        yield "more than one compensation certificate in one conversation", extra.message_index


def _basic_cancellation(tools: AirlineTools, args: Mapping[str, Any]) -> str | None:
    _, reservation = tools._active(args["user_id"], args["reservation_code"])
    free = (
        NOW - booked_at(reservation) <= FREE_CANCEL_WINDOW
        or tools._airline_cancelled(reservation)
        or reservation.travel_protection
    )
    if reservation.cabin == "basic" and not free:
        return (
            f"{reservation.code} is a basic fare booked over 24 hours ago, without travel "
            "protection or an airline cancellation"
        )
    return None


def _basic_flight_change(tools: AirlineTools, args: Mapping[str, Any]) -> str | None:
    _, reservation = tools._active(args["user_id"], args["reservation_code"])
    if reservation.cabin == "basic" and not tools._airline_cancelled(reservation):
        return f"{reservation.code} is a basic fare and the airline cancelled none of its flights"
    return None


def _basic_passengers(tools: AirlineTools, args: Mapping[str, Any]) -> str | None:
    _, reservation = tools._active(args["user_id"], args["reservation_code"])
    if reservation.cabin == "basic":
        return f"{reservation.code} is a basic fare"
    return None


def _bags_removed(tools: AirlineTools, args: Mapping[str, Any]) -> str | None:
    _, reservation = tools._active(args["user_id"], args["reservation_code"])
    if int(args["checked_bags"]) < reservation.checked_bags:
        return f"{reservation.code} had {reservation.checked_bags} checked bags"
    return None


def _compensation(tools: AirlineTools, args: Mapping[str, Any]) -> str | None:
    user, reservation = tools._owned(args["user_id"], args["reservation_code"])
    if reservation.status != "active" and reservation.cancellation_basis != (
        "airline_cancellation"
    ):
        return f"{reservation.code} was cancelled by the customer"
    flight = tools._flight(args["flight_number"])
    record = tools._day(flight, args["date"])
    if record.status == "cancelled":
        return None
    if record.delay_minutes < DELAY_THRESHOLD_MINUTES:
        return (
            f"{flight.number} on {args['date']} was {record.status} with a delay of "
            f"{record.delay_minutes} minutes, under 3 hours"
        )
    if user.tier == "member":
        return f"{user.user_id} is a member, and members are not compensated for delays"
    return None


# The fare, bag and compensation rules of policy.md, judged on the database before the write.
JUDGED: list[PolicyCheck] = [
    judged(
        "airline.basic_fare_no_cancellation",
        "Cancel a basic fare only within 24 hours of booking, with travel protection, or when "
        "the airline cancelled one of its flights.",
        ["cancel_reservation"],
        _basic_cancellation,
    ),
    judged(
        "airline.basic_fare_no_flight_change",
        "Change the flights of a basic fare only when the airline cancelled one of them.",
        ["change_flights"],
        _basic_flight_change,
    ),
    judged(
        "airline.basic_fare_no_passenger_change",
        "Never change the passengers of a basic fare.",
        ["update_passengers"],
        _basic_passengers,
    ),
    judged(
        "airline.bags_added_only",
        "Checked bags can be added, never removed.",
        ["update_baggage"],
        _bags_removed,
    ),
    judged(
        "airline.compensation_eligibility",
        "Compensate only a flight the airline cancelled, or one delayed 3 hours or more for a "
        "silver, gold or platinum account holder, on a reservation the customer did not cancel.",
        ["issue_compensation_certificate"],
        _compensation,
    ),
]

CHECKS: list[PolicyCheck] = [
    authentication_before(
        "airline.authenticate_first",
        AUTH_TOOLS,
        writes_and(ACCOUNT_READS),
    ),
    confirmation_before_writes("airline.confirm_before_write"),
    one_customer("airline.one_customer"),
    single_identity("airline.single_identity", AUTH_TOOLS, "user_id"),
    PolicyCheck(
        "airline.act_for_authenticated_user",
        "Act only on the account of the customer who authenticated.",
        _acts_for_authenticated,
        hard=True,
    ),
    PolicyCheck(
        "airline.own_reservations_only",
        "Show only reservations that belong to the authenticated customer.",
        _own_reservations,
        hard=True,
    ),
    PolicyCheck(
        "airline.one_certificate_per_conversation",
        "Issue at most one compensation certificate per conversation.",
        _one_certificate,
    ),
    nothing_after_transfer(
        "airline.nothing_after_transfer", "Make no tool call after transferring to a human agent."
    ),
    *JUDGED,
]
