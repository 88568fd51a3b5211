"""The generator's billing history: three monthly bills per account and their payments.

Kept apart from the line and device draws because it only needs what each line costs; the
scenario decides which bills were paid, paid late (with a late fee) or left unpaid.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from tau_emotion.domains.telecom.db import (
    Addon,
    Bill,
    BillItem,
    BillItemKind,
    Charge,
    ChargeKind,
    Device,
    Payment,
    PaymentMethod,
    Plan,
    charge,
    payment,
)
from tau_emotion.domains.telecom.rules import (
    AUTOPAY_DISCOUNT,
    LATE_FEE,
    TODAY,
    card_expired,
    day,
    end_of_month,
)

PERIODS: tuple[date, ...] = (date(2025, 3, 1), date(2025, 4, 1), date(2025, 5, 1))
"""First days of the billed months; each bill is issued on the 1st of the next month."""

# Which periods are unpaid (and carry a late fee) or were paid late, per scenario.
_UNPAID = {"overdue": ("2025-04",), "delinquent": ("2025-03", "2025-04")}
_PAID_LATE = {"late_paid": ("2025-04",)}


@dataclass
class LineCosts:
    """What one line costs, as the billing history needs it."""

    line_id: str
    activated_on: date
    plan: Plan
    device: Device
    billed_plan: Plan | None = None
    """The plan billed in past months when the line changed plan this month."""
    addon_purchases: list[tuple[Addon, date]] = field(default_factory=list)
    pending: list[tuple[ChargeKind, str, Decimal, date]] = field(default_factory=list)
    """One-time charges for next bill: (kind, description, amount, created on)."""


@dataclass
class BillingHistory:
    bills: dict[str, Bill] = field(default_factory=dict)
    payments: dict[str, Payment] = field(default_factory=dict)
    charges: dict[str, Charge] = field(default_factory=dict)

    def add_account(
        self,
        rng: random.Random,
        customer_id: str,
        scenario: str,
        costs: list[LineCosts],
        methods: list[PaymentMethod],
        autopay: str | None,
    ) -> None:
        for start in PERIODS:
            billed = [c for c in costs if c.activated_on <= end_of_month(start)]
            if billed:
                self._bill(rng, customer_id, scenario, start, billed, methods, autopay)
        for c in costs:
            for addon, bought in c.addon_purchases:
                if bought >= TODAY.replace(day=1):
                    self._charge(customer_id, c.line_id, "addon", addon.name, addon.price, bought)
            for kind, description, amount, created in c.pending:
                self._charge(customer_id, c.line_id, kind, description, amount, created)

    def _items(self, start: date, lines: list[LineCosts], autopay: bool) -> list[BillItem]:
        """Each line's items in bill order: plan, device installment, add-ons bought this
        month, autopay discount."""
        items: list[BillItem] = []
        for c in lines:
            due: list[tuple[BillItemKind, str, Decimal]] = []
            plan = c.billed_plan or c.plan
            due.append(("plan", f"{plan.name} plan", plan.monthly_price))
            financing = c.device.financing
            if (
                financing is not None
                and financing.remaining_balance > 0
                and c.device.purchased_on < day(start)
            ):
                due.append(
                    (
                        "device_installment",
                        f"{c.device.model} installment",
                        financing.monthly_installment,
                    )
                )
            for addon, bought in c.addon_purchases:
                if bought.replace(day=1) == start:
                    due.append(("addon", addon.name, addon.price))
            if autopay:
                due.append(("autopay_discount", "Autopay discount", -AUTOPAY_DISCOUNT))
            items += (
                BillItem(kind=kind, description=text, amount=amount, line_id=c.line_id)
                for kind, text, amount in due
            )
        return items

    def _bill(
        self,
        rng: random.Random,
        customer_id: str,
        scenario: str,
        start: date,
        lines: list[LineCosts],
        methods: list[PaymentMethod],
        autopay: str | None,
    ) -> None:
        period = day(start)[:7]
        issued = end_of_month(start) + timedelta(days=1)
        due = issued.replace(day=21)
        items = self._items(start, lines, autopay is not None)
        unpaid = period in _UNPAID.get(scenario, ())
        paid_late = period in _PAID_LATE.get(scenario, ())
        if unpaid or paid_late:
            items.append(BillItem(kind="late_fee", description="Late payment fee", amount=LATE_FEE))
        total = sum((i.amount for i in items), Decimal("0.00"))

        paid_on: date | None = None
        if paid_late:
            paid_on = due + timedelta(days=rng.randint(2, 18))
        elif not unpaid and due < TODAY:
            paid_on = due if autopay else issued + timedelta(days=rng.randint(1, 20))
        elif not unpaid and autopay is None and rng.random() < 0.25:
            paid_on = issued + timedelta(days=rng.randint(1, (TODAY - issued).days - 1))

        bill_id = f"B{100001 + len(self.bills)}"
        self.bills[bill_id] = Bill(
            bill_id=bill_id,
            customer_id=customer_id,
            period=period,
            issued_on=day(issued),
            due_on=day(due),
            items=tuple(items),
            amount_paid=total if paid_on else Decimal("0.00"),
            late_fee_waived_on=None,
        )
        if paid_on is not None:
            method = autopay or self._manual_method(rng, methods, paid_on)
            payment_id = f"PAY-{len(self.payments) + 1:05d}"
            self.payments[payment_id] = payment(
                payment_id, customer_id, method, total, day(paid_on), bill_id
            )

    @staticmethod
    def _manual_method(rng: random.Random, methods: list[PaymentMethod], paid_on: date) -> str:
        valid = [m for m in methods if not card_expired(m, paid_on)]
        return rng.choice(valid or methods).method_id

    def _charge(
        self,
        customer_id: str,
        line_id: str,
        kind: ChargeKind,
        description: str,
        amount: Decimal,
        created: date,
    ) -> None:
        charge_id = f"CH-{len(self.charges) + 1:05d}"
        self.charges[charge_id] = charge(
            charge_id, customer_id, line_id, kind, description, amount, day(created)
        )
