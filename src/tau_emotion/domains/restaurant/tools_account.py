"""Identity lookups, the customer profile, locations, and the hand-off to a human."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import fmt, record_view
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import stamped_desk
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, last_ten, zip_code
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import Customer
from tau_emotion.domains.restaurant.tools_base import RestaurantBase
from tau_emotion.domains.tools import tool

DOCS = ToolDocs.beside(__file__)

PEOPLE: Lookups[RestaurantBase, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.id},
        missing="no customer profile has that {what}",
        phone=PhoneRule(last_ten, "a phone number needs 10 digits (area code included)"),
    ),
    people=lambda tools: tools.db.customers.values(),
)

HAND_OFF = stamped_desk(rules.stamp(rules.NOW))


class AccountTools(RestaurantBase):
    find_customer_by_email = PEOPLE.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = PEOPLE.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_and_zip = PEOPLE.full_name_and(
        DOCS["find_customer_by_name_and_zip"],
        zip_code(lambda c: c.zip_code),
        refusal="no customer profile matches that name and zip code",
    )

    @tool("read")
    def get_customer_details(self, customer_id: str) -> dict[str, Any]:
        """Show an authenticated guest's profile: contact details, loyalty points and tier,
        recorded allergies, payment methods, and their reservations, orders and private events.

        Args:
            customer_id: The id returned by a find_customer_* lookup.
        """
        customer = self._customer(customer_id)
        reservations = [
            {k: r.model_dump()[k] for k in ("code", "location_id", "date", "time", "status")}
            for r in self.db.reservations.values()
            if r.customer_id == customer.id
        ]
        orders = [
            {
                "number": o.number,
                "placed_at": o.placed_at,
                "status": o.status,
                "total": fmt(o.total),
            }
            for o in self.db.orders.values()
            if o.customer_id == customer.id
        ]
        events = [
            {"id": e.id, "date": e.date, "location_id": e.location_id, "status": e.status}
            for e in self.db.private_events.values()
            if e.customer_id == customer.id
        ]
        return record_view(
            customer,
            customer_id=customer.id,
            reservations=reservations,
            orders=orders,
            private_events=events,
        )

    @tool("read")
    def list_locations(self) -> list[dict[str, Any]]:
        """List the restaurant's locations with address, opening hours, days closed, the zip
        codes each delivers to, and its private dining rooms (capacity limits)."""
        return [record_view(location) for location in self.db.locations.values()]

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        RestaurantBase,
        lambda tools: tools.db.transfers,
    )
