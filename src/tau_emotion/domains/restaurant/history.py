"""The generated history of a city's restaurants: bookings, orders, events, refunds, complaints.

Everything obeys the rules in `rules.py` (capacity per seating, allergies, delivery zones,
fees, refund windows), so that the agent meets a world consistent with its policy.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from tau_emotion.domains.common import money
from tau_emotion.domains.restaurant import rules
from tau_emotion.domains.restaurant.db import (
    Complaint,
    Customer,
    Location,
    MenuItem,
    Order,
    OrderLine,
    PrivateEvent,
    Refund,
    Reservation,
    RestaurantDB,
)
from tau_emotion.domains.restaurant.ledger import credit, food_subtotal, minutes_late, refund_items
from tau_emotion.domains.restaurant.pools import City

N_RESERVATIONS = 640
N_ORDERS = 900
N_EVENTS = 48


def _open_days(loc: Location, start: int, end: int) -> list[date]:
    """Days (offsets from today) the location is open."""
    days = [rules.NOW.date() + timedelta(days=d) for d in range(start, end + 1)]
    return [d for d in days if rules.WEEKDAYS[d.weekday()] not in loc.closed_on]


def reservations(
    rng: random.Random, city: City, customers: list[Customer], locations: list[Location]
) -> list[Reservation]:
    covers: dict[tuple[str, str, str], int] = {}
    drafts: list[dict[str, object]] = []

    def book(cust: Customer, loc: Location, day: date, time: str, party: int) -> None:
        slot = (loc.id, day.isoformat(), time)
        if covers.get(slot, 0) + party > loc.covers_per_seating:
            return
        seating = datetime.combine(day, datetime.min.time()) + timedelta(
            minutes=rules.minutes(time)
        )
        created = seating - timedelta(days=rng.randrange(0, 21), hours=rng.randrange(3, 12))
        created = min(created, rules.NOW - timedelta(hours=rng.randrange(1, 48)))
        past = seating < rules.NOW
        roll = rng.random()
        status = (
            ("completed" if roll < 0.88 else "cancelled" if roll < 0.95 else "no_show")
            if past
            else ("booked" if roll < 0.9 else "cancelled")
        )
        if status != "cancelled":
            covers[slot] = covers.get(slot, 0) + party
        guarantee = cust.payment_methods[0].id if party >= rules.GUARANTEE_PARTY else None
        cancelled_at = None
        if status == "cancelled":
            cancelled_at = created + (min(seating, rules.NOW) - created) * rng.uniform(0.2, 0.9)
        drafts.append(
            {
                "customer_id": cust.id,
                "location_id": loc.id,
                "date": day.isoformat(),
                "time": time,
                "party_size": party,
                "occasion": rng.choice(("none",) * 6 + ("birthday", "anniversary", "business")),
                "seating": rng.choice(("no_preference",) * 4 + ("indoor", "patio", "bar")),
                "status": status,
                "guarantee_payment_method_id": guarantee,
                "created_at": rules.stamp(created),
                "cancelled_at": rules.stamp(cancelled_at) if cancelled_at else None,
            }
        )

    parties = (1, 2, 2, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 10)
    for _ in range(N_RESERVATIONS):
        loc = rng.choice(locations)
        day = rng.choice(_open_days(loc, -60, 45))
        times = rules.seating_times(loc.close_time)
        evening = [t for t in times if "17:30" <= t <= "20:30"]
        time = rng.choice(evening if rng.random() < 0.75 else times)
        book(rng.choice(customers), loc, day, time, rng.choice(parties))
    # Fill tonight's and next weekend's prime seatings so that some requests meet a full slot.
    for offset in (0, 6, 7):
        for loc in locations:
            day = rules.NOW.date() + timedelta(days=offset)
            if rules.WEEKDAYS[day.weekday()] in loc.closed_on:
                continue
            for time in ("19:00", "19:30"):
                for _ in range(12):
                    book(rng.choice(customers), loc, day, time, rng.choice((2, 2, 3, 4)))
    # Two guests with repeated recent no-shows, whom the booking rule stops.
    for cust in customers[7:9]:
        for back in (12, 40):
            loc = locations[0]
            day = rules.NOW.date() - timedelta(days=back)
            drafts.append(
                {
                    "customer_id": cust.id,
                    "location_id": loc.id,
                    "date": day.isoformat(),
                    "time": "19:30",
                    "party_size": 2,
                    "occasion": "none",
                    "seating": "no_preference",
                    "status": "no_show",
                    "guarantee_payment_method_id": None,
                    "created_at": rules.stamp(
                        datetime.combine(day, datetime.min.time()) - timedelta(days=3)
                    ),
                    "cancelled_at": None,
                }
            )
    drafts.sort(key=lambda d: (str(d["created_at"]), str(d["customer_id"])))
    return [
        Reservation.model_validate({"code": f"R{city.digit}{i + 1:05d}", **d})
        for i, d in enumerate(drafts)
    ]


def orders(
    rng: random.Random,
    city: City,
    customers: list[Customer],
    locations: list[Location],
    menu: list[MenuItem],
) -> list[Order]:
    regulars = rng.sample(customers, 90)
    drafts: list[Order] = []
    for n in range(N_ORDERS):
        cust = rng.choice(regulars if rng.random() < 0.5 else customers)
        # The last orders are today's, some still in the kitchen or on the road.
        today = n >= N_ORDERS - 40
        loc = rng.choice(locations)
        day = rules.NOW.date() if today else rng.choice(_open_days(loc, -60, -1))
        if rules.WEEKDAYS[day.weekday()] in loc.closed_on:
            loc = locations[0]
        if today and n >= N_ORDERS - 4:
            placed = rules.NOW - timedelta(minutes=rng.randrange(1, 5))
        elif today and n >= N_ORDERS - 16:
            placed = rules.NOW - timedelta(minutes=rng.randrange(5, 55))
        elif today:
            placed = datetime.combine(day, datetime.min.time()) + timedelta(
                minutes=rng.randrange(11 * 60 + 30, 14 * 60)
            )
        else:
            placed = datetime.combine(day, datetime.min.time()) + timedelta(
                minutes=rng.randrange(11 * 60 + 30, 21 * 60 + 30)
            )
        order = _order(rng, cust, loc, menu, placed)
        if order is not None:
            drafts.append(order)
    drafts.sort(key=lambda o: (o.placed_at, o.customer_id))
    return [
        o.model_copy(update={"number": f"O{city.digit}{i + 1:05d}"}) for i, o in enumerate(drafts)
    ]


def _order(
    rng: random.Random, cust: Customer, loc: Location, menu: list[MenuItem], placed: datetime
) -> Order | None:
    safe = [
        m
        for m in menu
        if loc.id not in m.unavailable_at and not set(m.allergens) & set(cust.allergies)
    ]
    picks = sorted(rng.sample(safe, rng.randrange(1, 5)), key=lambda m: m.id)
    lines = tuple(
        OrderLine(
            item_id=m.id, name=m.name, quantity=rng.choice((1, 1, 1, 2, 2, 3)), unit_price=m.price
        )
        for m in picks
    )
    subtotal = food_subtotal(lines)
    delivery = cust.zip_code in loc.delivery_zip_codes and rng.random() < 0.55
    if delivery and subtotal < rules.DELIVERY_MIN_SUBTOTAL:
        delivery = False
    fee = rules.DELIVERY_FEE if delivery and cust.loyalty_tier != "gold" else money(0)
    points = rng.choice((100, 200, 300)) if rng.random() < 0.1 else 0
    discount = min(rules.points_value(points), subtotal)
    promised = placed + timedelta(
        minutes=rules.DELIVERY_PROMISE_MIN if delivery else rules.PICKUP_READY_MIN
    )
    age = (rules.NOW - placed) / timedelta(minutes=1)
    completed: datetime | None = None
    if age < 5:
        status = "placed"
    elif age < 20:
        status = "preparing"
    elif promised + timedelta(minutes=10) > rules.NOW:
        status = "out_for_delivery" if delivery else "ready"
    else:
        status = "cancelled" if rng.random() < 0.04 else "completed"
        if status == "completed":
            roll = rng.random()
            if not delivery:
                late = rng.randrange(-5, 10)
            elif roll < 0.7:
                late = rng.randrange(-10, 6)
            elif roll < 0.88:
                late = rng.randrange(6, 16)
            else:
                late = rng.randrange(16, 46)
            completed = min(promised + timedelta(minutes=late), rules.NOW)
    methods = [p for p in cust.payment_methods if p.kind == "credit_card" or rng.random() < 0.5]
    return Order(
        number="",
        customer_id=cust.id,
        location_id=loc.id,
        fulfillment="delivery" if delivery else "pickup",
        delivery_address=f"{cust.street}, {cust.city} {cust.zip_code}" if delivery else None,
        lines=lines,
        subtotal=subtotal,
        delivery_fee=fee,
        points_redeemed=points,
        points_discount=discount,
        total=money(subtotal + fee - discount),
        payment_method_id=rng.choice(methods).id,
        status=status,
        placed_at=rules.stamp(placed),
        promised_at=rules.stamp(promised),
        completed_at=rules.stamp(completed) if completed else None,
    )


def events(
    rng: random.Random, city: City, customers: list[Customer], locations: list[Location]
) -> list[PrivateEvent]:
    taken: set[tuple[str, str]] = set()
    drafts: list[PrivateEvent] = []
    while len(drafts) < N_EVENTS:
        loc = rng.choice(locations)
        room = rng.choice(loc.rooms)
        day = rng.choice(_open_days(loc, -90, 150))
        if (room.id, day.isoformat()) in taken:
            continue
        taken.add((room.id, day.isoformat()))
        cust = rng.choice(customers)
        package = rng.choice(tuple(rules.EVENT_PACKAGES))
        guests = rng.randrange(room.min_guests, room.max_guests + 1)
        deposit = rules.event_deposit(guests, package)
        lead = rng.randrange(rules.EVENT_MIN_LEAD_DAYS, 120)
        created = min(day - timedelta(days=lead), rules.NOW.date() - timedelta(days=1))
        status = "completed" if day < rules.NOW.date() else "confirmed"
        cancelled_on: date | None = None
        if rng.random() < 0.15:
            status = "cancelled"
            cancelled_on = created + (min(day, rules.NOW.date()) - created) * rng.uniform(0.3, 0.9)
        drafts.append(
            PrivateEvent(
                id="",
                customer_id=cust.id,
                location_id=loc.id,
                room_id=room.id,
                date=day.isoformat(),
                guests=guests,
                package=package,
                price_per_guest=rules.EVENT_PACKAGES[package],
                deposit=deposit,
                deposit_payment_method_id=cust.payment_methods[0].id,
                status=status,
                created_at=f"{created.isoformat()}T{rng.randrange(9, 18):02d}:00",
                cancelled_at=f"{cancelled_on.isoformat()}T10:00" if cancelled_on else None,
                deposit_refund=(
                    rules.event_refund(deposit, day.isoformat(), cancelled_on)
                    if cancelled_on
                    else money(0)
                ),
            )
        )
    drafts.sort(key=lambda e: (e.created_at, e.room_id))
    return [e.model_copy(update={"id": f"EV{city.digit}{i + 1:03d}"}) for i, e in enumerate(drafts)]


def add_refunds(rng: random.Random, city: City, db: RestaurantDB) -> None:
    """Past refunds for missing or poor items, made by the same rules the tool applies."""
    done = [o for o in db.orders.values() if o.status == "completed"]
    picked = sorted(rng.sample(done, 45), key=lambda o: o.placed_at)
    for i, order in enumerate(picked):
        line = rng.choice(order.lines)
        when = datetime.fromisoformat(order.completed_at or order.placed_at) + timedelta(hours=2)
        updated, amount = refund_items(order, (line.item_id,), when)
        db.orders[order.number] = updated
        customer = db.customers[order.customer_id]
        db.customers[customer.id] = credit(customer, order.payment_method_id, amount)
        rid = f"RF{city.digit}{i + 1:03d}"
        db.refunds[rid] = Refund(
            id=rid,
            order_number=order.number,
            customer_id=order.customer_id,
            item_ids=(line.item_id,),
            reason=rng.choice(("missing_item", "wrong_item", "quality_issue")),
            amount=amount,
            payment_method_id=order.payment_method_id,
            created_at=rules.stamp(when),
        )


def add_complaints(rng: random.Random, city: City, db: RestaurantDB) -> None:
    """Late-delivery complaints on most late orders older than two days, plus other feedback."""
    drafts: list[Complaint] = []
    cutoff = rules.stamp(rules.NOW - timedelta(hours=rules.REFUND_WINDOW_HOURS))
    for order in db.orders.values():
        if order.fulfillment != "delivery" or order.completed_at is None:
            continue
        late = minutes_late(order) > rules.LATE_DELIVERY_GRACE_MIN
        if late and order.completed_at < cutoff and rng.random() < 0.6:
            at = datetime.fromisoformat(order.completed_at) + timedelta(hours=1)
            drafts.append(
                Complaint(
                    id="",
                    customer_id=order.customer_id,
                    category="late_delivery",
                    location_id=order.location_id,
                    order_number=order.number,
                    points_awarded=rules.LATE_DELIVERY_POINTS,
                    created_at=rules.stamp(at),
                )
            )
    others = ("food_quality", "staff_conduct", "cleanliness", "wait_time", "other")
    customers = list(db.customers)
    locations = list(db.locations)
    for _ in range(30):
        back = timedelta(days=rng.randrange(2, 60), hours=rng.randrange(0, 8))
        drafts.append(
            Complaint(
                id="",
                customer_id=rng.choice(customers),
                category=rng.choice(others),
                location_id=rng.choice(locations),
                order_number=None,
                points_awarded=0,
                created_at=rules.stamp(rules.NOW - back),
            )
        )
    drafts.sort(key=lambda c: (c.created_at, c.customer_id))
    for i, c in enumerate(drafts):
        cid = f"CP{city.digit}{i + 1:03d}"
        db.complaints[cid] = c.model_copy(update={"id": cid})
