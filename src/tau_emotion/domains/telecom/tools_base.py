"""Shared plumbing of the telecom tools: tables, ownership checks, money rules, new ids.

Every write tool takes the customer_id it acts for and refuses an entity (line, bill, device,
payment method) that is not on that customer's account, so a call can never reach across
accounts. The tools enforce integrity only (records exist, a payment method is saved and
unexpired, a write changes something); who qualifies for what is the policy's, judged in
checks.py, which reads the account through the helpers here (`_overdue_bills`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from tau_emotion.domains.common import next_id, require
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.telecom.db import (
    Bill,
    ChargeKind,
    Customer,
    Device,
    Line,
    PaymentMethod,
    Plan,
    TelecomDB,
    charge,
)
from tau_emotion.domains.telecom.rules import (
    TODAY,
    bill_status,
    card_expired,
    day,
    method_label,
    next_month_start,
    prorated,
)
from tau_emotion.errors import ToolError

H = TypeVar("H", Line, Device, Bill)
"""A record on one customer's account."""


@dataclass(frozen=True)
class PlanChange:
    """What a plan change would do: upgrades apply now with proration, downgrades next month."""

    line: Line
    current: Plan
    new: Plan
    upgrade: bool
    effective_on: str
    prorated_charge: Decimal


class TelecomToolBase(DatabaseTools[TelecomDB]):
    # -- finding things --------------------------------------------------------------------

    def _customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id!r}")

    def _line(self, line_id: str) -> Line:
        return require(self.db.lines, line_id, f"no line with id {line_id!r}")

    def _device(self, device_id: str) -> Device:
        return require(self.db.devices, device_id, f"no device with id {device_id!r}")

    def _on_account(self, customer_id: str, what: str, table: Mapping[str, H], key: str) -> H:
        """The `what` called `key` in `table`, refused unless it is on the customer's account
        (the customer first, then the record, then whose it is)."""
        self._customer(customer_id)
        record = require(table, key, f"no {what} with id {key!r}")
        if record.customer_id != customer_id:
            raise ToolError(f"{what} {key} is not on customer {customer_id}'s account")
        return record

    def _owned_line(self, customer_id: str, line_id: str) -> Line:
        return self._on_account(customer_id, "line", self.db.lines, line_id)

    def _owned_device(self, customer_id: str, device_id: str) -> Device:
        return self._on_account(customer_id, "device", self.db.devices, device_id)

    def _owned_bill(self, customer_id: str, bill_id: str) -> Bill:
        return self._on_account(customer_id, "bill", self.db.bills, bill_id)

    def _plan(self, plan_id: str) -> Plan:
        return require(
            self.db.plans, plan_id, f"no plan with id {plan_id!r}; list_plans shows the catalog"
        )

    def _bills_of(self, customer_id: str) -> list[Bill]:
        return sorted(
            (b for b in self.db.bills.values() if b.customer_id == customer_id),
            key=lambda b: b.period,
        )

    # -- shared rules ----------------------------------------------------------------------

    def _usable_method(self, customer: Customer, method_id: str) -> PaymentMethod:
        """A payment method on file that has not expired (new cards are added in the app)."""
        method = next((m for m in customer.payment_methods if m.method_id == method_id), None)
        if method is None:
            raise ToolError(
                f"payment method {method_id!r} is not on file for customer "
                f"{customer.customer_id}; only saved payment methods can be used"
            )
        if card_expired(method):
            raise ToolError(f"{method_label(method)} expired in {method.expires}")
        return method

    def _overdue_bills(self, customer_id: str) -> list[str]:
        """Ids of the account's overdue bills (the policy's test of good standing)."""
        return [b.bill_id for b in self._bills_of(customer_id) if bill_status(b) == "overdue"]

    def _plan_change(self, line: Line, new_plan_id: str) -> PlanChange:
        """Work out a plan change's effect and cost. Whether the line may make it (suspended,
        legacy plan, once a month, 55+) is the policy's: telecom.plan_change_eligibility."""
        new = self._plan(new_plan_id)
        current = self._plan(line.plan_id)
        if new.plan_id == current.plan_id:
            raise ToolError(f"line {line.line_id} is already on {current.name}")
        upgrade = new.monthly_price > current.monthly_price
        return PlanChange(
            line=line,
            current=current,
            new=new,
            upgrade=upgrade,
            effective_on=day(TODAY) if upgrade else day(next_month_start(TODAY)),
            prorated_charge=prorated(new.monthly_price - current.monthly_price)
            if upgrade
            else Decimal("0.00"),
        )

    # -- writing ---------------------------------------------------------------------------

    def _add_charge(
        self, customer_id: str, line_id: str, kind: ChargeKind, description: str, amount: Decimal
    ) -> None:
        charge_id = next_id(self.db.charges, "CH-", 5)
        self.db.charges[charge_id] = charge(
            charge_id, customer_id, line_id, kind, description, amount, day(TODAY)
        )
