"""Merchandise, youth camps and the hand-off to a person."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from tau_emotion.domains.basketball.db import registration
from tau_emotion.domains.basketball.rules import (
    ID_WIDTH,
    SIBLING_DISCOUNT,
    TODAY,
    camp_refund_share,
)
from tau_emotion.domains.basketball.tools_base import ClubToolBase
from tau_emotion.domains.common import fmt, money
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.members import each_named
from tau_emotion.domains.kit.summary_desk import summary_desk
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)


def camper_birth(text: str) -> date:
    """The camper's birth date, refused unless written 'YYYY-MM-DD'."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"the birth date is written YYYY-MM-DD, not {text!r}") from None


def _camper_name(text: str) -> str:
    """One spelling per name whatever case and spacing the agent uses."""
    return " ".join(word.capitalize() for word in text.split())


HAND_OFF = summary_desk(
    "Transfer {id} created; a fan-services specialist will take over.", ID_WIDTH
)


class ShopTools(ClubToolBase):
    """Merchandise cancellations and returns, camp registrations, transfers."""

    @tool("write")
    def cancel_merch_order(self, customer_id: str, order_id: str) -> dict[str, Any]:
        """Cancel a merchandise order that has not shipped yet; the whole amount (items and
        shipping) goes back to the payment method used.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The merchandise order number.
        """
        order = self.q.own_merch(customer_id, order_id)
        if order.status != "processing":
            raise ToolError(
                f"order {order_id} is {order.status}; only orders still processing can be "
                "cancelled (a delivered order can be returned)"
            )
        self.q.db.merch_orders[order.id] = order.model_copy(update={"status": "cancelled"})
        self.q.record(customer_id, order.payment_method_id, "refund", order.total, order.id)
        return {"order_id": order.id, "status": "cancelled", "refunded": fmt(order.total)}

    @tool("write")
    def return_merch_items(
        self, customer_id: str, order_id: str, item_ids: list[str]
    ) -> dict[str, Any]:
        """Return items of a delivered merchandise order. The item prices are refunded to the
        payment method used; shipping is not. The policy says which items may be returned and
        until when.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The merchandise order number.
            item_ids: Ids of the items to return (from get_merch_order).
        """
        order = self.q.own_merch(customer_id, order_id)
        if order.status != "delivered" or order.delivered is None:
            raise ToolError(
                f"order {order_id} is {order.status}; only delivered items can be returned"
            )
        # The 30-day window and the final sale of personalized jerseys are the policy's
        # (basketball.return_window, basketball.personalized_final_sale).
        refund = Decimal("0.00")
        for item in each_named(
            item_ids,
            {i.item_id: i for i in order.items},
            empty="name each item to return once",
            missing=lambda item_id: f"order {order_id} has no item {item_id}",
        ):
            if item.status == "returned":
                raise ToolError(f"item {item.item_id} was already returned")
            refund += item.price
        updated = tuple(
            i.model_copy(update={"status": "returned"}) if i.item_id in item_ids else i
            for i in order.items
        )
        self.q.db.merch_orders[order.id] = order.model_copy(update={"items": updated})
        self.q.record(customer_id, order.payment_method_id, "refund", refund, order.id)
        return {
            "order_id": order.id,
            "returned": item_ids,
            "refunded": fmt(refund),
            "to": self.q.db.payment_methods[order.payment_method_id].label,
        }

    @tool("write")
    def register_camper(
        self,
        customer_id: str,
        camp_id: str,
        camper_name: str,
        camper_birth_date: str,
        payment_method_id: str,
    ) -> dict[str, Any]:
        """Register a child for a youth camp and charge the price. A second child of the same
        account in the same camp gets 10% off. The policy says who may register and until when.

        Args:
            customer_id: The authenticated customer's id (the parent or guardian).
            camp_id: The camp id from list_camps.
            camper_name: The child's first and last name.
            camper_birth_date: The child's date of birth, 'YYYY-MM-DD'.
            payment_method_id: One of the customer's payment methods.
        """
        self.q.customer(customer_id)
        camp = self.q.db.camps.get(camp_id)
        if camp is None:
            raise ToolError(f"no camp with id {camp_id}")
        birth = camper_birth(camper_birth_date)
        if birth > TODAY:
            raise ToolError(f"the birth date {birth.isoformat()} is after today")
        # Registering after the start or outside the age range is the policy's to refuse
        # (basketball.camp_not_started, basketball.camper_age_range).
        name = _camper_name(camper_name)
        mine = [
            r
            for r in self.q.db.camp_registrations.values()
            if r.customer_id == customer_id and r.camp_id == camp.id and r.status == "registered"
        ]
        if any(r.camper_name == name and r.camper_birth_date == birth.isoformat() for r in mine):
            raise ToolError(f"{name} is already registered for {camp.name}")
        if self.q.camp_seats_left(camp) <= 0:
            raise ToolError(f"{camp.name} is full")
        method = self.q.payment_method(customer_id, payment_method_id)
        price = money(camp.price * (1 - SIBLING_DISCOUNT)) if mine else camp.price
        rid = self.q.new_id(self.q.db.camp_registrations, "CR")
        self.q.db.camp_registrations[rid] = registration(
            rid, customer_id, camp.id, name, birth.isoformat(), price, method.id
        )
        self.q.record(customer_id, method.id, "charge", price, rid)
        return {"registration_id": rid, "camp": camp.name, "camper": name, "charged": fmt(price)}

    @tool("write")
    def cancel_camp_registration(self, customer_id: str, registration_id: str) -> dict[str, Any]:
        """Cancel a camp registration. Refund: all of it 14 or more days before the start,
        half 7 to 13 days before, nothing later. The policy says until when it may be
        cancelled.

        Args:
            customer_id: The authenticated customer's id.
            registration_id: The registration id (from get_customer_details).
        """
        reg = self.q.db.camp_registrations.get(registration_id)
        if reg is None or reg.customer_id != customer_id:
            raise ToolError(f"no camp registration {registration_id} on this account")
        if reg.status != "registered":
            raise ToolError(f"registration {registration_id} is already {reg.status}")
        camp = self.q.db.camps[reg.camp_id]
        start = date.fromisoformat(camp.start)
        # Cancelling once the camp started is the policy's to refuse (basketball.camp_not_started);
        # carried out, it refunds nothing by the same table.
        refund = money(reg.price_paid * camp_refund_share(start))
        self.q.db.camp_registrations[reg.id] = reg.model_copy(update={"status": "cancelled"})
        self.q.record(customer_id, reg.payment_method_id, "refund", refund, reg.id)
        return {"registration_id": reg.id, "status": "cancelled", "refunded": fmt(refund)}

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        ClubToolBase,
        lambda tools: tools.q.db.transfers,
        lambda tools: tools.q.lead,
    )
