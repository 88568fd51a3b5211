"""Scheduling tools: providers, open slots, appointments and visit summaries."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt, next_id
from tau_emotion.domains.telehealth.db import (
    Appointment,
    Payment,
    Provider,
    Slot,
    VisitType,
    payment,
)
from tau_emotion.domains.telehealth.pricing import visit_price
from tau_emotion.domains.telehealth.rules import CANCEL_WINDOW, NOW, TODAY
from tau_emotion.domains.telehealth.tools_billing import BillingTools
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

MAX_SLOTS_SHOWN = 15


def offers(provider: Provider, visit_type: str) -> None:
    """A provider sees patients only in the visit types they offer: no other kind can be held."""
    if visit_type not in provider.visit_types:
        offered = ", ".join(provider.visit_types)
        raise ToolError(f"{provider.name} does not offer {visit_type} visits ({offered})")


class VisitTools(BillingTools):
    @tool("read")
    def list_providers(self, specialty: str | None = None) -> list[dict[str, Any]]:
        """Clinic providers with their specialty, visit types, licensed states and clinic.

        Args:
            specialty: Optional filter: primary_care, behavioral_health, dermatology,
                cardiology, endocrinology or pulmonology.
        """
        return [
            p.model_dump()
            for p in self.db.providers.values()
            if specialty is None or p.specialty == specialty
        ]

    @tool("read")
    def search_available_slots(
        self, provider_id: str | None = None, specialty: str | None = None, date: str | None = None
    ) -> list[dict[str, Any]]:
        """Open appointment slots that have not started (earliest first, at most 15) for one
        provider or a specialty. The policy says how soon a slot may be booked.

        Args:
            provider_id: Only this provider's slots, e.g. 'D004'.
            specialty: Only providers of this specialty.
            date: Only this day, YYYY-MM-DD.
        """
        if provider_id is None and specialty is None:
            raise ToolError("give a provider_id or a specialty")
        # The 2-hour lead time is the policy's (telehealth.booking_lead_time): the search
        # shows every open slot still to come, and the agent judges which may be booked.
        found: list[dict[str, Any]] = []
        for slot in sorted(self.db.slots.values(), key=lambda s: (s.start, s.slot_id)):
            provider = self.db.providers[slot.provider_id]
            if slot.status != "open" or datetime.fromisoformat(slot.start) <= NOW:
                continue
            if provider_id is not None and slot.provider_id != provider_id:
                continue
            if specialty is not None and provider.specialty != specialty:
                continue
            if date is not None and not slot.start.startswith(date):
                continue
            found.append(
                {
                    "slot_id": slot.slot_id,
                    "start": slot.start,
                    "provider_id": provider.provider_id,
                    "provider_name": provider.name,
                    "specialty": provider.specialty,
                    "visit_types": list(provider.visit_types),
                    "licensed_states": list(provider.licensed_states),
                }
            )
            if len(found) == MAX_SLOTS_SHOWN:
                break
        return found

    @tool("read")
    def list_appointments(self, patient_id: str) -> list[dict[str, Any]]:
        """All of a patient's appointments, past and upcoming, with prices and vouchers.

        Args:
            patient_id: The verified patient's id.
        """
        visits = self._patients_rows(self.db.appointments.values(), patient_id, lambda a: a.start)
        return [self._appointment_view(a) for a in visits]

    @tool("read")
    def get_visit_summaries(self, patient_id: str) -> list[dict[str, Any]]:
        """After-visit summaries of a patient's completed visits (what the patient was given).

        Args:
            patient_id: The verified patient's id.
        """
        rows = self.db.visit_summaries.values()
        return [
            {**r.model_dump(), "provider_name": self._provider(r.provider_id).name}
            for r in self._patients_rows(rows, patient_id, lambda r: r.visit_date)
        ]

    @tool("write")
    def book_appointment(
        self,
        patient_id: str,
        slot_id: str,
        visit_type: VisitType,
        payment_method_id: str | None = None,
        voucher_code: str | None = None,
    ) -> dict[str, Any]:
        """Book an open slot that has not started, for a visit type the provider offers. The
        price (plan copay or self-pay rate, less any voucher) is charged now to the given
        payment method. The policy says which bookings are allowed (lead time, licensing,
        follow-up eligibility, one upcoming visit per provider, voucher terms).

        Args:
            patient_id: The verified patient's id.
            slot_id: An open slot from search_available_slots.
            visit_type: video, phone or in_person_follow_up.
            payment_method_id: Payment method on file that pays the amount due; not needed
                when nothing is due.
            voucher_code: Optional voucher code printed on the patient's voucher letter.
        """
        patient = self._patient(patient_id)
        slot = self._open_slot(slot_id)
        start = self._not_started(slot)
        provider = self._provider(slot.provider_id)
        # The lead time, licensing, follow-up and one-per-provider rules are the policy's
        # (telehealth.booking_lead_time and the booking rules in `judged`): the tool books
        # any slot the provider can take this kind of visit in.
        offers(provider, visit_type)
        price, basis = visit_price(
            patient.coverage, self.db.insurance_plans, visit_type, start.date().isoformat()
        )
        voucher = None
        discount = Decimal("0.00")
        if voucher_code is not None:
            voucher, discount = self._usable_voucher(patient, voucher_code, price)
        due = price - discount
        method_id = self._payment_method(patient, payment_method_id) if due > 0 else None
        appointment_id = next_id(self.db.appointments, "A", 5)
        appt = Appointment(
            appointment_id=appointment_id,
            patient_id=patient_id,
            provider_id=provider.provider_id,
            slot_id=slot_id,
            start=slot.start,
            visit_type=visit_type,
            status="scheduled",
            copay=price,
            voucher_code=voucher.code if voucher else None,
            voucher_discount=discount,
            reschedule_count=0,
            booked_on=TODAY.isoformat(),
        )
        self.db.appointments[appointment_id] = appt
        self.db.slots[slot_id] = slot.model_copy(update={"status": "booked"})
        if voucher is not None:
            self._redeem(voucher, appointment_id)
        if method_id is not None:
            payment_id = next_id(self.db.payments, "PAY", 6)
            self.db.payments[payment_id] = payment(
                payment_id, patient_id, appointment_id, "copay", due, method_id, TODAY.isoformat()
            )
        return {
            **self._appointment_view(appt),
            "price_basis": basis,
            "charged": fmt(due),
            "charged_to": method_id,
        }

    def _not_started(self, slot: Slot) -> datetime:
        start = datetime.fromisoformat(slot.start)
        if start <= NOW:
            raise ToolError(f"slot {slot.slot_id} started at {slot.start}, which has passed")
        return start

    @tool("write")
    def reschedule_appointment(
        self, patient_id: str, appointment_id: str, new_slot_id: str
    ) -> dict[str, Any]:
        """Move an upcoming appointment to another open slot of the same provider; the price
        and any voucher stay as they are. The policy says when a visit may be rescheduled
        (notice, how many times, lead time, a voucher's expiry).

        Args:
            patient_id: The verified patient's id.
            appointment_id: The appointment to move.
            new_slot_id: An open slot of the same provider.
        """
        appt = self._upcoming(patient_id, appointment_id)
        # The 24-hour notice, the limit of two reschedules, the booking lead time and the
        # voucher's expiry are the policy's to apply (telehealth.reschedule_*); the tool moves
        # the visit to any open slot of its provider that has not started. The price was
        # computed for this provider, so another provider is a new booking, not a reschedule.
        slot = self._open_slot(new_slot_id)
        if slot.provider_id != appt.provider_id:
            raise ToolError(
                "a reschedule keeps the same provider; to see someone else, cancel and book"
            )
        self._not_started(slot)
        if appt.slot_id is not None and (old := self.db.slots.get(appt.slot_id)) is not None:
            self.db.slots[old.slot_id] = old.model_copy(update={"status": "open"})
        self.db.slots[slot.slot_id] = slot.model_copy(update={"status": "booked"})
        moved = appt.model_copy(
            update={
                "slot_id": slot.slot_id,
                "start": slot.start,
                "reschedule_count": appt.reschedule_count + 1,
            }
        )
        self.db.appointments[appointment_id] = moved
        return self._appointment_view(moved)

    @tool("write")
    def cancel_appointment(self, patient_id: str, appointment_id: str) -> dict[str, Any]:
        """Cancel an upcoming appointment. With 24 hours' notice or more the amount paid is
        refunded to the original payment method and any voucher is returned; with less, the
        amount paid is kept as the late-cancellation fee and the voucher is used up.

        Args:
            patient_id: The verified patient's id.
            appointment_id: The appointment to cancel.
        """
        appt = self._upcoming(patient_id, appointment_id)
        late = datetime.fromisoformat(appt.start) - NOW < CANCEL_WINDOW
        refunds: list[Payment] = []
        voucher_returned = None
        if not late:
            for payment in self._payments_of(appointment_id, "copay"):
                balance = self._balance(payment)
                if balance > 0:
                    refunds.append(self._refund(payment, balance))
            if appt.voucher_code and (voucher := self.db.vouchers.get(appt.voucher_code)):
                self.db.vouchers[voucher.code] = voucher.model_copy(
                    update={"status": "available", "appointment_id": None}
                )
                voucher_returned = voucher.code
        if appt.slot_id is not None and (slot := self.db.slots.get(appt.slot_id)) is not None:
            self.db.slots[slot.slot_id] = slot.model_copy(update={"status": "open"})
        status = "late_cancelled" if late else "cancelled"
        self.db.appointments[appointment_id] = appt.model_copy(update={"status": status})
        return {
            "appointment_id": appointment_id,
            "status": status,
            "refunded": fmt(sum((r.amount for r in refunds), Decimal("0.00"))),
            "refunded_to": [r.method_id for r in refunds],
            "voucher_returned": voucher_returned,
        }

    def _upcoming(self, patient_id: str, appointment_id: str) -> Appointment:
        self._patient(patient_id)
        appt = self._own_appointment(patient_id, appointment_id)
        if appt.status != "scheduled":
            raise ToolError(f"appointment {appointment_id} is {appt.status}, not scheduled")
        if datetime.fromisoformat(appt.start) <= NOW:
            raise ToolError(f"appointment {appointment_id} has already started")
        return appt
