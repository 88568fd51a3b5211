"""Business constants of the clinic, shared by the generator, the tools and the policy text.

The clinic runs on a fixed clock so that every window (cancellation, refill timing, device
silence) gives the same answer in every episode; `policy.md` states the same time.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tau_emotion.domains.common import money

NOW = datetime(2025, 3, 10, 9, 0)
"""The clinic's current time (Monday, Pacific time)."""
TODAY = NOW.date()

CANCEL_WINDOW = timedelta(hours=24)
"""Free cancellation / any reschedule needs at least this much notice."""
MIN_BOOKING_LEAD = timedelta(hours=2)
MAX_RESCHEDULES = 2
FOLLOW_UP_WINDOW_DAYS = 180
"""An in-person follow-up needs a completed visit with the same provider this recently."""
REFILL_EARLY_DAYS = 7
"""A refill may be requested this many days before the current supply runs out."""
DEVICE_SILENT = timedelta(hours=72)
"""A device counts as not syncing when its last upload is older than this."""

VISIT_TYPES = ("video", "phone", "in_person_follow_up")
REMOTE_VISIT_TYPES = ("video", "phone")

SELF_PAY = {
    "video": money("79.00"),
    "phone": money("59.00"),
    "in_person_follow_up": money("129.00"),
}
"""Price when the patient has no usable coverage for the visit."""
NO_SHOW_FEE = money("25.00")

# Two-digit ZIP prefixes of the states the clinic serves; an address change must stay in state.
STATE_ZIP_PREFIXES: dict[str, tuple[str, ...]] = {
    "CA": ("90", "91", "92", "93", "94", "95", "96"),
    "OR": ("97",),
    "WA": ("98", "99"),
    "AZ": ("85", "86"),
    "NV": ("89",),
    "CO": ("80", "81"),
}


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value)


def parse_day(value: str) -> date:
    return date.fromisoformat(value)
