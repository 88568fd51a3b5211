"""The school's calendar, grading scale and money rules, shared by the tools and the generator.

Everything time-dependent is pinned to one fixed "now" so that a task replays the same way on
any day: the policy tells the agent the same date.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Literal

from tau_emotion.domains.common import CENT

ID_WIDTH = 5
"""Ids are a prefix, the database's lead digit, then a running number of this many digits."""

TODAY = date(2025, 3, 10)
NOW = datetime(2025, 3, 10, 9, 0)

FALL_2024 = "2024-FALL"
SPRING_2025 = "2025-SPRING"
SUMMER_2025 = "2025-SUMMER"
TERMS = (FALL_2024, SPRING_2025, SUMMER_2025)
COMPLETED_TERM = FALL_2024
CURRENT_TERM = SPRING_2025
OPEN_TERM = SUMMER_2025
"""The only term whose registrations can change by phone."""

SPRING_START = date(2025, 1, 13)
SPRING_END = date(2025, 6, 6)
SPRING_BREAK = (date(2025, 3, 24), date(2025, 3, 28))

ABSENCE_LOOKAHEAD_DAYS = 14
"""Absences can be reported from today up to this many days ahead."""
ABSENCE_LOOKBACK_DAYS = 7
"""A recorded unexcused absence can be excused up to this many days after it."""
CANCEL_NOTICE = timedelta(hours=24)

SUMMER_FEE_DUE = "2025-05-30"
PLAN_MIN_TOTAL = Decimal("500.00")
PLAN_MAX_DAYS_PAST_DUE = 30
PLAN_FIRST_DUE = date(2025, 4, 1)
PLAN_INSTALLMENTS = (2, 3, 4)
PLAN_MAX_INSTALLMENTS = 12
"""The longest plan the billing system sets up: a year of monthly installments. The policy's
2 to 4 (school.payment_plan_eligibility) is the agent's to apply; this bound only keeps a
plan to a size the system can write (a count in the thousands would write that many
installments and run dates past the year 9999)."""
MAX_WAITLISTS_PER_TERM = 2

AbsenceReason = Literal[
    "illness", "medical_appointment", "family_emergency", "bereavement", "religious_observance"
]

GRADE_POINTS: dict[str, Decimal] = {
    "A": Decimal("4.0"),
    "A-": Decimal("3.7"),
    "B+": Decimal("3.3"),
    "B": Decimal("3.0"),
    "B-": Decimal("2.7"),
    "C+": Decimal("2.3"),
    "C": Decimal("2.0"),
    "C-": Decimal("1.7"),
    "D": Decimal("1.0"),
    "F": Decimal("0.0"),
}
LETTERS = tuple(GRADE_POINTS)
PREREQ_PASSING = frozenset(("A", "A-", "B+", "B", "B-", "C+", "C"))
"""A prerequisite counts only with C or better; C- and below do not."""


def split_installments(total: Decimal, count: int) -> list[Decimal]:
    """Equal installments rounded down to the cent; the leftover cents go on the first."""
    base = (total / count).quantize(CENT, rounding=ROUND_DOWN)
    return [total - base * (count - 1)] + [base] * (count - 1)


def installment_dates(count: int) -> list[str]:
    """Due dates: the first of each month, starting with PLAN_FIRST_DUE."""
    dates = []
    year, month = PLAN_FIRST_DUE.year, PLAN_FIRST_DUE.month
    for _ in range(count):
        dates.append(date(year, month, 1).isoformat())
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return dates


def age_on(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def is_adult(date_of_birth: str) -> bool:
    return age_on(date.fromisoformat(date_of_birth), TODAY) >= 18


def is_school_day(day: date) -> bool:
    """A weekday of the spring term outside spring break."""
    return (
        day.weekday() < 5
        and SPRING_START <= day <= SPRING_END
        and not SPRING_BREAK[0] <= day <= SPRING_BREAK[1]
    )


def gpa(grades: list[tuple[str, Decimal]]) -> str | None:
    """Credit-weighted grade point average of (letter, credits), as '3.42'; None if empty."""
    credits = sum((c for _, c in grades), Decimal(0))
    if not credits:
        return None
    points = sum((GRADE_POINTS[g] * c for g, c in grades), Decimal(0))
    return f"{(points / credits).quantize(CENT, rounding=ROUND_HALF_UP):.2f}"
