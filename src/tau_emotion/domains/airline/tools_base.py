"""Shared lookups, money movements and views for the airline tools.

The public tools live in `tools_read.py`, `tools_booking.py`, `tools_change.py` and
`tools_support.py`; this base holds what they share: finding records (with refusals an agent
can act on), charging and refunding payment methods, moving seats, and rendering records the
way the agent sees them.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.airline.db import (
    AirlineDB,
    Flight,
    FlightDay,
    Payment,
    PaymentMethod,
    PaymentPurpose,
    Reservation,
    Segment,
    User,
    day_key,
    refund_plan,
    reservation_code,
)
from tau_emotion.domains.airline.itinerary import actual_departure, has_flown
from tau_emotion.domains.airline.rules import (
    BOOKING_CUTOFF,
    FIRST_DAY,
    LAST_DAY,
    NOW,
    Cabin,
    free_bags,
)
from tau_emotion.domains.common import add_to_balance, require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.state import Record
from tau_emotion.errors import ToolError


def parse_day(text: str) -> str:
    """Validate a 'YYYY-MM-DD' date within the schedule and return it normalized."""
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise ToolError(f"{text!r} is not a date; use YYYY-MM-DD, e.g. '2025-06-18'") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ToolError(f"{day} is outside the published schedule ({FIRST_DAY} to {LAST_DAY})")
    return day.isoformat()


class AirlineBase(DatabaseTools[AirlineDB]):
    # -- lookups -------------------------------------------------------------------------

    def _user(self, user_id: str) -> User:
        return require(self.db.users, user_id.strip(), f"no user with id {user_id!r}")

    def _reservation(self, code: str) -> Reservation:
        return require(
            self.db.reservations, code.strip().upper(), f"no reservation with code {code!r}"
        )

    def _owned(self, user_id: str, code: str) -> tuple[User, Reservation]:
        user, reservation = self._user(user_id), self._reservation(code)
        if reservation.user_id != user.user_id:
            raise ToolError(f"reservation {reservation.code} does not belong to user {user_id}")
        return user, reservation

    def _active(self, user_id: str, code: str) -> tuple[User, Reservation]:
        user, reservation = self._owned(user_id, code)
        if reservation.status != "active":
            raise ToolError(f"reservation {reservation.code} is already cancelled")
        return user, reservation

    def _airport(self, code: str) -> str:
        code = code.strip().upper()
        if code not in self.db.airports:
            raise ToolError(f"no airport {code!r}; use a three-letter code from list_airports")
        return code

    def _flight(self, number: str) -> Flight:
        return require(self.db.flights, number.strip().upper(), f"no flight {number!r}")

    def _day(self, flight: Flight, day: str) -> FlightDay:
        return require(
            self.db.flight_days,
            day_key(flight.number, day),
            f"{flight.number} has no record for {day}",
        )

    def _segment_day(self, segment: Segment) -> FlightDay:
        return self._day(self._flight(segment.flight_number), segment.date)

    def _sellable(self, flight: Flight, day: str, cabin: Cabin, count: int) -> FlightDay:
        """The day record of a flight that can still be booked for `count` seats in `cabin`."""
        record = self._day(flight, day)
        if record.status not in ("scheduled", "delayed") or record.seats is None:
            raise ToolError(f"{flight.number} on {day} is {record.status} and cannot be booked")
        if actual_departure(flight, day, record) <= NOW + BOOKING_CUTOFF:
            raise ToolError(f"{flight.number} on {day} departs within 2 hours and is closed")
        if record.seats.of(cabin) < count:
            raise ToolError(
                f"{flight.number} on {day} has {record.seats.of(cabin)} {cabin} seats left, "
                f"{count} needed"
            )
        return record

    def _fare(self, flight: Flight, day: str, cabin: Cabin, count: int) -> Decimal:
        """Today's fare per passenger of a flight that can be sold for `count` seats."""
        prices = self._sellable(flight, day, cabin, count).prices
        if prices is None:  # _sellable only returns days on sale, which have fares
            raise ToolError(f"{flight.number} on {day} has no fares")
        return prices.of(cabin)

    def _new_code(self) -> str:
        return reservation_code(self.db.reservations.__contains__, len(self.db.reservations))

    def _not_flown(self, reservation: Reservation) -> None:
        for segment in reservation.segments:
            if has_flown(self._segment_day(segment)):
                raise ToolError(
                    f"{segment.flight_number} on {segment.date} has already departed; a trip "
                    "that has started cannot be changed or cancelled here"
                )

    def _airline_cancelled(self, reservation: Reservation) -> bool:
        return any(self._segment_day(s).status == "cancelled" for s in reservation.segments)

    # -- money ---------------------------------------------------------------------------

    def _method(self, user: User, method_id: str) -> PaymentMethod:
        for method in user.payment_methods:
            if method.id == method_id.strip():
                return method
        raise ToolError(f"user {user.user_id} has no payment method {method_id!r}")

    def _set_balance(self, user: User, method: PaymentMethod, change: Decimal) -> User:
        """`user` with `change` added to the balance of a gift card or certificate."""
        methods = add_to_balance(user.payment_methods, method.id, method.kind, change)
        return user.model_copy(update={"payment_methods": methods})

    def _charge(
        self, user: User, method_id: str, amount: Decimal, purpose: PaymentPurpose
    ) -> tuple[User, Payment]:
        """Charge a credit card or gift card (certificates are applied only at booking)."""
        method = self._method(user, method_id)
        if method.kind == "certificate":
            raise ToolError(
                "travel certificates can only be applied to a new booking (certificate_id); "
                "use a credit card or gift card"
            )
        if method.kind == "gift_card":
            balance = method.balance or Decimal(0)
            if balance < amount:
                raise ToolError(
                    f"gift card {method.id} has {dollars(balance)} left, {dollars(amount)} needed"
                )
            user = self._set_balance(user, method, -amount)
        return user, Payment(payment_method_id=method.id, amount=amount, purpose=purpose)

    def _settle(
        self,
        user: User,
        reservation: Reservation,
        difference: Decimal,
        method_id: str | None,
        purpose: PaymentPurpose,
    ) -> tuple[User, tuple[Payment, ...]]:
        """Charge a positive price difference to `method_id`; refund a negative one to the
        reservation's original payment methods (the customer does not choose where)."""
        if difference > 0:
            if not method_id:
                raise ToolError(
                    f"a payment method is needed to pay the difference of {dollars(difference)}"
                )
            user, payment = self._charge(user, method_id, difference, purpose)
            return user, (payment,)
        if difference < 0:
            user, refunds = self._refund(user, reservation, -difference)
            return user, tuple(refunds)
        return user, ()

    def _refund(
        self, user: User, reservation: Reservation, amount: Decimal
    ) -> tuple[User, list[Payment]]:
        """Send `amount` back to the reservation's own payment methods (see `refund_plan`);
        gift cards and certificates get their balance back."""
        refunds = refund_plan(reservation.payments, amount)
        for refund in refunds:
            method = self._method(user, refund.payment_method_id)
            if method.kind != "credit_card":
                user = self._set_balance(user, method, -refund.amount)
        return user, refunds

    # -- seats ---------------------------------------------------------------------------

    def _move_seats(self, segments: tuple[Segment, ...], cabin: Cabin, change: int) -> None:
        """Add (release) or remove (take) seats on flights that are still on sale."""
        for segment in segments:
            key = day_key(segment.flight_number, segment.date)
            record = self.db.flight_days[key]
            if record.seats is not None:
                seats = record.seats.with_value(cabin, record.seats.of(cabin) + change)
                self.db.flight_days[key] = record.model_copy(update={"seats": seats})

    # -- views ---------------------------------------------------------------------------

    def _flight_view(self, flight: Flight, day: str) -> dict[str, Any]:
        record = self._day(flight, day)
        arrival = flight.arrival + (" (+1 day)" if flight.arrival_day_offset else "")
        view: dict[str, Any] = {
            "flight_number": flight.number,
            "date": day,
            "origin": flight.origin,
            "destination": flight.destination,
            "scheduled_departure": flight.departure,
            "scheduled_arrival": arrival,
            "status": record.status,
        }
        if record.delay_minutes:
            view["delay_minutes"] = record.delay_minutes
        if record.seats is not None and record.prices is not None:
            view["seats_left"] = record.seats.model_dump()
            view["prices"] = shown(record.prices)
        return view

    def _reservation_view(self, reservation: Reservation) -> dict[str, Any]:
        tier = self._user(reservation.user_id).tier
        flights = []
        for segment in reservation.segments:
            view = self._flight_view(self._flight(segment.flight_number), segment.date)
            view.pop("seats_left", None)
            view.pop("prices", None)
            flights.append({**view, "price_per_passenger": dollars(segment.price)})
        return {
            "reservation_code": reservation.code,
            "user_id": reservation.user_id,
            "status": reservation.status,
            "trip_type": reservation.trip_type,
            "origin": reservation.origin,
            "destination": reservation.destination,
            "cabin": reservation.cabin,
            "booked_at": reservation.created_at,
            "flights": flights,
            "passengers": [p.model_dump() for p in reservation.passengers],
            "checked_bags": reservation.checked_bags,
            "paid_bags": reservation.paid_bags,
            "free_bags_per_passenger": free_bags(reservation.cabin, tier),
            "travel_protection": reservation.travel_protection,
            "payments": [shown(p) for p in reservation.payments],
            "total_paid": dollars(reservation.paid),
            "cancellation_basis": reservation.cancellation_basis,
            "compensated_flights": list(reservation.compensated_flights),
        }


def dollars(amount: Decimal) -> int:
    """An amount as the airline's tools show it: a whole number of dollars (every fare, fee
    and balance is one, `rules.py`), which an agent's answer matches however it writes it
    ("245", "$245.00")."""
    whole = int(amount)
    if whole != amount:
        raise ValueError(f"{amount} is not a whole number of dollars")
    return whole


def shown(record: Record) -> dict[str, Any]:
    """A record as the tools show it: its fields in order, records within it shown the same
    way and amounts as whole `dollars`, where `model_dump` would write money as text."""
    return {name: _shown(getattr(record, name)) for name in type(record).model_fields}


def _shown(value: object) -> object:
    if isinstance(value, Record):
        return shown(value)
    if isinstance(value, tuple):
        return [_shown(v) for v in value]
    if isinstance(value, Decimal):
        return dollars(value)
    return value


def booked_at(reservation: Reservation) -> datetime:
    return datetime.fromisoformat(reservation.created_at)
