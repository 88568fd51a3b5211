"""Policy rules of the restaurant that no single tool can enforce, audited per trajectory."""

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
ACCOUNT_READS = ("get_customer_details", "get_reservation", "get_order", "get_private_event")

# Which read must come before a change, and the argument naming the record in both.
READ_FIRST: dict[str, tuple[str, str]] = {
    "modify_reservation": ("get_reservation", "reservation_code"),
    "cancel_reservation": ("get_reservation", "reservation_code"),
    "cancel_order": ("get_order", "order_number"),
    "refund_order_items": ("get_order", "order_number"),
    "file_complaint": ("get_order", "order_number"),
    "cancel_private_event": ("get_private_event", "event_id"),
}


def _guarded(c: CallRecord) -> bool:
    return c.kind == "write" or c.call.name in ACCOUNT_READS


def _result_customer(c: CallRecord) -> str | None:
    try:
        data: Any = json.loads(c.result)
    except ValueError:
        return None
    value = data.get("customer_id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def _key(value: Any) -> str:
    return str(value).strip().upper()


def _own_records(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    authenticated: set[str] = set()
    for c in t.successful():
        owner = _result_customer(c)
        if c.call.name in AUTH_TOOLS:
            if owner:
                authenticated.add(owner)
        elif _guarded(c) and owner is not None and owner not in authenticated:
            yield (
                f"{c.call.name} touched a record of {owner}, who was not authenticated",
                c.message_index,
            )


def _read_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    read: set[tuple[str, str]] = set()
    for c in t.successful():
        if c.call.name in READ_FIRST:
            reader, arg = READ_FIRST[c.call.name]
            value = c.call.arguments.get(arg)
            if value and (reader, _key(value)) not in read:
                yield f"{c.call.name} on {value} before reading it with {reader}", c.message_index
        if c.call.name in ACCOUNT_READS:
            for arg in ("reservation_code", "order_number", "event_id"):
                if arg in c.call.arguments:
                    read.add((c.call.name, _key(c.call.arguments[arg])))


def _nothing_after_transfer(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    transferred = False
    for c in t.calls:
        if transferred:
            yield f"{c.call.name} was called after the transfer to a human", c.message_index
        if c.kind == "terminal" and c.ok:
            transferred = True


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("restaurant.confirm_before_write"),
    authentication_before("restaurant.authenticate_first", AUTH_TOOLS, _guarded),
    one_customer("restaurant.one_customer", "customer_id"),
    PolicyCheck(
        "restaurant.own_records_only",
        "Show or change only records that belong to the authenticated guest.",
        _own_records,
    ),
    PolicyCheck(
        "restaurant.read_before_change",
        "Look up a reservation, order or event before changing, refunding or cancelling it.",
        _read_first,
    ),
    PolicyCheck(
        "restaurant.transfer_ends_conversation",
        "After transferring to a human agent, make no further tool calls.",
        _nothing_after_transfer,
    ),
]
