"""Records of the retail back office: customers, the catalogue, orders, returns and exchanges.

Amounts are the kit's `Money`, a cent-exact Decimal written "49.99", so every sum is exact;
tools render them the same way.
Dates are ISO strings ("2025-05-15"), which sort and compare like dates.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from decimal import Decimal
from typing import Literal

from pydantic import Field

from tau_emotion.domains.common import Money, Transfer
from tau_emotion.domains.kit.records import Person
from tau_emotion.domains.state import DomainDB, Record

PaymentKind = Literal["card", "gift_card", "store_credit", "paypal"]
OrderStatus = Literal[
    "pending",
    "processing",
    "shipped",
    "delivered",
    "cancelled",
    "return_requested",
    "exchange_requested",
]
CancelReason = Literal["no longer needed", "ordered by mistake"]


class Address(Record):
    line1: str
    line2: str = ""
    city: str
    state: str = Field(description="Two-letter US state code.")
    zip_code: str = Field(description="Five-digit US zip code.")
    country: str = "US"


class PaymentMethod(Record):
    id: str
    kind: PaymentKind
    label: str = Field(description="What the customer sees, e.g. 'Visa ending 4242'.")
    balance: Money | None = Field(
        default=None, description="Remaining balance; only gift cards and store credit have one."
    )


class Customer(Person):
    date_of_birth: str
    tier: Literal["member", "gold"]
    address: Address
    payment_methods: tuple[PaymentMethod, ...]
    order_numbers: tuple[str, ...]


class Option(Record):
    name: str
    value: str


class Item(Record):
    """One purchasable variant of a product (a SKU)."""

    id: str
    product_id: str
    options: tuple[Option, ...]
    price: Money
    available: bool


class Product(Record):
    id: str
    name: str
    category: str
    item_ids: tuple[str, ...]


class OrderLine(Record):
    item_id: str
    product_id: str
    name: str
    options: tuple[Option, ...]
    price: Money


class Transaction(Record):
    kind: Literal["charge", "refund"]
    method_id: str
    amount: Money
    note: str


class Shipment(Record):
    carrier: str
    tracking_number: str


class Order(Record):
    id: str
    customer_id: str
    placed_on: str
    status: OrderStatus
    lines: tuple[OrderLine, ...]
    shipping_address: Address
    transactions: tuple[Transaction, ...]
    promised_by: str
    shipment: Shipment | None = None
    delivered_on: str | None = None
    cancel_reason: CancelReason | None = None
    late_credit: Money = Decimal("0.00")
    return_id: str | None = None
    exchange_id: str | None = None


class ReturnRequest(Record):
    id: str
    order_number: str
    item_ids: tuple[str, ...]
    refund_amount: Money
    refund_method_id: str
    requested_on: str
    status: Literal["requested", "received", "refunded"]


class ExchangeRequest(Record):
    id: str
    order_number: str
    item_ids: tuple[str, ...]
    new_item_ids: tuple[str, ...]
    price_difference: Money = Field(
        description="New items minus old items: positive was charged, negative was refunded."
    )
    payment_method_id: str | None
    requested_on: str
    status: Literal["requested", "completed"]


class RetailDB(DomainDB):
    customers: MutableMapping[str, Customer]
    products: MutableMapping[str, Product]
    items: MutableMapping[str, Item]
    orders: MutableMapping[str, Order]
    returns: MutableMapping[str, ReturnRequest]
    exchanges: MutableMapping[str, ExchangeRequest]
    transfers: MutableMapping[str, Transfer]
