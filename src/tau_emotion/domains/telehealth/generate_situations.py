"""Situations the policy turns on, added to the generated clinic last: a credit already
used on an upcoming visit, a voucher printed for the visit it paid, a major interaction
from a second prescriber. Each runs on its own seeded stream after every other record, and
new records take the next ids, so the rest of the snapshot is what it was without them.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from tau_emotion.domains.state import State
from tau_emotion.domains.telehealth import catalog
from tau_emotion.domains.telehealth.db import Provider, TelehealthDB
from tau_emotion.domains.telehealth.generate_rx import DRUG_INFO, Prescribed, prescribe
from tau_emotion.domains.telehealth.rules import NOW, TODAY
from tau_emotion.domains.telehealth.tools import TelehealthTools
from tau_emotion.errors import ToolError

CREDIT_SHARE = 0.7
"""Of the patients holding a service-recovery credit that fits an upcoming visit, the share
who already put it on that visit."""
RECENT = timedelta(days=90)
"""A clinic cancellation this recent is one the patient rebooked after."""
NOTICE = timedelta(hours=48)
"""A credit goes on a visit at least this far ahead (a visit inside it is rarely moved)."""


def add_situations(seed: int, care: TelehealthDB, providers: dict[str, Provider]) -> TelehealthDB:
    """The clinic with every situation below, in a fixed order, each on its own stream."""
    care = redeem_credits_on_visits(random.Random(f"{seed}/credits"), care)
    add_interacting_prescriptions(random.Random(f"{seed}/interactions"), care, providers)
    date_visit_vouchers(random.Random(f"{seed}/vouchers"), care)
    return care


def redeem_credits_on_visits(rng: random.Random, care: TelehealthDB) -> TelehealthDB:
    """Some patients whose visit the clinic cancelled lately rebooked with the same provider and
    put the service-recovery credit it earned them on the new visit, through the same
    `apply_voucher` the agent has (so the refund of the discount is on their payment
    history as well)."""
    state = State(care, "")
    tools = TelehealthTools(state)
    for voucher in list(care.vouchers.values()):
        if voucher.status != "available" or voucher.patient_id is None:
            continue
        cancelled = {
            a.provider_id
            for a in care.appointments.values()
            if a.patient_id == voucher.patient_id
            and a.status == "cancelled_by_clinic"
            and NOW - datetime.fromisoformat(a.start) <= RECENT
        }
        upcoming = [
            a
            for a in care.appointments.values()
            if a.patient_id == voucher.patient_id
            and a.provider_id in cancelled
            and a.status == "scheduled"
            and a.voucher_code is None
            and a.copay > 0
            and a.visit_type in voucher.eligible_visit_types
            and datetime.fromisoformat(a.start) - NOW >= NOTICE
            and a.start[:10] <= voucher.expires_on
        ]
        if not upcoming or rng.random() > CREDIT_SHARE:
            continue
        visit = min(upcoming, key=lambda a: a.start)
        args = {
            "patient_id": voucher.patient_id,
            "appointment_id": visit.appointment_id,
            "voucher_code": voucher.code,
        }
        try:
            tools.invoke("apply_voucher", args)
        except ToolError:
            continue  # a visit the tool would not take it on
    return state.applied(TelehealthDB)


VOUCHER_GRACE_DAYS = (1, 4)
"""A voucher redeemed on an upcoming visit is good this many days past the visit's date."""


def date_visit_vouchers(rng: random.Random, care: TelehealthDB) -> None:
    """A voucher redeemed on an upcoming visit is printed for that visit: it is good only a
    few days past it, so moving the visit later than that (telehealth.reschedule_within_
    voucher_expiry) is a request the policy must refuse, while the open schedule runs on.

    It runs last, on its own seeded stream, and changes only those vouchers' expiry."""
    for appt in care.appointments.values():
        if appt.status != "scheduled" or appt.voucher_code is None:
            continue
        voucher = care.vouchers[appt.voucher_code]
        day = datetime.fromisoformat(appt.start).date()
        expires = day + timedelta(days=rng.randint(*VOUCHER_GRACE_DAYS))
        if expires.isoformat() < voucher.expires_on:
            care.vouchers[voucher.code] = voucher.model_copy(
                update={"expires_on": expires.isoformat()}
            )


INTERACTION_SHARE = 0.08
"""Of the patients with a refillable prescription that has a major interaction partner, the
share who were later prescribed that partner elsewhere."""


def add_interacting_prescriptions(
    rng: random.Random, care: TelehealthDB, providers: dict[str, Provider]
) -> None:
    """Some patients were recently prescribed, by another specialty, a drug with a major
    interaction with one they refill (tramadol after an injury, on top of an SSRI): the
    pharmacist's flag a refill request must respect (telehealth.no_refill_with_major_
    interaction) then stands on their record, as it does in any clinic's files.

    It runs on its own seeded stream and takes the next prescription ids: no other record
    changes."""
    specialty_of = {d: c.specialty for c in catalog.CONDITIONS for d in c.drugs}
    partners = {
        d.name: [i.drug for i in d.interactions if i.severity == "major"]
        for d in care.drugs.values()
    }
    held: dict[str, set[str]] = {}
    for rx in care.prescriptions.values():
        if rx.status == "active":
            held.setdefault(rx.patient_id, set()).add(rx.drug)
    for patient in care.patients.values():
        drugs = held.get(patient.patient_id, set())
        refillable = [
            rx
            for rx in care.prescriptions.values()
            if rx.patient_id == patient.patient_id
            and rx.status == "active"
            and rx.refills_remaining > 0
            and DRUG_INFO[rx.drug].schedule is None
        ]
        options = [
            (rx, other)
            for rx in refillable
            for other in sorted(partners.get(rx.drug, ()))
            if other in specialty_of and other not in drugs and not DRUG_INFO[other].otc
        ]
        if not options or any(p in drugs for d in drugs for p in partners.get(d, ())):
            continue  # nothing to add, or the record already carries a flag
        if rng.random() > INTERACTION_SHARE:
            continue
        rx, other = rng.choice(options)
        info = DRUG_INFO[other]
        local = [
            p
            for p in providers.values()
            if p.specialty == specialty_of[other] and patient.address.state in p.licensed_states
        ]
        prescriber = rng.choice(local) if local else providers[rx.prescriber_id]
        written = TODAY - timedelta(days=rng.randint(5, 40))
        strength = rng.choice(info.strengths)
        refills = 0 if info.schedule == "II" else rng.randint(0, 2)
        what = Prescribed(
            patient.patient_id, other, strength, prescriber.provider_id, rx.pharmacy_id
        )
        prescribe(care, what, "active", refills, 30, written, written)
        drugs.add(other)
