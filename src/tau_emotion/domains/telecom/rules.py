"""Business constants and pure calculations shared by the generator and the tools.

The domain lives on a fixed date so that bills, due dates and eligibility windows mean the
same thing in every run; policy.md states the same date and numbers.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.telecom.db import Bill, PaymentMethod

TODAY = date(2025, 6, 12)
LATE_FEE = money("10.00")
AUTOPAY_DISCOUNT = money("5.00")
NONPAYMENT_GRACE_DAYS = 30
HOLD_MAX_DAYS = 90
HOLD_INTERVAL_DAYS = 365
UNLOCK_MIN_DAYS = 60
MAX_TOPUPS_PER_MONTH = 2
WAIVER_MIN_TENURE_DAYS = 365
WAIVER_INTERVAL_DAYS = 365


def day(value: date) -> str:
    return value.isoformat()


def parse_day(value: str) -> date:
    return date.fromisoformat(value)


def days_ago(days: int) -> date:
    return TODAY - timedelta(days=days)


def month_of(value: str) -> str:
    """'2025-06-12' -> '2025-06'."""
    return value[:7]


def current_month() -> str:
    return month_of(day(TODAY))


def end_of_month(value: date) -> date:
    return value.replace(day=calendar.monthrange(value.year, value.month)[1])


def next_month_start(value: date) -> date:
    return end_of_month(value) + timedelta(days=1)


def prorated(monthly_difference: Decimal, today: date = TODAY) -> Decimal:
    """The difference for the rest of the month counting today, rounded half up to a cent.

    Only upgrades are prorated, so the difference is positive and a half cent rounds up
    (`money` rounds halves away from zero, which would round a negative half down). A whole
    number of cents over the days of a month is a half cent exactly or at least 1/62 of a cent
    from one, so Decimal's 28 digits never carry the quotient across a rounding boundary.
    """
    days_in_month = calendar.monthrange(today.year, today.month)[1]
    remaining = days_in_month - today.day + 1
    return money(monthly_difference * remaining / days_in_month)


def age_on(date_of_birth: str, today: date = TODAY) -> int:
    born = parse_day(date_of_birth)
    before_birthday = (today.month, today.day) < (born.month, born.day)
    return today.year - born.year - int(before_birthday)


def card_expired(method: PaymentMethod, today: date = TODAY) -> bool:
    """A card is valid through the last day of its expiry month."""
    return method.expires is not None and method.expires < today.isoformat()[:7]


def method_label(method: PaymentMethod) -> str:
    kind = "bank account" if method.kind == "bank_account" else method.kind.replace("_", " ")
    return f"{method.brand} {kind} ending {method.last4}"


def bill_total(bill: Bill) -> Decimal:
    waived = bill.late_fee_waived_on is not None
    return sum(
        (i.amount for i in bill.items if not (waived and i.kind == "late_fee")), Decimal("0.00")
    )


def bill_balance(bill: Bill) -> Decimal:
    return max(bill_total(bill) - bill.amount_paid, Decimal("0.00"))


def bill_status(bill: Bill, today: date = TODAY) -> str:
    if bill_balance(bill) == 0:
        return "paid"
    return "overdue" if parse_day(bill.due_on) < today else "open"


def has_late_fee(bill: Bill) -> bool:
    return any(item.kind == "late_fee" for item in bill.items)
