"""Seeded generator of the clinic database: reference tables, people and the schedule.

Only `random.Random(seed)` is used, and every choice draws from a tuple or a sorted list, so
the same seed always writes the same snapshot. Clinical history (visits, payments,
prescriptions, devices) is generated in `generate_care`.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from functools import partial
from typing import Literal

from tau_emotion.domains.common import unique
from tau_emotion.domains.telehealth import catalog
from tau_emotion.domains.telehealth.db import (
    Address,
    Coverage,
    Drug,
    InsurancePlan,
    Interaction,
    Patient,
    PaymentMethod,
    Pharmacy,
    Provider,
    Slot,
    TelehealthDB,
)
from tau_emotion.domains.telehealth.generate_care import Person, generate_visits
from tau_emotion.domains.telehealth.generate_rx import add_devices, add_prescriptions
from tau_emotion.domains.telehealth.generate_situations import add_situations
from tau_emotion.domains.telehealth.rules import STATE_ZIP_PREFIXES, TODAY

SEED = 20250310
N_PATIENTS = 320
SCHEDULE_DAYS = 26  # open schedule from today through early April
SLOT_TIMES = ("08:00", "09:00", "10:30", "11:30", "13:00", "14:30", "16:00")
ALLERGIES = ("penicillin", "sulfa drugs", "latex", "codeine", "shellfish", "peanuts")
PAYMENT_KINDS: tuple[Literal["credit_card", "debit_card", "hsa_card"], ...] = (
    "credit_card",
    "credit_card",
    "debit_card",
    "hsa_card",
)
CARD_BRANDS = ("Visa", "Mastercard", "Amex", "Discover")


def generate(seed: int = SEED) -> TelehealthDB:
    rng = random.Random(seed)
    plans = _plans()
    drugs = _drugs()
    pharmacies = _pharmacies(rng)
    providers = _providers(rng)
    slots = _slots(rng, providers)
    people = _patients(rng, providers, plans)
    care = generate_visits(rng, people, providers, slots, plans)
    for person in people:
        visits = [
            a for a in care.appointments.values() if a.patient_id == person.patient.patient_id
        ]
        add_prescriptions(rng, care, person, providers, pharmacies, visits)
        add_devices(rng, care, person)
    care.patients.update((p.patient.patient_id, p.patient) for p in people)
    care.providers.update(providers)
    care.drugs.update(drugs)
    care.pharmacies.update(pharmacies)
    care.insurance_plans.update(plans)
    return add_situations(seed, care, providers)


def _plans() -> dict[str, InsurancePlan]:
    return {p.plan_id: InsurancePlan(**p._asdict()) for p in catalog.PLANS}


def _drugs() -> dict[str, Drug]:
    partners: dict[str, list[Interaction]] = {d.name: [] for d in catalog.DRUGS}
    for a, b, severity, effect in catalog.INTERACTIONS:
        partners[a].append(Interaction(drug=b, severity=severity, effect=effect))
        partners[b].append(Interaction(drug=a, severity=severity, effect=effect))
    return {
        d.name: Drug(
            name=d.name,
            drug_class=d.drug_class,
            controlled_schedule=d.schedule,
            over_the_counter=d.otc,
            interactions=tuple(sorted(partners[d.name], key=lambda i: i.drug)),
        )
        for d in catalog.DRUGS
    }


def _pharmacies(rng: random.Random) -> dict[str, Pharmacy]:
    result: dict[str, Pharmacy] = {}
    for i, city in enumerate(catalog.CITIES):
        for k in range(2 if i % 3 else 1):
            name = catalog.PHARMACY_NAMES[(i * 2 + k) % len(catalog.PHARMACY_NAMES)]
            pid = f"PH{len(result) + 1:03d}"
            result[pid] = Pharmacy(
                pharmacy_id=pid,
                name=name,
                kind="retail",
                address=_address(rng, city),
                phone=f"{city.area_codes[0]}-555-{rng.randint(100, 199):04d}",
                hours=rng.choice(("8am-9pm daily", "9am-7pm Mon-Sat", "open 24 hours")),
                # A few closed stores stay on file: patients still name them.
                status="closed" if len(result) % 9 == 4 else "open",
            )
    for name in catalog.MAIL_ORDER_PHARMACIES:
        pid = f"PH{len(result) + 1:03d}"
        result[pid] = Pharmacy(
            pharmacy_id=pid,
            name=name,
            kind="mail_order",
            address=_address(rng, catalog.CITIES[len(result) % len(catalog.CITIES)]),
            phone=f"800-555-{rng.randint(100, 199):04d}",
            hours="orders ship within 3 business days",
            status="open",
        )
    return result


def _providers(rng: random.Random) -> dict[str, Provider]:
    states = sorted(STATE_ZIP_PREFIXES)
    result: dict[str, Provider] = {}
    used_names: set[str] = set()
    surnames: set[str] = set()
    for specialty, count in catalog.SPECIALTY_COUNTS:
        covered: list[set[str]] = []
        for k in range(count):
            # Distinct surnames: patients ask for "Dr. Petrov", which must name one provider.
            name = _unique_name(rng, used_names)
            while name.split(" ", 1)[1] in surnames:
                name = _unique_name(rng, used_names)
            surnames.add(name.split(" ", 1)[1])
            home = catalog.CITIES[rng.randrange(len(catalog.CITIES))]
            extra = rng.sample([s for s in states if s != home.state], rng.randint(1, 3))
            covered.append({home.state, *extra})
            pid = f"D{len(result) + 1:03d}"
            result[pid] = Provider(
                provider_id=pid,
                name=name,
                credentials=rng.choice(("MD", "MD", "DO", "DO")) if k else "MD",
                specialty=specialty,
                visit_types=catalog.SPECIALTY_VISIT_TYPES[specialty],
                licensed_states=(),
                clinic=f"{home.name}, {home.state}",
            )
        # Every state must have at least one licensed provider of every specialty.
        for state in states:
            if not any(state in c for c in covered):
                min(covered, key=len).add(state)
        ids = list(result)[-count:]
        for pid, licensed in zip(ids, covered, strict=True):
            result[pid] = result[pid].model_copy(
                update={"licensed_states": tuple(sorted(licensed))}
            )
    return result


def _slots(rng: random.Random, providers: dict[str, Provider]) -> dict[str, Slot]:
    result: dict[str, Slot] = {}
    for pid in providers:
        weekdays = sorted(rng.sample(range(5), 3))
        times = sorted(rng.sample(SLOT_TIMES, 4))
        for offset in range(SCHEDULE_DAYS):
            day = TODAY + timedelta(days=offset)
            if day.weekday() not in weekdays:
                continue
            for hhmm in times:
                sid = f"SL-{pid}-{day:%m%d}-{hhmm.replace(':', '')}"
                status = "blocked" if rng.random() < 0.08 else "open"
                result[sid] = Slot(
                    slot_id=sid, provider_id=pid, start=f"{day}T{hhmm}", status=status
                )
    return result


def _patients(
    rng: random.Random, providers: dict[str, Provider], plans: dict[str, InsurancePlan]
) -> list[Person]:
    people: list[Person] = []
    names: set[str] = set()
    emails: set[str] = set()
    phones: set[str] = set()
    primary = [p for p in providers.values() if p.specialty == "primary_care"]
    plan_ids = sorted(plans)
    for n in range(1, N_PATIENTS + 1):
        full = _unique_name(rng, names)
        first, last = full.split(" ", 1)
        city = catalog.CITIES[rng.randrange(len(catalog.CITIES))]
        email = unique(emails, partial(_email, rng, first, last))
        phone = unique(phones, partial(_phone, rng, city))
        birth = date(1938, 1, 1) + timedelta(days=rng.randint(0, 365 * 68))
        conditions = tuple(
            sorted(
                rng.sample(range(len(catalog.CONDITIONS)), rng.choice((0, 1, 1, 2, 2, 3))),
            )
        )
        local_pcps = [p for p in primary if city.state in p.licensed_states]
        patient = Patient(
            patient_id=f"P{n:04d}",
            first_name=first,
            last_name=last,
            date_of_birth=birth.isoformat(),
            email=email,
            phone=phone,
            address=_address(rng, city),
            coverage=_coverage(rng, plan_ids),
            payment_methods=_payment_methods(rng),
            allergies=tuple(sorted(rng.sample(ALLERGIES, rng.choice((0, 0, 0, 1, 1, 2))))),
            primary_provider_id=rng.choice(local_pcps).provider_id if local_pcps else None,
        )
        people.append(Person(patient, tuple(catalog.CONDITIONS[i] for i in conditions)))
    return people


def _coverage(rng: random.Random, plan_ids: list[str]) -> Coverage | None:
    roll = rng.random()
    if roll < 0.15:
        return None
    plan_id = rng.choice(plan_ids)
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
    return Coverage(
        plan_id=plan_id,
        member_id=f"{letters}{rng.randint(100000000, 999999999)}",
        # Some coverage lapsed at the end of last year and was never updated.
        valid_through="2024-12-31" if roll > 0.9 else "2025-12-31",
    )


def _payment_methods(rng: random.Random) -> tuple[PaymentMethod, ...]:
    methods: list[PaymentMethod] = []
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        kind = rng.choice(PAYMENT_KINDS)
        brand = "Visa" if kind == "hsa_card" else rng.choice(CARD_BRANDS)
        last4 = f"{rng.randint(0, 9999):04d}"
        if any(m.last4 == last4 for m in methods):
            continue
        year = rng.choice((2024, 2025, 2026, 2026, 2027, 2028, 2029))
        month = rng.randint(1, 12)
        methods.append(
            PaymentMethod(
                method_id=f"pm_{'hsa' if kind == 'hsa_card' else brand.lower()}_{last4}",
                kind=kind,
                brand=brand,
                last4=last4,
                expires=f"{year}-{month:02d}",
            )
        )
    return tuple(methods)


def _address(rng: random.Random, city: catalog.City) -> Address:
    return Address(
        street=f"{rng.randint(12, 9899)} {rng.choice(catalog.STREETS)}",
        city=city.name,
        state=city.state,
        zip_code=rng.choice(city.zips),
    )


def _unique_name(rng: random.Random, used: set[str]) -> str:
    return unique(used, partial(_name, rng))


def _name(rng: random.Random) -> str:
    return f"{rng.choice(catalog.FIRST_NAMES)} {rng.choice(catalog.LAST_NAMES)}"


def _email(rng: random.Random, first: str, last: str) -> str:
    suffix = rng.choice(("", str(rng.randint(1, 99))))
    return f"{first.lower()}.{last.lower()}{suffix}@{rng.choice(catalog.EMAIL_DOMAINS)}"


def _phone(rng: random.Random, city: catalog.City) -> str:
    # 555-0100..0199 is the range reserved for fiction.
    return f"{rng.choice(city.area_codes)}-555-{rng.randint(100, 199):04d}"
