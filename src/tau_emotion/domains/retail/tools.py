"""Write tools and the hand-off.

The tools enforce integrity: the records exist, an order changes only in the status that
allows the change (pending for changes, delivered for one return or exchange), items swap for
an in-stock variant of the same product, balances cover what they pay. The return window, where
refunds may go and who earns the late-delivery credit are the agent's to apply; the judged
checks in `checks.py` audit them.
"""

from __future__ import annotations

from decimal import Decimal

from tau_emotion.domains.common import fmt
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import HandOffDesk, summary_transfer
from tau_emotion.domains.retail import views
from tau_emotion.domains.retail.db import (
    CancelReason,
    ExchangeRequest,
    Item,
    Order,
    OrderLine,
    ReturnRequest,
)
from tau_emotion.domains.retail.rules import TODAY, late_credit
from tau_emotion.domains.retail.tools_base import FROZEN_REASONS, build_address
from tau_emotion.domains.retail.tools_read import RetailReads
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

# Retail numbers its requests unpadded from 10001 (see `RetailAccess.next_id`), and keeps
# the summary trimmed.
HAND_OFF = HandOffDesk(
    prefix="TR-",
    record=lambda key, summary: summary_transfer(key, summary.strip()),
    reply="Transfer {id} created; a human agent will take over this conversation.",
    width=0,
    floor=10000,
    blank="write a short summary of the case for the human agent",
)


