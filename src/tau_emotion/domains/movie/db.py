"""Records of the Lumen Cinemas back office: cinemas, showtimes, customers, bookings, passes.

Money is the kit's `Money` (a `Decimal` rounded to cents, written '12.50') so that refunds
and price differences are exact and a snapshot re-parsed from JSON hashes the same as the
generator's output.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import datetime
from decimal import Decimal
from typing import Literal

from tau_emotion.domains.common import Money
from tau_emotion.domains.kit.handoff import QueuedTicketTransfer
from tau_emotion.domains.state import DomainDB, Record

Transfer = QueuedTicketTransfer
"""A hand-off to a human agent (see `kit.handoff`)."""

NOW = datetime(2025, 6, 14, 15, 0)
"""The fixed 'current time' of the domain (also stated in policy.md)."""

Format = Literal["standard", "dolby", "imax"]
Rating = Literal["G", "PG", "PG-13", "R"]
TicketType = Literal["adult", "child", "senior"]
Plan = Literal["none", "club", "club_plus"]
PassType = Literal["five_film", "ten_film"]
BookingStatus = Literal["active", "cancelled", "used"]

ACCOUNT_CREDIT = "account_credit"
"""The payment method id that pays from (or refunds to) a customer's account credit."""


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Screen(Record):
    screen_id: str
    name: str
    format: Format
    rows: int
    seats_per_row: int
    premium_rows: tuple[str, ...]
    """Recliner rows at the back, sold with a surcharge."""


class Cinema(Record):
    cinema_id: str
    name: str
    city: str
    address: str
    screens: tuple[Screen, ...]


class Movie(Record):
    movie_id: str
    title: str
    rating: Rating
    runtime_min: int
    genre: str


class Showtime(Record):
    showtime_id: str
    movie_id: str
    cinema_id: str
    screen_id: str
    starts_at: str
    """Local time, ISO format without seconds, e.g. '2025-06-14T19:30'."""
    format: Format
    adult_price: Money
    status: Literal["scheduled", "cancelled"]
    incident: str | None
    """A technical problem staff logged during the screening, if any."""
    sold_elsewhere: tuple[str, ...]
    """Seats sold at the box office or to guests without an account."""


class Ticket(Record):
    seat: str
    ticket_type: TicketType
    price: Money
    """What was paid for this ticket, premium surcharge included."""


class ConcessionLine(Record):
    item_id: str
    quantity: int
    unit_price: Money
    """Price per item after the member discount."""


class Booking(Record):
    booking_code: str
    customer_id: str
    showtime_id: str
    tickets: tuple[Ticket, ...]
    concessions: tuple[ConcessionLine, ...]
    booking_fee: Money
    payment_method_id: str
    """A card or gift card id, 'account_credit', or a film pass id."""
    status: BookingStatus
    exchanged: bool
    incident_credit_issued: bool
    booked_at: str


class PaymentMethod(Record):
    payment_method_id: str
    kind: Literal["card", "gift_card"]
    label: str
    balance: Money | None
    """Gift cards only: what is left on the card."""


class Customer(Record):
    customer_id: str
    full_name: str
    email: str
    phone: str
    date_of_birth: str
    zip_code: str
    payment_methods: tuple[PaymentMethod, ...]
    account_credit: Money
    membership: Plan
    membership_renews_on: str | None


class FilmPass(Record):
    pass_id: str
    customer_id: str
    pass_type: PassType
    admissions_left: int
    purchased_on: str
    expires_on: str


class Payment(Record):
    """One line of the payment ledger: a charge (positive) or a refund (negative)."""

    payment_id: str
    customer_id: str
    payment_method_id: str
    amount: Money
    reference: str
    """The booking code, pass id or 'membership' this money was for."""
    description: str
    created_at: str


def payment(
    pid: str, customer_id: str, method_id: str, amount: Decimal, ref: str, text: str, at: str
) -> Payment:
    """One ledger line, as the tools book it and the generated history does."""
    return Payment(
        payment_id=pid,
        customer_id=customer_id,
        payment_method_id=method_id,
        amount=amount,
        reference=ref,
        description=text,
        created_at=at,
    )


class MovieDB(DomainDB):
    cinemas: MutableMapping[str, Cinema]
    movies: MutableMapping[str, Movie]
    showtimes: MutableMapping[str, Showtime]
    customers: MutableMapping[str, Customer]
    bookings: MutableMapping[str, Booking]
    passes: MutableMapping[str, FilmPass]
    payments: MutableMapping[str, Payment]
    transfers: MutableMapping[str, Transfer]
