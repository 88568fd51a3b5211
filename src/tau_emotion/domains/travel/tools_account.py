"""Identity lookups, the customer profile, and the hand-off to a human."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import calendar_date, digits, next_id, record_view, words
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import rules
from tau_emotion.domains.travel.db import Transfer
from tau_emotion.domains.travel.toolbase import TravelBase
from tau_emotion.errors import ToolError


class AccountTools(TravelBase):
    @tool("read")
    def find_customer_by_email(self, email: str) -> dict[str, str]:
        """Authenticate a customer by the email address on their account.

        Args:
            email: The email address the customer gives, e.g. 'dalia.novak42@example.com'.
        """
        wanted = email.strip().lower()
        for customer in self.customers.values():
            if customer.email == wanted:
                return {"customer_id": customer.id}
        raise ToolError("no customer account has that email address")

    @tool("read")
    def find_customer_by_phone(self, phone: str) -> dict[str, str]:
        """Authenticate a customer by the phone number on their account.

        Args:
            phone: The phone number the customer gives, in any format, e.g. '312-544-0192'.
        """
        wanted = digits(phone)[-10:]
        if len(wanted) != 10:
            raise ToolError("a phone number needs 10 digits (area code included)")
        for customer in self.customers.values():
            if digits(customer.phone) == wanted:
                return {"customer_id": customer.id}
        raise ToolError("no customer account has that phone number")

    @tool("read")
    def find_customer_by_name_and_dob(self, full_name: str, date_of_birth: str) -> dict[str, str]:
        """Authenticate a customer by their full name together with their date of birth.

        Args:
            full_name: First and last name, e.g. 'Dalia Novak'.
            date_of_birth: The customer's date of birth, YYYY-MM-DD.
        """
        name = words(full_name)
        birth = calendar_date(date_of_birth.strip()).isoformat()
        for customer in self.customers.values():
            own = f"{customer.first_name} {customer.last_name}".lower()
            if own == name and customer.date_of_birth == birth:
                return {"customer_id": customer.id}
        raise ToolError("no customer account matches that name and date of birth")

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
        if not summary.strip():
            raise ToolError("give a short summary for the human agent")
        transfer_id = next_id(self.transfers, "TR", 4)
        self.transfers.put(transfer_id, Transfer(id=transfer_id, created_at=rules.stamp(rules.NOW)))
        return f"Transfer {transfer_id} created; a human agent will take over the conversation."
