"""Read tools: authentication lookups, account and reservation details, flight search."""

from __future__ import annotations

from datetime import date as calendar_date
from typing import Any

from tau_emotion.domains.airline.calculator import calculate as evaluate
from tau_emotion.domains.airline.db import User, day_key
from tau_emotion.domains.airline.itinerary import actual_departure, arrival_day, connects
from tau_emotion.domains.airline.rules import BOOKING_CUTOFF, CABINS, NOW
from tau_emotion.domains.airline.tools_base import AirlineBase, parse_day, shown
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, date_of_birth, zip_code
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)


def _born(text: str) -> str:
    try:
        return calendar_date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ToolError("date_of_birth must be 'YYYY-MM-DD', e.g. '1986-04-23'") from None


def _folded(text: str) -> str:
    return text.strip().casefold()


USERS: Lookups[AirlineBase, User] = Lookups(
    Directory(
        answer=lambda u: {"user_id": u.user_id},
        missing="no customer with that {what}",
        email_label="email",
    ),
    people=lambda tools: tools.db.users.values(),
)


class ReadTools(AirlineBase):
    find_user_by_email = USERS.email(DOCS["find_user_by_email"])
    find_user_by_name_and_birth_date = USERS.first_last_and(
        DOCS["find_user_by_name_and_birth_date"],
        date_of_birth(lambda u: u.date_of_birth, _born),
        fold=_folded,
    )
    find_user_by_name_and_zip = USERS.first_last_and(
        DOCS["find_user_by_name_and_zip"],
        zip_code(lambda u: u.address.zip_code),
        fold=_folded,
    )

    @tool("read")
    def get_user_details(self, user_id: str) -> dict[str, Any]:
        """Show an authenticated customer's profile: contact details, membership tier, payment
        methods (with gift card and certificate balances) and reservation codes.

        Args:
            user_id: The user id returned by an authentication lookup.
        """
        return shown(self._user(user_id))

    @tool("read")
    def get_reservation_details(self, reservation_code: str) -> dict[str, Any]:
        """Show a reservation: flights with their current status, cabin, passengers, bags,
        travel protection, payments and refunds.

        Args:
            reservation_code: The six-character booking code, e.g. 'Q7M2KX'.
        """
        return self._reservation_view(self._reservation(reservation_code))

    @tool("read")
    def list_airports(self) -> list[dict[str, str]]:
        """List the airports the airline serves, with their three-letter codes and cities."""
        return [a.model_dump() for a in self.db.airports.values()]

    @tool("read")
    def get_flight_status(self, flight_number: str, date: str) -> dict[str, Any]:
        """Show one flight on one date: schedule, status (scheduled, delayed, departed, landed,
        cancelled), delay, and seats and fares per cabin while it is still on sale.

        Args:
            flight_number: The flight number, e.g. 'LK482'.
            date: The departure date, 'YYYY-MM-DD'.
        """
        return self._flight_view(self._flight(flight_number), parse_day(date))

    @tool("read")
    def search_direct_flights(
        self, origin: str, destination: str, date: str
    ) -> list[dict[str, Any]]:
        """Find the nonstop flights between two airports on a date, with status, seats left and
        fares per passenger for each cabin (basic, economy, premium, business).

        Args:
            origin: Three-letter code of the departure airport, e.g. 'BOS'.
            destination: Three-letter code of the arrival airport, e.g. 'DEN'.
            date: The departure date, 'YYYY-MM-DD'.
        """
        start, end, day = self._airport(origin), self._airport(destination), parse_day(date)
        return [
            self._flight_view(f, day)
            for f in self.db.flights.values()
            if f.origin == start and f.destination == end
        ]

    @tool("read")
    def search_one_stop_flights(
        self, origin: str, destination: str, date: str
    ) -> list[dict[str, Any]]:
        """Find connections with exactly one stop between two airports, leaving on a date. Only
        connections whose two flights are both still on sale are listed, with the total fare per
        passenger for each cabin that has seats on both flights.

        Args:
            origin: Three-letter code of the departure airport, e.g. 'SAN'.
            destination: Three-letter code of the final arrival airport, e.g. 'BNA'.
            date: The departure date of the first flight, 'YYYY-MM-DD'.
        """
        start, end, day = self._airport(origin), self._airport(destination), parse_day(date)
        options: list[dict[str, Any]] = []
        for first in self.db.flights.values():
            if first.origin != start or first.destination == end:
                continue
            second_day = arrival_day(first, day)
            for second in self.db.flights.values():
                if second.origin != first.destination or second.destination != end:
                    continue
                if not connects(first, day, second, second_day):
                    continue
                legs = [(first, day), (second, second_day)]
                records = [self.db.flight_days.get(day_key(f.number, d)) for f, d in legs]
                if any(
                    r is None
                    or r.prices is None
                    or r.seats is None
                    or actual_departure(f, d, r) <= NOW + BOOKING_CUTOFF
                    for r, (f, d) in zip(records, legs, strict=True)
                ):
                    continue
                views = [self._flight_view(f, d) for f, d in legs]
                totals = {
                    c: views[0]["prices"][c] + views[1]["prices"][c]
                    for c in CABINS
                    if min(views[0]["seats_left"][c], views[1]["seats_left"][c]) > 0
                }
                options.append({"flights": views, "total_price_per_passenger": totals})
        return options

    @tool("read")
    def calculate(self, expression: str) -> str:
        """Evaluate an arithmetic expression with numbers, + - * / and parentheses, e.g.
        '(312 + 289) * 2 - 150'. The result is rounded to cents.

        Args:
            expression: The arithmetic expression.
        """
        return evaluate(expression)
