"""Records of the tour operator's back office: customers, the catalogue, bookings, insurance.

Free text never goes into a record a tool writes (reasons and claim types are closed sets,
names are normalised): the grade compares database hashes, and two agents that do the same
thing in different words must reach the same state.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from decimal import Decimal
from typing import Literal

from tau_emotion.domains.common import Money
from tau_emotion.domains.kit.handoff import StampedTransfer
from tau_emotion.domains.kit.records import Person
from tau_emotion.domains.state import DomainDB, Record

Transfer = StampedTransfer
"""A hand-off to a human agent (see `kit.handoff`)."""

Fare = Literal["saver", "standard", "flexible"]
BookingStatus = Literal["confirmed", "completed", "cancelled"]
CancelReason = Literal["change_of_plans", "illness", "bereavement", "work", "other"]
Plan = Literal["basic", "premium"]
ClaimType = Literal["medical", "baggage", "trip_delay", "trip_cancellation"]


class PaymentMethod(Record):
    id: str
    kind: Literal["credit_card", "travel_credit"]
    brand: str
    """Card network, or 'voucher' for travel credit."""
    last4: str
    balance: Money | None = None
    """Remaining travel credit; None for credit cards."""


class Customer(Person):
    date_of_birth: str
    zip_code: str
    member_since: str
    payment_methods: tuple[PaymentMethod, ...]


class RoomType(Record):
    code: str
    name: str
    occupancy: int
    supplement_per_night: Money
    """Added per room per night to the travellers' package prices."""


class Hotel(Record):
    id: str
    name: str
    city: str
    stars: int
    room_types: tuple[RoomType, ...]


class Package(Record):
    id: str
    name: str
    destination: str
    country: str
    nights: int
    hotel_id: str
    adults_only: bool
    highlights: str


class Departure(Record):
    id: str
    package_id: str
    start_date: str
    end_date: str
    base_price: Money
    """Standard-fare adult price per person; saver and flexible fares are derived from it."""
    seats_total: int


class Tour(Record):
    id: str
    destination: str
    name: str
    weekdays: tuple[str, ...]
    duration_hours: float
    price_per_person: Money
    min_age: int
    capacity: int
    """Travellers per tour per day."""


class Traveller(Record):
    id: str
    full_name: str
    date_of_birth: str
    price: Money
    """Package price paid for this traveller (fare, child rate)."""


class TourBooking(Record):
    tour_id: str
    date: str
    traveller_ids: tuple[str, ...]
    total: Money


class Booking(Record):
    code: str
    customer_id: str
    package_id: str
    departure_id: str
    fare: Fare
    room_type: str
    rooms: int
    travellers: tuple[Traveller, ...]
    tours: tuple[TourBooking, ...]
    package_price: Money
    """Travellers' prices plus room supplements."""
    fees: Money
    """Change fees charged so far."""
    amount_paid: Money
    """Everything charged for this booking except insurance."""
    amount_refunded: Money
    payment_method_id: str
    status: BookingStatus
    created_at: str
    cancelled_at: str | None = None
    cancel_reason: CancelReason | None = None


def new_booking(
    code: str,
    customer_id: str,
    dep: Departure,
    fare: Fare,
    room: RoomType,
    rooms: int,
    travellers: tuple[Traveller, ...],
    price: Decimal,
    method_id: str,
    created_at: str,
) -> Booking:
    """A confirmed booking charged its package price, as `book_package` writes it; the generated
    history starts from the same record and adds the tours bought with it."""
    return Booking(
        code=code,
        customer_id=customer_id,
        package_id=dep.package_id,
        departure_id=dep.id,
        fare=fare,
        room_type=room.code,
        rooms=rooms,
        travellers=travellers,
        tours=(),
        package_price=price,
        fees=Decimal("0.00"),
        amount_paid=price,
        amount_refunded=Decimal("0.00"),
        payment_method_id=method_id,
        status="confirmed",
        created_at=created_at,
    )


class InsurancePolicy(Record):
    id: str
    booking_code: str
    customer_id: str
    plan: Plan
    premium: Money
    payment_method_id: str
    purchased_at: str


class Claim(Record):
    id: str
    policy_id: str
    booking_code: str
    customer_id: str
    claim_type: ClaimType
    incident_date: str
    amount_claimed: Money
    payout: Money
    status: Literal["submitted", "approved", "paid", "rejected"]
    created_at: str


class TravelDB(DomainDB):
    customers: MutableMapping[str, Customer]
    hotels: MutableMapping[str, Hotel]
    packages: MutableMapping[str, Package]
    departures: MutableMapping[str, Departure]
    tours: MutableMapping[str, Tour]
    bookings: MutableMapping[str, Booking]
    insurance_policies: MutableMapping[str, InsurancePolicy]
    claims: MutableMapping[str, Claim]
    transfers: MutableMapping[str, Transfer]
