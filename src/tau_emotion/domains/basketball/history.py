"""The club's sales up to "now": ticket orders (with refunds for the cancelled and postponed
games and a few earlier exchanges), team-store orders and camp registrations, each with the
charges and refunds it caused."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from tau_emotion.domains.basketball.builder import Builder
from tau_emotion.domains.basketball.catalog import (
    CAMPS,
    FREE_SHIPPING_FROM,
    PERSONALIZATION_FEE,
    PRODUCTS,
    SHIPPING,
)
from tau_emotion.domains.basketball.db import (
    Camp,
    Game,
    MerchItem,
    MerchOrder,
    MerchStatus,
    Product,
    TicketOrder,
    registration,
)
from tau_emotion.domains.basketball.pools import CHILD_NAMES
from tau_emotion.domains.basketball.rules import (
    EXCHANGE_FEE,
    SERVICE_FEE,
    SIBLING_DISCOUNT,
    TODAY,
    ZONES,
    Zone,
    age_on,
    pass_price,
    seat_label,
    single_price,
)
from tau_emotion.domains.common import money

MERCH_ORDERS = 380
SEASON_START = date(2024, 8, 1)


class SeatMap:
    """Next free seat per (game, zone); passes hold the lowest numbers."""

    def __init__(self, b: Builder) -> None:
        self.next: dict[tuple[str, Zone], int] = {}
        self.passes: dict[Zone, int] = {}
        for p in b.db.season_passes.values():
            self.passes[p.zone] = self.passes.get(p.zone, 0) + 1

    def _first_free(self, game_id: str, zone: Zone) -> int:
        return self.next.get((game_id, zone), self.passes.get(zone, 0) + 1)

    def take(self, game_id: str, zone: Zone, count: int) -> list[str]:
        start = self._first_free(game_id, zone)
        self.next[(game_id, zone)] = start + count
        return [seat_label(zone, n) for n in range(start, start + count)]

    def left(self, game_id: str, zone: Zone) -> int:
        return ZONES[zone].capacity + 1 - self._first_free(game_id, zone)


def _fill(game: Game, zone: Zone, b: Builder) -> float:
    """How full a zone is: sell-outs for the big remaining games, busier past games."""
    if game.premium and game.status == "scheduled":
        return {"courtside": 1.0, "lower": 0.9}.get(zone, b.rng.uniform(0.4, 0.8))
    if game.status == "scheduled":
        return b.rng.uniform(0.15, 0.7)
    return b.rng.uniform(0.5, 0.95)


def add_tickets(b: Builder) -> None:
    rng = b.rng
    seats = SeatMap(b)
    holders = {p.customer_id for p in b.db.season_passes.values()}
    customers = list(b.db.customers)
    games: list[Game] = list(b.db.games.values())
    held: dict[tuple[str, str], int] = {}
    for game in games:
        for zone in ZONES:
            target = int(seats.left(game.id, zone) * _fill(game, zone, b))
            while target > 0:
                count = min(target, rng.choice([1, 2, 2, 2, 3, 4, 4, 5, 6]))
                cid = rng.choice(customers)
                if held.get((cid, game.id), 0) + count > 8:
                    continue
                held[(cid, game.id)] = held.get((cid, game.id), 0) + count
                target -= count
                _order(b, game, zone, seats.take(game.id, zone, count), cid, cid in holders)
    _exchanges(b, seats, holders)


def _order(
    b: Builder,
    game: Game,
    zone: Zone,
    seats: list[str],
    cid: str,
    holder: bool,
    exchanged_from: TicketOrder | None = None,
) -> TicketOrder:
    rng = b.rng
    unit = single_price(zone, game.premium)
    unit = pass_price(unit) if holder else unit
    fees = SERVICE_FEE * len(seats)
    method = rng.choice(b.methods_of(cid))
    game_day = datetime.fromisoformat(game.start).date()
    placed = max(SEASON_START, min(game_day, TODAY) - timedelta(days=rng.randint(1, 50)))
    if exchanged_from is not None:
        unit = max(unit, exchanged_from.unit_price)
        fees = exchanged_from.service_fees
        method = b.db.payment_methods[exchanged_from.payment_method_id]
        placed = min(TODAY - timedelta(days=1), placed)
    oid = b.new_id("TO", b.db.ticket_orders)
    order = TicketOrder(
        id=oid,
        customer_id=cid,
        game_id=game.id,
        zone=zone,
        seats=tuple(seats),
        unit_price=unit,
        service_fees=fees,
        total=unit * len(seats) + fees,
        payment_method_id=method.id,
        status="active",
        exchanged_from=None if exchanged_from is None else exchanged_from.id,
        placed=placed.isoformat(),
    )
    if exchanged_from is None:
        b.charge(cid, method.id, "charge", order.total, oid, order.placed)
    if game.status in ("cancelled", "postponed") and rng.random() < 0.3:
        refund = order.total if game.status == "cancelled" else order.total - fees
        order = order.model_copy(update={"status": "refunded"})
        b.charge(cid, method.id, "refund", refund, oid, (TODAY - timedelta(days=3)).isoformat())
    b.db.ticket_orders[oid] = order
    return order


def _exchanges(b: Builder, seats: SeatMap, holders: set[str]) -> None:
    """A few orders for past games were exchanged (in time) to games still to come."""
    rng = b.rng
    games = b.db.games
    upcoming = [g for g in games.values() if g.status == "scheduled" and not g.premium]
    played = [
        o
        for o in b.db.ticket_orders.values()
        if games[o.game_id].status == "played" and o.status == "active"
    ]
    for old in rng.sample(played, 10):
        game = rng.choice(upcoming)
        if seats.left(game.id, old.zone) < len(old.seats):
            continue
        b.db.ticket_orders[old.id] = old.model_copy(update={"status": "exchanged"})
        new = _order(
            b,
            game,
            old.zone,
            seats.take(game.id, old.zone, len(old.seats)),
            old.customer_id,
            old.customer_id in holders,
            exchanged_from=old,
        )
        fee = Decimal("0.00") if old.customer_id in holders else EXCHANGE_FEE * len(old.seats)
        due = (new.unit_price - old.unit_price) * len(old.seats) + fee
        if due > 0:
            b.charge(old.customer_id, new.payment_method_id, "charge", due, new.id, new.placed)


def add_merch(b: Builder) -> None:
    rng = b.rng
    products = b.db.products
    for spec in PRODUCTS:
        pid = b.new_id("P", b.db.products)
        products[pid] = Product(
            id=pid,
            name=spec.name,
            category=spec.category,
            price=Decimal(spec.price),
            sizes=spec.sizes,
            personalizable=spec.personalizable,
        )
    roster = list(b.db.players.values())
    customers = list(b.db.customers)
    span = (TODAY - date(2024, 9, 15)).days
    for _ in range(MERCH_ORDERS):
        cid = rng.choice(customers)
        placed = date(2024, 9, 15) + timedelta(days=rng.randint(0, span - 1))
        oid = b.new_id("MO", b.db.merch_orders)
        items = []
        for n in range(rng.choice([1, 1, 1, 2, 2, 3])):
            product = rng.choice(list(products.values()))
            text = None
            price = product.price
            if product.personalizable and rng.random() < 0.35:
                player = rng.choice(roster)
                text = f"{player.last_name.upper()} {player.number}"
                price += Decimal(PERSONALIZATION_FEE)
            items.append(
                MerchItem(
                    item_id=f"{oid}-{n + 1}",
                    product_id=product.id,
                    size=rng.choice(product.sizes),
                    price=price,
                    personalization=text,
                    status="ordered",
                )
            )
        subtotal = sum((i.price for i in items), Decimal("0.00"))
        shipping = Decimal("0.00") if subtotal >= Decimal(FREE_SHIPPING_FROM) else Decimal(SHIPPING)
        age = (TODAY - placed).days
        delivered = placed + timedelta(days=rng.randint(4, 7))
        status: MerchStatus = (
            "processing" if age <= 2 else "shipped" if delivered >= TODAY else "delivered"
        )
        if status == "delivered" and rng.random() < 0.04:
            status = "cancelled"
        method = rng.choice(b.methods_of(cid))
        order = MerchOrder(
            id=oid,
            customer_id=cid,
            items=tuple(items),
            shipping=shipping,
            total=subtotal + shipping,
            payment_method_id=method.id,
            status=status,
            placed=placed.isoformat(),
            delivered=delivered.isoformat() if status == "delivered" else None,
        )
        b.charge(cid, method.id, "charge", order.total, oid, order.placed)
        if status == "cancelled":
            b.charge(cid, method.id, "refund", order.total, oid, order.placed)
        elif status == "delivered" and rng.random() < 0.08:
            first = order.items[0]
            if first.personalization is None:
                returned = (first.model_copy(update={"status": "returned"}), *order.items[1:])
                order = order.model_copy(update={"items": returned})
                b.charge(cid, method.id, "refund", first.price, oid, delivered.isoformat())
        b.db.merch_orders[oid] = order


def add_camps(b: Builder) -> None:
    rng = b.rng
    customers = list(b.db.customers)
    for spec in CAMPS:
        camp_id = b.new_id("CA", b.db.camps)
        camp = Camp(
            id=camp_id,
            name=spec.name,
            start=spec.start,
            end=spec.end,
            min_age=spec.min_age,
            max_age=spec.max_age,
            capacity=spec.capacity,
            price=Decimal(spec.price),
        )
        b.db.camps[camp_id] = camp
        places = int(spec.capacity * spec.fill)
        while places > 0:
            cid = rng.choice(customers)
            last = b.db.customers[cid].last_name
            kids = min(places, rng.choice([1, 1, 1, 2]))
            for k in range(kids):
                _register(b, camp, cid, f"{rng.choice(CHILD_NAMES)} {last}", k > 0)
            places -= kids


def _register(b: Builder, camp: Camp, cid: str, name: str, sibling: bool) -> None:
    rng = b.rng
    start = date.fromisoformat(camp.start)
    age = rng.randint(camp.min_age, camp.max_age)
    birth = start - timedelta(days=365 * age + rng.randint(30, 330))
    while age_on(birth, start) != age:  # leap years: nudge into the intended age
        birth += timedelta(days=1 if age_on(birth, start) > age else -1)
    price = money(camp.price * (1 - SIBLING_DISCOUNT)) if sibling else camp.price
    method = rng.choice(b.methods_of(cid))
    rid = b.new_id("CR", b.db.camp_registrations)
    b.db.camp_registrations[rid] = registration(
        rid, cid, camp.id, name, birth.isoformat(), price, method.id
    )
    day = min(start, TODAY) - timedelta(days=rng.randint(5, 60))
    b.charge(cid, method.id, "charge", price, rid, day.isoformat())
