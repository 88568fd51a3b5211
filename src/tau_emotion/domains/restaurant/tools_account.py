"""Identity lookups, the customer profile, locations, and the hand-off to a human."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import fmt, record_view, words
from tau_emotion.domains.kit.handoff import stamped_desk
from tau_emotion.domains.kit.identity import Directory, PhoneRule, last_ten
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import Customer
from tau_emotion.domains.restaurant.tools_base import RestaurantBase
from tau_emotion.domains.tools import tool

PEOPLE: Directory[Customer] = Directory(
    answer=lambda c: {"customer_id": c.id},
    missing="no customer profile has that {what}",
    phone=PhoneRule(last_ten, "a phone number needs 10 digits (area code included)"),
)
HAND_OFF = stamped_desk(rules.stamp(rules.NOW))


class AccountTools(RestaurantBase):
    @tool("read")
    def find_customer_by_email(self, email: str) -> dict[str, str]:
        """Authenticate a guest by the email address on their loyalty profile.

        Args:
            email: The email address the guest gives, e.g. 'nadia.okonkwo42@example.com'.
        """
        return PEOPLE.by_email(self.customers.values(), email)

    @tool("read")
    def find_customer_by_phone(self, phone: str) -> dict[str, str]:
        """Authenticate a guest by the phone number on their loyalty profile.

        Args:
            phone: The phone number the guest gives, in any format, e.g. '512-533-0142'.
        """
        return PEOPLE.by_phone(self.customers.values(), phone)

    @tool("read")
    def find_customer_by_name_and_zip(self, full_name: str, zip_code: str) -> dict[str, str]:
        """Authenticate a guest by their full name together with the zip code of their address.

        Args:
            full_name: First and last name, e.g. 'Nadia Okonkwo'.
            zip_code: The 5-digit zip code of the guest's address on file.
        """
        name, wanted_zip = words(full_name), zip_code.strip()
        return PEOPLE.by(
            self.customers.values(),
            lambda c: words(c.full_name) == name and c.zip_code == wanted_zip,
            "name and zip code",
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
            for r in self.reservations.values()
            if r.customer_id == customer.id
        ]
        orders = [
            {
                "number": o.number,
                "placed_at": o.placed_at,
                "status": o.status,
                "total": fmt(o.total),
            }
            for o in self.orders.values()
            if o.customer_id == customer.id
        ]
        events = [
            {"id": e.id, "date": e.date, "location_id": e.location_id, "status": e.status}
            for e in self.private_events.values()
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
        return [record_view(location) for location in self.locations.values()]

    @tool("terminal")
    def transfer_to_human_agents(self, summary: str) -> str:
        """Hand the conversation to a human agent, when the policy says so or the guest's
        request cannot be handled with the available tools. Ends the conversation.

        Args:
            summary: A short summary of the guest, their request and what has been done so far.
        """
        return HAND_OFF.hand_off(self.transfers, summary)
