"""Seeded generator of the retail database: catalogue, customers, and a few months of orders.

Only `random.Random(SEED)` drives the choices, and every loop runs over tuples or sorted keys,
so the same code always writes the same snapshot (a test compares digests).
"""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from typing import TypeVar

from tau_emotion.domains.common import money, unique
from tau_emotion.domains.retail.catalog import TEMPLATES
from tau_emotion.domains.retail.db import (
    Address,
    Customer,
    ExchangeRequest,
    Item,
    Option,
    Order,
    OrderLine,
    OrderStatus,
    PaymentMethod,
    Product,
    RetailDB,
    ReturnRequest,
    Shipment,
    Transaction,
)
from tau_emotion.domains.retail.pools import (
    CARD_BRANDS,
    CARRIERS,
    CITIES,
    FIRST_NAMES,
    LAST_NAMES,
    STREETS,
)
from tau_emotion.domains.retail.rules import RETURN_WINDOW_DAYS, TODAY, add_days, days_between

R = TypeVar("R")

SEED = 20250515
N_CUSTOMERS = 480
PROMISE_DAYS = 6
"""Standard shipping promises delivery within this many days of the order."""


class _Ids:
    """Unique random numeric ids with a prefix, e.g. 'ORD-482913'."""

    def __init__(self, rng: random.Random, prefix: str, digits: int) -> None:
        self.rng, self.prefix, self.digits = rng, prefix, digits
        self.used: set[str] = set()

    def new(self) -> str:
        low, high = 10 ** (self.digits - 1), 10**self.digits
        return unique(self.used, lambda: f"{self.prefix}{self.rng.randrange(low, high)}")


def _catalogue(rng: random.Random) -> tuple[dict[str, Product], dict[str, Item]]:
    products: dict[str, Product] = {}
    items: dict[str, Item] = {}
    skus = _Ids(rng, "SKU-", 6)
    for index, template in enumerate(TEMPLATES):
        product_id = f"P-{1001 + index}"
        combos = list(itertools.product(*(axis.values for axis in template.axes)))
        # Not every combination is carried; keep at least three so exchanges have choices.
        carried = [c for c in combos if rng.random() < 0.85] or combos
        if len(carried) < 3:
            carried = combos
        item_ids: list[str] = []
        for combo in carried:
            item_id = skus.new()
            options = tuple(
                Option(name=axis.name, value=value)
                for axis, (value, _) in zip(template.axes, combo, strict=True)
            )
            # The templates price in integer cents; a record holds dollars (4999 -> 49.99).
            price = money(Decimal(template.base_cents + sum(delta for _, delta in combo)) / 100)
            items[item_id] = Item(
                id=item_id,
                product_id=product_id,
                options=options,
                price=price,
                available=rng.random() < 0.8,
            )
            item_ids.append(item_id)
        products[product_id] = Product(
            id=product_id,
            name=template.name,
            category=template.category,
            item_ids=tuple(item_ids),
        )
    return products, items


def _address(rng: random.Random, city: tuple[str, str, str, str]) -> Address:
    name, state, zip_prefix, _ = city
    line2 = rng.choice(("", "", "", f"Apt {rng.randint(1, 40)}{rng.choice('ABCD')}"))
    return Address(
        line1=f"{rng.randint(10, 9899)} {rng.choice(STREETS)}",
        line2=line2,
        city=name,
        state=state,
        zip_code=f"{zip_prefix}{rng.randint(0, 99):02d}",
    )


def _payment_methods(rng: random.Random, pm_ids: _Ids, email: str) -> tuple[PaymentMethod, ...]:
    methods: list[PaymentMethod] = []
    for _ in range(rng.choice((1, 1, 2))):
        last4 = f"{rng.randint(0, 9999):04d}"
        brand = rng.choice(CARD_BRANDS)
        methods.append(
            PaymentMethod(
                id=pm_ids.new().replace("PM", "card"), kind="card", label=f"{brand} ending {last4}"
            )
        )
    if rng.random() < 0.4:
        methods.append(
            PaymentMethod(
                id=pm_ids.new().replace("PM", "paypal"), kind="paypal", label=f"PayPal ({email})"
            )
        )
    if rng.random() < 0.35:
        last4 = f"{rng.randint(0, 9999):04d}"
        methods.append(
            PaymentMethod(
                id=pm_ids.new().replace("PM", "gift"),
                kind="gift_card",
                label=f"Gift card ending {last4}",
                balance=money(rng.randint(2, 60) * 5),
            )
        )
    # `randint` is drawn before `choice` picks, whichever amount it picks.
    credit = money(rng.choice((0, 0, 0, rng.randint(1, 16) * 5)))
    methods.append(
        PaymentMethod(
            id=pm_ids.new().replace("PM", "credit"),
            kind="store_credit",
            label="Store credit",
            balance=credit,
        )
    )
    return tuple(methods)


