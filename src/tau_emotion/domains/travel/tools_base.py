"""Shared plumbing of the travel tools: tables, lookups that refuse clearly, new ids."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import float_money, require
from tau_emotion.domains.state import State, Table
from tau_emotion.domains.tools import ToolSet
from tau_emotion.domains.travel import pricing
from tau_emotion.domains.travel.db import (
    Booking,
    Claim,
    Customer,
    Departure,
    Hotel,
    InsurancePolicy,
    Package,
    Tour,
    Transfer,
)
from tau_emotion.errors import ToolError


class TravelBase(ToolSet):
    """Tables and helpers; the tool methods live in the mixins that subclass this."""

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.customers: Table[Customer] = state.table("customers")
        self.hotels: Table[Hotel] = state.table("hotels")
        self.packages: Table[Package] = state.table("packages")
        self.departures: Table[Departure] = state.table("departures")
        self.tours: Table[Tour] = state.table("tours")
        self.bookings: Table[Booking] = state.table("bookings")
        self.policies: Table[InsurancePolicy] = state.table("insurance_policies")
        self.claims: Table[Claim] = state.table("claims")
        self.transfers: Table[Transfer] = state.table("transfers")

    def _customer(self, customer_id: str) -> Customer:
        return require(self.customers, customer_id, f"no customer with id {customer_id!r}")

    def _package(self, package_id: str) -> Package:
        return require(
            self.packages,
            package_id.strip().upper(),
            f"no package with id {package_id!r}; use search_packages",
        )

    def _departure(self, departure_id: str) -> Departure:
        return require(
            self.departures,
            departure_id.strip().upper(),
            f"no departure with id {departure_id!r}; use get_departures",
        )

    def _booking(self, code: str) -> Booking:
        return require(self.bookings, code.strip().upper(), f"no booking with code {code!r}")

    def _confirmed(self, code: str) -> Booking:
        booking = self._booking(code)
        if booking.status != "confirmed":
            raise ToolError(f"booking {booking.code} is {booking.status}")
        return booking

    def _policy_of(self, booking_code: str) -> InsurancePolicy | None:
        for policy in self.policies.values():
            if policy.booking_code == booking_code:
                return policy
        return None

    def _seats_left(self, departure: Departure) -> int:
        used = sum(
            len(b.travellers)
            for b in self.bookings.values()
            if b.departure_id == departure.id and b.status != "cancelled"
        )
        return departure.seats_total - used

    def _settle(self, booking: Booking, net: float) -> dict[str, Any]:
        """Charge (net > 0) or refund (net < 0) the booking's payment method.

        Returns the booking fields to update; refuses when travel credit cannot cover it.
        """
        customer = self._customer(booking.customer_id)
        if net > 0:
            customer = pricing.charge(customer, booking.payment_method_id, net)
            update = {"amount_paid": float_money(booking.amount_paid + net)}
        else:
            customer = pricing.credit(customer, booking.payment_method_id, -net)
            update = {"amount_refunded": float_money(booking.amount_refunded - net)}
        self.customers.put(customer.id, customer)
        return update
