"""Shared plumbing of the telehealth tools: typed tables, lookups that refuse cleanly, ids."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from tau_emotion.domains.common import fmt, next_id, require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.telehealth.db import (
    Appointment,
    Patient,
    Payment,
    Prescription,
    Provider,
    Slot,
    TelehealthDB,
    payment,
)
from tau_emotion.domains.telehealth.pricing import coverage_status
from tau_emotion.domains.telehealth.rules import TODAY
from tau_emotion.errors import ToolError


class _Owned(Protocol):
    """A row that belongs to one patient (appointments, summaries, payments, prescriptions)."""

    @property
    def patient_id(self) -> str: ...


OwnedT = TypeVar("OwnedT", bound=_Owned)


class TelehealthBase(DatabaseTools[TelehealthDB]):
    """Tables and helpers; the tool methods live in the mixins combined in `tools`."""

    # --- lookups that refuse with a reason ----------------------------------------------

    def _patient(self, patient_id: str) -> Patient:
        return require(self.db.patients, patient_id, f"no patient with id {patient_id}")

    def _patients_rows(
        self, rows: Iterable[OwnedT], patient_id: str, key: Callable[[OwnedT], str]
    ) -> list[OwnedT]:
        """A verified patient's rows of one table in the order of `key` (what every `list_*`
        read shows); an unknown patient is refused as `_patient` refuses it."""
        self._patient(patient_id)
        return sorted((r for r in rows if r.patient_id == patient_id), key=key)

    def _provider(self, provider_id: str) -> Provider:
        return require(self.db.providers, provider_id, f"no provider with id {provider_id}")

    def _own_appointment(self, patient_id: str, appointment_id: str) -> Appointment:
        appt = self.db.appointments.get(appointment_id)
        if appt is None or appt.patient_id != patient_id:
            raise ToolError(f"patient {patient_id} has no appointment {appointment_id}")
        return appt

    def _own_prescription(self, patient_id: str, prescription_id: str) -> Prescription:
        rx = self.db.prescriptions.get(prescription_id)
        if rx is None or rx.patient_id != patient_id:
            raise ToolError(f"patient {patient_id} has no prescription {prescription_id}")
        return rx

    def _open_slot(self, slot_id: str) -> Slot:
        slot = self.db.slots.get(slot_id)
        if slot is None:
            raise ToolError(f"no slot with id {slot_id}")
        if slot.status != "open":
            raise ToolError(f"slot {slot_id} is not available (it is {slot.status})")
        return slot

    # --- ids and views ------------------------------------------------------------------

    def _coverage_view(self, patient: Patient) -> dict[str, Any] | None:
        if patient.coverage is None:
            return None
        plan = self.db.insurance_plans.get(patient.coverage.plan_id)
        return {
            "plan_id": patient.coverage.plan_id,
            "payer": plan.payer if plan else None,
            "plan_name": plan.plan_name if plan else None,
            "member_id": patient.coverage.member_id,
            "valid_through": patient.coverage.valid_through,
            "status_today": coverage_status(
                patient.coverage, self.db.insurance_plans, TODAY.isoformat()
            ),
        }

    def _appointment_view(self, appt: Appointment) -> dict[str, Any]:
        provider = self.db.providers.get(appt.provider_id)
        return {
            "appointment_id": appt.appointment_id,
            "provider_id": appt.provider_id,
            "provider_name": provider.name if provider else None,
            "specialty": provider.specialty if provider else None,
            "start": appt.start,
            "visit_type": appt.visit_type,
            "status": appt.status,
            "price": fmt(appt.copay),
            "voucher_code": appt.voucher_code,
            "voucher_discount": fmt(appt.voucher_discount),
            "patient_pays": fmt(appt.copay - appt.voucher_discount),
            "reschedule_count": appt.reschedule_count,
        }

    def _payments_of(self, appointment_id: str, kind: str) -> list[Payment]:
        return [
            p
            for p in self.db.payments.values()
            if p.appointment_id == appointment_id and p.kind == kind
        ]

    def _balance(self, payment: Payment) -> Decimal:
        """What is left of a payment after the refunds already made against it."""
        refunded = sum(
            (p.amount for p in self.db.payments.values() if p.refund_of == payment.payment_id),
            Decimal("0.00"),
        )
        return payment.amount - refunded

    def _refund(self, original: Payment, amount: Decimal) -> Payment:
        """Refunds always go back to the method that paid (policy: original method only)."""
        payment_id = next_id(self.db.payments, "PAY", 6)
        refund = payment(
            payment_id,
            original.patient_id,
            original.appointment_id,
            "refund",
            amount,
            original.method_id,
            TODAY.isoformat(),
            refund_of=original.payment_id,
        )
        self.db.payments[payment_id] = refund
        return refund


def hours_until(start: str, now: datetime) -> float:
    return (datetime.fromisoformat(start) - now).total_seconds() / 3600
