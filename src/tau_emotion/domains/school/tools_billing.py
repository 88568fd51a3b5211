"""Fee payments and payment plans."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt, whole_cents
from tau_emotion.domains.school.db import (
    Installment,
    Payment,
    PaymentPlan,
)
from tau_emotion.domains.school.rules import (
    PLAN_MAX_INSTALLMENTS,
    TODAY,
    installment_dates,
    split_installments,
)
from tau_emotion.domains.school.tools_base import SchoolToolBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class BillingTools(SchoolToolBase):
    """Payments and plans. The tools refuse what cannot happen (a fee not owed, more than the
    balance, a plan of nothing); who qualifies for a plan is the policy's, judged in
    `checks.py`."""

    # -- money --------------------------------------------------------------------------

    @tool("write")
    def pay_fee(
        self, caller_id: str, fee_id: str, payment_method_id: str, amount: float
    ) -> dict[str, Any]:
        """Pay all or part of an open fee with one of the caller's own payment methods.

        Args:
            caller_id: The authenticated caller's id.
            fee_id: The fee to pay (from get_fees).
            payment_method_id: A payment method of the caller (from get_caller_details).
            amount: Dollars to pay, at most the fee's balance, e.g. 225.0.
        """
        fee = self.q.db.fees.get(fee_id)
        if fee is None:
            raise ToolError(f"no fee with id {fee_id}")
        self.q.authorize(caller_id, fee.student_id, "view")
        if fee.status == "in_plan":
            raise ToolError(
                "this fee is in a payment plan; its installments are charged automatically"
            )
        if fee.status != "open":
            raise ToolError(f"fee {fee_id} is {fee.status}; nothing is owed on it")
        method = self.q.payment_method(caller_id, payment_method_id)
        paid = whole_cents(amount)
        if paid is None:
            raise ToolError(f"the amount must be in dollars and cents, e.g. 225.00, not {amount}")
        balance = fee.amount - fee.paid
        if paid <= 0 or paid > balance:
            raise ToolError(
                f"the amount must be more than 0.00 and at most the balance {fmt(balance)}"
            )
        pid = self.q.new_id(self.q.db.payments, "PAY")
        self.q.db.payments[pid] = Payment(
            id=pid,
            fee_id=fee.id,
            payer_id=caller_id,
            method_id=method.id,
            amount=paid,
            date=TODAY.isoformat(),
        )
        total = fee.paid + paid
        status = "paid" if total == fee.amount else "open"
        self.q.db.fees[fee.id] = fee.model_copy(update={"paid": total, "status": status})
        return {"payment_id": pid, "paid": fmt(paid), "remaining_balance": fmt(fee.amount - total)}

    @tool("write")
    def create_payment_plan(
        self, caller_id: str, student_id: str, installments: int, payment_method_id: str
    ) -> dict[str, Any]:
        """Combine all of a student's open fees into a monthly payment plan charged to one of
        the caller's payment methods; installments fall on the 1st, starting 2025-04-01. The
        policy says who qualifies for a plan and how many installments it may have.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            installments: Number of monthly installments, 1 to 12.
            payment_method_id: A payment method of the caller for the automatic charges.
        """
        student = self.q.authorize(caller_id, student_id, "view")
        if installments < 1:
            raise ToolError(f"a plan has at least 1 installment, not {installments}")
        if installments > PLAN_MAX_INSTALLMENTS:
            raise ToolError(
                f"a plan has at most {PLAN_MAX_INSTALLMENTS} installments, not {installments}"
            )
        # The number of installments, one plan at a time, the 500.00 minimum and no fee long
        # past due are the policy's (school.payment_plan_eligibility); a second plan takes the
        # open fees the first one does not hold.
        fees = [f for f in self.q.student_fees(student.id) if f.status == "open"]
        if not fees:
            raise ToolError("the student has no open fees")
        total = sum((f.amount - f.paid for f in fees), Decimal("0.00"))
        method = self.q.payment_method(caller_id, payment_method_id)
        parts = [
            Installment(due_date=d, amount=a)
            for d, a in zip(
                installment_dates(installments),
                split_installments(total, installments),
                strict=True,
            )
        ]
        pid = self.q.new_id(self.q.db.payment_plans, "PP")
        plan = PaymentPlan(
            id=pid,
            student_id=student.id,
            set_up_by=caller_id,
            method_id=method.id,
            fee_ids=tuple(f.id for f in fees),
            total=total,
            installments=tuple(parts),
            status="active",
        )
        self.q.db.payment_plans[pid] = plan
        for f in fees:
            self.q.db.fees[f.id] = f.model_copy(update={"status": "in_plan"})
        return {
            "plan_id": pid,
            "total": fmt(total),
            "installments": [{"due_date": i.due_date, "amount": fmt(i.amount)} for i in parts],
        }
