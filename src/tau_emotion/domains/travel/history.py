"""The generated history of a market: bookings with travellers and tours, insurance, claims.

Prices, refunds and payouts come from `pricing`, the same code the tools use, so that the
records the agent reads agree with what the tools would compute.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.travel import pricing, rules
from tau_emotion.domains.travel.db import (
    Booking,
    Claim,
    Customer,
    Departure,
    Fare,
    InsurancePolicy,
    Package,
    TourBooking,
    TravelDB,
    Traveller,
    new_booking,
)
from tau_emotion.domains.travel.pools import CHILD_NAMES, FIRST_NAMES, Market

N_BOOKINGS = 1000


def _party(
    rng: random.Random, market: Market, cust: Customer, package: Package, start: date
) -> list[tuple[str, str]]:
    """The customer plus companions: a partner, friends, or a family with children."""
    people = [(f"{cust.first_name} {cust.last_name}", cust.date_of_birth)]
    roll = rng.random()
    adult_birth = date(1955, 1, 1) + timedelta(days=rng.randrange(0, 45 * 365))
    if roll < 0.2:
        return people
    surname = cust.last_name if rng.random() < 0.6 else rng.choice(market.surnames)
    people.append((f"{rng.choice(FIRST_NAMES)} {surname}", adult_birth.isoformat()))
    if roll < 0.7:
        return people
    if roll < 0.9 and not package.adults_only:
        for name in rng.sample(CHILD_NAMES, rng.randrange(1, 3)):
            birth = start - timedelta(days=rng.randrange(3 * 365, 16 * 365))
            people.append((f"{name} {cust.last_name}", birth.isoformat()))
        return people
    for _ in range(rng.randrange(1, 4)):
        friend = date(1960, 1, 1) + timedelta(days=rng.randrange(0, 40 * 365))
        people.append(
            (f"{rng.choice(FIRST_NAMES)} {rng.choice(market.surnames)}", friend.isoformat())
        )
    return people


def _room_code(rng: random.Random, people: list[tuple[str, str]], start: str) -> str:
    kids = sum(1 for _, birth in people if rules.age_on(birth, start) < rules.ADULT_AGE)
    if kids:
        return "family_suite"
    if len(people) == 1:
        return "single" if rng.random() < 0.7 else "classic_double"
    return "superior_double" if rng.random() < 0.35 else "classic_double"


def add_bookings(rng: random.Random, market: Market, db: TravelDB) -> None:
    customers = list(db.customers.values())
    departures = list(db.departures.values())
    taken: dict[str, int] = {}
    tour_load: dict[tuple[str, str], int] = {}
    drafts: list[tuple[str, str, Booking]] = []
    for _ in range(N_BOOKINGS):
        dep = rng.choice(departures)
        package = db.packages[dep.package_id]
        hotel = db.hotels[package.hotel_id]
        cust = rng.choice(customers)
        start = rules.parse_date(dep.start_date)
        people = _party(rng, market, cust, package, start)
        if any(rules.age_on(b, dep.start_date) < 0 for _, b in people):
            continue
        if taken.get(dep.id, 0) + len(people) > dep.seats_total:
            continue
        lead = rng.randrange(rules.BOOK_MIN_LEAD_DAYS + 1, 220)
        created = datetime.combine(start - timedelta(days=lead), datetime.min.time())
        created += timedelta(hours=rng.randrange(8, 21), minutes=rng.choice((0, 15, 30, 45)))
        if created >= rules.NOW:
            continue
        fare: Fare = rng.choice(("saver",) * 3 + ("standard",) * 4 + ("flexible",) * 2)
        room_type = pricing.room(hotel, _room_code(rng, people, dep.start_date))
        travellers = pricing.price_travellers(dep, fare, people, "X")
        rooms = rules.rooms_needed(len(people), room_type.occupancy)
        price = pricing.package_price(travellers, room_type, rooms, package.nights)
        tours = _tours(rng, db, dep, package, travellers, tour_load)
        methods = [p for p in cust.payment_methods if p.kind == "credit_card"]
        method, at = rng.choice(methods).id, rules.stamp(created)
        booked = new_booking(
            "", cust.id, dep, fare, room_type, rooms, travellers, price, method, at
        )
        paid = money(price + sum((t.total for t in tours), Decimal(0)))
        status = "completed" if dep.end_date < rules.TODAY.isoformat() else "confirmed"
        booking = booked.model_copy(update={"tours": tours, "amount_paid": paid, "status": status})
        if rng.random() < 0.08:
            booking = _cancel(rng, booking, dep, created)
        else:
            taken[dep.id] = taken.get(dep.id, 0) + len(people)
        drafts.append((booking.created_at, cust.id, booking))
    drafts.sort(key=lambda d: (d[0], d[1]))
    for i, (_, _, booking) in enumerate(drafts):
        code = f"B{market.digit}{i + 1:04d}"
        renamed = {t.id: t.id.replace("X-", f"{code}-") for t in booking.travellers}
        db.bookings[code] = booking.model_copy(
            update={
                "code": code,
                "travellers": tuple(
                    t.model_copy(update={"id": renamed[t.id]}) for t in booking.travellers
                ),
                "tours": tuple(
                    t.model_copy(
                        update={"traveller_ids": tuple(renamed[x] for x in t.traveller_ids)}
                    )
                    for t in booking.tours
                ),
            }
        )


def _tours(
    rng: random.Random,
    db: TravelDB,
    dep: Departure,
    package: Package,
    travellers: tuple[Traveller, ...],
    load: dict[tuple[str, str], int],
) -> tuple[TourBooking, ...]:
    if rng.random() > 0.3:
        return ()
    options = [t for t in db.tours.values() if t.destination == package.destination]
    tour = rng.choice(options)
    start = rules.parse_date(dep.start_date)
    days = [start + timedelta(days=d) for d in range(1, package.nights)]
    days = [d for d in days if rules.WEEKDAYS[d.weekday()] in tour.weekdays]
    if not days:
        return ()
    day = rng.choice(days).isoformat()
    who = tuple(t.id for t in travellers if rules.age_on(t.date_of_birth, day) >= tour.min_age)
    if not who or load.get((tour.id, day), 0) + len(who) > tour.capacity:
        return ()
    load[(tour.id, day)] = load.get((tour.id, day), 0) + len(who)
    total = money(tour.price_per_person * len(who))
    return (TourBooking(tour_id=tour.id, date=day, traveller_ids=who, total=total),)


def _cancel(rng: random.Random, booking: Booking, dep: Departure, created: datetime) -> Booking:
    end = min(datetime.combine(rules.parse_date(dep.start_date), datetime.min.time()), rules.NOW)
    when = created + (end - created) * rng.uniform(0.1, 0.95)
    left = (rules.parse_date(dep.start_date) - when.date()).days
    refund, _ = pricing.cancellation(booking, dep, left)
    reason = rng.choice(("change_of_plans", "illness", "bereavement", "work", "other"))
    return booking.model_copy(
        update={
            "status": "cancelled",
            "cancelled_at": rules.stamp(when),
            "cancel_reason": reason,
            "amount_refunded": refund,
        }
    )


def add_insurance(rng: random.Random, market: Market, db: TravelDB) -> None:
    count = 0
    for booking in db.bookings.values():
        if rng.random() > 0.35:
            continue
        count += 1
        plan = "premium" if rng.random() < 0.4 else "basic"
        policy_id = f"IP{market.digit}{count:04d}"
        db.insurance_policies[policy_id] = InsurancePolicy(
            id=policy_id,
            booking_code=booking.code,
            customer_id=booking.customer_id,
            plan=plan,
            premium=money(booking.package_price * rules.INSURANCE_RATES[plan]),
            payment_method_id=booking.payment_method_id,
            purchased_at=booking.created_at,
        )


def add_claims(rng: random.Random, market: Market, db: TravelDB) -> None:
    """Claims on some insured trips that have begun, and on insured illness cancellations."""
    drafts: list[Claim] = []
    for policy in db.insurance_policies.values():
        booking = db.bookings[policy.booking_code]
        dep = db.departures[booking.departure_id]
        cover = rules.COVER[policy.plan]
        if booking.status == "cancelled":
            if "trip_cancellation" not in cover or booking.cancel_reason not in (
                rules.COVERED_CANCEL_REASONS
            ):
                continue
            lost = pricing.lost_on_cancellation(booking, dep)
            if lost <= 0:
                continue
            incident = (booking.cancelled_at or "")[:10]
            drafts.append(_claim(policy, booking, "trip_cancellation", incident, lost, lost))
        elif dep.start_date < rules.TODAY.isoformat() and rng.random() < 0.35:
            kind = rng.choice([k for k in cover if k != "trip_cancellation"])
            first = rules.parse_date(dep.start_date)
            last = min(rules.parse_date(dep.end_date), rules.TODAY - timedelta(days=1))
            incident = (
                first + timedelta(days=rng.randrange(0, (last - first).days + 1))
            ).isoformat()
            amount = Decimal(rng.randrange(120, 2400, 5))
            limit, deductible = cover[kind]
            paid = money(min(amount, limit) - deductible)
            drafts.append(_claim(policy, booking, kind, incident, amount, paid))
    drafts.sort(key=lambda c: (c.created_at, c.policy_id))
    for i, claim in enumerate(drafts):
        claim_id = f"CL{market.digit}{i + 1:03d}"
        age = rules.days_until(claim.incident_date)
        status = "paid" if age < -21 else "approved" if age < -7 else "submitted"
        if rng.random() < 0.08:
            status = "rejected"
        db.claims[claim_id] = claim.model_copy(update={"id": claim_id, "status": status})


def _claim(
    policy: InsurancePolicy,
    booking: Booking,
    kind: str,
    incident: str,
    amount: Decimal,
    paid: Decimal,
) -> Claim:
    filed = min(rules.parse_date(incident) + timedelta(days=3), rules.TODAY)
    return Claim(
        id="",
        policy_id=policy.id,
        booking_code=booking.code,
        customer_id=booking.customer_id,
        claim_type=kind,
        incident_date=incident,
        amount_claimed=amount,
        payout=paid,
        status="submitted",
        created_at=f"{filed.isoformat()}T11:00",
    )
