"""Bookings: showing, booking, itinerary and room changes, name corrections, cancellations."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.domains.common import fmt, money, next_id, record_view
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import pricing, rules
from tau_emotion.domains.travel.db import Booking, CancelReason, Fare, new_booking
from tau_emotion.domains.travel.tools_base import TravelBase
from tau_emotion.errors import ToolError


class TravellerIn(BaseModel):
    """One person travelling on a booking."""

    model_config = ConfigDict(extra="forbid")

    full_name: str = Field(description="First and last name as on the passport.")
    date_of_birth: str = Field(description="Date of birth, YYYY-MM-DD.")


def _full_name(text: str) -> str:
    """A traveller's name in its one spelling; a blank name names nobody."""
    name = rules.clean_name(text)
    if not name:
        raise ToolError("every traveller needs a full name")
    return name


def _traveller(person: TravellerIn) -> tuple[str, str]:
    """(name, date of birth) as a booking stores them. The date is written back in its one
    form, YYYY-MM-DD, as `date.fromisoformat` also reads '19601007' and '1960-W40-5': the same
    birthday typed another way must book the same state."""
    name = _full_name(person.full_name)
    try:
        born = rules.parse_date(person.date_of_birth.strip())
    except ValueError:
        raise ToolError(
            f"date of birth {person.date_of_birth!r} of {name} must be YYYY-MM-DD"
        ) from None
    if born > rules.TODAY:
        raise ToolError(f"{name} is not born yet: {born.isoformat()} is after today")
    return name, born.isoformat()


def _charged_refunded(net: Decimal) -> dict[str, str]:
    """What a change charged (net > 0) or refunded (net < 0), as the tool shows it.

    A change that costs nothing shows refunded as '-0.00': the tools once kept amounts as
    floats, where `max(-0.0, 0.0)` is -0.0, and shipped replays hold that output. Decimal's
    `-` keeps a zero positive, so that minus is written out here.
    """
    refunded = "-0.00" if net == 0 else fmt(max(-net, Decimal(0)))
    return {"charged": fmt(max(net, Decimal(0))), "refunded": refunded}


