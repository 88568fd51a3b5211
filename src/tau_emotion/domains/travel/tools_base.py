"""Shared plumbing of the travel tools: tables, lookups that refuse clearly, new ids."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import money, require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.travel import pricing
from tau_emotion.domains.travel.db import (
    Booking,
    Customer,
    Departure,
    InsurancePolicy,
    Package,
    TravelDB,
)
from tau_emotion.errors import ToolError


class TravelBase(DatabaseTools[TravelDB]):
    """Tables and helpers; the tool methods live in the mixins that subclass this."""

    def _customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id!r}")

    def _package(self, package_id: str) -> Package:
        return require(
            self.db.packages,
            package_id.strip().upper(),
            f"no package with id {package_id!r}; use search_packages",
        )

    def _departure(self, departure_id: str) -> Departure:
        return require(
            self.db.departures,
            departure_id.strip().upper(),
            f"no departure with id {departure_id!r}; use get_departures",
        )

    def _booking(self, code: str) -> Booking:
        return require(self.db.bookings, code.strip().upper(), f"no booking with code {code!r}")

    def _confirmed(self, code: str) -> Booking:
        booking = self._booking(code)
        if booking.status != "confirmed":
            raise ToolError(f"booking {booking.code} is {booking.status}")
        return booking

    def _policy_of(self, booking_code: str) -> InsurancePolicy | None:
        for policy in self.db.insurance_policies.values():
            if policy.booking_code == booking_code:
                return policy
        return None

    def _seats_left(self, departure: Departure) -> int:
        used = sum(
            len(b.travellers)
            for b in self.db.bookings.values()
            if b.departure_id == departure.id and b.status != "cancelled"
        )
        return departure.seats_total - used

    def _settle(self, booking: Booking, net: Decimal) -> dict[str, Any]:
        """Charge (net > 0) or refund (net < 0) the booking's payment method.

        Returns the booking fields to update; refuses when travel credit cannot cover it.
        """
        customer = self._customer(booking.customer_id)
        if net > 0:
            customer = pricing.charge(customer, booking.payment_method_id, net)
            update = {"amount_paid": money(booking.amount_paid + net)}
        else:
            customer = pricing.credit(customer, booking.payment_method_id, -net)
            update = {"amount_refunded": money(booking.amount_refunded - net)}
        self.db.customers[customer.id] = customer
        return update
