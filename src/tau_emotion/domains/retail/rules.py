"""Business constants and small helpers shared by the generator, the tools and the checks.

The numbers here are the ones `policy.md` states; keep the two in step.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal

from tau_emotion.domains.common import CENT, money

TODAY = "2025-05-15"
"""The shop's fixed 'today', so that windows and lateness never depend on the clock."""

RETURN_WINDOW_DAYS = 30
"""Returns and exchanges are accepted up to this many days after delivery."""

LATE_CREDIT_RATE = {"member": Decimal("0.10"), "gold": Decimal("0.20")}
"""Late-delivery credit, as a share of the order's item subtotal, by loyalty tier."""

LATE_CREDIT_CAP = money("50.00")
"""The late-delivery credit never exceeds $50.00."""

STATE_CODE = re.compile(r"^[A-Z]{2}$")
ZIP_CODE = re.compile(r"^\d{5}$")


def days_between(start: str, end: str) -> int:
    return (date.fromisoformat(end) - date.fromisoformat(start)).days


def add_days(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def normalize_order_number(text: str) -> str:
    """Accept an order number as a customer reads it: '#ord-123456' -> 'ORD-123456'."""
    cleaned = text.strip().lstrip("#").upper()
    if cleaned.isdigit():
        cleaned = f"ORD-{cleaned}"
    return cleaned


def late_credit(subtotal: Decimal, tier: str) -> Decimal:
    """The late-delivery credit for an order: a tier share of the subtotal, capped.

    A share that falls between cents is rounded down to the cent (10% of 24.95 is 2.49), as
    the integer-cent division this replaced did; subtotals are never negative, so rounding
    toward zero is rounding down."""
    credit = (subtotal * LATE_CREDIT_RATE[tier]).quantize(CENT, rounding=ROUND_DOWN)
    return min(credit, LATE_CREDIT_CAP)
