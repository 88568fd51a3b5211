"""Seeded visit and billing history: appointments, payments, visit summaries and vouchers,
priced with the same rules the tools use (`pricing`). Prescriptions and devices are added by
`generate_rx`."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Literal, NamedTuple

from tau_emotion.domains.common import money, unique
from tau_emotion.domains.kit.generation import empty_database
from tau_emotion.domains.telehealth import catalog
from tau_emotion.domains.telehealth.db import (
    Appointment,
    AppointmentStatus,
    InsurancePlan,
    Patient,
    Payment,
    PaymentKind,
    Provider,
    Slot,
    TelehealthDB,
    VisitSummary,
    VisitType,
    Voucher,
    payment,
)
from tau_emotion.domains.telehealth.pricing import visit_price, voucher_discount
from tau_emotion.domains.telehealth.rules import (
    FOLLOW_UP_WINDOW_DAYS,
    MIN_BOOKING_LEAD,
    NO_SHOW_FEE,
    NOW,
    TODAY,
)

PAST_STATUSES: tuple[AppointmentStatus, ...] = (
    ("completed",) * 84 + ("no_show",) * 5 + ("cancelled",) * 4
) + (("late_cancelled",) * 3 + ("cancelled_by_clinic",) * 4)
VOUCHER_CHARS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
VOUCHER_AMOUNTS = (money("10.00"), money("15.00"), money("25.00"), money("50.00"))
"""What a fixed_amount voucher takes off a visit."""
VOUCHER_ISSUERS = (
    ("WELL", "Employer wellness program"),
    ("CARE", "Community health fund"),
    ("SRV", "Clinic service-recovery credit"),
)
WELLNESS = catalog.Condition(
    "wellness",
    "primary_care",
    (),
    None,
    ("Annual wellness visit by video. Preventive care reviewed; no new concerns.",),
    ("annual wellness visit next year",),
)


class Person(NamedTuple):
    patient: Patient
    conditions: tuple[catalog.Condition, ...]


def generate_visits(
    rng: random.Random,
    people: list[Person],
    providers: dict[str, Provider],
    slots: dict[str, Slot],
    plans: dict[str, InsurancePlan],
) -> TelehealthDB:
    """Visits, their payments and summaries, and vouchers (free, redeemed and issued)."""
    care = empty_database(TelehealthDB)
    care.slots.update(slots)
    builder = _Builder(rng, care, providers, plans)
    for _ in range(60):
        builder.free_voucher()
    for person in people:
        builder.history(person)
        builder.upcoming(person)
        visits = builder.visits.get(person.patient.patient_id, [])
        if any(a.status == "cancelled_by_clinic" for a in visits):
            builder.patient_voucher(person.patient)
    return care


class _Builder:
    def __init__(
        self,
        rng: random.Random,
        care: TelehealthDB,
        providers: dict[str, Provider],
        plans: dict[str, InsurancePlan],
    ) -> None:
        self.rng = rng
        self.care = care
        self.providers = providers
        self.plans = plans
        self.visits: dict[str, list[Appointment]] = {}
        self.voucher_codes: set[str] = set()
        self.open_slots: dict[str, list[Slot]] = {pid: [] for pid in providers}
        for slot in care.slots.values():
            if slot.status == "open" and datetime.fromisoformat(slot.start) >= NOW:
                self.open_slots[slot.provider_id].append(slot)

    # --- visits -------------------------------------------------------------------------

    def history(self, person: Person) -> None:
        rng, patient = self.rng, person.patient
        conditions = person.conditions or ((WELLNESS,) if rng.random() < 0.5 else ())
        if not conditions:
            return
        days = sorted(rng.sample(range(3, 360), rng.randint(1, 3)), reverse=True)
        for ago in days:
            condition = rng.choice(conditions)
            provider = self._provider_for(patient, condition.specialty)
            start = datetime.combine(TODAY - timedelta(days=ago), datetime.min.time())
            start = start.replace(hour=rng.choice((8, 9, 10, 13, 14, 16)))
            visit_type = self._visit_type(patient, provider, start)
            status = rng.choice(PAST_STATUSES)
            appt = self._appointment(patient, provider, None, start, visit_type, status)
            if status == "completed":
                rid = f"VS{len(self.care.visit_summaries) + 1:05d}"
                self.care.visit_summaries[rid] = VisitSummary(
                    record_id=rid,
                    patient_id=patient.patient_id,
                    appointment_id=appt.appointment_id,
                    provider_id=provider.provider_id,
                    visit_date=start.date().isoformat(),
                    summary=rng.choice(condition.summaries),
                    follow_up=rng.choice(condition.follow_ups),
                )

    def upcoming(self, person: Person) -> None:
        rng, patient = self.rng, person.patient
        roll = rng.random()
        count = 2 if roll < 0.12 else 1 if roll < 0.57 else 0
        specialties = [c.specialty for c in person.conditions] or ["primary_care"]
        used: list[str] = []
        for _ in range(count):
            provider = self._provider_for(patient, rng.choice(specialties))
            if provider.provider_id in used or not self.open_slots[provider.provider_id]:
                continue
            used.append(provider.provider_id)
            choices = self.open_slots[provider.provider_id]
            slot = choices.pop(rng.randrange(len(choices)))
            start = datetime.fromisoformat(slot.start)
            if start < NOW + MIN_BOOKING_LEAD:
                continue
            self.care.slots[slot.slot_id] = slot.model_copy(update={"status": "booked"})
            visit_type = self._visit_type(patient, provider, start)
            self._appointment(patient, provider, slot.slot_id, start, visit_type, "scheduled")

    def _provider_for(self, patient: Patient, specialty: str) -> Provider:
        if specialty == "primary_care" and patient.primary_provider_id:
            return self.providers[patient.primary_provider_id]
        local = [
            p
            for p in self.providers.values()
            if p.specialty == specialty and patient.address.state in p.licensed_states
        ]
        return self.rng.choice(local)

    def _visit_type(self, patient: Patient, provider: Provider, start: datetime) -> VisitType:
        remote = [v for v in provider.visit_types if v != "in_person_follow_up"]
        seen_recently = any(
            a.patient_id == patient.patient_id
            and a.provider_id == provider.provider_id
            and a.status == "completed"
            and timedelta(0)
            < start - datetime.fromisoformat(a.start)
            <= timedelta(days=FOLLOW_UP_WINDOW_DAYS)
            for a in self.visits.get(patient.patient_id, [])
        )
        offered = "in_person_follow_up" in provider.visit_types
        if seen_recently and offered and self.rng.random() < 0.4:
            return "in_person_follow_up"
        return self.rng.choice(remote)

    def _appointment(
        self,
        patient: Patient,
        provider: Provider,
        slot_id: str | None,
        start: datetime,
        visit_type: VisitType,
        status: AppointmentStatus,
    ) -> Appointment:
        rng = self.rng
        aid = f"A{len(self.care.appointments) + 1:05d}"
        booked = min(start.date() - timedelta(days=rng.randint(1, 21)), TODAY)
        price, _ = visit_price(patient.coverage, self.plans, visit_type, start.date().isoformat())
        voucher: Voucher | None = None
        if price > 0 and status in ("completed", "scheduled") and rng.random() < 0.06:
            voucher = self.redeemed_voucher(patient, visit_type, aid, start.date())
        discount = voucher_discount(voucher, price) if voucher else Decimal("0.00")
        appt = Appointment(
            appointment_id=aid,
            patient_id=patient.patient_id,
            provider_id=provider.provider_id,
            slot_id=slot_id,
            start=start.isoformat(timespec="minutes"),
            visit_type=visit_type,
            status=status,
            copay=price,
            voucher_code=voucher.code if voucher else None,
            voucher_discount=discount,
            reschedule_count=rng.choice((0, 0, 0, 1, 2)) if status == "scheduled" else 0,
            booked_on=booked.isoformat(),
        )
        self.care.appointments[aid] = appt
        self.visits.setdefault(patient.patient_id, []).append(appt)
        self._payments(patient, appt, price - discount, booked, start.date())
        return appt

    def _payments(
        self, patient: Patient, appt: Appointment, due: Decimal, booked: date, visit_day: date
    ) -> None:
        method = patient.payment_methods[0].method_id
        if due > 0:
            copay = self._pay(patient, appt, "copay", due, method, booked, None)
            if appt.status in ("completed", "scheduled") and self.rng.random() < 0.04:
                # A billing glitch charged the copay twice; the duplicate is refundable.
                self._pay(patient, appt, "copay", due, method, booked, None)
            refunded = appt.status == "cancelled" or (
                appt.status == "cancelled_by_clinic" and self.rng.random() < 0.7
            )
            if refunded:
                when = min(booked + timedelta(days=1), TODAY)
                self._pay(patient, appt, "refund", due, method, when, copay.payment_id)
        if appt.status == "no_show":
            self._pay(patient, appt, "no_show_fee", NO_SHOW_FEE, method, visit_day, None)

    def _pay(
        self,
        patient: Patient,
        appt: Appointment,
        kind: PaymentKind,
        amount: Decimal,
        method: str,
        when: date,
        refund_of: str | None,
    ) -> Payment:
        pid = f"PAY{len(self.care.payments) + 1:06d}"
        on = when.isoformat()
        record = payment(
            pid, patient.patient_id, appt.appointment_id, kind, amount, method, on, refund_of
        )
        self.care.payments[pid] = record
        return record

    # --- vouchers -----------------------------------------------------------------------

    def _code(self, prefix: str) -> str:
        return unique(
            self.voucher_codes,
            lambda: f"{prefix}-" + "".join(self.rng.choice(VOUCHER_CHARS) for _ in range(4)),
        )

    def _voucher_terms(self) -> tuple[Literal["copay_waiver", "fixed_amount"], Decimal]:
        if self.rng.random() < 0.4:
            return "copay_waiver", Decimal("0.00")
        return "fixed_amount", self.rng.choice(VOUCHER_AMOUNTS)

    def free_voucher(self) -> None:
        rng = self.rng
        prefix, issuer = rng.choice(VOUCHER_ISSUERS[:2])
        kind, amount = self._voucher_terms()
        expires = date(2025, 1, 31) + timedelta(days=rng.randint(0, 330))
        code = self._code(prefix)
        self.care.vouchers[code] = Voucher(
            code=code,
            issuer=issuer,
            patient_id=None,
            kind=kind,
            amount=amount,
            eligible_visit_types=rng.choice(
                (("video", "phone"), ("video", "phone", "in_person_follow_up"))
            ),
            expires_on=expires.isoformat(),
            status="void" if rng.random() < 0.05 else "available",
            appointment_id=None,
        )

    def patient_voucher(self, patient: Patient) -> None:
        """A service-recovery credit issued to one patient after a clinic-side problem."""
        kind, amount = self._voucher_terms()
        code = self._code("SRV")
        self.care.vouchers[code] = Voucher(
            code=code,
            issuer="Clinic service-recovery credit",
            patient_id=patient.patient_id,
            kind=kind,
            amount=amount,
            eligible_visit_types=("video", "phone", "in_person_follow_up"),
            expires_on=(TODAY + timedelta(days=self.rng.randint(-20, 200))).isoformat(),
            status="available",
            appointment_id=None,
        )

    def redeemed_voucher(
        self, patient: Patient, visit_type: VisitType, appointment_id: str, day: date
    ) -> Voucher:
        prefix, issuer = self.rng.choice(VOUCHER_ISSUERS)
        kind, amount = self._voucher_terms()
        code = self._code(prefix)
        voucher = Voucher(
            code=code,
            issuer=issuer,
            patient_id=patient.patient_id if prefix == "SRV" else None,
            kind=kind,
            amount=amount,
            eligible_visit_types=(visit_type,),
            expires_on=(day + timedelta(days=self.rng.randint(0, 90))).isoformat(),
            status="redeemed",
            appointment_id=appointment_id,
        )
        self.care.vouchers[code] = voucher
        return voucher
