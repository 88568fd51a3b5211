"""Values a customer names by a preference the tools pin down.

Customers rarely dictate a slot's hour or an add-on's name off a list they have not seen: they
ask for "the earliest opening with Dr Mensah" or "the cheapest add-on". Where the record a gold
write takes is, in the public lookup the agent runs for it, strictly the earliest of its list
(by its start) or strictly the cheapest (by its price), the writer names it that way
(`write.Writer`), and validation accepts the preference in place of the record's description
(`validate.underivable`): the agent runs the lookup the customer's other words pin down and
takes that end of it. A tie would leave the choice open, so it never counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from tau_emotion.tracer.values import is_scalar

Preference = Literal["earliest", "cheapest"]

WORDS: dict[Preference, tuple[str, ...]] = {
    "earliest": ("earliest", "first", "soonest"),
    "cheapest": ("cheapest", "lowest-priced", "least expensive"),
}
"""Words that say a preference, for a customer's text a reviewer wrote by hand."""

_START = re.compile(r"^(start|starts_at|start_date|start_time|departs_at|departure_time)$")
_PRICE = re.compile(r"(^|_)(price|fare)($|_)")


def preference_of(value: Any, result: Any) -> Preference | None:
    """How the record that `value` names stands out in a lookup's parsed result: strictly
    the earliest or the cheapest of the list that holds it; None when it does not, or when
    another record of the list carries the same value."""
    for items in record_lists(result):
        mine = [r for r in items if _names(r, value)]
        if len(items) < 2 or len(mine) != 1:
            continue
        record = mine[0]
        for field in record:
            if _START.match(field) and _strictly_least(record, items, field, _moment):
                return "earliest"
        for field in record:
            if _PRICE.search(field) and _strictly_least(record, items, field, _number):
                return "cheapest"
    return None


def says(preference: Preference, text: str) -> bool:
    """Whether a customer's text states the preference."""
    lower = text.lower()
    return any(re.search(rf"\b{re.escape(w)}\b", lower) for w in WORDS[preference])


def pinned_by(value: Any, preference: Preference, results: Sequence[Any]) -> bool:
    """Whether one of the parsed results the agent has seen pins `value` down by it."""
    return any(preference_of(value, r) == preference for r in results)


def record_lists(node: Any) -> Iterator[list[Mapping[str, Any]]]:
    """Every list of records in a parsed result, nested ones included."""
    if isinstance(node, list):
        if node and all(isinstance(i, dict) for i in node):
            yield node
        for item in node:
            yield from record_lists(item)
    elif isinstance(node, dict):
        for item in node.values():
            yield from record_lists(item)


def _names(record: Mapping[str, Any], value: Any) -> bool:
    return any(is_scalar(v) and str(v) == str(value) for v in record.values())


def _moment(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError("a start is an ISO date or time")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("a flag is not a price")
    return float(str(value).replace("$", "").replace(",", ""))


def _strictly_least(
    record: Mapping[str, Any],
    items: Sequence[Mapping[str, Any]],
    field: str,
    key: Callable[[Any], Any],
) -> bool:
    try:
        mine = key(record[field])
        others = [key(r[field]) for r in items if r is not record]
    except (KeyError, TypeError, ValueError):
        return False
    return all(mine < o for o in others)
