"""Table access and money movements shared by the retail tools (no tools of its own)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from tau_emotion.domains.common import fmt, money, next_id, require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.retail.db import (
    Address,
    Customer,
    Item,
    Order,
    PaymentMethod,
    RetailDB,
    Transaction,
)
from tau_emotion.domains.retail.rules import STATE_CODE, ZIP_CODE, normalize_order_number
from tau_emotion.errors import ToolError

# Why an order in each status cannot be changed, in the words the agent passes on.
FROZEN_REASONS = {
    "pending": "has not shipped yet; returns and exchanges are only for delivered orders, but "
    "a pending order can be cancelled or changed",
    "processing": "is already being prepared in the warehouse; it can no longer be changed or "
    "cancelled",
    "shipped": "has already shipped; it can no longer be changed or cancelled, and once "
    "delivered it can be returned or exchanged",
    "delivered": "has been delivered; only a return or an exchange is possible now",
    "cancelled": "is cancelled",
    "return_requested": "already has a return request",
    "exchange_requested": "already has an exchange request",
}


class RetailAccess(DatabaseTools[RetailDB]):
    """Lookups that raise `ToolError` on unknown ids, and balance-aware charges and refunds."""

    def customer(self, customer_id: str) -> Customer:
        return require(
            self.db.customers, customer_id.strip(), f"no customer with id {customer_id!r}"
        )

    def order(self, order_number: str) -> Order:
        return require(
            self.db.orders,
            normalize_order_number(order_number),
            f"no order with number {order_number!r}",
        )

    def item(self, item_id: str) -> Item:
        return require(
            self.db.items, item_id.strip().upper(), f"no catalogue item with id {item_id!r}"
        )

    def require_pending(self, order: Order) -> None:
        if order.status != "pending":
            raise ToolError(f"order {order.id} {FROZEN_REASONS[order.status]}")

    def method(self, customer: Customer, method_id: str) -> PaymentMethod:
        for m in customer.payment_methods:
            if m.id == method_id.strip():
                return m
        raise ToolError(f"payment method {method_id!r} is not on this customer's account")

    def net_paid(self, order: Order) -> dict[str, Decimal]:
        """Money the order currently holds, per payment method (charges minus refunds)."""
        net: dict[str, Decimal] = {}
        for t in order.transactions:
            signed = t.amount if t.kind == "charge" else -t.amount
            net[t.method_id] = net.get(t.method_id, Decimal(0)) + signed
        return {m: amount for m, amount in net.items() if amount > 0}

    def paying_method(self, order: Order) -> tuple[str, Decimal]:
        """The one method holding an order's money, and how much; policy forbids splits."""
        paid = self.net_paid(order)
        if len(paid) != 1:
            raise ToolError(f"order {order.id} is not paid with exactly one payment method")
        ((method_id, amount),) = paid.items()
        return method_id, amount

    def move_money(
        self, customer_id: str, method_id: str, amount: Decimal, kind: str
    ) -> PaymentMethod:
        """Charge (take) or refund (give back) `amount` on a method; balances change at once.

        Gift cards and store credit carry a balance, so a charge must be covered by it.
        Cards and PayPal settle outside the shop; only the order's ledger records them.
        """
        customer = self.customer(customer_id)
        method = self.method(customer, method_id)
        if method.balance is None:
            return method
        delta = amount if kind == "refund" else -amount
        if method.balance + delta < 0:
            raise ToolError(
                f"{method.label} has a balance of {fmt(method.balance)}, "
                f"not enough to cover {fmt(amount)}"
            )
        updated = method.model_copy(update={"balance": money(method.balance + delta)})
        methods = tuple(updated if m.id == method.id else m for m in customer.payment_methods)
        self.db.customers[customer.id] = customer.model_copy(update={"payment_methods": methods})
        return updated

    def record(self, order: Order, kind: str, method_id: str, amount: Decimal, note: str) -> Order:
        """Append a ledger line to an order (the caller puts the order back)."""
        line = Transaction(
            kind="charge" if kind == "charge" else "refund",
            method_id=method_id,
            amount=amount,
            note=note,
        )
        return order.model_copy(update={"transactions": (*order.transactions, line)})

    def settle(self, order: Order, method_id: str, diff: Decimal, note: str) -> Order:
        """Settle a price difference on one method: a positive `diff` is charged, a negative
        one refunded, and the ledger line added to the order (the caller puts it back).
        Swapping items on a pending order and exchanging delivered ones settle alike."""
        kind = "charge" if diff > 0 else "refund"
        self.move_money(order.customer_id, method_id, abs(diff), kind)
        return self.record(order, kind, method_id, abs(diff), note)

    @staticmethod
    def next_id(table: Iterable[str], prefix: str) -> str:
        """The next free number after the highest existing id, e.g. RMA-10021 -> RMA-10022;
        retail's request numbers are unpadded and start at 10001."""
        return next_id(table, prefix, 0, floor=10000)


def build_address(line1: str, line2: str, city: str, state: str, zip_code: str) -> Address:
    """A validated US address, or a `ToolError` naming the field that is wrong."""
    if not line1.strip() or not city.strip():
        raise ToolError("an address needs a street line (line1) and a city")
    code = state.strip().upper()
    if not STATE_CODE.match(code):
        raise ToolError(f"state must be a two-letter US state code like 'OR', not {state!r}")
    if not ZIP_CODE.match(zip_code.strip()):
        raise ToolError(f"zip_code must be five digits, not {zip_code!r}")
    return Address(
        line1=line1.strip(),
        line2=line2.strip(),
        city=city.strip(),
        state=code,
        zip_code=zip_code.strip(),
    )
