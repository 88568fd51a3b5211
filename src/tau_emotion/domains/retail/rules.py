"""Business constants and small helpers shared by the generator, the tools and the checks.

The numbers here are the ones `policy.md` states; keep the two in step.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

TODAY = "2025-05-15"
"""The shop's fixed 'today', so that windows and lateness never depend on the clock."""

RETURN_WINDOW_DAYS = 30
"""Returns and exchanges are accepted up to this many days after delivery."""

LATE_CREDIT_RATE = {"member": 10, "gold": 20}
"""Late-delivery credit, in percent of the order's item subtotal, by loyalty tier."""

LATE_CREDIT_CAP_CENTS = 5000
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


def late_credit_cents(subtotal_cents: int, tier: str) -> int:
    """The late-delivery credit for an order: a tier percentage of the subtotal, capped."""
    credit = subtotal_cents * LATE_CREDIT_RATE[tier] // 100
    return min(credit, LATE_CREDIT_CAP_CENTS)
