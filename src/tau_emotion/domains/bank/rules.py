"""Larkspur Bank's limits, fees and windows: one place for the numbers policy.md states."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from tau_emotion.domains.bank.db import TODAY, Tier
from tau_emotion.domains.common import money

EXTERNAL_DAILY_LIMIT: dict[Tier, Decimal] = {
    "standard": money("2500.00"),
    "premier": money("10000.00"),
}
NEW_PAYEE_DAYS = 3
NEW_PAYEE_MAX = money("500.00")
SAVINGS_MONTHLY_WITHDRAWALS = 6
CARD_CAPS: dict[Tier, dict[str, Decimal]] = {
    "standard": {"purchase": money("3000.00"), "atm": money("500.00")},
    "premier": {"purchase": money("10000.00"), "atm": money("1500.00")},
}
EXPEDITE_FEE = money("15.00")
REVERSIBLE_FEES = ("overdraft", "monthly_maintenance", "atm_out_of_network")
FEE_REVERSAL_WINDOW_DAYS = 90
COURTESY_REVERSALS: dict[Tier, int] = {"standard": 1, "premier": 3}
COURTESY_PERIOD_DAYS = 365
DISPUTE_WINDOW_DAYS = 60
DUPLICATE_WINDOW_DAYS = 3
PROVISIONAL_CREDIT_MAX = money("100.00")
EARLY_RELEASE_MAX = money("2000.00")
EARLY_RELEASE_MIN_ACCOUNT_DAYS = 365
CARD_YEARS = 4


def days_ago(n: int) -> str:
    return (TODAY - timedelta(days=n)).isoformat()


def today() -> str:
    return TODAY.isoformat()


def month_start() -> str:
    return TODAY.replace(day=1).isoformat()


def clean_words(text: str) -> str:
    """Postal style (upper case, single spaces, no dots): case, spacing and dots vary between
    speakers, and the address on file should not."""
    return " ".join(text.replace(".", " ").split()).upper()
