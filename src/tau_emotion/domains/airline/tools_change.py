"""Write tools that change an existing reservation: flights, cabin, bags, passengers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.airline.db import Passenger, Segment, fares
from tau_emotion.domains.airline.itinerary import check_itinerary
from tau_emotion.domains.airline.rules import BAG_FEE, MAX_BAGS_PER_PASSENGER, Cabin, free_bags
from tau_emotion.domains.airline.tools_base import dollars
from tau_emotion.domains.airline.tools_booking import BookingTools, FlightChoice, clean_passengers
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class ChangeTools(BookingTools):
    @tool("write")
    def change_flights(
        self,
        user_id: str,
        reservation_code: str,
        flights: list[FlightChoice],
        payment_method_id: str | None = None,
    ) -> dict[str, Any]:
        """Replace the flights of a reservation, keeping its origin, destination, trip type,
        cabin and passengers. Flights kept keep their fare; new flights are priced at today's
        fare. A higher total is charged to the given credit card or gift card, a lower one is
        refunded to the original payment methods. When the airline cancelled one of the
        reservation's flights, the fare difference is waived. The tool does not judge whether
        the fare allows the change; the policy does.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code.
            flights: The complete new list of flights in travel order, each with flight_number
                and date ('YYYY-MM-DD'), including flights that stay the same.
            payment_method_id: Credit card or gift card id, needed only when the change costs
                more.
        """
        user, reservation = self._active(user_id, reservation_code)
        self._not_flown(reservation)
        disrupted = self._airline_cancelled(reservation)
        legs = self._legs(flights)
        check_itinerary(legs, reservation.origin, reservation.destination, reservation.trip_type)
        count = len(reservation.passengers)
        kept = {(s.flight_number, s.date): s for s in reservation.segments}
        segments = tuple(
            kept.get((leg.flight.number, leg.day))
            or Segment(
                flight_number=leg.flight.number,
                date=leg.day,
                price=self._fare(leg.flight, leg.day, reservation.cabin, count),
            )
            for leg in legs
        )
        if segments == reservation.segments:
            raise ToolError("these are the flights the reservation already has")
        for segment in segments:
            if self._segment_day(segment).status == "cancelled":
                raise ToolError(
                    f"{segment.flight_number} on {segment.date} was cancelled by the airline; "
                    "replace it with a flight that operates"
                )
        difference = Decimal(0)
        if not disrupted:
            difference = (fares(segments) - fares(reservation.segments)) * count
        user, payments = self._settle(
            user, reservation, difference, payment_method_id, "flight_change"
        )
        dropped = tuple(s for s in reservation.segments if s not in segments)
        added = tuple(s for s in segments if s not in reservation.segments)
        self._move_seats(dropped, reservation.cabin, count)
        self._move_seats(added, reservation.cabin, -count)
        changed = self._save_paid(user, reservation, payments, segments=segments)
        return {**self._reservation_view(changed), "fare_difference": dollars(difference)}

    @tool("write")
    def change_cabin(
        self,
        user_id: str,
        reservation_code: str,
        cabin: Cabin,
        payment_method_id: str | None = None,
    ) -> dict[str, Any]:
        """Move every passenger on every flight of a reservation to another cabin, repriced at
        today's fares in that cabin. A higher total is charged to the given credit card or gift
        card; a lower one is refunded to the original payment methods. Basic is sold only at
        booking, so a reservation cannot move into basic.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code.
            cabin: The new cabin: 'economy', 'premium' or 'business'.
            payment_method_id: Credit card or gift card id, needed only when the change costs
                more.
        """
        user, reservation = self._active(user_id, reservation_code)
        self._not_flown(reservation)
        if cabin == reservation.cabin:
            raise ToolError(f"reservation {reservation.code} is already in {cabin}")
        if cabin == "basic":
            raise ToolError(
                "basic fares are sold only at booking; a reservation cannot move to basic"
            )
        if self._airline_cancelled(reservation):
            raise ToolError("one of its flights was cancelled by the airline; rebook that first")
        count = len(reservation.passengers)
        segments = tuple(
            s.model_copy(
                update={"price": self._fare(self._flight(s.flight_number), s.date, cabin, count)}
            )
            for s in reservation.segments
        )
        difference = (fares(segments) - fares(reservation.segments)) * count
        user, payments = self._settle(
            user, reservation, difference, payment_method_id, "cabin_change"
        )
        self._move_seats(reservation.segments, reservation.cabin, count)
        self._move_seats(segments, cabin, -count)
        changed = self._save_paid(user, reservation, payments, cabin=cabin, segments=segments)
        return {**self._reservation_view(changed), "price_difference": dollars(difference)}

    @tool("write")
    def update_baggage(
        self,
        user_id: str,
        reservation_code: str,
        checked_bags: int,
        payment_method_id: str | None = None,
    ) -> dict[str, Any]:
        """Set the number of checked bags on a reservation. Bags beyond the free allowance
        cost 40 each, charged to the given credit card or gift card; fewer bags refund nothing.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code.
            checked_bags: The new total of checked bags for the whole reservation.
            payment_method_id: Credit card or gift card id, needed only when new bags cost money.
        """
        user, reservation = self._active(user_id, reservation_code)
        self._not_flown(reservation)
        count = len(reservation.passengers)
        if checked_bags == reservation.checked_bags:
            raise ToolError(f"the reservation already has {checked_bags} checked bags")
        if checked_bags < 0:
            raise ToolError("checked_bags cannot be negative")
        if checked_bags > MAX_BAGS_PER_PASSENGER * count:
            raise ToolError(f"at most {MAX_BAGS_PER_PASSENGER} checked bags per passenger")
        allowance = free_bags(reservation.cabin, user.tier) * count
        paid_bags = max(reservation.paid_bags, checked_bags - allowance)
        fee = Decimal((paid_bags - reservation.paid_bags) * BAG_FEE)
        user, payments = self._settle(user, reservation, fee, payment_method_id, "bags")
        changed = self._save_paid(
            user, reservation, payments, checked_bags=checked_bags, paid_bags=paid_bags
        )
        return {**self._reservation_view(changed), "bag_fee": dollars(fee)}

    @tool("write")
    def update_passengers(
        self, user_id: str, reservation_code: str, passengers: list[Passenger]
    ) -> dict[str, Any]:
        """Correct or replace the travellers on a reservation. The number of passengers cannot
        change.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code.
            passengers: The complete new list, each with first_name, last_name and
                date_of_birth ('YYYY-MM-DD'), in the same number as before.
        """
        _, reservation = self._active(user_id, reservation_code)
        self._not_flown(reservation)
        travellers = clean_passengers(passengers)
        if len(travellers) != len(reservation.passengers):
            raise ToolError(
                f"the reservation has {len(reservation.passengers)} passengers; the number of "
                "passengers cannot change"
            )
        if travellers == reservation.passengers:
            raise ToolError("these are the passengers the reservation already has")
        changed = reservation.model_copy(update={"passengers": travellers})
        self.db.reservations[changed.code] = changed
        return self._reservation_view(changed)
