"""Invented customers: names, contact details, addresses, tiers and payment methods."""

from __future__ import annotations

import random
from datetime import date, timedelta

from tau_emotion.domains.airline.db import Address, Passenger, PaymentMethod, User
from tau_emotion.domains.airline.rules import NOW, Tier
from tau_emotion.domains.kit import names

_FIRST = names.given("airline")
_LAST = names.family("airline")
_STREETS = (
    "Maple Avenue", "Cedar Lane", "Harbor Street", "Willow Court", "Sunset Boulevard",
    "Juniper Drive", "Lakeview Road", "Orchard Way", "Granite Street", "Hawthorne Place",
    "Meadow Lane", "Riverside Drive", "Chestnut Street", "Summit Avenue", "Birch Road",
)  # fmt: skip
# city, state, zip code prefix (three digits)
_CITIES = (
    ("Atlanta", "GA", "303"), ("Chicago", "IL", "606"), ("Denver", "CO", "802"),
    ("Dallas", "TX", "752"), ("New York", "NY", "100"), ("Boston", "MA", "021"),
    ("Miami", "FL", "331"), ("Orlando", "FL", "328"), ("Charlotte", "NC", "282"),
    ("Philadelphia", "PA", "191"), ("Washington", "DC", "200"), ("Detroit", "MI", "482"),
    ("Minneapolis", "MN", "554"), ("Houston", "TX", "770"), ("Austin", "TX", "787"),
    ("Nashville", "TN", "372"), ("New Orleans", "LA", "701"), ("Phoenix", "AZ", "850"),
    ("Las Vegas", "NV", "891"), ("Salt Lake City", "UT", "841"), ("Los Angeles", "CA", "900"),
    ("San Francisco", "CA", "941"), ("San Diego", "CA", "921"), ("Seattle", "WA", "981"),
    ("Portland", "OR", "972"),
)  # fmt: skip
_MAIL_DOMAINS = names.email_domains("example")
_BRANDS = ("Visa", "Mastercard", "American Express", "Discover")
_TIER_WEIGHTS: tuple[tuple[Tier, int], ...] = (
    ("member", 45), ("silver", 25), ("gold", 20), ("platinum", 10)
)  # fmt: skip


def birth_date(rng: random.Random, min_age: int, max_age: int) -> str:
    days = rng.randint(min_age * 365, max_age * 365)
    return (NOW.date() - timedelta(days=days)).isoformat()


def random_passenger(rng: random.Random, last_name: str | None = None) -> Passenger:
    return Passenger(
        first_name=rng.choice(_FIRST),
        last_name=last_name or rng.choice(_LAST),
        date_of_birth=birth_date(rng, 2, 80),
    )


def _payment_methods(rng: random.Random) -> tuple[PaymentMethod, ...]:
    methods: list[PaymentMethod] = []
    used: set[str] = set()

    def fresh(prefix: str) -> str:
        while True:
            digits = f"{rng.randrange(10000):04d}"
            if f"{prefix}-{digits}" not in used:
                used.add(f"{prefix}-{digits}")
                return digits

    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        digits = fresh("card")
        brand = rng.choice(_BRANDS)
        methods.append(
            PaymentMethod(id=f"card-{digits}", kind="credit_card", label=f"{brand} ending {digits}")
        )
    if rng.random() < 0.4:
        digits = fresh("gift")
        methods.append(
            PaymentMethod(
                id=f"gift-{digits}",
                kind="gift_card",
                label=f"Larkspur gift card ending {digits}",
                balance=rng.randrange(20, 400, 5),
            )
        )
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2))):
        digits = fresh("cert")
        expired = rng.random() < 0.15
        offset = -rng.randint(5, 90) if expired else rng.randint(20, 330)
        methods.append(
            PaymentMethod(
                id=f"cert-{digits}",
                kind="certificate",
                label=f"Travel certificate {digits}",
                balance=rng.randrange(50, 275, 25),
                expires=(NOW.date() + timedelta(days=offset)).isoformat(),
            )
        )
    return tuple(methods)


def users(rng: random.Random, count: int) -> dict[str, User]:
    """`count` customers with unique full names, emails and phones (they are login facts)."""
    result: dict[str, User] = {}
    names: set[tuple[str, str]] = set()
    emails: set[str] = set()
    while len(result) < count:
        first, last = rng.choice(_FIRST), rng.choice(_LAST)
        if (first, last) in names:
            continue
        names.add((first, last))
        email = (
            f"{first.lower()}.{last.lower()}{rng.randrange(10, 100)}@{rng.choice(_MAIL_DOMAINS)}"
        )
        if email in emails:
            continue
        emails.add(email)
        city, state, prefix = rng.choice(_CITIES)
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 10000)}"
        result[user_id] = User(
            user_id=user_id,
            first_name=first,
            last_name=last,
            email=email,
            phone=f"+1-{rng.randrange(201, 990)}-555-{len(result):04d}",
            date_of_birth=birth_date(rng, 19, 82),
            address=Address(
                street=f"{rng.randrange(10, 9900)} {rng.choice(_STREETS)}",
                city=city,
                state=state,
                zip_code=f"{prefix}{rng.randrange(100):02d}",
            ),
            tier=rng.choices([t for t, _ in _TIER_WEIGHTS], [w for _, w in _TIER_WEIGHTS])[0],
            payment_methods=_payment_methods(rng),
            reservations=(),
        )
    return result


def is_valid_certificate(method: PaymentMethod, today: date) -> bool:
    return (
        method.kind == "certificate"
        and method.expires is not None
        and (date.fromisoformat(method.expires) >= today)
    )
