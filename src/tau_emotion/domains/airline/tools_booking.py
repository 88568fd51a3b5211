"""Write tools that create and cancel reservations."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict

from tau_emotion.domains.airline.db import (
    CancellationBasis,
    Passenger,
    Payment,
    Reservation,
    Segment,
    User,
    booking_price,
)
from tau_emotion.domains.airline.itinerary import Leg, check_itinerary
from tau_emotion.domains.airline.pools import is_valid_certificate
from tau_emotion.domains.airline.rules import (
    CANCEL_FEE,
    FREE_CANCEL_WINDOW,
    MAX_BAGS_PER_PASSENGER,
    MAX_PASSENGERS,
    NOW,
    PROTECTION_PER_PASSENGER,
    Cabin,
    TripType,
    free_bags,
)
from tau_emotion.domains.airline.tools_base import (
    AirlineBase,
    booked_at,
    dollars,
    parse_day,
    shown,
)
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class FlightChoice(BaseModel):
    """One flight of an itinerary: its number and departure date."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flight_number: str
    date: str


def clean_passengers(passengers: list[Passenger]) -> tuple[Passenger, ...]:
    """Validate travellers (count, names, past birth dates) and normalize their spelling."""
    if not 1 <= len(passengers) <= MAX_PASSENGERS:
        raise ToolError(f"a reservation holds 1 to {MAX_PASSENGERS} passengers")
    cleaned = []
    for p in passengers:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ToolError("every passenger needs a first and last name")
        try:
            born = date.fromisoformat(p.date_of_birth.strip())
        except ValueError:
            raise ToolError("passenger dates of birth must be 'YYYY-MM-DD'") from None
        if born >= NOW.date():
            raise ToolError(f"{p.date_of_birth} is not a past date of birth")
        cleaned.append(
            Passenger(
                first_name=p.first_name.strip(),
                last_name=p.last_name.strip(),
                date_of_birth=born.isoformat(),
            )
        )
    return tuple(cleaned)


