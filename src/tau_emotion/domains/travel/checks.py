"""Policy rules of the tour operator that no single tool can enforce, audited per trajectory."""

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

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_dob")
ACCOUNT_READS = ("get_customer_details", "get_booking")
# Booking changes that need the departure quoted first, and the argument naming it.
QUOTED: dict[str, str] = {"book_trip": "departure_id", "change_departure": "new_departure_id"}


def _guarded(c: CallRecord) -> bool:
    return c.kind == "write" or c.call.name in ACCOUNT_READS


def _parsed(c: CallRecord) -> Any:
    try:
        return json.loads(c.result)
    except ValueError:
        return None


def _key(value: Any) -> str:
    return str(value).strip().upper()


def _own_records(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    authenticated: set[str] = set()
    for c in t.successful():
        data = _parsed(c)
        owner = data.get("customer_id") if isinstance(data, dict) else None
        if c.call.name in AUTH_TOOLS and isinstance(owner, str):
            authenticated.add(owner)
        elif _guarded(c) and isinstance(owner, str) and owner not in authenticated:
            yield (
                f"{c.call.name} touched a record of {owner}, who was not authenticated",
                c.message_index,
            )


def _read_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    read: set[str] = set()
    for c in t.successful():
        code = c.call.arguments.get("booking_code")
        if code is None:
            continue
        if c.call.name == "get_booking":
            read.add(_key(code))
        elif c.kind == "write" and _key(code) not in read:
            yield f"{c.call.name} on {code} before reading it with get_booking", c.message_index


def _quoted_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    quoted: set[str] = set()
    for c in t.successful():
        if c.call.name == "get_departures":
            data = _parsed(c)
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


def _nothing_after_transfer(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    transferred = False
    for c in t.calls:
        if transferred:
            yield f"{c.call.name} was called after the transfer to a human", c.message_index
        if c.kind == "terminal" and c.ok:
            transferred = True


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("travel.confirm_before_write"),
    authentication_before("travel.authenticate_first", AUTH_TOOLS, _guarded),
    one_customer("travel.one_customer", "customer_id"),
    PolicyCheck(
        "travel.own_records_only",
        "Show or change only bookings, policies and claims of the authenticated customer.",
        _own_records,
    ),
    PolicyCheck(
        "travel.read_before_change",
        "Look up a booking with get_booking before changing, cancelling or claiming on it.",
        _read_first,
    ),
    PolicyCheck(
        "travel.quote_departure_first",
        "Quote a departure's seats and prices from get_departures before booking or moving to it.",
        _quoted_first,
    ),
    PolicyCheck(
        "travel.transfer_ends_conversation",
        "After transferring to a human agent, make no further tool calls.",
        _nothing_after_transfer,
    ),
]
