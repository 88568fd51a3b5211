"""Seeded generator of the restaurant group's back office (one database per city).

Only `random.Random(seed)` drives it, and every collection it iterates is a list or a dict
built in a fixed order, so a seed always gives the same snapshot. This module makes the
fixed world (locations, menu, guests); `history` adds what happened in it.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from tau_emotion.domains.common import money
from tau_emotion.domains.kit.customer_draws import CustomerDraws
from tau_emotion.domains.kit.split import SplitGenerator
from tau_emotion.domains.restaurant import history
from tau_emotion.domains.restaurant.db import (
    Customer,
    Location,
    MenuItem,
    PaymentMethod,
    RestaurantDB,
    Room,
)
from tau_emotion.domains.restaurant.pools import (
    ALLERGIES,
    EMAIL_DOMAINS,
    EVAL_CITY,
    FIRST_NAMES,
    MENU,
    STREET_KINDS,
    STREET_NAMES,
    TRAIN_CITY,
    City,
)

N_CUSTOMERS = 300

_ROOMS = (("Wine Cellar", 12, 24), ("Garden Room", 16, 40), ("Chef's Counter", 8, 14))
_HOURS = (("11:00", "22:00", ()), ("11:00", "23:00", ()), ("11:00", "22:00", ("monday",)))
_COVERS = (24, 30, 20)
_GIFT_USED = (money(0), money(0), money("7.50"))
"""What a gift card has already spent, drawn after its face value (three entries: the seeded
draw depends on the count)."""


def generate(city: City) -> RestaurantDB:
    rng = random.Random(city.seed)
    locations = _locations(rng, city)
    menu = _menu(rng, city, locations)
    customers = _customers(rng, city)
    reservations = history.reservations(rng, city, customers, locations)
    orders = history.orders(rng, city, customers, locations, menu)
    db = RestaurantDB(
        customers={c.id: c for c in customers},
        locations={loc.id: loc for loc in locations},
        menu_items={m.id: m for m in menu},
        reservations={r.code: r for r in reservations},
        orders={o.number: o for o in orders},
        refunds={},
        complaints={},
        private_events={e.id: e for e in history.events(rng, city, customers, locations)},
        transfers={},
    )
    history.add_refunds(rng, city, db)
    history.add_complaints(rng, city, db)
    return db


def _locations(rng: random.Random, city: City) -> list[Location]:
    out = []
    for i, (name, street, zip_code) in enumerate(city.locations):
        open_time, close_time, closed = _HOURS[i]
        loc_id = f"L{city.digit}{i + 1}"
        # Each kitchen delivers to its own zip and a few neighbouring ones.
        others = [z for z in city.zip_codes if z != zip_code]
        zone = sorted([zip_code, *rng.sample(others, 3)])
        rooms = tuple(
            Room(id=f"{loc_id}-{'AB'[j]}", name=room[0], min_guests=room[1], max_guests=room[2])
            for j, room in enumerate(r for k, r in enumerate(_ROOMS) if k != i)
        )
        out.append(
            Location(
                id=loc_id,
                name=name,
                street=street,
                city=city.city,
                zip_code=zip_code,
                phone=f"{city.area_code}-{city.digit}40-{2100 + i * 11}",
                open_time=open_time,
                close_time=close_time,
                closed_on=tuple(closed),
                covers_per_seating=_COVERS[i],
                delivery_zip_codes=tuple(zone),
                rooms=rooms,
            )
        )
    return out


def _menu(rng: random.Random, city: City, locations: list[Location]) -> list[MenuItem]:
    out = []
    for i, (name, category, price, allergens, tags) in enumerate(MENU):
        # A few dishes are off the menu at one location (seasonal or sold out today).
        missing = (rng.choice(locations).id,) if rng.random() < 0.15 else ()
        out.append(
            MenuItem(
                id=f"M{city.digit}{i + 1:03d}",
                name=name,
                category=category,
                price=price,
                allergens=allergens,
                dietary_tags=tags,
                unavailable_at=missing,
            )
        )
    return out


def _customers(rng: random.Random, city: City) -> list[Customer]:
    names = [(f, s) for f in FIRST_NAMES for s in city.surnames]
    draws = CustomerDraws(rng, city.digit, names, N_CUSTOMERS, city.card_range)
    out = []
    for i, (first, last) in enumerate(draws.names):
        cid = f"C{city.digit}{i + 1:04d}"
        methods = [
            PaymentMethod(id=c.slot.id, kind="credit_card", brand=c.brand, last4=c.slot.last4)
            for c in draws.credit_cards(i, ("visa", "mastercard", "amex", "discover"), 0.7)
        ]
        if rng.random() < 0.25:
            gift = draws.slot(i, 2)
            methods.append(
                PaymentMethod(
                    id=gift.id,
                    kind="gift_card",
                    brand="house",
                    last4=gift.last4,
                    balance=money(rng.choice((15, 25, 40, 50, 75, 100))) - rng.choice(_GIFT_USED),
                )
            )
        allergies = tuple(sorted(rng.sample(ALLERGIES, 1))) if rng.random() < 0.2 else ()
        since = date(2019, 1, 1) + timedelta(days=rng.randrange(2300))
        domain = rng.choice(EMAIL_DOMAINS)
        out.append(
            Customer(
                id=cid,
                first_name=first,
                last_name=last,
                email=f"{first}.{last}{rng.randrange(10, 99)}@{domain}".lower(),
                phone=draws.phone(i, city.area_code),
                street=f"{city.digit}{rng.randrange(100, 9900):04d} {rng.choice(STREET_NAMES)} "
                f"{rng.choice(STREET_KINDS)}",
                city=city.city,
                zip_code=rng.choice(city.zip_codes),
                member_since=since.isoformat(),
                loyalty_tier="gold" if rng.random() < 0.15 else "standard",
                loyalty_points=rng.randrange(0, 2400, 10),
                allergies=allergies,
                payment_methods=tuple(methods),
            )
        )
    return out


SPLIT = SplitGenerator(generate, TRAIN_CITY, EVAL_CITY)
"""The train and eval databases of the domain."""
