"""Identity lookups, the customer profile, and the hand-off to a human."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import calendar_date, record_view, words
from tau_emotion.domains.kit.handoff import stamped_desk
from tau_emotion.domains.kit.identity import Directory, PhoneRule, last_ten
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import rules
from tau_emotion.domains.travel.db import Customer
from tau_emotion.domains.travel.tools_base import TravelBase

PEOPLE: Directory[Customer] = Directory(
    answer=lambda c: {"customer_id": c.id},
    missing="no customer account has that {what}",
    phone=PhoneRule(last_ten, "a phone number needs 10 digits (area code included)"),
)
HAND_OFF = stamped_desk(rules.stamp(rules.NOW))


class AccountTools(TravelBase):
    @tool("read")
    def find_customer_by_email(self, email: str) -> dict[str, str]:
        """Authenticate a customer by the email address on their account.

        Args:
            email: The email address the customer gives, e.g. 'dalia.novak42@example.com'.
        """
        return PEOPLE.by_email(self.customers.values(), email)

    @tool("read")
    def find_customer_by_phone(self, phone: str) -> dict[str, str]:
        """Authenticate a customer by the phone number on their account.

        Args:
            phone: The phone number the customer gives, in any format, e.g. '312-544-0192'.
        """
        return PEOPLE.by_phone(self.customers.values(), phone)

    @tool("read")
    def find_customer_by_name_and_dob(self, full_name: str, date_of_birth: str) -> dict[str, str]:
        """Authenticate a customer by their full name together with their date of birth.

        Args:
            full_name: First and last name, e.g. 'Dalia Novak'.
            date_of_birth: The customer's date of birth, YYYY-MM-DD.
        """
        name = words(full_name)
        birth = calendar_date(date_of_birth.strip()).isoformat()
        return PEOPLE.by(
            self.customers.values(),
            lambda c: c.full_name.lower() == name and c.date_of_birth == birth,
            "name and date of birth",
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
        for b in self.bookings.values():
            if b.customer_id != customer.id:
                continue
            dep = self.departures[b.departure_id]
            bookings.append(
                {
                    "code": b.code,
                    "package": self.packages[b.package_id].name,
                    "start_date": dep.start_date,
                    "status": b.status,
                }
            )
        return record_view(customer, customer_id=customer.id, bookings=bookings)

    @tool("terminal")
    def transfer_to_human_agents(self, summary: str) -> str:
        """Hand the conversation to a human agent, when the policy says so or the customer's
        request cannot be handled with the available tools. Ends the conversation.

        Args:
            summary: A short summary of the customer, their request and what was done so far.
        """
        return HAND_OFF.hand_off(self.transfers, summary)
