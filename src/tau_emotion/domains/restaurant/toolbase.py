"""Shared plumbing of the restaurant tools: tables, lookups that refuse clearly, new ids."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import (
    Complaint,
    Customer,
    Location,
    MenuItem,
    Order,
    PaymentMethod,
    PrivateEvent,
    Refund,
    Reservation,
    Transfer,
)
from tau_emotion.domains.state import State, Table
from tau_emotion.domains.tools import ToolSet
from tau_emotion.errors import ToolError


class RestaurantBase(ToolSet):
    """Tables and helpers; the tool methods live in the mixins that subclass this."""

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.customers: Table[Customer] = state.table("customers")
        self.locations: Table[Location] = state.table("locations")
        self.menu_items: Table[MenuItem] = state.table("menu_items")
        self.reservations: Table[Reservation] = state.table("reservations")
        self.orders: Table[Order] = state.table("orders")
        self.refunds: Table[Refund] = state.table("refunds")
        self.complaints: Table[Complaint] = state.table("complaints")
        self.private_events: Table[PrivateEvent] = state.table("private_events")
        self.transfers: Table[Transfer] = state.table("transfers")

    def _customer(self, customer_id: str) -> Customer:
        customer = self.customers.get(customer_id)
        if customer is None:
            raise ToolError(f"no customer with id {customer_id!r}")
        return customer

    def _location(self, location_id: str) -> Location:
        location = self.locations.get(location_id)
        if location is None:
            known = ", ".join(self.locations.keys())
            raise ToolError(f"no location with id {location_id!r}; locations: {known}")
        return location

    def _reservation(self, code: str) -> Reservation:
        reservation = self.reservations.get(code.strip().upper())
        if reservation is None:
            raise ToolError(f"no reservation with code {code!r}")
        return reservation

    def _order(self, number: str) -> Order:
        order = self.orders.get(number.strip().upper())
        if order is None:
            raise ToolError(f"no order with number {number!r}")
        return order

    def _event(self, event_id: str) -> PrivateEvent:
        event = self.private_events.get(event_id.strip().upper())
        if event is None:
            raise ToolError(f"no private event with id {event_id!r}")
        return event

    @staticmethod
    def _payment(customer: Customer, payment_method_id: str) -> PaymentMethod:
        for method in customer.payment_methods:
            if method.id == payment_method_id:
                return method
        raise ToolError(f"payment method {payment_method_id!r} is not on this customer's profile")

    @staticmethod
    def _day(text: str) -> date:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ToolError(f"date {text!r} must be written YYYY-MM-DD")
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ToolError(f"{text!r} is not a calendar date") from None

    @staticmethod
    def _open_on(location: Location, day: date) -> None:
        name = rules.WEEKDAYS[day.weekday()]
        if name in location.closed_on:
            raise ToolError(f"{location.name} is closed on {name}s")

    @staticmethod
    def _next_id(table: Table[Any], prefix: str, width: int) -> str:
        """Next free number after the highest id: the same calls always make the same id."""
        numbers = [int(key[len(prefix) :]) for key in table if key.startswith(prefix)]
        return f"{prefix}{max(numbers, default=0) + 1:0{width}d}"

    @staticmethod
    def _dump(record: Any, **extra: Any) -> dict[str, Any]:
        data: dict[str, Any] = record.model_dump(mode="json")
        data.update(extra)
        return data
