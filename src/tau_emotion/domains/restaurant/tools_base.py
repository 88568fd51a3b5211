"""Shared plumbing of the restaurant tools: tables, lookups that refuse clearly, new ids."""

from __future__ import annotations

from datetime import date
from typing import Any, TypeVar

from tau_emotion.domains.common import require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import (
    Customer,
    Location,
    Order,
    PaymentMethod,
    PrivateEvent,
    Reservation,
    RestaurantDB,
)
from tau_emotion.errors import ToolError

Cancellable = TypeVar("Cancellable", Reservation, PrivateEvent)


def cancelled_now(record: Cancellable, **settled: Any) -> Cancellable:
    """A table or event cancelled at `rules.NOW`, with what the cancellation settled (a late
    fee, a deposit refund)."""
    return record.model_copy(
        update={"status": "cancelled", "cancelled_at": rules.stamp(rules.NOW), **settled}
    )


class RestaurantBase(DatabaseTools[RestaurantDB]):
    """Tables and helpers; the tool methods live in the mixins that subclass this."""

    def _customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id!r}")

    def _location(self, location_id: str) -> Location:
        location = self.db.locations.get(location_id)
        if location is None:
            known = ", ".join(self.db.locations.keys())
            raise ToolError(f"no location with id {location_id!r}; locations: {known}")
        return location

    def _reservation(self, code: str) -> Reservation:
        return require(
            self.db.reservations, code.strip().upper(), f"no reservation with code {code!r}"
        )

    def _order(self, number: str) -> Order:
        return require(self.db.orders, number.strip().upper(), f"no order with number {number!r}")

    def _event(self, event_id: str) -> PrivateEvent:
        return require(
            self.db.private_events,
            event_id.strip().upper(),
            f"no private event with id {event_id!r}",
        )

    @staticmethod
    def _payment(customer: Customer, payment_method_id: str) -> PaymentMethod:
        for method in customer.payment_methods:
            if method.id == payment_method_id:
                return method
        raise ToolError(f"payment method {payment_method_id!r} is not on this customer's profile")

    @staticmethod
    def _open_on(location: Location, day: date) -> None:
        name = rules.WEEKDAYS[day.weekday()]
        if name in location.closed_on:
            raise ToolError(f"{location.name} is closed on {name}s")
