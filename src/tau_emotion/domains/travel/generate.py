"""Seeded generator of the tour operator's back office (one database per market).

Only `random.Random(seed)` drives it, and every collection it iterates is a list or a dict
built in a fixed order, so a seed always gives the same snapshot. This module makes the
catalogue (hotels, packages, departures, tours) and the customers; `history` adds bookings,
insurance and claims.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from datetime import date, timedelta
from decimal import Decimal

from tau_emotion.domains.kit.customer_draws import CustomerDraws
from tau_emotion.domains.kit.split import SplitGenerator
from tau_emotion.domains.travel import history, rules
from tau_emotion.domains.travel.db import (
    Customer,
    Departure,
    Hotel,
    Package,
    PaymentMethod,
    RoomType,
    Tour,
    TravelDB,
)
from tau_emotion.domains.travel.pools import (
    EMAIL_DOMAINS,
    EVAL_MARKET,
    FIRST_NAMES,
    ROOM_TYPES,
    TRAIN_MARKET,
    Market,
)

N_CUSTOMERS = 300
_STAR_FACTOR = {3: Decimal("0.75"), 4: Decimal("1.00"), 5: Decimal("1.50")}
"""Room supplements by hotel stars, as a share of the 4-star supplement."""


def generate(market: Market) -> TravelDB:
    rng = random.Random(market.seed)
    hotels, packages, tours = _catalogue(market)
    departures = _departures(rng, market, packages)
    customers = _customers(rng, market)
    db = TravelDB(
        customers={c.id: c for c in customers},
        hotels={h.id: h for h in hotels},
        packages={p.id: p for p in packages},
        departures={d.id: d for d in departures},
        tours={t.id: t for t in tours},
        bookings={},
        insurance_policies={},
        claims={},
        transfers={},
    )
    history.add_bookings(rng, market, db)
    history.add_insurance(rng, market, db)
    history.add_claims(rng, market, db)
    return db


def _catalogue(market: Market) -> tuple[list[Hotel], list[Package], list[Tour]]:
    hotels: list[Hotel] = []
    packages: list[Package] = []
    tours: list[Tour] = []
    for dest in market.catalogue:
        hotel_id = f"H{market.digit}{len(hotels) + 1:02d}"
        factor = _STAR_FACTOR[dest.stars]
        # Whole dollars, a tie to the even dollar as `round` does (35.00 * 1.5 gives 52).
        rooms = tuple(
            RoomType(
                code=code,
                name=name,
                occupancy=occupancy,
                supplement_per_night=Decimal(round(supplement * factor)),
            )
            for code, name, occupancy, supplement in ROOM_TYPES
        )
        hotels.append(
            Hotel(id=hotel_id, name=dest.hotel, city=dest.city, stars=dest.stars, room_types=rooms)
        )
        for spec in dest.packages:
            packages.append(
                Package(
                    id=f"P{market.digit}{len(packages) + 1:02d}",
                    name=spec.name,
                    destination=dest.city,
                    country=dest.country,
                    nights=spec.nights,
                    hotel_id=hotel_id,
                    adults_only=spec.adults_only,
                    highlights=spec.highlights,
                )
            )
        for tour in dest.tours:
            tour_id = f"T{market.digit}{len(tours) + 1:02d}"
            tours.append(Tour(id=tour_id, destination=dest.city, **asdict(tour)))
    return hotels, packages, tours


def _season(day: date) -> Decimal:
    """Summer and the holidays cost more; late winter less."""
    if day.month in (6, 7, 8):
        return Decimal("1.15")
    if day.month == 12:
        return Decimal("1.10")
    if day.month in (1, 2):
        return Decimal("0.90")
    return Decimal("1.00")


def _departures(rng: random.Random, market: Market, packages: list[Package]) -> list[Departure]:
    base = {spec.name: spec.base_price for dest in market.catalogue for spec in dest.packages}
    drafts: list[Departure] = []
    for package in packages:
        # Saturdays through the year, one every three to six weeks.
        day = date(2025, 1, 4) + timedelta(weeks=rng.randrange(0, 4))
        while day.year == 2025:
            price = round(base[package.name] * _season(day) / 10) * 10
            drafts.append(
                Departure(
                    id="",
                    package_id=package.id,
                    start_date=day.isoformat(),
                    end_date=(day + timedelta(days=package.nights)).isoformat(),
                    base_price=Decimal(price),
                    seats_total=rng.randrange(16, 29),
                )
            )
            day += timedelta(weeks=rng.randrange(3, 7))
    drafts.sort(key=lambda d: (d.start_date, d.package_id))
    return [
        d.model_copy(update={"id": f"D{market.digit}{i + 1:03d}"}) for i, d in enumerate(drafts)
    ]


def _customers(rng: random.Random, market: Market) -> list[Customer]:
    names = [(f, s) for f in FIRST_NAMES for s in market.surnames]
    draws = CustomerDraws(rng, market.digit, names, N_CUSTOMERS, market.card_range)
    out = []
    for i, (first, last) in enumerate(draws.names):
        methods = [
            PaymentMethod(id=c.slot.id, kind="credit_card", brand=c.brand, last4=c.slot.last4)
            for c in draws.credit_cards(i, ("visa", "mastercard", "amex"), 0.65)
        ]
        if rng.random() < 0.2:
            credit = draws.slot(i, 2)
            methods.append(
                PaymentMethod(
                    id=credit.id,
                    kind="travel_credit",
                    brand="voucher",
                    last4=credit.last4,
                    balance=Decimal(rng.randrange(50, 650, 25)),
                )
            )
        birth = date(1950, 1, 1) + timedelta(days=rng.randrange(0, 50 * 365))
        since = date(2016, 1, 1) + timedelta(days=rng.randrange(0, 3300))
        out.append(
            Customer(
                id=f"C{market.digit}{i + 1:04d}",
                first_name=first,
                last_name=last,
                email=f"{first}.{last}{rng.randrange(10, 99)}@{rng.choice(EMAIL_DOMAINS)}".lower(),
                phone=draws.phone(i, market.area_code),
                date_of_birth=birth.isoformat(),
                zip_code=rng.choice(market.zip_codes),
                member_since=min(since, rules.TODAY).isoformat(),
                payment_methods=tuple(methods),
            )
        )
    return out


SPLIT = SplitGenerator(generate, TRAIN_MARKET, EVAL_MARKET)
"""The train and eval databases of the domain."""
