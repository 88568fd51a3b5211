"""Money tools: bill payments, late fee waivers, autopay and device payoff."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt, next_id
from tau_emotion.domains.telecom.db import payment
from tau_emotion.domains.telecom.rules import (
    AUTOPAY_DISCOUNT,
    LATE_FEE,
    TODAY,
    bill_balance,
    bill_status,
    day,
    has_late_fee,
    method_label,
)
from tau_emotion.domains.telecom.tools_base import TelecomToolBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class BillingTools(TelecomToolBase):
    def _record_payment(
        self,
        customer_id: str,
        method_id: str,
        amount: Decimal,
        bill_id: str | None = None,
        device_id: str | None = None,
    ) -> str:
        payment_id = next_id(self.db.payments, "PAY-", 5)
        self.db.payments[payment_id] = payment(
            payment_id, customer_id, method_id, amount, day(TODAY), bill_id, device_id
        )
        return payment_id

    @tool("write")
    def pay_bill(self, customer_id: str, bill_id: str, payment_method_id: str) -> dict[str, Any]:
        """Pay the full remaining balance of one bill with a saved payment method. The policy
        says bills are paid oldest first.

        Args:
            customer_id: The authenticated customer's id.
            bill_id: The bill to pay, from get_bills.
            payment_method_id: A saved, unexpired payment method of the customer.
        """
        customer = self._customer(customer_id)
        bill = self._owned_bill(customer_id, bill_id)
        balance = bill_balance(bill)
        if balance == 0:
            raise ToolError(f"bill {bill_id} has no balance to pay")
        # Oldest first is the policy's (telecom.bills_oldest_first); any bill can be paid.
        method = self._usable_method(customer, payment_method_id)
        payment_id = self._record_payment(customer_id, method.method_id, balance, bill_id=bill_id)
        self.db.bills[bill_id] = bill.model_copy(update={"amount_paid": bill.amount_paid + balance})
        remaining_overdue = sum(
            (bill_balance(b) for b in self._bills_of(customer_id) if bill_status(b) == "overdue"),
            Decimal("0.00"),
        )
        return {
            "customer_id": customer_id,
            "payment_id": payment_id,
            "bill_id": bill_id,
            "amount_paid": fmt(balance),
            "paid_with": method_label(method),
            "bill_balance": "0.00",
            "account_overdue_balance": fmt(remaining_overdue),
        }

    @tool("write")
    def waive_late_fee(self, customer_id: str, bill_id: str) -> dict[str, Any]:
        """Waive the unpaid late fee on one bill. The policy says which customers qualify.

        Args:
            customer_id: The authenticated customer's id.
            bill_id: The bill carrying the late fee.
        """
        customer = self._customer(customer_id)
        bill = self._owned_bill(customer_id, bill_id)
        if not has_late_fee(bill):
            raise ToolError(f"bill {bill_id} has no late fee")
        if bill.late_fee_waived_on is not None:
            raise ToolError(f"the late fee on {bill_id} was already waived")
        if bill_balance(bill) == 0:
            raise ToolError(f"bill {bill_id} is paid in full; paid late fees are not refunded")
        # Tenure and one waiver a year are the policy's (telecom.late_fee_waiver_eligibility).
        waived = bill.model_copy(update={"late_fee_waived_on": day(TODAY)})
        self.db.bills[bill_id] = waived
        self.db.customers[customer_id] = customer.model_copy(
            update={"last_late_fee_waiver_on": day(TODAY)}
        )
        return {
            "customer_id": customer_id,
            "bill_id": bill_id,
            "waived_amount": fmt(LATE_FEE),
            "bill_balance": fmt(bill_balance(waived)),
        }

    @tool("write")
    def enroll_autopay(self, customer_id: str, payment_method_id: str) -> dict[str, Any]:
        """Turn on autopay (or move it to another saved method). Each bill is then paid on its
        due date, and each line gets the autopay discount from the next bill. The policy says
        when an account may enroll.

        Args:
            customer_id: The authenticated customer's id.
            payment_method_id: A saved, unexpired payment method of the customer.
        """
        customer = self._customer(customer_id)
        method = self._usable_method(customer, payment_method_id)
        if customer.autopay_method_id == method.method_id:
            raise ToolError(f"autopay already uses {method_label(method)}")
        # Overdue bills first is the policy's (telecom.autopay_no_overdue_bills).
        self.db.customers[customer_id] = customer.model_copy(
            update={"autopay_method_id": method.method_id}
        )
        return {
            "customer_id": customer_id,
            "autopay": method_label(method),
            "discount_per_line": fmt(AUTOPAY_DISCOUNT),
            "lines": len(customer.line_ids),
        }

    @tool("write")
    def cancel_autopay(self, customer_id: str) -> dict[str, Any]:
        """Turn off autopay; the autopay discount stops from the next bill.

        Args:
            customer_id: The authenticated customer's id.
        """
        customer = self._customer(customer_id)
        if customer.autopay_method_id is None:
            raise ToolError("autopay is not on for this account")
        self.db.customers[customer_id] = customer.model_copy(update={"autopay_method_id": None})
        return {"customer_id": customer_id, "autopay": None}

    @tool("write")
    def pay_off_device(
        self, customer_id: str, device_id: str, payment_method_id: str
    ) -> dict[str, Any]:
        """Pay the remaining installment balance of a financed device in full.

        Args:
            customer_id: The authenticated customer's id.
            device_id: The financed device, from get_line_details.
            payment_method_id: A saved, unexpired payment method of the customer.
        """
        customer = self._customer(customer_id)
        device = self._owned_device(customer_id, device_id)
        financing = device.financing
        if financing is None or financing.remaining_balance == 0:
            raise ToolError(f"{device.model} ({device_id}) has no installment balance")
        method = self._usable_method(customer, payment_method_id)
        amount = financing.remaining_balance
        payment_id = self._record_payment(
            customer_id, method.method_id, amount, device_id=device_id
        )
        paid_off = financing.model_copy(update={"remaining_balance": Decimal("0.00")})
        self.db.devices[device_id] = device.model_copy(update={"financing": paid_off})
        return {
            "customer_id": customer_id,
            "payment_id": payment_id,
            "device_id": device_id,
            "amount_paid": fmt(amount),
            "paid_with": method_label(method),
            "remaining_balance": "0.00",
        }