class BookingTools(AirlineBase):
    def _save_paid(
        self, user: User, reservation: Reservation, payments: tuple[Payment, ...], **update: Any
    ) -> Reservation:
        """Store a change that moved money: the reservation with `update` and the charges or
        refunds it made, and the user as paying left them (a gift card balance may have moved)."""
        changed = reservation.model_copy(
            update={**update, "payments": reservation.payments + payments}
        )
        self.db.reservations[changed.code] = changed
        self.db.users[user.user_id] = user
        return changed

    def _legs(self, flights: list[FlightChoice]) -> list[Leg]:
        return [Leg(self._flight(f.flight_number), parse_day(f.date)) for f in flights]

    @tool("write")
    def book_reservation(
        self,
        user_id: str,
        origin: str,
        destination: str,
        trip_type: TripType,
        cabin: Cabin,
        flights: list[FlightChoice],
        passengers: list[Passenger],
        checked_bags: int,
        travel_protection: bool,
        payment_method_id: str,
        certificate_id: str | None = None,
    ) -> dict[str, Any]:
        """Book a new reservation at today's fares. Every flight must be on sale with enough
        seats in the cabin; all passengers fly in one cabin on all flights. An optional travel
        certificate is applied first; the rest is charged to a credit card or gift card.

        Args:
            user_id: The authenticated customer's user id.
            origin: Three-letter code of the trip's starting airport.
            destination: Three-letter code of the trip's destination airport.
            trip_type: 'one_way' or 'round_trip' (a round trip returns to the origin).
            cabin: 'basic', 'economy', 'premium' or 'business'.
            flights: The flights in travel order (outbound, then return), each with
                flight_number and date ('YYYY-MM-DD'); at most one stop each way.
            passengers: Each traveller's first_name, last_name and date_of_birth ('YYYY-MM-DD').
            checked_bags: Total checked bags for the whole reservation.
            travel_protection: Whether to add travel protection (30 per passenger).
            payment_method_id: Credit card or gift card id that pays what a certificate does
                not cover.
            certificate_id: Optional travel certificate id to apply first (one per booking).
        """
        user = self._user(user_id)
        travellers = clean_passengers(passengers)
        count = len(travellers)
        start, end = self._airport(origin), self._airport(destination)
        legs = self._legs(flights)
        check_itinerary(legs, start, end, trip_type)
        segments = tuple(
            Segment(
                flight_number=leg.flight.number,
                date=leg.day,
                price=self._fare(leg.flight, leg.day, cabin, count),
            )
            for leg in legs
        )
        if not 0 <= checked_bags <= MAX_BAGS_PER_PASSENGER * count:
            raise ToolError(f"checked bags must be 0 to {MAX_BAGS_PER_PASSENGER} per passenger")
        paid_bags = max(0, checked_bags - free_bags(cabin, user.tier) * count)
        total = booking_price(segments, count, paid_bags, travel_protection)
        payments: list[Payment] = []
        left = total
        if certificate_id:
            certificate = self._method(user, certificate_id)
            if not is_valid_certificate(certificate, NOW.date()) or not certificate.balance:
                raise ToolError(f"{certificate_id} is not a valid, unexpired travel certificate")
            applied = min(certificate.balance, total)
            user = self._set_balance(user, certificate, -applied)
            payments.append(
                Payment(payment_method_id=certificate.id, amount=applied, purpose="booking")
            )
            left -= applied
        # Charged even when a certificate covers everything, so the method is still validated.
        user, payment = self._charge(user, payment_method_id, left, "booking")
        if left:
            payments.append(payment)
        code = self._new_code()
        reservation = Reservation(
            code=code,
            user_id=user.user_id,
            origin=start,
            destination=end,
            trip_type=trip_type,
            cabin=cabin,
            segments=segments,
            passengers=travellers,
            checked_bags=checked_bags,
            paid_bags=paid_bags,
            travel_protection=travel_protection,
            payments=tuple(payments),
            created_at=NOW.isoformat(timespec="minutes"),
        )
        self.db.reservations[code] = reservation
        user = user.model_copy(update={"reservations": (*user.reservations, code)})
        self.db.users[user.user_id] = user
        self._move_seats(segments, cabin, -count)
        return {**self._reservation_view(reservation), "total_charged": dollars(total)}

    @tool("write")
    def cancel_reservation(self, user_id: str, reservation_code: str) -> dict[str, Any]:
        """Cancel a whole reservation and refund it to its original payment methods. The refund
        is in full within 24 hours of booking or when the airline cancelled one of its flights;
        with travel protection it is everything but the protection itself; otherwise the cabin's
        cancellation fee per passenger is withheld (a basic fare has no fee and is refunded in
        full). The tool does not judge whether the fare allows the cancellation; the policy does.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code.
        """
        user, reservation = self._active(user_id, reservation_code)
        self._not_flown(reservation)
        paid = reservation.paid
        count = len(reservation.passengers)
        basis: CancellationBasis
        if NOW - booked_at(reservation) <= FREE_CANCEL_WINDOW:
            basis, refund = "within_24_hours", paid
        elif self._airline_cancelled(reservation):
            basis, refund = "airline_cancellation", paid
        elif reservation.travel_protection:
            basis, refund = "travel_protection", paid - PROTECTION_PER_PASSENGER * count
        elif reservation.cabin == "basic":
            # The policy allows no such cancellation of a basic fare
            # (airline.basic_fare_no_cancellation); the tool does not judge. A basic fare has no
            # fee to withhold, and its basis says so rather than claim a fee of 0 was charged.
            basis, refund = "basic_fare_no_fee", paid
        else:
            basis, refund = "fee", paid - CANCEL_FEE[reservation.cabin] * count
        refund = max(Decimal(0), refund)
        user, refunds = self._refund(user, reservation, refund)
        cancelled = self._save_paid(
            user, reservation, tuple(refunds), status="cancelled", cancellation_basis=basis
        )
        self._move_seats(reservation.segments, reservation.cabin, len(reservation.passengers))
        return {
            "reservation_code": cancelled.code,
            "status": "cancelled",
            "cancellation_basis": basis,
            "total_refund": dollars(refund),
            "refunds": [shown(p) for p in refunds],
        }
