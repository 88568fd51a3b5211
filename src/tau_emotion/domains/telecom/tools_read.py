"""Read tools: identity lookups, account views, the catalog and plan-change quotes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import (
    Directory,
    Lookups,
    PhoneRule,
    date_of_birth,
    us_phone,
    written_date,
)
from tau_emotion.domains.telecom.db import Customer, Line
from tau_emotion.domains.telecom.rules import bill_balance, bill_status
from tau_emotion.domains.telecom.tools_base import TelecomToolBase
from tau_emotion.domains.telecom.views import (
    addon_view,
    bill_view,
    charge_view,
    customer_view,
    device_view,
    line_view,
    plan_view,
)
from tau_emotion.domains.tools import tool

DOCS = ToolDocs.beside(__file__)

HOLDERS: Lookups[TelecomToolBase, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.customer_id},
        missing="no customer with that {what}",
        email_label="email",
    ),
    people=lambda tools: tools.db.customers.values(),
)

LINES: Lookups[TelecomToolBase, Line] = Lookups(
    Directory(
        answer=lambda line: {"customer_id": line.customer_id},
        missing="no line with that {what}",
        phone=PhoneRule(us_phone, "a phone number has 10 digits, e.g. '415-555-0134'"),
        phone_of=lambda line: line.phone_number,
    ),
    people=lambda tools: tools.db.lines.values(),
)


class ReadTools(TelecomToolBase):
    find_customer_by_phone = LINES.phone(DOCS["find_customer_by_phone"], param="phone_number")
    find_customer_by_email = HOLDERS.email(DOCS["find_customer_by_email"])
    find_customer_by_name_and_dob = HOLDERS.full_name_and(
        DOCS["find_customer_by_name_and_dob"],
        date_of_birth(lambda c: c.date_of_birth, written_date),
    )

    @tool("read")
    def get_customer_details(self, customer_id: str) -> dict[str, Any]:
        """Get an account: contact details, payment methods, autopay, lines and tickets.

        Args:
            customer_id: The customer's id, from a find_customer tool.
        """
        customer = self._customer(customer_id)
        tickets = sorted(
            (t for t in self.db.tickets.values() if t.customer_id == customer_id),
            key=lambda t: t.ticket_id,
        )
        lines = [self._line(line_id) for line_id in customer.line_ids]
        return customer_view(customer, lines, self.db.plans, tickets)

    @tool("read")
    def get_line_details(self, line_id: str) -> dict[str, Any]:
        """Get a line: status and suspension, plan, data used this month, roaming, add-ons, device.

        Args:
            line_id: The line's id, from get_customer_details.
        """
        line = self._line(line_id)
        return line_view(line, self.db.plans, self.db.addons, self._device(line.device_id))

    @tool("read")
    def get_device_details(self, device_id: str) -> dict[str, Any]:
        """Get a device: model, IMEI, status, installment financing and unlock status.

        Args:
            device_id: The device's id, from get_line_details.
        """
        device = self._device(device_id)
        return device_view(device, self._line(device.line_id).phone_number)

    @tool("read")
    def get_bills(self, customer_id: str) -> dict[str, Any]:
        """Get an account's recent bills with their items, payments and balance, plus the
        one-time charges waiting for the next bill.

        Args:
            customer_id: The customer's id.
        """
        self._customer(customer_id)
        bills = self._bills_of(customer_id)
        pending = sorted(
            (c for c in self.db.charges.values() if c.customer_id == customer_id),
            key=lambda c: c.charge_id,
        )
        overdue = sum(
            (bill_balance(b) for b in bills if bill_status(b) == "overdue"), Decimal("0.00")
        )
        return {
            "customer_id": customer_id,
            "bills": [bill_view(b) for b in bills],
            "overdue_balance": fmt(overdue),
            "charges_for_next_bill": [charge_view(c) for c in pending],
        }

    @tool("read")
    def list_plans(self) -> list[dict[str, Any]]:
        """List all rate plans with monthly price, data, hotspot and whether they can be chosen."""
        return [plan_view(p) for p in self.db.plans.values()]

    @tool("read")
    def list_addons(self) -> list[dict[str, Any]]:
        """List the add-ons that can be bought for a line: data top-ups and travel passes."""
        return [addon_view(a) for a in self.db.addons.values()]

    @tool("read")
    def quote_plan_change(self, line_id: str, new_plan_id: str) -> dict[str, Any]:
        """Work out what moving a line to another plan would cost and when it would take
        effect, without changing anything. Upgrades apply today with a prorated charge;
        downgrades apply on the 1st of next month. The policy says which changes are allowed.

        Args:
            line_id: The line to change.
            new_plan_id: The plan to move to, e.g. 'unlimited'.
        """
        change = self._plan_change(self._line(line_id), new_plan_id)
        return {
            "customer_id": change.line.customer_id,
            "line_id": line_id,
            "current_plan": change.current.name,
            "new_plan": change.new.name,
            "change": "upgrade" if change.upgrade else "downgrade",
            "effective_on": change.effective_on,
            "prorated_charge": fmt(change.prorated_charge),
            "new_monthly_price": fmt(change.new.monthly_price),
        }
