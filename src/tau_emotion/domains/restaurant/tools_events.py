"""Private events in the locations' dining rooms, secured by a deposit."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import calendar_date, fmt, money, next_id, record_view
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import EventPackage, PrivateEvent
from tau_emotion.domains.restaurant.tools_base import RestaurantBase, cancelled_now
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class EventTools(RestaurantBase):
    @tool("read")
    def get_private_event(self, event_id: str) -> dict[str, Any]:
        """Show a private event booking, with the deposit refund that cancelling it today
        would give.

        Args:
            event_id: The event id on the booking confirmation, e.g. 'EV5012'.
        """
        event = self._event(event_id)
        refund = money(0)
        if event.status == "confirmed":
            refund = rules.event_refund(event.deposit, event.date)
        return record_view(event, deposit_refund_if_cancelled_now=fmt(refund))

    @tool("write")
    def book_private_event(
        self,
        customer_id: str,
        location_id: str,
        room_id: str,
        date: str,
        guests: int,
        package: EventPackage,
        payment_method_id: str,
    ) -> dict[str, Any]:
        """Book a private dining room for a group and charge the deposit (25% of guests x
        package price) to a credit card.

        Args:
            customer_id: The guest's customer id.
            location_id: Location id.
            room_id: Private room id from list_locations or check_availability, e.g. 'L51-A'.
            date: Day of the event, YYYY-MM-DD.
            guests: Number of guests, within the room's minimum and maximum.
            package: cocktail (38.00 per guest), dinner (62.00) or chefs_table (95.00).
            payment_method_id: Credit card id that pays the deposit.
        """
        customer = self._customer(customer_id)
        location = self._location(location_id)
        day = calendar_date(date)
        room = next((r for r in location.rooms if r.id == room_id), None)
        if room is None:
            rooms = ", ".join(r.id for r in location.rooms)
            raise ToolError(f"room {room_id!r} is not at {location.name}; its rooms: {rooms}")
        # The 7-to-180-day window is the policy's (restaurant.event_booking_window); a room
        # cannot be booked for a day that has begun.
        if day <= rules.NOW.date():
            raise ToolError(f"{date} is today or past; private events are booked ahead")
        self._open_on(location, day)
        if not room.min_guests <= guests <= room.max_guests:
            raise ToolError(
                f"{room.name} hosts {room.min_guests} to {room.max_guests} guests, not {guests}"
            )
        for event in self.db.private_events.values():
            if event.room_id == room.id and event.date == date and event.status == "confirmed":
                raise ToolError(f"{room.name} is already booked on {date}")
        if self._payment(customer, payment_method_id).kind != "credit_card":
            raise ToolError("the deposit must be paid by credit card")
        event_id = next_id(self.db.private_events, "EV", 4)
        event = PrivateEvent(
            id=event_id,
            customer_id=customer.id,
            location_id=location.id,
            room_id=room.id,
            date=date,
            guests=guests,
            package=package,
            price_per_guest=rules.EVENT_PACKAGES[package],
            deposit=rules.event_deposit(guests, package),
            deposit_payment_method_id=payment_method_id,
            status="confirmed",
            created_at=rules.stamp(rules.NOW),
        )
        self.db.private_events[event_id] = event
        return record_view(event)

    @tool("write")
    def cancel_private_event(self, event_id: str) -> dict[str, Any]:
        """Cancel a confirmed private event and refund the deposit by notice given: in full
        30 or more days before, half 14 to 29 days before, nothing later.

        Args:
            event_id: The event id.
        """
        event = self._event(event_id)
        if event.status != "confirmed":
            raise ToolError(f"event {event.id} is {event.status} and cannot be cancelled")
        if event.date <= rules.NOW.date().isoformat():
            raise ToolError(f"event {event.id} is today or past and cannot be cancelled")
        refund = rules.event_refund(event.deposit, event.date)
        updated = cancelled_now(event, deposit_refund=refund)
        self.db.private_events[event.id] = updated
        return record_view(updated)
