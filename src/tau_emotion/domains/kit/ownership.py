"""Looking up a record the caller names that must be the authenticated customer's.

A missing record and someone else's are refused with the same text, so a probe cannot learn
which ids other customers hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from tau_emotion.errors import ToolError

__all__ = ["owned_record"]

R = TypeVar("R")


def owned_record(
    table: Mapping[str, R],
    key: str,
    owner: Callable[[R], str],
    customer_id: str,
    refusal: str,
) -> R:
    """`table[key]` when `owner` of it is `customer_id`; otherwise a `ToolError(refusal)`."""
    record = table.get(key)
    if record is None or owner(record) != customer_id:
        raise ToolError(refusal)
    return record
