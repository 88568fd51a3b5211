"""Records and the database of the club's fan-services back office.

Dates are ISO strings ('2025-02-14'), times ISO minutes ('2025-02-15T19:30'). Money is a
Decimal kept to the cent and written as a string ('245.50').
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Literal

from tau_emotion.domains.basketball.rules import Zone
from tau_emotion.domains.common import Money, Transfer
from tau_emotion.domains.kit.records import Person
from tau_emotion.domains.state import DomainDB, Record

GameStatus = Literal["scheduled", "played", "cancelled", "postponed"]
Position = Literal["guard", "forward", "center"]
Category = Literal["jersey", "apparel", "headwear", "accessory"]
MerchStatus = Literal["processing", "shipped", "delivered", "cancelled"]
Flow = Literal["charge", "refund"]


class Settings(Record):
    """Per-database constants (one row, key 'club')."""

    club_name: str
    arena: str
    id_lead: str
    """Leading digit of every numeric id in this database, so two databases never share ids."""


class Customer(Person):
    zip_code: str
    member_since: str


class PaymentMethod(Record):
    id: str
    customer_id: str
    kind: Literal["card", "paypal"]
    label: str
    """How the customer knows it, e.g. 'Visa ending 4417' or 'PayPal (j.doe@...)'."""
    expires: str | None


class Team(Record):
    id: str
    name: str
    city: str
    is_home_club: bool


class Player(Record):
    id: str
    team_id: str
    first_name: str
    last_name: str
    number: int
    position: Position


class Game(Record):
    id: str
    opponent_id: str
    start: str
    premium: bool
    status: GameStatus
    rescheduled_to: str | None
    """New start of a postponed game; its tickets stay valid for it."""


class SeasonPass(Record):
    id: str
    customer_id: str
    zone: Zone
    seat: str
    price_paid: Money
    auto_renew: bool
    status: Literal["active", "cancelled"]


class TicketOrder(Record):
    id: str
    customer_id: str
    game_id: str
    zone: Zone
    seats: tuple[str, ...]
    unit_price: Money
    service_fees: Money
    total: Money
    payment_method_id: str
    status: Literal["active", "exchanged", "refunded"]
    exchanged_from: str | None
    placed: str


class Product(Record):
    id: str
    name: str
    category: Category
    price: Money
    sizes: tuple[str, ...]
    personalizable: bool


class MerchItem(Record):
    item_id: str
    product_id: str
    size: str
    price: Money
    personalization: str | None
    """Printed name and number on a jersey: such items are final sale."""
    status: Literal["ordered", "returned"]


class MerchOrder(Record):
    id: str
    customer_id: str
    items: tuple[MerchItem, ...]
    shipping: Money
    total: Money
    payment_method_id: str
    status: MerchStatus
    placed: str
    delivered: str | None


class Camp(Record):
    id: str
    name: str
    start: str
    end: str
    min_age: int
    max_age: int
    capacity: int
    price: Money


class CampRegistration(Record):
    id: str
    customer_id: str
    camp_id: str
    camper_name: str
    camper_birth_date: str
    price_paid: Money
    payment_method_id: str
    status: Literal["registered", "cancelled"]


class Transaction(Record):
    """A charge or refund on a payment method, tied to what it paid for."""

    id: str
    customer_id: str
    method_id: str
    kind: Flow
    amount: Money
    reference: str
    date: str


def registration(
    rid: str, customer_id: str, camp_id: str, camper: str, birth: str, price: Money, method: str
) -> CampRegistration:
    """A paid camp registration, as the shop writes it and the generated history does."""
    return CampRegistration(
        id=rid,
        customer_id=customer_id,
        camp_id=camp_id,
        camper_name=camper,
        camper_birth_date=birth,
        price_paid=price,
        payment_method_id=method,
        status="registered",
    )


def transaction(
    tid: str, customer_id: str, method_id: str, kind: Flow, amount: Money, ref: str, day: str
) -> Transaction:
    """One charge or refund, as the tools book it and the generated history does."""
    return Transaction(
        id=tid,
        customer_id=customer_id,
        method_id=method_id,
        kind=kind,
        amount=amount,
        reference=ref,
        date=day,
    )


class BasketballDB(DomainDB):
    settings: MutableMapping[str, Settings]
    customers: MutableMapping[str, Customer]
    payment_methods: MutableMapping[str, PaymentMethod]
    teams: MutableMapping[str, Team]
    players: MutableMapping[str, Player]
    games: MutableMapping[str, Game]
    season_passes: MutableMapping[str, SeasonPass]
    ticket_orders: MutableMapping[str, TicketOrder]
    products: MutableMapping[str, Product]
    merch_orders: MutableMapping[str, MerchOrder]
    camps: MutableMapping[str, Camp]
    camp_registrations: MutableMapping[str, CampRegistration]
    transactions: MutableMapping[str, Transaction]
    transfers: MutableMapping[str, Transfer]
