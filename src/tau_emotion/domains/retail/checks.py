"""Policy checks of the retail domain.

The tools enforce integrity (records exist, an order changes only in a status that allows it,
balances cover payments). The return window, where refunds may go and who earns the
late-delivery credit are the agent's to apply: the judged checks audit each write on the
database as it stood before it. The others audit what only the conversation shows: who was
authenticated, what the customer agreed to, which orders the agent read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from tau_emotion.domains.checks import (
    Offer,
    PolicyCheck,
    authentication_before,
    confirmation_before_writes,
    judged,
    nothing_after_transfer,
    other_than_first,
    read_before_change,
    writes_and,
)
from tau_emotion.domains.retail.db import Order
from tau_emotion.domains.retail.rules import (
    RETURN_WINDOW_DAYS,
    TODAY,
    days_between,
    normalize_order_number,
)
from tau_emotion.domains.retail.tools import RetailTools
from tau_emotion.domains.trajectory import CallRecord, Trajectory, result_field

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_zip")
ACCOUNT_READS = ("get_customer", "get_order")
"""Reads that disclose account data, so they need authentication like writes do."""


def _customer_ids(call: CallRecord) -> list[str]:
    """Customers a call touched: named in its arguments or shown in its result."""
    found: list[str] = []
    named = call.call.arguments.get("customer_id")
    if isinstance(named, str):
        found.append(named.strip())
    shown = result_field(call, "customer_id")
    if shown is not None:
        found.append(shown)
    return found


def _one_customer(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Lookups, profiles and orders must all belong to the first customer identified.

    Order tools name no customer, so the customer id in their results is what ties an
    order to its owner: reading or changing someone else's order shows up here.
    """
    reached = ((c, customer_id) for c in t.successful() for customer_id in _customer_ids(c))
    for c, customer_id, first in other_than_first(reached):
        yield f"{c.call.name} reached customer {customer_id} after serving {first}", c.message_index


# -- judged rules: each judge reads the database as it stood before the write ---------------


def _outside_window(tools: RetailTools, args: Mapping[str, Any]) -> str | None:
    order = tools.order(args["order_number"])
    if order.status != "delivered" or order.delivered_on is None:
        return None  # the tool refuses it: only a delivered order is returned or exchanged
    age = days_between(order.delivered_on, TODAY)
    if age > RETURN_WINDOW_DAYS:
        return (
            f"order {order.id} was delivered on {order.delivered_on}, {age} days ago; returns "
            f"and exchanges close {RETURN_WINDOW_DAYS} days after delivery"
        )
    return None


def _foreign_refund(tools: RetailTools, order: Order, method_id: str) -> str | None:
    """Why a refund of `order` must not go to `method_id`: neither a method the order was
    charged to nor store credit."""
    method = tools.method(tools.customer(order.customer_id), method_id)
    charged = {t.method_id for t in order.transactions if t.kind == "charge"}
    if method.id not in charged and method.kind != "store_credit":
        return (
            f"the refund of order {order.id} went to {method.label}, neither a method the "
            "order was paid with nor store credit"
        )
    return None


def _exchange_difference(tools: RetailTools, order: Order, args: Mapping[str, Any]) -> Decimal:
    """New items minus old, in dollars, as `request_exchange` prices the swap."""
    return tools._priced_exchange(order, list(args["item_ids"]), list(args["new_item_ids"]))[2]


def _refund_destination(tools: RetailTools, args: Mapping[str, Any]) -> str | None:
    order = tools.order(args["order_number"])
    if "refund_method_id" in args:  # request_return
        return _foreign_refund(tools, order, str(args["refund_method_id"]))
    method_id = args.get("payment_method_id")
    if method_id is None or _exchange_difference(tools, order, args) >= 0:
        return None  # nothing is refunded: the customer pays the difference, or none
    return _foreign_refund(tools, order, str(method_id))


def _paid_with(tools: RetailTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """The refund to the one method the order was paid with (policy.md, Returns)."""
    order = tools.order(args["order_number"])
    charged = list(dict.fromkeys(t.method_id for t in order.transactions if t.kind == "charge"))
    if len(charged) != 1:
        return None  # split payments: which one is the customer's to say
    key = "refund_method_id" if name == "request_return" else "payment_method_id"
    words = "refund it to the payment method I paid for the order with instead"
    return Offer(name, {**args, key: charged[0]}, words)


def _not_late(tools: RetailTools, args: Mapping[str, Any]) -> str | None:
    order = tools.order(args["order_number"])
    if order.late_credit:
        return None  # the tool refuses a second credit
    if order.delivered_on is None:
        return f"order {order.id} has not been delivered, so it cannot have arrived late"
    if order.delivered_on <= order.promised_by:
        return (
            f"order {order.id} was delivered on {order.delivered_on}, on time for its promised "
            f"date {order.promised_by}"
        )
    return None


# The return window, refund destinations and late-credit eligibility of policy.md; the tools
# carry such writes out.
JUDGED: list[PolicyCheck] = [
    judged(
        "retail.return_window",
        "Accept a return or exchange only up to 30 days after delivery.",
        ["request_return", "request_exchange"],
        _outside_window,
    ),
    judged(
        "retail.refund_to_original_or_store_credit",
        "Refund a return or an exchange's price difference only to a method the order was "
        "paid with or to store credit.",
        ["request_return", "request_exchange"],
        _refund_destination,
        offer=_paid_with,
    ),
    judged(
        "retail.late_credit_eligibility",
        "Give the late-delivery credit only for an order delivered after its promised date.",
        ["issue_late_delivery_credit"],
        _not_late,
    ),
]

CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("retail.confirm_before_write"),
    authentication_before("retail.authenticate_first", AUTH_TOOLS, writes_and(ACCOUNT_READS)),
    PolicyCheck(
        "retail.one_customer",
        "Serve only the authenticated customer: never reach another customer's account or orders.",
        _one_customer,
        hard=True,
    ),
    read_before_change(
        "retail.read_order_before_change",
        "Read an order with get_order before changing it.",
        reads={"get_order": "order_number"},
        key=normalize_order_number,
    ),
    nothing_after_transfer(
        "retail.transfer_is_last",
        "A transfer to a human agent ends the conversation: no tool calls after it.",
    ),
    *JUDGED,
]
