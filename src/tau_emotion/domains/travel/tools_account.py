"""Identity lookups, the customer profile, and the hand-off to a human."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import calendar_date, record_view
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import stamped_desk
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, date_of_birth, last_ten
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import rules
from tau_emotion.domains.travel.db import Customer
from tau_emotion.domains.travel.tools_base import TravelBase

DOCS = ToolDocs.beside(__file__)

PEOPLE: Lookups[TravelBase, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.id},
        missing="no customer account has that {what}",
        phone=PhoneRule(last_ten, "a phone number needs 10 digits (area code included)"),
    ),
    people=lambda tools: tools.db.customers.values(),
)

HAND_OFF = stamped_desk(rules.stamp(rules.NOW))


class AccountTools(TravelBase):
    find_customer_by_email = PEOPLE.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = PEOPLE.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_and_dob = PEOPLE.full_name_and(
        DOCS["find_customer_by_name_and_dob"],
        date_of_birth(
            lambda c: c.date_of_birth, lambda text: calendar_date(text.strip()).isoformat()
        ),
        refusal="no customer account matches that name and date of birth",
    )

    @tool("read")
    def get_customer_details(self, customer_id: str) -> dict[str, Any]:
        """Show an authenticated customer's profile, payment methods (with travel credit
        balances) and their bookings.

        Args:
            customer_id: The id returned by a find_customer_* lookup.
        """
        customer = self._customer(customer_id)
        bookings = []
        for b in self.db.bookings.values():
            if b.customer_id != customer.id:
                continue
            dep = self.db.departures[b.departure_id]
            bookings.append(
                {
                    "code": b.code,
                    "package": self.db.packages[b.package_id].name,
                    "start_date": dep.start_date,
                    "status": b.status,
                }
            )
        return record_view(customer, customer_id=customer.id, bookings=bookings)

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        TravelBase,
        lambda tools: tools.db.transfers,
    )
