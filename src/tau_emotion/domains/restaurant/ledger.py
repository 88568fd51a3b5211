"""Money rules on orders, shared by the refund tool and the generator's refund history.

Pure functions over records: they check a rule and return changed copies, or raise
`ToolError` with the reason the agent will read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.kit.accounts_stored_value import Payment, StoredValueRule
from tau_emotion.domains.kit.members import each_named
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import Customer, Order, OrderLine
from tau_emotion.errors import ToolError


def food_subtotal(lines: Iterable[OrderLine]) -> Decimal:
    """What an order's food costs before delivery fee and points: the tools price an order
    with it, and the generated history does."""
    return money(sum((line.unit_price * line.quantity for line in lines), Decimal(0)))


def refund_items(order: Order, item_ids: Sequence[str], when: datetime) -> tuple[Order, Decimal]:
    """Mark whole order lines refunded; return the changed order and the amount to pay back.
    Whether the order is still inside the refund window is the policy's
    (`past_refund_window`), not checked here.

    The amount is the lines' price, capped at what is left of the charge (a points discount
    is not paid back in cash).
    """
    if order.status != "completed" or order.completed_at is None:
        raise ToolError(
            f"order {order.number} is {order.status}; item refunds are only for orders that "
            "were picked up or delivered (an open order can be cancelled instead)"
        )
    lines = {line.item_id: line for line in order.lines}
    for line in each_named(
        item_ids,
        lines,
        empty="name at least one item id to refund",
        repeated="an item id is listed twice",
        missing=lambda item_id: f"item {item_id} is not on order {order.number}",
    ):
        if line.refunded:
            raise ToolError(f"{line.name} on order {order.number} was already refunded")
    price = sum((lines[i].unit_price * lines[i].quantity for i in item_ids), Decimal(0))
    amount = money(min(price, order.total - order.refunded_amount))
    changed = tuple(
        line.model_copy(update={"refunded": True}) if line.item_id in item_ids else line
        for line in order.lines
    )
    updated = order.model_copy(
        update={"lines": changed, "refunded_amount": money(order.refunded_amount + amount)}
    )
    return updated, amount


def past_refund_window(order: Order, when: datetime) -> bool:
    """Whether the policy's 48 hours for reporting a problem had run out at `when`."""
    if order.completed_at is None:
        return False
    done = datetime.fromisoformat(order.completed_at)
    return when - done > timedelta(hours=rules.REFUND_WINDOW_HOURS)


GIFT_CARDS = StoredValueRule(
    kind="gift_card",
    unknown="payment method {id} is not on this customer's profile",
    short="gift card ending {last4} has {balance:.2f} left, less than {amount:.2f}; "
    "use another payment method",
)
"""Gift cards must cover a payment in full and take refunds back; credit cards are unlimited."""

credit: Payment[Customer] = GIFT_CARDS.credit
"""Pay money back: a gift card gets its balance back; a credit card needs no change here."""
charge: Payment[Customer] = GIFT_CARDS.charge
"""Take a payment: a gift card must cover it in full; credit cards are not limited."""


def minutes_late(order: Order) -> int:
    """How many minutes after its promised time an order was completed (0 if on time)."""
    if order.completed_at is None:
        return 0
    late = datetime.fromisoformat(order.completed_at) - datetime.fromisoformat(order.promised_at)
    return max(0, int(late / timedelta(minutes=1)))
