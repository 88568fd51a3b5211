"""Billing tools: payment history, vouchers and refunds (always to the original method)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.telehealth.db import Patient, Voucher
from tau_emotion.domains.telehealth.pricing import voucher_discount
from tau_emotion.domains.telehealth.rules import NOW, TODAY
from tau_emotion.domains.telehealth.tools_base import TelehealthBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class BillingTools(TelehealthBase):
    @tool("read")
    def list_payments(self, patient_id: str) -> list[dict[str, Any]]:
        """A patient's charges and refunds, oldest first. Copays show how much is still
        unrefunded.

        Args:
            patient_id: The verified patient's id.
        """
        rows = self._patients_rows(self.db.payments.values(), patient_id, lambda p: p.payment_id)
        return [
            {
                "payment_id": p.payment_id,
                "appointment_id": p.appointment_id,
                "kind": p.kind,
                "amount": fmt(p.amount),
                "method_id": p.method_id,
                "posted_on": p.posted_on,
                "refund_of": p.refund_of,
                **({"unrefunded": fmt(self._balance(p))} if p.kind == "copay" else {}),
            }
            for p in rows
        ]

    @tool("write")
    def apply_voucher(
        self, patient_id: str, appointment_id: str, voucher_code: str
    ) -> dict[str, Any]:
        """Apply a voucher to an upcoming appointment that has none; the discount is refunded to
        the payment method that paid the visit. The policy says which vouchers fit a visit
        (expiry, visit types, a visit that costs something).

        Args:
            patient_id: The verified patient's id.
            appointment_id: The upcoming appointment.
            voucher_code: Code printed on the voucher, e.g. 'WELL-7KQ2'.
        """
        patient = self._patient(patient_id)
        appt = self._own_appointment(patient_id, appointment_id)
        if appt.status != "scheduled" or datetime.fromisoformat(appt.start) <= NOW:
            raise ToolError("vouchers apply only to upcoming scheduled appointments")
        if appt.voucher_code:
            raise ToolError(f"voucher {appt.voucher_code} is already applied: one per visit")
        voucher, discount = self._usable_voucher(patient, voucher_code, appt.copay)
        refunded = Decimal("0.00")
        for payment in self._payments_of(appointment_id, "copay"):
            part = min(self._balance(payment), discount - refunded)
            if part > 0:
                self._refund(payment, part)
                refunded += part
        self._redeem(voucher, appointment_id)
        updated = appt.model_copy(
            update={"voucher_code": voucher.code, "voucher_discount": discount}
        )
        self.db.appointments[appointment_id] = updated
        return {**self._appointment_view(updated), "refunded": fmt(refunded)}

    @tool("write")
    def refund_payment(self, patient_id: str, payment_id: str) -> dict[str, Any]:
        """Refund what is left of a copay to the method that paid it. The policy says which
        copays the clinic owes back (a visit the clinic cancelled, a duplicate charge).

        Args:
            patient_id: The verified patient's id.
            payment_id: The copay payment to refund, from list_payments.
        """
        self._patient(patient_id)
        payment = self.db.payments.get(payment_id)
        if payment is None or payment.patient_id != patient_id:
            raise ToolError(f"patient {patient_id} has no payment {payment_id}")
        if payment.kind != "copay":
            raise ToolError(f"{payment_id} is a {payment.kind}; only copays can be refunded")
        balance = self._balance(payment)
        if balance <= 0:
            raise ToolError(f"{payment_id} has already been refunded")
        # Whether the clinic owes it is the policy's to judge (telehealth.refund_only_when_owed).
        refund = self._refund(payment, balance)
        return {
            "refund_id": refund.payment_id,
            "refund_of": payment_id,
            "amount": fmt(balance),
            "refunded_to": refund.method_id,
        }

    # --- helpers used by booking too ----------------------------------------------------

    def _usable_voucher(
        self, patient: Patient, code: str, price: Decimal
    ) -> tuple[Voucher, Decimal]:
        voucher = self.db.vouchers.get(code.strip().upper())
        if voucher is None:
            raise ToolError(f"no voucher with code {code}")
        if voucher.status != "available":
            raise ToolError(f"voucher {voucher.code} is {voucher.status} and cannot be used")
        if voucher.patient_id not in (None, patient.patient_id):
            raise ToolError(f"voucher {voucher.code} was issued to another patient")
        # Expiry, visit types and free visits are the voucher's terms, the policy's to apply
        # (telehealth.voucher_terms); a voucher on a free visit is used up for no discount.
        return voucher, voucher_discount(voucher, price)

    def _redeem(self, voucher: Voucher, appointment_id: str) -> None:
        self.db.vouchers[voucher.code] = voucher.model_copy(
            update={"status": "redeemed", "appointment_id": appointment_id}
        )

    def _payment_method(self, patient: Patient, method_id: str | None) -> str:
        if method_id is None:
            raise ToolError("an amount is due: give a payment_method_id from the patient's file")
        for method in patient.payment_methods:
            if method.method_id == method_id:
                if method.expires < TODAY.strftime("%Y-%m"):
                    raise ToolError(f"{method_id} expired in {method.expires}")
                return method_id
        raise ToolError(f"the patient has no payment method {method_id}")