class BookingTools(TravelBase):
    @tool("read")
    def get_booking(self, booking_code: str) -> dict[str, Any]:
        """Show a booking: package, departure dates, fare, room, travellers, tours, money
        paid and refunded, insurance and claims, and what cancelling or changing the date
        would cost today.

        Args:
            booking_code: The booking code on the confirmation, e.g. 'B50123'.
        """
        b = self._booking(booking_code)
        dep = self.db.departures[b.departure_id]
        policy = self._policy_of(b.code)
        fee = rules.CHANGE_FEE_PER_TRAVELLER[b.fare]
        extra: dict[str, Any] = {
            "package_name": self.db.packages[b.package_id].name,
            "start_date": dep.start_date,
            "end_date": dep.end_date,
            "insurance": record_view(policy) if policy else None,
            "claims": [record_view(c) for c in self.db.claims.values() if c.booking_code == b.code],
            "date_change_fee_per_traveller": "not allowed" if fee is None else fmt(fee),
        }
        if b.status == "confirmed" and rules.days_until(dep.start_date) >= 1:
            refund, _ = pricing.cancellation(b, dep, rules.days_until(dep.start_date))
            extra["refund_if_cancelled_now"] = fmt(refund)
        if b.status == "cancelled":
            extra["package_amount_not_refunded"] = fmt(pricing.lost_on_cancellation(b, dep))
        return record_view(b, **extra)

    @tool("write")
    def book_trip(
        self,
        customer_id: str,
        departure_id: str,
        fare: Fare,
        room_type: str,
        travellers: list[TravellerIn],
        payment_method_id: str,
    ) -> dict[str, Any]:
        """Book a package departure for an authenticated customer and charge the full price.
        Rooms of the chosen type are added until every traveller has a bed. The policy says
        how far ahead a departure may be booked.

        Args:
            customer_id: The customer's id (the account holder; they need not travel).
            departure_id: Departure id from get_departures, e.g. 'D5041'.
            fare: saver (90% of the standard price, no date changes), standard, or flexible
                (115%, free date changes, better refunds).
            room_type: Room type code at the package hotel, e.g. 'classic_double'.
            travellers: Everyone travelling, with full name and date of birth.
            payment_method_id: Payment method id from the customer's profile.
        """
        customer = self._customer(customer_id)
        dep = self._departure(departure_id)
        package = self.db.packages[dep.package_id]
        # How far ahead is the policy's (travel.booking_window); a trip under way is not sold.
        self._not_started(dep.id, dep.start_date)
        people = [_traveller(t) for t in travellers]
        if len({name.lower() for name, _ in people}) != len(people):
            raise ToolError("a traveller is listed twice")
        pricing.check_party(package, dep, people)
        if self._seats_left(dep) < len(people):
            raise ToolError(f"departure {dep.id} has {self._seats_left(dep)} seats left")
        room = pricing.room(self.db.hotels[package.hotel_id], room_type)
        code = next_id(self.db.bookings, "B", 5)
        booked = pricing.price_travellers(dep, fare, people, code)
        rooms = rules.rooms_needed(len(booked), room.occupancy)
        price = pricing.package_price(booked, room, rooms, package.nights)
        customer = pricing.charge(customer, payment_method_id, price)
        now = rules.stamp(rules.NOW)
        booking = new_booking(
            code, customer.id, dep, fare, room, rooms, booked, price, payment_method_id, now
        )
        self.db.customers[customer.id] = customer
        self.db.bookings[code] = booking
        return record_view(booking)

    def _not_started(self, what: str, start: str) -> None:
        """Refuse a trip that has begun: what is under way cannot be booked or changed."""
        if rules.days_until(start) < 1:
            raise ToolError(f"{what} has already departed ({start})")

    def _changeable(self, code: str) -> Booking:
        """A confirmed booking not yet departed; the 14-day limit is the policy's
        (travel.change_window)."""
        booking = self._confirmed(code)
        start = self.db.departures[booking.departure_id].start_date
        self._not_started(f"booking {booking.code}", start)
        return booking

    @tool("write")
    def change_departure(self, booking_code: str, new_departure_id: str) -> dict[str, Any]:
        """Move a booking to another departure of the same package. Charges the fare's change
        fee per traveller and the price difference (or refunds it); booked tours are dropped
        and refunded. The policy says which fares may change and until when.

        Args:
            booking_code: The booking code.
            new_departure_id: Departure id of the same package from get_departures.
        """
        b = self._changeable(booking_code)
        # The policy allows a saver fare no date change (travel.saver_no_date_change); the
        # tool does not judge, and a saver fare has no change fee to charge.
        fee_each = rules.CHANGE_FEE_PER_TRAVELLER[b.fare] or Decimal(0)
        new = self._departure(new_departure_id)
        if new.package_id != b.package_id or new.id == b.departure_id:
            raise ToolError("pick a different departure of the same package")
        # How far ahead the new departure is is the policy's (travel.booking_window).
        self._not_started(f"departure {new.id}", new.start_date)
        if self._seats_left(new) < len(b.travellers):
            raise ToolError(f"departure {new.id} has {self._seats_left(new)} seats left")
        package = self.db.packages[b.package_id]
        people = [(t.full_name, t.date_of_birth) for t in b.travellers]
        pricing.check_party(package, new, people)
        travellers = pricing.price_travellers(new, b.fare, people, b.code)
        room = pricing.room(self.db.hotels[package.hotel_id], b.room_type)
        price = pricing.package_price(travellers, room, b.rooms, package.nights)
        fee = money(fee_each * len(travellers))
        tours = sum((t.total for t in b.tours), Decimal(0))
        net = money(price - b.package_price + fee - tours)
        update = self._settle(b, net)
        update.update(
            departure_id=new.id,
            travellers=travellers,
            tours=(),
            package_price=price,
            fees=money(b.fees + fee),
        )
        changed = b.model_copy(update=update)
        self.db.bookings[b.code] = changed
        return record_view(changed, change_fee=fmt(fee), **_charged_refunded(net))

    @tool("write")
    def change_room_type(self, booking_code: str, room_type: str) -> dict[str, Any]:
        """Change the room type of a booking; rooms are recounted for the new occupancy and
        the supplement difference is charged or refunded. No fee. The policy says until when.

        Args:
            booking_code: The booking code.
            room_type: New room type code at the package hotel.
        """
        b = self._changeable(booking_code)
        if room_type == b.room_type:
            raise ToolError(f"booking {b.code} already has {room_type} rooms")
        package = self.db.packages[b.package_id]
        room = pricing.room(self.db.hotels[package.hotel_id], room_type)
        rooms = rules.rooms_needed(len(b.travellers), room.occupancy)
        price = pricing.package_price(b.travellers, room, rooms, package.nights)
        net = money(price - b.package_price)
        update = self._settle(b, net)
        update.update(room_type=room.code, rooms=rooms, package_price=price)
        changed = b.model_copy(update=update)
        self.db.bookings[b.code] = changed
        return record_view(changed, **_charged_refunded(net))

    @tool("write")
    def correct_traveller_name(
        self, booking_code: str, traveller_id: str, full_name: str
    ) -> dict[str, Any]:
        """Set a traveller's name on a booking. The policy allows only corrections of a
        misspelling (at most 3 letters different), never another person.

        Args:
            booking_code: The booking code.
            traveller_id: Traveller id from get_booking, e.g. 'B50123-2'.
            full_name: The corrected full name.
        """
        b = self._confirmed(booking_code)
        if rules.days_until(self.db.departures[b.departure_id].start_date) < 1:
            raise ToolError("names can be corrected only before departure")
        traveller = next((t for t in b.travellers if t.id == traveller_id), None)
        if traveller is None:
            raise ToolError(f"booking {b.code} has no traveller {traveller_id!r}")
        name = _full_name(full_name)
        if name == traveller.full_name:
            raise ToolError("the new name is the same as the current one")
        # Whether it is a correction (3 letters at most) is the policy's
        # (travel.name_correction_only).
        travellers = tuple(
            t.model_copy(update={"full_name": name}) if t.id == traveller.id else t
            for t in b.travellers
        )
        changed = b.model_copy(update={"travellers": travellers})
        self.db.bookings[b.code] = changed
        return record_view(changed)

    @tool("write")
    def cancel_booking(self, booking_code: str, reason: CancelReason) -> dict[str, Any]:
        """Cancel a booking before departure. The package price is refunded by the fare's rules
        and the days left; tours are refunded in full; change fees and insurance premiums are
        not refunded.

        Args:
            booking_code: The booking code.
            reason: Why the customer cancels: change_of_plans, illness, bereavement, work or
                other (illness and bereavement matter for premium insurance claims).
        """
        b = self._confirmed(booking_code)
        dep = self.db.departures[b.departure_id]
        days = rules.days_until(dep.start_date)
        if days < 1:
            raise ToolError(f"booking {b.code} has already departed and cannot be cancelled")
        refund, lost = pricing.cancellation(b, dep, days)
        update = self._settle(b, -refund)
        update.update(status="cancelled", cancelled_at=rules.stamp(rules.NOW), cancel_reason=reason)
        changed = b.model_copy(update=update)
        self.db.bookings[b.code] = changed
        return record_view(changed, refund=fmt(refund), package_amount_not_refunded=fmt(lost))
