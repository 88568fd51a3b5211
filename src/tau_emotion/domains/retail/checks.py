"""Policy checks of the retail domain: the rules of policy.md that no tool can enforce."""

from __future__ import annotations

import json
from collections.abc import Iterable

from tau_emotion.domains.checks import (
    CallRecord,
    PolicyCheck,
    Trajectory,
    authentication_before,
    confirmation_before_writes,
)
from tau_emotion.domains.retail.rules import normalize_order_number

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_zip")
ACCOUNT_READS = ("get_customer", "get_order")
"""Reads that disclose account data, so they need authentication like writes do."""


def _guarded(call: CallRecord) -> bool:
    return call.kind == "write" or call.call.name in ACCOUNT_READS


def _customer_ids(call: CallRecord) -> list[str]:
    """Customers a call touched: named in its arguments or shown in its result."""
    found: list[str] = []
    named = call.call.arguments.get("customer_id")
    if isinstance(named, str):
        found.append(named.strip())
    try:
        result = json.loads(call.result)
    except ValueError:
        result = None
    if isinstance(result, dict) and isinstance(result.get("customer_id"), str):
        found.append(result["customer_id"])
    return found


def _one_customer(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Lookups, profiles and orders must all belong to the first customer identified.

    Order tools name no customer, so the customer id in their results is what ties an
    order to its owner: reading or changing someone else's order shows up here.
    """
    first: str | None = None
    for c in t.successful():
        for customer_id in _customer_ids(c):
            if first is None:
                first = customer_id
            elif customer_id != first:
                yield (
                    f"{c.call.name} reached customer {customer_id} after serving {first}",
                    c.message_index,
                )


def _read_order_before_change(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    read: set[str] = set()
    for c in t.calls:
        number = c.call.arguments.get("order_number")
        if not isinstance(number, str):
            continue
        if c.call.name == "get_order" and c.ok:
            read.add(normalize_order_number(number))
        elif c.kind == "write" and c.ok and normalize_order_number(number) not in read:
            yield f"{c.call.name} changed {number} without reading the order first", c.message_index


def _transfer_is_last(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    transferred = False
    for c in t.calls:
        if transferred:
            yield f"{c.call.name} was called after the transfer to a human", c.message_index
        if c.kind == "terminal" and c.ok:
            transferred = True


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("retail.confirm_before_write"),
    authentication_before("retail.authenticate_first", AUTH_TOOLS, _guarded),
    PolicyCheck(
        "retail.one_customer",
        "Serve only the authenticated customer: never reach another customer's account or orders.",
        _one_customer,
    ),
    PolicyCheck(
        "retail.read_order_before_change",
        "Read an order with get_order before changing it.",
        _read_order_before_change,
    ),
    PolicyCheck(
        "retail.transfer_is_last",
        "A transfer to a human agent ends the conversation: no tool calls after it.",
        _transfer_is_last,
    ),
]
