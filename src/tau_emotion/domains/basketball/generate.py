"""Deterministic generators for the club's two databases (train and eval).

Customers, the league, the schedule and season passes are built here; ticket orders,
merchandise orders and camp registrations, with their payments, in `history.py`. Only
`random.Random(seed)` is used and every loop runs over lists or insertion-ordered dicts.
"""

from __future__ import annotations

from datetime import date, timedelta

from tau_emotion.domains.basketball.builder import EVAL, TRAIN, Builder, Variant
from tau_emotion.domains.basketball.catalog import HOME_CLUBS, LEAGUE, ROSTER_POSITIONS, SCHEDULE
from tau_emotion.domains.basketball.db import (
    BasketballDB,
    Customer,
    Game,
    PaymentMethod,
    Player,
    SeasonPass,
    Settings,
    Team,
)
from tau_emotion.domains.basketball.history import add_camps, add_merch, add_tickets
from tau_emotion.domains.basketball.pools import FIRST_NAMES
from tau_emotion.domains.basketball.rules import ZONES, Zone, seat_label
from tau_emotion.domains.kit.split import SplitGenerator

CUSTOMERS = 440
PASS_HOLDERS: dict[Zone, int] = {"courtside": 4, "lower": 24, "upper": 26, "family": 12}


def add_customers(b: Builder) -> None:
    rng, pools = b.rng, b.v.pools
    for _ in range(CUSTOMERS):
        cid = b.new_id("U", b.db.customers)
        first, last = rng.choice(FIRST_NAMES), rng.choice(pools.last_names)
        email = b.email(first, last)
        phone = b.phone()
        since = date(2015, 1, 1) + timedelta(days=rng.randint(0, 3500))
        b.db.customers[cid] = Customer(
            id=cid,
            first_name=first,
            last_name=last,
            email=email,
            phone=phone,
            zip_code=rng.choice(pools.zip_codes),
            member_since=since.isoformat(),
        )
        for n in range(rng.choice([1, 1, 2])):
            mid = b.new_id("PM", b.db.payment_methods)
            if n == 1 and rng.random() < 0.4:
                method = PaymentMethod(
                    id=mid, customer_id=cid, kind="paypal", label=f"PayPal ({email})", expires=None
                )
            else:
                brand = rng.choice(["Visa", "Mastercard", "Amex", "Discover"])
                year, month = rng.randint(2024, 2029), rng.randint(1, 12)
                method = PaymentMethod(
                    id=mid,
                    customer_id=cid,
                    kind="card",
                    label=f"{brand} ending {b.card_digits()}",
                    expires=f"{year}-{month:02d}",
                )
            b.db.payment_methods[mid] = method


def add_league(b: Builder) -> str:
    """Teams, the home club's roster and the home schedule; returns the home club's id."""
    rng = b.rng
    city, name, _ = HOME_CLUBS[b.v.name]
    home = b.new_id("TM", b.db.teams)
    b.db.teams[home] = Team(id=home, name=name, city=city, is_home_club=True)
    opponents = []
    for opp_city, opp_name in LEAGUE:
        tid = b.new_id("TM", b.db.teams)
        b.db.teams[tid] = Team(id=tid, name=opp_name, city=opp_city, is_home_club=False)
        opponents.append(tid)
    numbers = rng.sample(range(0, 56), 14)
    for number, position in zip(numbers, ROSTER_POSITIONS, strict=True):
        pid = b.new_id("PL", b.db.players)
        b.db.players[pid] = Player(
            id=pid,
            team_id=home,
            first_name=rng.choice(FIRST_NAMES),
            last_name=rng.choice(b.v.pools.last_names),
            number=number,
            position=position,
        )
    for start, opponent, premium, status, moved in SCHEDULE:
        gid = b.new_id("GM", b.db.games)
        b.db.games[gid] = Game(
            id=gid,
            opponent_id=opponents[opponent],
            start=start,
            premium=premium,
            status=status,
            rescheduled_to=moved,
        )
    return home


def add_season_passes(b: Builder) -> None:
    """Passes bought last summer for the whole season; they hold the lowest seats."""
    rng = b.rng
    holders = rng.sample(list(b.db.customers), sum(PASS_HOLDERS.values()))
    games = len(SCHEDULE)
    n = 0
    for zone, count in PASS_HOLDERS.items():
        for seat in range(1, count + 1):
            cid = holders[n]
            n += 1
            sid = b.new_id("SP", b.db.season_passes)
            price = ZONES[zone].pass_per_game * games
            b.db.season_passes[sid] = SeasonPass(
                id=sid,
                customer_id=cid,
                zone=zone,
                seat=seat_label(zone, seat),
                price_paid=price,
                auto_renew=rng.random() < 0.6,
                status="active",
            )
            method = b.methods_of(cid)[0]
            b.charge(cid, method.id, "charge", price, sid, f"2024-{rng.randint(6, 8):02d}-15")


def generate(v: Variant) -> BasketballDB:
    b = Builder(v)
    city, name, arena = HOME_CLUBS[v.name]
    b.db.settings["club"] = Settings(club_name=f"{city} {name}", arena=arena, id_lead=v.lead)
    add_customers(b)
    add_league(b)
    add_season_passes(b)
    add_tickets(b)
    add_merch(b)
    add_camps(b)
    return b.db


SPLIT = SplitGenerator(generate, TRAIN, EVAL)
"""The train and eval databases of the domain."""
