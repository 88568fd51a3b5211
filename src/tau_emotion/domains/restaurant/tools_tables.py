"""Table reservations: availability, booking, changes and cancellations."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

from tau_emotion.domains.common import calendar_date, fmt, money, next_id, record_view
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import (
    Customer,
    Location,
    Occasion,
    Reservation,
    Seating,
)
from tau_emotion.domains.restaurant.tools_base import RestaurantBase, cancelled_now
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class TableTools(RestaurantBase):
    def _booked_on(self, location_id: str, day: str) -> Iterator[Reservation]:
        """Booked tables at a location on a day, in the order the database holds them."""
        for r in self.db.reservations.values():
            if r.location_id == location_id and r.date == day and r.status == "booked":
                yield r

    def _booked_covers(self, location_id: str, day: str, time: str, skip: str = "") -> int:
        return sum(
            r.party_size
            for r in self._booked_on(location_id, day)
            if r.time == time and r.code != skip
        )

    def _check_slot(
        self, location: Location, day: date, time: str, party_size: int, skip: str = ""
    ) -> datetime:
        """Refuse a seating that cannot be had (no such table size, time or room, closed,
        already past); return its start. The booking window is the policy's
        (`rules.outside_booking_window`), which only `check_availability` applies."""
        if not 1 <= party_size <= rules.MAX_PARTY:
            raise ToolError(
                f"tables take 1 to {rules.MAX_PARTY} guests; larger groups book a private event"
            )
        self._open_on(location, day)
        if time not in rules.seating_times(location.close_time):
            times = rules.seating_times(location.close_time)
            raise ToolError(
                f"{time!r} is not a seating time at {location.name}; seatings run every half "
                f"hour from {times[0]} to {times[-1]}"
            )
        seating = datetime.combine(day, datetime.min.time()) + timedelta(
            minutes=rules.minutes(time)
        )
        if seating <= rules.NOW:
            raise ToolError(f"the {time} seating on {day.isoformat()} has already begun")
        left = location.covers_per_seating - self._booked_covers(
            location.id, day.isoformat(), time, skip
        )
        if party_size > left:
            raise ToolError(
                f"the {time} seating on {day.isoformat()} at {location.name} has room for "
                f"{max(left, 0)} more guests; check availability for another time"
            )
        return seating

    def _guarantee(self, customer: Customer, party_size: int, method_id: str) -> str | None:
        """Card that guarantees a large party; small parties need (and keep) none. That a
        large party must have one is the policy's (restaurant.large_party_guarantee): without
        a card the table is booked unguaranteed."""
        if party_size < rules.GUARANTEE_PARTY or not method_id:
            return None
        if self._payment(customer, method_id).kind != "credit_card":
            raise ToolError("only a credit card can guarantee a table, not a gift card")
        return method_id

    def recent_no_shows(self, customer_id: str) -> int:
        """No-shows of a guest in the policy's 90-day window."""
        since = (rules.NOW.date() - timedelta(days=rules.NO_SHOW_WINDOW_DAYS)).isoformat()
        return sum(
            1
            for r in self.db.reservations.values()
            if r.customer_id == customer_id and r.status == "no_show" and r.date >= since
        )

    def table_held(self, customer_id: str, location_id: str, day: str) -> str | None:
        """The code of a booked table the guest already holds at a location on a day."""
        return next(
            (r.code for r in self._booked_on(location_id, day) if r.customer_id == customer_id),
            None,
        )

    @tool("read")
    def check_availability(self, location_id: str, date: str, party_size: int) -> dict[str, Any]:
        """Find open seatings for a party on a date. For up to 10 guests it lists the table
        seating times with room for the party; for larger groups it lists the private dining
        rooms that are free that day and fit the group.

        Args:
            location_id: Location id from list_locations, e.g. 'L51'.
            date: Day wanted, YYYY-MM-DD.
            party_size: Number of guests, children included.
        """
        location = self._location(location_id)
        day = calendar_date(date)
        if party_size < 1:
            raise ToolError("party_size must be at least 1")
        self._open_on(location, day)
        if party_size > rules.MAX_PARTY:
            taken = {
                e.room_id
                for e in self.db.private_events.values()
                if e.date == date and e.status == "confirmed"
            }
            rooms = [
                record_view(room)
                for room in location.rooms
                if room.id not in taken and room.min_guests <= party_size <= room.max_guests
            ]
            return {"location_id": location.id, "date": date, "free_private_rooms": rooms}
        times = []
        for time in rules.seating_times(location.close_time):
            try:
                seating = self._check_slot(location, day, time, party_size)
            except ToolError:
                continue
            # Lists what the agent may book now, so the policy's window applies here.
            if rules.outside_booking_window(seating) is None:
                times.append(time)
        return {
            "location_id": location.id,
            "date": date,
            "party_size": party_size,
            "available_times": times,
        }

    @tool("read")
    def get_reservation(self, reservation_code: str) -> dict[str, Any]:
        """Show a reservation, with the fee that cancelling it now would cost.

        Args:
            reservation_code: The code on the booking confirmation, e.g. 'R500123'.
        """
        r = self._reservation(reservation_code)
        fee = money(0)
        if r.status == "booked":
            seating = rules.parse_dt(r.date, r.time)
            fee = rules.late_cancel_fee(r.party_size, seating, r.guarantee_payment_method_id)
        return record_view(r, cancellation_fee_if_cancelled_now=fmt(fee))

    @tool("write")
    def create_reservation(
        self,
        customer_id: str,
        location_id: str,
        date: str,
        time: str,
        party_size: int,
        occasion: Occasion = "none",
        seating: Seating = "no_preference",
        guarantee_payment_method_id: str = "",
    ) -> dict[str, Any]:
        """Book a table for an authenticated guest.

        Args:
            customer_id: The guest's customer id.
            location_id: Location id, e.g. 'L51'.
            date: Day, YYYY-MM-DD.
            time: Seating time, HH:MM on the hour or half hour, e.g. '19:30'.
            party_size: Number of guests (1-10).
            occasion: What the meal celebrates, if the guest mentions it.
            seating: Seating preference, if the guest states one.
            guarantee_payment_method_id: Credit card id that guarantees a party of 6 or more.
        """
        customer = self._customer(customer_id)
        location = self._location(location_id)
        day = calendar_date(date)
        # The no-show limit, one table per location and day, the booking window and the
        # guarantee of a large party are the policy's (restaurant.* judged checks).
        self._check_slot(location, day, time, party_size)
        guarantee = self._guarantee(customer, party_size, guarantee_payment_method_id)
        code = next_id(self.db.reservations, "R", 6)
        reservation = Reservation(
            code=code,
            customer_id=customer.id,
            location_id=location.id,
            date=date,
            time=time,
            party_size=party_size,
            occasion=occasion,
            seating=seating,
            status="booked",
            guarantee_payment_method_id=guarantee,
            created_at=rules.stamp(rules.NOW),
        )
        self.db.reservations[code] = reservation
        return record_view(reservation)

    @tool("write")
    def modify_reservation(
        self,
        reservation_code: str,
        date: str,
        time: str,
        party_size: int,
        guarantee_payment_method_id: str = "",
    ) -> dict[str, Any]:
        """Move a booked table to another date or time and/or change the party size. Pass the
        full new values (repeat the current ones that stay the same).

        Args:
            reservation_code: The reservation code.
            date: New day, YYYY-MM-DD.
            time: New seating time, HH:MM.
            party_size: New number of guests (1-10).
            guarantee_payment_method_id: Credit card id that guarantees a party of 6 or more,
                when the reservation has no guarantee card yet.
        """
        r = self._reservation(reservation_code)
        if r.status != "booked":
            raise ToolError(f"reservation {r.code} is {r.status} and cannot be changed")
        # Changes close 2 hours before the current seating by the policy
        # (restaurant.booking_window); a seating that has begun cannot move.
        if rules.parse_dt(r.date, r.time) <= rules.NOW:
            raise ToolError(f"reservation {r.code} has already started and cannot be changed")
        if (date, time, party_size) == (r.date, r.time, r.party_size):
            raise ToolError("the new date, time and party size are the same as the current ones")
        customer = self._customer(r.customer_id)
        location = self._location(r.location_id)
        self._check_slot(location, calendar_date(date), time, party_size, skip=r.code)
        card = guarantee_payment_method_id or r.guarantee_payment_method_id or ""
        guarantee = self._guarantee(customer, party_size, card)
        updated = r.model_copy(
            update={
                "date": date,
                "time": time,
                "party_size": party_size,
                "guarantee_payment_method_id": guarantee,
            }
        )
        self.db.reservations[r.code] = updated
        return record_view(updated)

    @tool("write")
    def cancel_reservation(self, reservation_code: str) -> dict[str, Any]:
        """Cancel a booked table. A guaranteed party (6 or more) cancelled less than 24 hours
        before its seating is charged the late-cancellation fee on the guarantee card.

        Args:
            reservation_code: The reservation code.
        """
        r = self._reservation(reservation_code)
        if r.status != "booked":
            raise ToolError(f"reservation {r.code} is {r.status} and cannot be cancelled")
        seating = rules.parse_dt(r.date, r.time)
        if seating <= rules.NOW:
            raise ToolError(f"reservation {r.code} has already started")
        fee = rules.late_cancel_fee(r.party_size, seating, r.guarantee_payment_method_id)
        updated = cancelled_now(r, late_cancel_fee=fee)
        self.db.reservations[r.code] = updated
        return record_view(updated)
