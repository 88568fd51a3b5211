"""Records of the airline's back office: airports, flights and their days, users, reservations.

Free text never goes into a record that a tool writes: the grade compares database hashes,
and two agents that do the same thing in different words must reach the same state.

Amounts are the kit's `Money`, always whole dollars; the tools show them as whole numbers
(`tools_base.dollars` and `tools_base.shown`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, MutableMapping
from decimal import Decimal
from typing import Generic, Literal, TypeVar

from tau_emotion.domains.airline.rules import (
    BAG_FEE,
    PROTECTION_PER_PASSENGER,
    Cabin,
    FlightStatus,
    Tier,
    TripType,
)
from tau_emotion.domains.common import Money
from tau_emotion.domains.kit.handoff import StampedTicketTransfer
from tau_emotion.domains.state import DomainDB, Record

Transfer = StampedTicketTransfer
"""A hand-off to a human agent (see `kit.handoff`)."""

CancellationBasis = Literal[
    "within_24_hours", "airline_cancellation", "travel_protection", "fee", "basic_fare_no_fee"
]
"""Why a cancellation refunded what it did. 'basic_fare_no_fee': a basic fare cancelled outside
the free cases, which the policy forbids but the tool carries out; it has no fee to withhold."""
PaymentPurpose = Literal["booking", "bags", "flight_change", "cabin_change", "refund"]


class Airport(Record):
    code: str
    name: str
    city: str


class Flight(Record):
    """A flight number as scheduled every day; what varies by day lives in `FlightDay`."""

    number: str
    origin: str
    destination: str
    departure: str
    """Scheduled departure, 'HH:MM' network time."""
    arrival: str
    """Scheduled arrival, 'HH:MM' network time."""
    arrival_day_offset: int
    """1 when the flight lands the day after it departs."""
    duration_minutes: int


V = TypeVar("V", int, Decimal)


class CabinValues(Record, Generic[V]):
    """One value per cabin: seats left (`Seats`) or a fare (`Fares`)."""

    basic: V
    economy: V
    premium: V
    business: V

    def of(self, cabin: Cabin) -> V:
        value: V = getattr(self, cabin)
        return value

    def with_value(self, cabin: Cabin, value: V) -> CabinValues[V]:
        return self.model_copy(update={cabin: value})


Seats = CabinValues[int]
Fares = CabinValues[Money]


class FlightDay(Record):
    """One flight on one date, keyed 'LK123/2025-06-14'. Seats and fares exist only while the
    flight can still be sold (scheduled or delayed, not yet departed)."""

    status: FlightStatus
    delay_minutes: int = 0
    seats: Seats | None = None
    prices: Fares | None = None


class PaymentMethod(Record):
    id: str
    kind: Literal["credit_card", "gift_card", "certificate"]
    label: str
    """What the customer would call it, e.g. 'Visa ending 4821'."""
    balance: Money | None = None
    """Remaining value of a gift card or travel certificate; None for credit cards."""
    expires: str | None = None
    """Last valid date of a travel certificate ('YYYY-MM-DD')."""


class Address(Record):
    street: str
    city: str
    state: str
    zip_code: str


class User(Record):
    user_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    date_of_birth: str
    address: Address
    tier: Tier
    payment_methods: tuple[PaymentMethod, ...]
    reservations: tuple[str, ...]


class Passenger(Record):
    first_name: str
    last_name: str
    date_of_birth: str


class Segment(Record):
    flight_number: str
    date: str
    """Departure date of this flight, 'YYYY-MM-DD'."""
    price: Money
    """Fare per passenger for this flight in the reservation's cabin."""


def fares(segments: Iterable[Segment]) -> Decimal:
    """One passenger's fares over `segments`."""
    return sum((s.price for s in segments), Decimal(0))


def booking_price(
    segments: Iterable[Segment], passengers: int, paid_bags: int, protection: bool
) -> Decimal:
    """What a new booking costs: every fare for every passenger, the bags beyond the free
    allowance, and travel protection if taken (the booking tool and the generator agree)."""
    return (
        fares(segments) * passengers
        + paid_bags * BAG_FEE
        + (PROTECTION_PER_PASSENGER * passengers if protection else 0)
    )


class Payment(Record):
    payment_method_id: str
    amount: Money
    """Positive: charged to the method. Negative: refunded to it."""
    purpose: PaymentPurpose


def refund_plan(payments: tuple[Payment, ...], amount: Decimal) -> list[Payment]:
    """Refund payments that send `amount` back to the methods that paid, the method charged
    first last, never more to one method than it was net charged."""
    net: dict[str, Decimal] = {}
    for payment in payments:
        net[payment.payment_method_id] = (
            net.get(payment.payment_method_id, Decimal(0)) + payment.amount
        )
    refunds: list[Payment] = []
    left = amount
    for method_id in reversed(list(net)):
        part = min(left, net[method_id])
        if part > 0:
            refunds.append(Payment(payment_method_id=method_id, amount=-part, purpose="refund"))
            left -= part
    return refunds


class Reservation(Record):
    code: str
    user_id: str
    origin: str
    destination: str
    trip_type: TripType
    cabin: Cabin
    segments: tuple[Segment, ...]
    passengers: tuple[Passenger, ...]
    checked_bags: int
    paid_bags: int
    """How many of the checked bags were paid for (never decreases)."""
    travel_protection: bool
    payments: tuple[Payment, ...]
    created_at: str
    """'YYYY-MM-DDTHH:MM' network time."""
    status: Literal["active", "cancelled"] = "active"
    cancellation_basis: CancellationBasis | None = None
    compensated_flights: tuple[str, ...] = ()
    """'LK123/2025-06-14' for each flight a compensation certificate was issued for."""

    @property
    def paid(self) -> Decimal:
        """What the customer paid for it, net of refunds."""
        return sum((p.amount for p in self.payments), Decimal(0))


class AirlineDB(DomainDB):
    airports: MutableMapping[str, Airport]
    flights: MutableMapping[str, Flight]
    flight_days: MutableMapping[str, FlightDay]
    users: MutableMapping[str, User]
    reservations: MutableMapping[str, Reservation]
    transfers: MutableMapping[str, Transfer]


def day_key(flight_number: str, day: str) -> str:
    return f"{flight_number}/{day}"


_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def reservation_code(taken: Callable[[str], bool], serial: int) -> str:
    """A six-character booking code, derived from a serial number (not from time or `hash`)
    so that the generator and two agents making the same booking all get the same code."""
    rng = random.Random(f"larkspur-reservation-{serial}")
    while True:
        code = "".join(rng.choice(_CODE_ALPHABET) for _ in range(6))
        if not taken(code):
            return code