def _customers(rng: random.Random) -> list[Customer]:
    customers: list[Customer] = []
    emails: set[str] = set()
    phones: set[str] = set()
    name_zips: set[tuple[str, str, str]] = set()
    pm_ids = _Ids(rng, "PM_", 7)
    while len(customers) < N_CUSTOMERS:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        city = rng.choice(CITIES)
        address = _address(rng, city)
        key = (first, last, address.zip_code)
        if key in name_zips:
            continue  # full name + zip code must identify one customer
        handle = f"{first}.{last}".lower().replace("'", "")
        email = f"{handle}{rng.randint(1, 99)}@example.com"
        phone = f"{city[3]}-555-{rng.randint(100, 9999):04d}"
        if email in emails or phone in phones:
            continue
        name_zips.add(key)
        emails.add(email)
        phones.add(phone)
        birth = f"{rng.randint(1950, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        customers.append(
            Customer(
                id=f"CU-{10001 + len(customers)}",
                first_name=first,
                last_name=last,
                email=email,
                phone=phone,
                date_of_birth=birth,
                tier="gold" if rng.random() < 0.2 else "member",
                address=address,
                payment_methods=_payment_methods(rng, pm_ids, email),
                order_numbers=(),
            )
        )
    return customers


def _status(rng: random.Random, age: int, transit: int) -> OrderStatus:
    if age <= 2:
        return "pending" if rng.random() < 0.75 else "processing"
    if rng.random() < 0.07:
        return "cancelled"
    if age < transit:
        return "processing" if age <= 3 and rng.random() < 0.3 else "shipped"
    return "delivered"


