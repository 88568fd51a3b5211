"""Deterministic ids: a prefix, the database's lead digit, then a running number."""

from __future__ import annotations

from collections.abc import Iterable


def make_id(prefix: str, lead: str, number: int) -> str:
    return f"{prefix}{lead}{number:05d}"


def next_id(keys: Iterable[str], prefix: str, lead: str) -> str:
    """The next free id after the highest existing one, so a replay and an agent that make the
    same calls get the same ids whatever else happened in between."""
    start = prefix + lead
    numbers = [
        int(k[len(start) :]) for k in keys if k.startswith(start) and k[len(start) :].isdigit()
    ]
    return make_id(prefix, lead, max(numbers, default=0) + 1)
