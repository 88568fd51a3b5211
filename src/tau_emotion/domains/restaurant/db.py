"""Records of the restaurant group's back office: guests, tables, orders, events, complaints.

Free text never goes into a record that a tool writes (occasions, seating and complaint
categories are closed sets): the grade compares database hashes, and two agents that do the
same thing in different words must reach the same state.

Amounts are the kit's `Money` (a `Decimal` rounded to cents, written '12.50'): sums and
refunds stay exact, with no float error to round away.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Literal

from tau_emotion.domains.common import Money, money
from tau_emotion.domains.kit.handoff import StampedTransfer
from tau_emotion.domains.kit.records import Person
from tau_emotion.domains.state import DomainDB, Record

Transfer = StampedTransfer
"""A hand-off to a human agent (see `kit.handoff`)."""

Occasion = Literal["none", "birthday", "anniversary", "business", "celebration"]
Seating = Literal["no_preference", "indoor", "patio", "bar"]
ReservationStatus = Literal["booked", "completed", "no_show", "cancelled"]
Fulfillment = Literal["pickup", "delivery"]
OrderStatus = Literal["placed", "preparing", "ready", "out_for_delivery", "completed", "cancelled"]
RefundReason = Literal["missing_item", "wrong_item", "quality_issue"]
ComplaintCategory = Literal[
    "late_delivery", "food_quality", "staff_conduct", "cleanliness", "wait_time", "other"
]
EventPackage = Literal["cocktail", "dinner", "chefs_table"]
EventStatus = Literal["confirmed", "completed", "cancelled"]


class PaymentMethod(Record):
    id: str
    kind: Literal["credit_card", "gift_card"]
    brand: str
    """Card network for credit cards; 'house' for the restaurant's own gift cards."""
    last4: str
    balance: Money | None = None
    """Remaining value of a gift card; None for credit cards."""


class Customer(Person):
    street: str
    city: str
    zip_code: str
    member_since: str
    loyalty_tier: Literal["standard", "gold"]
    loyalty_points: int
    allergies: tuple[str, ...]
    payment_methods: tuple[PaymentMethod, ...]


class Room(Record):
    id: str
    name: str
    min_guests: int
    max_guests: int


class Location(Record):
    id: str
    name: str
    street: str
    city: str
    zip_code: str
    phone: str
    open_time: str
    close_time: str
    closed_on: tuple[str, ...]
    """Weekday names the location is closed."""
    covers_per_seating: int
    """Guests that can be booked into one half-hour seating."""
    delivery_zip_codes: tuple[str, ...]
    rooms: tuple[Room, ...]


class MenuItem(Record):
    id: str
    name: str
    category: Literal["starter", "main", "side", "dessert", "drink"]
    price: Money
    allergens: tuple[str, ...]
    dietary_tags: tuple[str, ...]
    unavailable_at: tuple[str, ...]
    """Location ids where the item is not on the menu today."""


class Reservation(Record):
    code: str
    customer_id: str
    location_id: str
    date: str
    time: str
    party_size: int
    occasion: Occasion
    seating: Seating
    status: ReservationStatus
    guarantee_payment_method_id: str | None
    created_at: str
    cancelled_at: str | None = None
    late_cancel_fee: Money = money(0)


class OrderLine(Record):
    item_id: str
    name: str
    quantity: int
    unit_price: Money
    refunded: bool = False


class Order(Record):
    number: str
    customer_id: str
    location_id: str
    fulfillment: Fulfillment
    delivery_address: str | None
    lines: tuple[OrderLine, ...]
    subtotal: Money
    delivery_fee: Money
    points_redeemed: int
    points_discount: Money
    total: Money
    payment_method_id: str
    status: OrderStatus
    placed_at: str
    promised_at: str
    completed_at: str | None
    refunded_amount: Money = money(0)


class Refund(Record):
    id: str
    order_number: str
    customer_id: str
    item_ids: tuple[str, ...]
    reason: RefundReason
    amount: Money
    payment_method_id: str
    created_at: str


class Complaint(Record):
    id: str
    customer_id: str
    category: ComplaintCategory
    location_id: str
    order_number: str | None
    points_awarded: int
    created_at: str


class PrivateEvent(Record):
    id: str
    customer_id: str
    location_id: str
    room_id: str
    date: str
    guests: int
    package: EventPackage
    price_per_guest: Money
    deposit: Money
    deposit_payment_method_id: str
    status: EventStatus
    created_at: str
    cancelled_at: str | None = None
    deposit_refund: Money = money(0)


class RestaurantDB(DomainDB):
    customers: MutableMapping[str, Customer]
    locations: MutableMapping[str, Location]
    menu_items: MutableMapping[str, MenuItem]
    reservations: MutableMapping[str, Reservation]
    orders: MutableMapping[str, Order]
    refunds: MutableMapping[str, Refund]
    complaints: MutableMapping[str, Complaint]
    private_events: MutableMapping[str, PrivateEvent]
    transfers: MutableMapping[str, Transfer]