class _OrderFactory:
    """Builds orders one at a time; keeps the running return and exchange numbering."""

    def __init__(
        self, rng: random.Random, products: dict[str, Product], items: dict[str, Item]
    ) -> None:
        self.rng, self.products, self.items = rng, products, items
        self.order_ids = _Ids(rng, "ORD-", 6)
        self.tracking = _Ids(rng, "1Z", 12)
        self.product_ids = sorted(products)
        self.returns: dict[str, ReturnRequest] = {}
        self.exchanges: dict[str, ExchangeRequest] = {}
        self.balances: dict[str, Decimal] = {}
        """Gift card balances left after the orders they paid for."""

    def build(self, customer: Customer) -> Order:
        rng = self.rng
        age = rng.randint(0, 3) if rng.random() < 0.2 else rng.randint(4, 150)
        placed = add_days(TODAY, -age)
        transit = rng.choice((2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8))
        status = _status(rng, age, transit)
        lines = tuple(
            self._line(pid) for pid in rng.sample(self.product_ids, rng.choice((1, 1, 2, 2, 3, 4)))
        )
        methods = [m for m in customer.payment_methods if m.kind != "store_credit"]
        method = rng.choice(methods)
        total = sum((line.price for line in lines), Decimal(0))
        if method.balance is not None:
            # A gift card pays only while its balance lasts; what it paid is gone from it.
            left = self.balances.get(method.id, method.balance)
            if left < total:
                method = rng.choice([m for m in methods if m.balance is None])
            elif status != "cancelled":
                self.balances[method.id] = left - total
        transactions = [
            Transaction(kind="charge", method_id=method.id, amount=total, note="order payment")
        ]
        address = customer.address if rng.random() < 0.9 else _address(rng, rng.choice(CITIES))
        order = Order(
            id=self.order_ids.new(),
            customer_id=customer.id,
            placed_on=placed,
            status=status,
            lines=lines,
            shipping_address=address,
            transactions=tuple(transactions),
            promised_by=add_days(placed, PROMISE_DAYS),
        )
        if status == "cancelled":
            refund = Transaction(
                kind="refund", method_id=method.id, amount=total, note="cancellation"
            )
            reason = rng.choice(("no longer needed", "ordered by mistake"))
            return order.model_copy(
                update={"transactions": (*transactions, refund), "cancel_reason": reason}
            )
        if status in ("shipped", "delivered"):
            shipment = Shipment(carrier=rng.choice(CARRIERS), tracking_number=self.tracking.new())
            order = order.model_copy(update={"shipment": shipment})
        if status == "delivered":
            delivered = add_days(placed, transit)
            order = order.model_copy(update={"delivered_on": delivered})
            if transit > PROMISE_DAYS and rng.random() < 0.25:
                order = order.model_copy(update={"late_credit": money("5.00")})
            if days_between(delivered, TODAY) <= RETURN_WINDOW_DAYS:
                order = self._maybe_after_sale(order, method, delivered)
        return order

    def _line(self, product_id: str) -> OrderLine:
        product = self.products[product_id]
        item = self.items[self.rng.choice(product.item_ids)]
        return OrderLine(
            item_id=item.id,
            product_id=product.id,
            name=product.name,
            options=item.options,
            price=item.price,
        )

    def _maybe_after_sale(self, order: Order, method: PaymentMethod, delivered: str) -> Order:
        """Some recent deliveries already have a return or an exchange in progress."""
        roll = self.rng.random()
        requested = add_days(delivered, self.rng.randint(1, max(1, days_between(delivered, TODAY))))
        requested = min(requested, TODAY)
        line = order.lines[0]
        method_id = method.id
        if roll < 0.08:
            return_id = f"RMA-{10001 + len(self.returns)}"
            self.returns[return_id] = ReturnRequest(
                id=return_id,
                order_number=order.id,
                item_ids=(line.item_id,),
                refund_amount=line.price,
                refund_method_id=method_id,
                requested_on=requested,
                status=self.rng.choice(("requested", "received")),
            )
            return order.model_copy(update={"status": "return_requested", "return_id": return_id})
        # Gift cards only take part in even exchanges, so their balances stay consistent.
        alternatives = [
            i
            for i in self.products[line.product_id].item_ids
            if i != line.item_id and (method.balance is None or self.items[i].price == line.price)
        ]
        if roll < 0.13 and alternatives:
            new_item = self.items[self.rng.choice(alternatives)]
            diff = new_item.price - line.price
            exchange_id = f"EXC-{10001 + len(self.exchanges)}"
            self.exchanges[exchange_id] = ExchangeRequest(
                id=exchange_id,
                order_number=order.id,
                item_ids=(line.item_id,),
                new_item_ids=(new_item.id,),
                price_difference=diff,
                payment_method_id=method_id if diff else None,
                requested_on=requested,
                status="requested",
            )
            update: dict[str, object] = {"status": "exchange_requested", "exchange_id": exchange_id}
            if diff:
                kind = "charge" if diff > 0 else "refund"
                extra = Transaction(
                    kind=kind,
                    method_id=method_id,
                    amount=abs(diff),
                    note="exchange difference",
                )
                update["transactions"] = (*order.transactions, extra)
            return order.model_copy(update=update)
        return order


def generate() -> RetailDB:
    """Build the whole retail database from the fixed seed."""
    rng = random.Random(SEED)
    products, items = _catalogue(rng)
    customers = _customers(rng)
    factory = _OrderFactory(rng, products, items)
    orders: dict[str, Order] = {}
    for index, customer in enumerate(customers):
        count = rng.choice((1, 1, 2, 2, 2, 3, 3, 3, 4, 5))
        built = sorted(
            (factory.build(customer) for _ in range(count)), key=lambda o: (o.placed_on, o.id)
        )
        for order in built:
            orders[order.id] = order
        methods = tuple(
            m.model_copy(update={"balance": factory.balances[m.id]})
            if m.id in factory.balances
            else m
            for m in customer.payment_methods
        )
        customers[index] = customer.model_copy(
            update={"order_numbers": tuple(o.id for o in built), "payment_methods": methods}
        )
    # Tables in key order: the snapshot is written with sorted keys, and the parsed snapshot
    # must have the same digest as a fresh generation.
    return RetailDB(
        customers=_sorted({c.id: c for c in customers}),
        products=_sorted(products),
        items=_sorted(items),
        orders=_sorted(orders),
        returns=_sorted(factory.returns),
        exchanges=_sorted(factory.exchanges),
        transfers={},
    )


def _sorted(table: dict[str, R]) -> dict[str, R]:
    return {key: table[key] for key in sorted(table)}
