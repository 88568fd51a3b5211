"""Retries with exponential backoff and ``Retry-After``, for every model backend.

An attempt either returns, raises `Retryable` (429, 5xx, timeouts, dropped connections, a
200 whose body is not a completion) or raises `ModelError` (anything retrying cannot fix).
After the last attempt the `ModelError` names what came back on that attempt, which the
episode records as its ``infra_error``.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar

from tau_emotion.errors import ModelError

T = TypeVar("T")

MAX_RETRY_AFTER_S = 60.0
"""A longer ``Retry-After`` is not waited out (an hour-long ban is better reported than
slept through); the backoff applies instead."""


class Retryable(Exception):
    """A failed attempt worth repeating; `delay` is what the server asked for, if anything."""

    def __init__(self, reason: str, delay: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay = delay


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
        except ValueError:
            value = -1.0
        if 0 <= value <= MAX_RETRY_AFTER_S:
            return value
    text = headers.get("retry-after")
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        parsed = email.utils.parsedate_tz(text)
        if parsed is None:
            return None
        value = email.utils.mktime_tz(parsed) - time.time()
    if value != value or value > MAX_RETRY_AFTER_S:  # NaN, or too long to wait
        return None
    return max(0.0, value)


def backoff_delay(first_s: float, attempt: int) -> float:
    """Exponential backoff with jitter (so that many episodes do not retry in lockstep)."""
    return float(first_s * (2**attempt) * (0.5 + random.random() / 2))


async def with_retries(
    attempt: Callable[[], Awaitable[T]], max_retries: int, backoff_s: float, who: str
) -> T:
    """Run `attempt` until it returns, retrying `Retryable` failures up to `max_retries` times."""
    reason = ""
    for n in range(max_retries + 1):
        try:
            return await attempt()
        except Retryable as exc:
            reason = exc.reason
            if n == max_retries:
                break
            await asyncio.sleep(exc.delay if exc.delay is not None else backoff_delay(backoff_s, n))
    raise ModelError(f"{who}: failed after {max_retries + 1} attempts: {reason}")
