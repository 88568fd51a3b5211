"""The seeded generator of the airline database (`generate()` writes what db.json holds)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

from tau_emotion.domains.airline import network, pools
from tau_emotion.domains.airline.db import (
    AirlineDB,
    CancellationBasis,
    Flight,
    FlightDay,
    Passenger,
    Payment,
    Reservation,
    Segment,
    User,
    booking_price,
    day_key,
    refund_plan,
    reservation_code,
)
from tau_emotion.domains.airline.itinerary import Leg, arrival_day, connects, departure_at
from tau_emotion.domains.airline.rules import (
    CANCEL_FEE,
    MAX_BAGS_PER_PASSENGER,
    NOW,
    PROTECTION_PER_PASSENGER,
    Cabin,
    free_bags,
)
from tau_emotion.domains.base import write_snapshot

SEED = 20250612
USERS = 500
SNAPSHOT = Path(__file__).with_name("db.json")

_CABIN_WEIGHTS: tuple[tuple[Cabin, int], ...] = (
    ("basic", 20), ("economy", 48), ("premium", 16), ("business", 16)
)  # fmt: skip


class _Network:
    """Indexes of the schedule that the reservation generator needs."""

    def __init__(self, flights: dict[str, Flight], days: dict[str, FlightDay]) -> None:
        self.flights = flights
        self.days = days
        self.by_route: dict[tuple[str, str], list[Flight]] = {}
        for flight in flights.values():
            self.by_route.setdefault((flight.origin, flight.destination), []).append(flight)
        self.routes = sorted(self.by_route)
        codes = sorted({f.origin for f in flights.values()})
        self.indirect = [
            (a, b) for a in codes for b in codes if a != b and (a, b) not in self.by_route
        ]

    def trip(self, rng: random.Random, origin: str, destination: str, day: str) -> list[Leg]:
        """A direct flight, or else a one-stop connection via a hub; [] if none that day."""
        direct = self.by_route.get((origin, destination), [])
        if direct:
            return [Leg(rng.choice(direct), day)]
        options: list[list[Leg]] = []
        for hub in network.HUBS:
            for first in self.by_route.get((origin, hub), []):
                second_day = arrival_day(first, day)
                for second in self.by_route.get((hub, destination), []):
                    if day_key(second.number, second_day) in self.days and connects(
                        first, day, second, second_day
                    ):
                        options.append([Leg(first, day), Leg(second, second_day)])
        return rng.choice(options) if options else []


def _price(rng: random.Random, net: _Network, leg: Leg, cabin: Cabin) -> int:
    record = net.days[day_key(leg.flight.number, leg.day)]
    if record.prices is not None:
        return round(float(record.prices.of(cabin)) * rng.uniform(0.85, 1.05))
    return round(network.base_fare(leg.flight, cabin) * rng.uniform(0.9, 1.3))


def _created_at(rng: random.Random, first_departure: datetime) -> datetime:
    if first_departure > NOW + timedelta(days=1) and rng.random() < 0.05:
        return NOW - timedelta(minutes=rng.randrange(60, 23 * 60, 5))  # booked yesterday
    latest = min(first_departure - timedelta(hours=26), NOW - timedelta(hours=25))
    return latest - timedelta(minutes=rng.randrange(0, 45 * 24 * 60, 5))


def _payments(rng: random.Random, user: User, total: Decimal) -> tuple[Payment, ...]:
    cards = [m for m in user.payment_methods if m.kind == "credit_card"]
    gifts = [m for m in user.payment_methods if m.kind == "gift_card"]
    certs = [m for m in user.payment_methods if m.kind == "certificate"]
    r = rng.random()
    if gifts and r < 0.15:
        return (Payment(payment_method_id=gifts[0].id, amount=total, purpose="booking"),)
    if certs and r > 0.88:
        part = min(total, Decimal(rng.randrange(50, 250, 25)))
        paid = [Payment(payment_method_id=certs[0].id, amount=part, purpose="booking")]
        if total > part:
            paid.append(
                Payment(
                    payment_method_id=rng.choice(cards).id, amount=total - part, purpose="booking"
                )
            )
        return tuple(paid)
    return (Payment(payment_method_id=rng.choice(cards).id, amount=total, purpose="booking"),)


def _reservation(rng: random.Random, net: _Network, user: User, code: str) -> Reservation | None:
    days = network.operating_days()
    out_day = rng.choice(days)
    round_trip = rng.random() < 0.45 and out_day + timedelta(days=2) < days[-1]
    origin, destination = rng.choice(net.routes if rng.random() < 0.55 else net.indirect)
    legs = net.trip(rng, origin, destination, out_day.isoformat())
    if round_trip and legs:
        back = min(out_day + timedelta(days=rng.randint(2, 7)), days[-1] - timedelta(days=1))
        inbound = net.trip(rng, destination, origin, back.isoformat())
        legs = legs + inbound if inbound else []
    if not legs or any(day_key(leg.flight.number, leg.day) not in net.days for leg in legs):
        return None
    cabin = rng.choices([c for c, _ in _CABIN_WEIGHTS], [w for _, w in _CABIN_WEIGHTS])[0]
    count = rng.choices((1, 2, 3, 4), (60, 25, 10, 5))[0]
    passengers = [pools.random_passenger(rng) for _ in range(count)]
    if rng.random() < 0.8:
        passengers[0] = Passenger(
            first_name=user.first_name, last_name=user.last_name, date_of_birth=user.date_of_birth
        )
    segments = tuple(
        Segment(flight_number=leg.flight.number, date=leg.day, price=_price(rng, net, leg, cabin))
        for leg in legs
    )
    allowance = free_bags(cabin, user.tier) * count
    bags = min(rng.randint(0, allowance + 1), MAX_BAGS_PER_PASSENGER * count)
    paid_bags = max(0, bags - allowance)
    protection = rng.random() < 0.3
    total = booking_price(segments, count, paid_bags, protection)
    first_departure = departure_at(legs[0].flight, legs[0].day)
    created = _created_at(rng, first_departure)
    payments = _payments(rng, user, total)
    reservation = Reservation(
        code=code,
        user_id=user.user_id,
        origin=origin,
        destination=destination,
        trip_type="round_trip" if round_trip else "one_way",
        cabin=cabin,
        segments=segments,
        passengers=tuple(passengers),
        checked_bags=bags,
        paid_bags=paid_bags,
        travel_protection=protection,
        payments=payments,
        created_at=created.isoformat(timespec="minutes"),
    )
    if cabin != "basic" and first_departure > NOW and rng.random() < 0.07:
        return _cancelled(reservation, total)
    return reservation


def _cancelled(reservation: Reservation, total: Decimal) -> Reservation:
    """A reservation the customer already cancelled and was refunded for."""
    count = len(reservation.passengers)
    basis: CancellationBasis
    if reservation.travel_protection:
        basis, refund = "travel_protection", total - PROTECTION_PER_PASSENGER * count
    else:
        basis, refund = "fee", max(Decimal(0), total - CANCEL_FEE[reservation.cabin] * count)
    refunds = refund_plan(reservation.payments, refund)
    return reservation.model_copy(
        update={
            "status": "cancelled",
            "cancellation_basis": basis,
            "payments": reservation.payments + tuple(refunds),
        }
    )


def generate(seed: int = SEED) -> AirlineDB:
    rng = random.Random(seed)
    flights = network.flights(rng)
    days = network.flight_days(rng, flights)
    net = _Network(flights, days)
    users = pools.users(rng, USERS)
    reservations: dict[str, Reservation] = {}
    for user_id, user in users.items():
        codes: list[str] = []
        wanted = rng.choices((2, 3, 4, 5, 6), (1, 2, 3, 3, 2))[0]
        for _ in range(3 * wanted):  # a random route may have no flight that day: retry
            if len(codes) == wanted:
                break
            code = reservation_code(reservations.__contains__, len(reservations))
            reservation = _reservation(rng, net, user, code)
            if reservation is not None:
                reservations[code] = reservation
                codes.append(code)
        users[user_id] = user.model_copy(update={"reservations": tuple(codes)})
    # Tables in key order: the snapshot is written with sorted keys, so this makes the
    # generated database and the parsed snapshot hash the same.
    return AirlineDB(
        airports=dict(sorted(network.airports().items())),
        flights=dict(sorted(flights.items())),
        flight_days=dict(sorted(days.items())),
        users=dict(sorted(users.items())),
        reservations=dict(sorted(reservations.items())),
        transfers={},
    )


def main() -> None:
    write_snapshot(generate(), SNAPSHOT)


if __name__ == "__main__":
    main()
