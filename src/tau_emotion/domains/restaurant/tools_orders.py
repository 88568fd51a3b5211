"""The menu, pickup and delivery orders, refunds for problem items, and complaints."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from tau_emotion.domains.common import fmt, money, next_id, record_view
from tau_emotion.domains.restaurant import ledger, rules
from tau_emotion.domains.restaurant.db import (
    Complaint,
    ComplaintCategory,
    Order,
    OrderLine,
    Refund,
    RefundReason,
)
from tau_emotion.domains.restaurant.tools_base import RestaurantBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class OrderTools(RestaurantBase):
    @tool("read")
    def get_menu(
        self,
        location_id: str,
        exclude_allergens: list[str] | None = None,
        dietary_tag: str = "",
    ) -> list[dict[str, Any]]:
        """List the dishes a location serves today with prices, allergens and dietary tags,
        optionally leaving out dishes with given allergens or keeping one dietary tag.

        Args:
            location_id: Location id, e.g. 'L51'.
            exclude_allergens: Allergens to avoid: peanuts, tree_nuts, shellfish, gluten,
                dairy, egg, soy, sesame, fish.
            dietary_tag: Keep only dishes with this tag: vegan, vegetarian or gluten_free.
        """
        location = self._location(location_id)
        avoid = {a.strip().lower() for a in exclude_allergens or []}
        tag = dietary_tag.strip().lower()
        return [
            {k: v for k, v in record_view(item).items() if k != "unavailable_at"}
            for item in self.db.menu_items.values()
            if location.id not in item.unavailable_at
            and not avoid & set(item.allergens)
            and (not tag or tag in item.dietary_tags)
        ]

    @tool("read")
    def get_order(self, order_number: str) -> dict[str, Any]:
        """Show an order: items, amounts, payment method, status and times (placed, promised,
        completed), and any refunds already made on it.

        Args:
            order_number: The order number on the receipt, e.g. 'O500412'.
        """
        order = self._order(order_number)
        refunds = [r.id for r in self.db.refunds.values() if r.order_number == order.number]
        return record_view(order, refund_ids=refunds, minutes_late=ledger.minutes_late(order))

    @tool("write")
    def place_order(
        self,
        customer_id: str,
        location_id: str,
        fulfillment: Literal["pickup", "delivery"],
        items: dict[str, int],
        payment_method_id: str,
        redeem_points: int = 0,
    ) -> dict[str, Any]:
        """Place a pickup or delivery order for right now. Delivery goes to the address on the
        guest's profile.

        Args:
            customer_id: The guest's customer id.
            location_id: Location that prepares the order.
            fulfillment: 'pickup' or 'delivery'.
            items: Menu item id -> quantity, e.g. {"M5011": 2, "M5031": 1}.
            payment_method_id: Payment method id from the guest's profile.
            redeem_points: Loyalty points to spend, in blocks of 100 (100 points = 5.00 off).
        """
        customer = self._customer(customer_id)
        location = self._location(location_id)
        self._open_on(location, rules.NOW.date())
        now = rules.stamp(rules.NOW)[11:]
        if not location.open_time <= now < location.close_time:
            raise ToolError(f"{location.name} is closed now")
        if not items:
            raise ToolError("an order needs at least one item")
        lines = []
        for item_id in sorted(items):
            item = self.db.menu_items.get(item_id)
            if item is None or location.id in item.unavailable_at:
                raise ToolError(f"item {item_id} is not on today's menu at {location.name}")
            quantity = items[item_id]
            if not 1 <= quantity <= rules.MAX_QUANTITY:
                raise ToolError(f"quantity of {item.name} must be 1 to {rules.MAX_QUANTITY}")
            clash = sorted(set(item.allergens) & set(customer.allergies))
            if clash:
                raise ToolError(
                    f"{item.name} contains {', '.join(clash)}, which the guest's profile lists "
                    "as an allergy"
                )
            lines.append(
                OrderLine(item_id=item.id, name=item.name, quantity=quantity, unit_price=item.price)
            )
        subtotal = ledger.food_subtotal(lines)
        fee = money(0)
        if fulfillment == "delivery":
            if customer.zip_code not in location.delivery_zip_codes:
                raise ToolError(f"{location.name} does not deliver to zip code {customer.zip_code}")
            # The 20.00 minimum is the policy's (restaurant.delivery_minimum).
            fee = money(0) if customer.loyalty_tier == "gold" else rules.DELIVERY_FEE
        if redeem_points < 0 or redeem_points % rules.POINTS_BLOCK:
            raise ToolError(f"points are redeemed in blocks of {rules.POINTS_BLOCK}")
        if redeem_points > customer.loyalty_points:
            raise ToolError(f"the guest has only {customer.loyalty_points} points")
        discount = rules.points_value(redeem_points)
        if discount > subtotal:
            raise ToolError("points cannot discount more than the food subtotal")
        total = money(subtotal + fee - discount)
        self._payment(customer, payment_method_id)
        customer = ledger.charge(customer, payment_method_id, total)
        customer = customer.model_copy(
            update={"loyalty_points": customer.loyalty_points - redeem_points}
        )
        minutes = (
            rules.DELIVERY_PROMISE_MIN if fulfillment == "delivery" else rules.PICKUP_READY_MIN
        )
        number = next_id(self.db.orders, "O", 6)
        order = Order(
            number=number,
            customer_id=customer.id,
            location_id=location.id,
            fulfillment=fulfillment,
            delivery_address=(
                f"{customer.street}, {customer.city} {customer.zip_code}"
                if fulfillment == "delivery"
                else None
            ),
            lines=tuple(lines),
            subtotal=subtotal,
            delivery_fee=fee,
            points_redeemed=redeem_points,
            points_discount=discount,
            total=total,
            payment_method_id=payment_method_id,
            status="placed",
            placed_at=rules.stamp(rules.NOW),
            promised_at=rules.stamp(rules.NOW + timedelta(minutes=minutes)),
            completed_at=None,
        )
        self.db.customers[customer.id] = customer
        self.db.orders[number] = order
        return record_view(order)

    @tool("write")
    def cancel_order(self, order_number: str) -> dict[str, Any]:
        """Cancel an order the kitchen has not started: the full charge goes back to the
        payment method and redeemed points go back to the guest.

        Args:
            order_number: The order number.
        """
        order = self._order(order_number)
        if order.status not in rules.CANCELLABLE_ORDER_STATUSES:
            raise ToolError(
                f"order {order.number} is {order.status}; only orders not yet being prepared "
                "can be cancelled"
            )
        customer = ledger.credit(
            self._customer(order.customer_id), order.payment_method_id, order.total
        )
        customer = customer.model_copy(
            update={"loyalty_points": customer.loyalty_points + order.points_redeemed}
        )
        updated = order.model_copy(update={"status": "cancelled", "refunded_amount": order.total})
        self.db.customers[customer.id] = customer
        self.db.orders[order.number] = updated
        return record_view(
            updated, refund_amount=fmt(order.total), points_returned=order.points_redeemed
        )

    @tool("write")
    def refund_order_items(
        self, order_number: str, item_ids: list[str], reason: RefundReason
    ) -> dict[str, Any]:
        """Refund whole items of a picked-up or delivered order that were missing, wrong, or
        not fit to eat, to the payment method the order was paid with. The policy says how
        long after completion a problem can be refunded.

        Args:
            order_number: The order number.
            item_ids: Menu item ids of the order lines to refund (each line is refunded whole).
            reason: missing_item, wrong_item or quality_issue.
        """
        order = self._order(order_number)
        # The 48-hour window and the reasons are the policy's (restaurant.refund_window).
        updated, amount = ledger.refund_items(order, item_ids, rules.NOW)
        customer = ledger.credit(self._customer(order.customer_id), order.payment_method_id, amount)
        refund_id = next_id(self.db.refunds, "RF", 4)
        refund = Refund(
            id=refund_id,
            order_number=order.number,
            customer_id=order.customer_id,
            item_ids=tuple(sorted(item_ids)),
            reason=reason,
            amount=amount,
            payment_method_id=order.payment_method_id,
            created_at=rules.stamp(rules.NOW),
        )
        self.db.customers[customer.id] = customer
        self.db.orders[order.number] = updated
        self.db.refunds[refund_id] = refund
        return record_view(refund)

    @tool("write")
    def file_complaint(
        self,
        customer_id: str,
        category: ComplaintCategory,
        location_id: str,
        order_number: str = "",
    ) -> dict[str, Any]:
        """Record a guest's complaint about a visit or an order. A late-delivery complaint on
        a delivery more than 15 minutes late, made within 48 hours, earns 150 loyalty points
        (once per order); the tool works this out.

        Args:
            customer_id: The guest's customer id.
            category: late_delivery, food_quality, staff_conduct, cleanliness, wait_time or other.
            location_id: The location the complaint is about.
            order_number: The order it concerns, if any (required for late_delivery).
        """
        customer = self._customer(customer_id)
        location = self._location(location_id)
        order = self._order(order_number) if order_number else None
        if order is not None:
            if order.customer_id != customer.id:
                raise ToolError(f"order {order.number} does not belong to this guest")
            if order.location_id != location.id:
                raise ToolError(f"order {order.number} came from location {order.location_id}")
        points = 0
        if category == "late_delivery":
            if order is None or order.fulfillment != "delivery" or order.completed_at is None:
                raise ToolError("a late-delivery complaint needs a delivered delivery order")
            if any(
                c.order_number == order.number and c.category == "late_delivery"
                for c in self.db.complaints.values()
            ):
                raise ToolError(f"a late-delivery complaint on order {order.number} exists")
            within = rules.NOW - timedelta(hours=rules.REFUND_WINDOW_HOURS)
            recent = order.completed_at >= rules.stamp(within)
            if recent and ledger.minutes_late(order) > rules.LATE_DELIVERY_GRACE_MIN:
                points = rules.LATE_DELIVERY_POINTS
        complaint_id = next_id(self.db.complaints, "CP", 4)
        complaint = Complaint(
            id=complaint_id,
            customer_id=customer.id,
            category=category,
            location_id=location.id,
            order_number=order.number if order else None,
            points_awarded=points,
            created_at=rules.stamp(rules.NOW),
        )
        if points:
            customer = customer.model_copy(
                update={"loyalty_points": customer.loyalty_points + points}
            )
            self.db.customers[customer.id] = customer
        self.db.complaints[complaint_id] = complaint
        return record_view(complaint, loyalty_points_balance=customer.loyalty_points)
