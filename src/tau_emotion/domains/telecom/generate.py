"""Seeded generator of the telecom database (a few hundred accounts on a fixed date).

Each customer draws a billing scenario (paid up, paid late, overdue, or suspended for
nonpayment) so that the money rules of the policy have real cases to bite on, and each line
draws its own situation (data exhausted, roaming, lost or stolen device, temporary hold,
pending plan change). Only `random.Random(seed)` is used, and sets are used for membership
tests only, never iterated, so the output is the same on every run.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import ROUND_CEILING, Decimal
from typing import TypeVar

from tau_emotion.domains.common import CENT, unique
from tau_emotion.domains.telecom import catalog
from tau_emotion.domains.telecom.billing import BillingHistory, LineCosts
from tau_emotion.domains.telecom.db import (
    Customer,
    Device,
    Financing,
    Line,
    LineAddon,
    PaymentMethod,
    Plan,
    SuspensionReason,
    TelecomDB,
    Ticket,
)
from tau_emotion.domains.telecom.rules import (
    TODAY,
    age_on,
    card_expired,
    day,
    days_ago,
    end_of_month,
    prorated,
)

SEED = 20250612
N_CUSTOMERS = 360

PLANS = {p.plan_id: p for p in catalog.PLANS}
ADDONS = {a.addon_id: a for a in catalog.ADDONS}
Scenario = str  # "good", "late_paid", "overdue" or "delinquent"
R = TypeVar("R")


def generate(seed: int = SEED) -> TelecomDB:
    """Build the whole database from one seed."""
    return _Generator(random.Random(seed)).build()


def _sorted(table: dict[str, R]) -> dict[str, R]:
    return dict(sorted(table.items()))


class _Generator:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.customers: dict[str, Customer] = {}
        self.lines: dict[str, Line] = {}
        self.devices: dict[str, Device] = {}
        self.tickets: dict[str, Ticket] = {}
        self.billing = BillingHistory()
        # Membership only (never iterated), to keep phones, emails and identities unique.
        self._phones: set[str] = set()
        self._emails: set[str] = set()
        self._identities: set[tuple[str, str, str]] = set()

    def build(self) -> TelecomDB:
        for n in range(N_CUSTOMERS):
            self._customer(f"C{1001 + n}")
        # Tables keyed in sorted order, as the snapshot stores them, so that the generated and
        # the loaded database serialize (and hash) identically.
        return TelecomDB(
            plans=_sorted(PLANS),
            addons=_sorted(ADDONS),
            customers=_sorted(self.customers),
            lines=_sorted(self.lines),
            devices=_sorted(self.devices),
            bills=_sorted(self.billing.bills),
            payments=_sorted(self.billing.payments),
            charges=_sorted(self.billing.charges),
            tickets=_sorted(self.tickets),
            transfers={},
        )

    # -- small draws -------------------------------------------------------------------------

    def _day_between(self, lo: date, hi: date) -> date:
        return lo + timedelta(days=self.rng.randint(0, max((hi - lo).days, 0)))

    def _phone(self) -> str:
        return unique(
            self._phones,
            lambda: f"{self.rng.choice(catalog.AREA_CODES)}-555-{self.rng.randint(100, 9999):04d}",
        )

    def _email(self, first: str, last: str) -> str:
        domain = self.rng.choice(catalog.EMAIL_DOMAINS)
        base = f"{first}.{last}".lower()
        email, n = f"{base}@{domain}", 1
        while email in self._emails:
            n += 1
            email = f"{base}{n}@{domain}"
        self._emails.add(email)
        return email

    def _identity(self) -> tuple[str, str, str]:
        """First name, last name and date of birth, unique as a triple (name + DOB lookup)."""
        while True:
            first = self.rng.choice(catalog.FIRST_NAMES)
            last = self.rng.choice(catalog.LAST_NAMES)
            dob = day(self._day_between(date(1944, 1, 1), date(2004, 12, 31)))
            if (first, last, dob) not in self._identities:
                self._identities.add((first, last, dob))
                return first, last, dob

    def _methods(self, customer_id: str) -> list[PaymentMethod]:
        methods = []
        for k in range(self.rng.choices([1, 2, 3], [50, 35, 15])[0]):
            kind = self.rng.choices(["credit_card", "debit_card", "bank_account"], [55, 25, 20])[0]
            bank = kind == "bank_account"
            methods.append(
                PaymentMethod(
                    method_id=f"PM-{customer_id[1:]}-{k + 1}",
                    kind=kind,
                    brand=self.rng.choice(catalog.BANKS if bank else catalog.CARD_BRANDS),
                    last4=f"{self.rng.randint(0, 9999):04d}",
                    expires=None
                    if bank
                    else f"{self.rng.randint(2024, 2030)}-{self.rng.randint(1, 12):02d}",
                )
            )
        return methods

    # -- one account -------------------------------------------------------------------------

    def _customer(self, customer_id: str) -> None:
        rng = self.rng
        first, last, dob = self._identity()
        born = date.fromisoformat(dob)
        adult = date(born.year + 18, born.month, min(born.day, 28))
        earliest = max(date(2012, 1, 1), adult)
        recent = rng.random() < 0.12 or earliest > date(2025, 1, 31)
        member_since = (
            self._day_between(max(earliest, date(2025, 2, 1)), date(2025, 5, 20))
            if recent
            else self._day_between(earliest, date(2025, 1, 31))
        )
        scenario: Scenario = rng.choices(
            ["good", "late_paid", "overdue", "delinquent"], [74, 9, 12, 5]
        )[0]
        if member_since > date(2025, 3, 1):
            scenario = "good"  # the older bills these scenarios need do not exist

        methods = self._methods(customer_id)
        autopay: str | None = None
        if scenario == "overdue" and rng.random() < 0.5:
            # Autopay failed: the card on autopay expired before the April bill was due.
            methods[0] = methods[0].model_copy(
                update={"kind": "credit_card", "brand": "Visa", "expires": "2025-04"}
            )
            autopay = methods[0].method_id
        elif scenario in ("good", "late_paid") and rng.random() < 0.55:
            valid = [m for m in methods if not card_expired(m)]
            autopay = rng.choice(valid).method_id if valid else None

        waiver: str | None = None
        if rng.random() < 0.15 and member_since < date(2024, 12, 1):
            # A waiver on a bill older than the three bills kept in the snapshot.
            first_possible = max(member_since + timedelta(days=50), date(2023, 1, 10))
            waiver = day(self._day_between(first_possible, date(2025, 2, 28)))

        line_count = rng.choices([1, 2, 3, 4], [48, 27, 15, 10])[0]
        costs: list[LineCosts] = []
        line_ids: list[str] = []
        for index in range(line_count):
            activated = (
                member_since if index == 0 else self._day_between(member_since, date(2025, 5, 20))
            )
            line, line_costs = self._line(customer_id, activated, dob, scenario)
            line_ids.append(line.line_id)
            costs.append(line_costs)

        self.customers[customer_id] = Customer(
            customer_id=customer_id,
            first_name=first,
            last_name=last,
            email=self._email(first, last),
            date_of_birth=dob,
            zip_code=rng.choice(catalog.ZIP_CODES),
            member_since=day(member_since),
            line_ids=tuple(line_ids),
            payment_methods=tuple(methods),
            autopay_method_id=autopay,
            last_late_fee_waiver_on=waiver,
        )
        self.billing.add_account(rng, customer_id, scenario, costs, methods, autopay)
        if rng.random() < 0.15:
            self._ticket(customer_id, rng.choice(line_ids))

    def _plan_for(self, activated: date, dob: str) -> Plan:
        choices = ["basic_5gb", "plus_15gb", "unlimited", "unlimited_max"]
        weights = [22, 30, 30, 12]
        if activated < date(2021, 1, 1):
            choices += ["classic_10gb", "unlimited_2019"]
            weights += [12, 12]
        if age_on(dob) >= 55:
            choices.append("unlimited_55")
            weights.append(25)
        return PLANS[self.rng.choices(choices, weights)[0]]

    def _line(
        self, customer_id: str, activated: date, dob: str, scenario: Scenario
    ) -> tuple[Line, LineCosts]:
        rng = self.rng
        line_id = f"L{2001 + len(self.lines)}"
        plan = self._plan_for(activated, dob)
        device = self._device(customer_id, line_id, activated)
        costs = LineCosts(line_id=line_id, activated_on=activated, plan=plan, device=device)

        pending: str | None = None
        changed_on: str | None = None
        draw = rng.random()
        cheaper = [
            p
            for p in PLANS.values()
            if p.available and p.min_age is None and p.monthly_price < plan.monthly_price
        ]
        if draw < 0.06 and cheaper:
            changed = self._day_between(TODAY.replace(day=1), days_ago(1))
            changed_on = day(changed)
            other = rng.choice(cheaper)
            if rng.random() < 0.5:
                pending = other.plan_id  # a downgrade waiting for next month
            else:
                # Upgraded earlier this month: the old plan was billed, proration is pending.
                costs.billed_plan = other
                costs.pending.append(
                    (
                        "proration",
                        f"Plan change proration: {other.name} to {plan.name}",
                        prorated(plan.monthly_price - other.monthly_price, changed),
                        changed,
                    )
                )
        elif draw < 0.16:
            changed_on = day(self._day_between(date(2023, 6, 1), date(2025, 5, 28)))

        addons = self._addons(plan, costs)
        used_mb = self._data_used(plan, addons)

        status = "active"
        reason: SuspensionReason | None = None
        suspended_on: str | None = None
        last_hold: str | None = None
        financed = device.financing is not None and device.financing.remaining_balance > 0
        draw = rng.random()
        if scenario == "delinquent":
            reason, suspended_on = "nonpayment", "2025-05-22"
        elif draw < 0.025:
            reason, suspended_on = "lost_device", day(days_ago(rng.randint(1, 20)))
        elif draw < 0.05:
            reason, suspended_on = "stolen_device", day(days_ago(rng.randint(1, 20)))
        elif draw < 0.08 and not financed:
            reason, suspended_on = "temporary_hold", day(days_ago(rng.randint(5, 60)))
            last_hold = suspended_on
        elif draw < 0.12:
            last_hold = day(self._day_between(date(2024, 3, 1), date(2025, 2, 28)))
        if reason is not None:
            status = "suspended"
        if reason in ("lost_device", "stolen_device"):
            device_status = "lost" if reason == "lost_device" else "stolen"
            device = device.model_copy(update={"status": device_status})
            costs.device = device
        self.devices[device.device_id] = device

        resets = rng.choices([0, 1, 2], [80, 15, 5])[0]
        line = Line(
            line_id=line_id,
            customer_id=customer_id,
            phone_number=self._phone(),
            activated_on=day(activated),
            plan_id=plan.plan_id,
            pending_plan_id=pending,
            last_plan_change_on=changed_on,
            status=status,
            suspension_reason=reason,
            suspended_on=suspended_on,
            last_hold_on=last_hold,
            device_id=device.device_id,
            data_used_mb=used_mb,
            roaming_enabled=any(ADDONS[a.addon_id].kind == "travel_pass" for a in addons)
            or rng.random() < 0.08,
            addons=tuple(addons),
            network_resets=resets,
            last_network_reset_on=day(days_ago(rng.randint(2, 200))) if resets else None,
        )
        self.lines[line_id] = line
        return line, costs

    def _addons(self, plan: Plan, costs: LineCosts) -> list[LineAddon]:
        """Add-ons bought in the last weeks; their price lands on a bill or a pending charge."""
        addons: list[LineAddon] = []
        if plan.data_gb is not None and self.rng.random() < 0.1:
            topup = ADDONS[self.rng.choice(["data_2gb", "data_5gb"])]
            bought = self._day_between(TODAY.replace(day=1), days_ago(1))
            addons.append(
                LineAddon(
                    addon_id=topup.addon_id,
                    purchased_on=day(bought),
                    ends_on=day(end_of_month(bought)),
                )
            )
            costs.addon_purchases.append((topup, bought))
        if self.rng.random() < 0.06:
            travel = ADDONS[self.rng.choice(["travel_7d", "travel_30d"])]
            bought = days_ago(self.rng.randint(1, 40))
            addons.append(
                LineAddon(
                    addon_id=travel.addon_id,
                    purchased_on=day(bought),
                    ends_on=day(bought + timedelta(days=(travel.days or 1) - 1)),
                )
            )
            costs.addon_purchases.append((travel, bought))
        return addons

    def _data_used(self, plan: Plan, addons: list[LineAddon]) -> int:
        if plan.data_gb is None:
            return self.rng.randint(200, 30000)
        allowance = 1024 * (plan.data_gb + sum(ADDONS[a.addon_id].data_gb or 0 for a in addons))
        if self.rng.random() < 0.15:
            return allowance  # data paused until next month
        return self.rng.randint(allowance // 20, allowance * 9 // 10)

    def _device(self, customer_id: str, line_id: str, activated: date) -> Device:
        rng = self.rng
        model, price, released = rng.choice(catalog.DEVICE_MODELS)
        byod = rng.random() < 0.15
        # The catalog holds recent models only, so every device came onto the network lately.
        purchased = self._day_between(max(activated, released), date(2025, 5, 25))
        months = (TODAY.year - purchased.year) * 12 + TODAY.month - purchased.month
        financing: Financing | None = None
        if not byod and months < 36 and rng.random() < 0.75:
            # A 36th of the price rounded up to the cent. A quotient that is not a whole cent
            # is at least 1/36 of a cent off one, far more than Decimal's 28 digits could
            # round away, so the ceiling sees the exact value.
            monthly = (price / 36).quantize(CENT, rounding=ROUND_CEILING)
            financing = Financing(
                monthly_installment=monthly,
                remaining_balance=max(price - monthly * months, Decimal("0.00")),
            )
        paid_off = financing is None or financing.remaining_balance == 0
        return Device(
            device_id=f"D{3001 + len(self.devices)}",
            customer_id=customer_id,
            line_id=line_id,
            model=model,
            imei="35" + "".join(str(rng.randint(0, 9)) for _ in range(13)),
            status="active",
            purchased_on=day(purchased),
            financing=financing,
            unlocked=byod or (paid_off and months >= 2 and rng.random() < 0.5),
        )

    def _ticket(self, customer_id: str, line_id: str) -> None:
        ticket_id = f"T-{len(self.tickets) + 1:05d}"
        self.tickets[ticket_id] = Ticket(
            ticket_id=ticket_id,
            customer_id=customer_id,
            line_id=line_id,
            category=self.rng.choice(["network", "device", "billing"]),
            status="open" if self.rng.random() < 0.35 else "resolved",
            opened_on=day(days_ago(self.rng.randint(1, 150))),
        )