class RetailTools(RetailReads):
    """The retail back office as the agent sees it."""

    # ---- pending orders -------------------------------------------------------------------

    @tool("write")
    def cancel_pending_order(self, order_number: str, reason: CancelReason) -> views.View:
        """Cancel a pending order and refund everything paid to the methods it was paid with.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            reason: Why the customer cancels: 'no longer needed' or 'ordered by mistake'.
        """
        order = self.order(order_number)
        self.require_pending(order)
        refunds = []
        for method_id, amount in sorted(self.net_paid(order).items()):
            method = self.move_money(order.customer_id, method_id, amount, "refund")
            order = self.record(order, "refund", method_id, amount, "cancellation")
            refunds.append(
                {"payment_method_id": method_id, "label": method.label, "amount": fmt(amount)}
            )
        order = order.model_copy(update={"status": "cancelled", "cancel_reason": reason})
        self.db.orders[order.id] = order
        total = sum((t.amount for t in order.transactions if t.note == "cancellation"), Decimal(0))
        return {
            "order_number": order.id,
            "customer_id": order.customer_id,
            "status": order.status,
            "refunds": refunds,
            "total_refunded": fmt(total),
        }

    @tool("write")
    def update_order_address(
        self, order_number: str, line1: str, city: str, state: str, zip_code: str, line2: str = ""
    ) -> views.View:
        """Change where a pending order will be shipped.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            line1: Street number and name, e.g. '1420 Cedar Lane'.
            city: City, e.g. 'Portland'.
            state: Two-letter US state code, e.g. 'OR'.
            zip_code: Five-digit zip code, e.g. '97214'.
            line2: Apartment, suite or unit, if any, e.g. 'Apt 3B'.
        """
        order = self.order(order_number)
        self.require_pending(order)
        address = build_address(line1, line2, city, state, zip_code)
        if address == order.shipping_address:
            raise ToolError(f"order {order.id} already ships to that address")
        self.db.orders[order.id] = order.model_copy(update={"shipping_address": address})
        return {
            "order_number": order.id,
            "customer_id": order.customer_id,
            "shipping_address": views.address(address),
        }

    @tool("write")
    def change_order_payment_method(self, order_number: str, payment_method_id: str) -> views.View:
        """Pay for a pending order with another payment method on the customer's account:
        the old method is refunded in full and the new one is charged the same amount.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            payment_method_id: The new method's id from get_customer, e.g. 'gift_4821337'.
        """
        order = self.order(order_number)
        self.require_pending(order)
        old_id, amount = self.paying_method(order)
        new = self.method(self.customer(order.customer_id), payment_method_id)
        if new.id == old_id:
            raise ToolError(f"order {order.id} is already paid with {new.label}")
        self.move_money(order.customer_id, new.id, amount, "charge")
        old = self.move_money(order.customer_id, old_id, amount, "refund")
        order = self.record(order, "refund", old_id, amount, "payment method change")
        order = self.record(order, "charge", new.id, amount, "payment method change")
        self.db.orders[order.id] = order
        return {
            "order_number": order.id,
            "customer_id": order.customer_id,
            "refunded": {
                "payment_method_id": old_id,
                "label": old.label,
                "amount": fmt(amount),
            },
            "charged": {
                "payment_method_id": new.id,
                "label": new.label,
                "amount": fmt(amount),
            },
        }

    @tool("write")
    def change_pending_item(self, order_number: str, item_id: str, new_item_id: str) -> views.View:
        """Swap one item of a pending order for another variant of the same product (e.g. a
        different size or colour). The price difference is charged to, or refunded to, the
        payment method the order is paid with.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            item_id: The item id on the order to replace, e.g. 'SKU-204817'.
            new_item_id: The item id of the wanted variant, from get_product.
        """
        order = self.order(order_number)
        self.require_pending(order)
        index = self._line_index(order, item_id)
        old_line = order.lines[index]
        new = self._replacement(old_line.product_id, old_line.item_id, new_item_id)
        method_id, _ = self.paying_method(order)
        diff = new.price - old_line.price
        if diff:
            order = self.settle(order, method_id, diff, "item change")
        new_line = old_line.model_copy(
            update={"item_id": new.id, "options": new.options, "price": new.price}
        )
        lines = tuple(new_line if i == index else line for i, line in enumerate(order.lines))
        self.db.orders[order.id] = order.model_copy(update={"lines": lines})
        return {
            "order_number": order.id,
            "customer_id": order.customer_id,
            "replaced": old_line.item_id,
            "with": {
                "item_id": new.id,
                "options": views.options(new.options),
                "price": fmt(new.price),
            },
            "price_difference": fmt(diff),
            "payment_method_id": method_id,
        }

    # ---- delivered orders -----------------------------------------------------------------

    @tool("write")
    def request_return(
        self, order_number: str, item_ids: list[str], refund_method_id: str
    ) -> views.View:
        """Open the return of some or all items of a delivered order (one request per order).
        The refund of the items' prices is issued when the warehouse receives them.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            item_ids: Item ids of the order to send back, e.g. ['SKU-204817'].
            refund_method_id: Where the refund goes: a payment method on the customer's account
                (the policy says which ones may receive it).
        """
        order = self._returnable(order_number)
        lines = [order.lines[self._line_index(order, i)] for i in self._unique(item_ids)]
        customer = self.customer(order.customer_id)
        method = self.method(customer, refund_method_id).id
        refund = sum((line.price for line in lines), Decimal(0))
        return_id = self.next_id(self.db.returns, "RMA-")
        self.db.returns[return_id] = ReturnRequest(
            id=return_id,
            order_number=order.id,
            item_ids=tuple(line.item_id for line in lines),
            refund_amount=refund,
            refund_method_id=method,
            requested_on=TODAY,
            status="requested",
        )
        self.db.orders[order.id] = order.model_copy(
            update={"status": "return_requested", "return_id": return_id}
        )
        return {
            "return_id": return_id,
            "order_number": order.id,
            "customer_id": order.customer_id,
            "refund_amount": fmt(refund),
            "refund_payment_method_id": method,
            "next_step": "a prepaid return label has been emailed; ship the items within 14 days",
        }

    @tool("write")
    def request_exchange(
        self,
        order_number: str,
        item_ids: list[str],
        new_item_ids: list[str],
        payment_method_id: str | None = None,
    ) -> views.View:
        """Exchange items of a delivered order for other variants of the same products (one
        request per order). A positive price difference is charged now; a negative one is
        refunded now.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
            item_ids: Item ids of the order to exchange, e.g. ['SKU-204817'].
            new_item_ids: The wanted variants, in the same order as item_ids.
            payment_method_id: Method that pays or receives the price difference; not needed
                when the difference is zero.
        """
        order = self._returnable(order_number)
        lines, new_items, diff = self._priced_exchange(order, item_ids, new_item_ids)
        customer = self.customer(order.customer_id)
        method_id: str | None = None
        if diff:
            if payment_method_id is None:
                raise ToolError(
                    f"the price difference is {fmt(diff)}; a payment method is needed to settle it"
                )
            method_id = self.method(customer, payment_method_id).id
            order = self.settle(order, method_id, diff, "exchange difference")
        exchange_id = self.next_id(self.db.exchanges, "EXC-")
        self.db.exchanges[exchange_id] = ExchangeRequest(
            id=exchange_id,
            order_number=order.id,
            item_ids=tuple(line.item_id for line in lines),
            new_item_ids=tuple(i.id for i in new_items),
            price_difference=diff,
            payment_method_id=method_id,
            requested_on=TODAY,
            status="requested",
        )
        update = {"status": "exchange_requested", "exchange_id": exchange_id}
        self.db.orders[order.id] = order.model_copy(update=update)
        return {
            "exchange_id": exchange_id,
            "order_number": order.id,
            "customer_id": order.customer_id,
            "price_difference": fmt(diff),
            "payment_method_id": method_id,
            "next_step": "a prepaid return label has been emailed; the new items ship once the "
            "old ones are scanned by the carrier",
        }

    @tool("write")
    def issue_late_delivery_credit(self, order_number: str) -> views.View:
        """Give an order's late-delivery credit: a share of the item subtotal set by the
        loyalty tier, paid into store credit, once per order. The policy says which orders
        qualify.

        Args:
            order_number: The order number, e.g. 'ORD-482913'.
        """
        order = self.order(order_number)
        if order.late_credit:
            raise ToolError(f"order {order.id} already received a late-delivery credit")
        customer = self.customer(order.customer_id)
        credit = late_credit(sum((line.price for line in order.lines), Decimal(0)), customer.tier)
        store_credit = next(m for m in customer.payment_methods if m.kind == "store_credit")
        updated = self.move_money(customer.id, store_credit.id, credit, "refund")
        self.db.orders[order.id] = order.model_copy(update={"late_credit": credit})
        return {
            "order_number": order.id,
            "customer_id": customer.id,
            "credit": fmt(credit),
            "store_credit_balance": fmt(updated.balance or Decimal(0)),
        }

    # ---- profile and hand-off -------------------------------------------------------------

    @tool("write")
    def update_customer_address(
        self, customer_id: str, line1: str, city: str, state: str, zip_code: str, line2: str = ""
    ) -> views.View:
        """Change the default address on a customer's profile (existing orders keep theirs).

        Args:
            customer_id: The authenticated customer's id, e.g. 'CU-10042'.
            line1: Street number and name, e.g. '1420 Cedar Lane'.
            city: City, e.g. 'Portland'.
            state: Two-letter US state code, e.g. 'OR'.
            zip_code: Five-digit zip code, e.g. '97214'.
            line2: Apartment, suite or unit, if any, e.g. 'Apt 3B'.
        """
        customer = self.customer(customer_id)
        address = build_address(line1, line2, city, state, zip_code)
        if address == customer.address:
            raise ToolError("that is already the default address on the profile")
        self.db.customers[customer.id] = customer.model_copy(update={"address": address})
        return {"customer_id": customer.id, "default_address": views.address(address)}

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        RetailReads,
        lambda tools: tools.db.transfers,
    )

    # ---- helpers --------------------------------------------------------------------------

    def _returnable(self, order_number: str) -> Order:
        """A delivered order with no request yet (the return window is the policy's to
        apply: `retail.return_window`)."""
        order = self.order(order_number)
        if order.status != "delivered":
            raise ToolError(f"order {order.id} {FROZEN_REASONS[order.status]}")
        return order

    @staticmethod
    def _unique(item_ids: list[str]) -> list[str]:
        cleaned = [i.strip().upper() for i in item_ids]
        if not cleaned:
            raise ToolError("name at least one item id")
        if len(set(cleaned)) != len(cleaned):
            raise ToolError("each item id may appear only once")
        return cleaned

    @staticmethod
    def _line_index(order: Order, item_id: str) -> int:
        wanted = item_id.strip().upper()
        for index, line in enumerate(order.lines):
            if line.item_id == wanted:
                return index
        raise ToolError(f"item {item_id!r} is not on order {order.id}")

    def _priced_exchange(
        self, order: Order, item_ids: list[str], new_item_ids: list[str]
    ) -> tuple[list[OrderLine], list[Item], Decimal]:
        """The order lines an exchange gives back, the variants it takes, and the price
        difference (new minus old): `request_exchange` and its policy check price a swap
        alike."""
        old_ids = self._unique(item_ids)
        if len(old_ids) != len(new_item_ids):
            raise ToolError("give exactly one new item id for each item id being exchanged")
        lines = [order.lines[self._line_index(order, i)] for i in old_ids]
        new_items = [
            self._replacement(line.product_id, line.item_id, new_id)
            for line, new_id in zip(lines, new_item_ids, strict=True)
        ]
        new_total = sum((i.price for i in new_items), Decimal(0))
        return lines, new_items, new_total - sum((line.price for line in lines), Decimal(0))

    def _replacement(self, product_id: str, old_item_id: str, new_item_id: str) -> Item:
        new = self.item(new_item_id)
        if new.product_id != product_id:
            raise ToolError(
                f"item {new.id} is a different product; an item can only be swapped for another "
                "variant of the same product"
            )
        if new.id == old_item_id:
            raise ToolError(f"item {new.id} is the same variant the customer already has")
        if not new.available:
            raise ToolError(f"item {new.id} is out of stock")
        return new
