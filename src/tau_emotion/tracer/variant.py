"""A replacement named by how it differs from what the customer has.

A customer swapping a jacket does not recite the new variant's full spec or its price; they
ask for "the same jacket in size S". Where a write replaces one record with another
(`item_id` -> `new_item_id`), both carry options, and the new one is, in the list the agent
looked up, the only variant with the old one's options but for the ones that differ, the
writer names it by that difference (`write.Writer`). Validation then asks the text to say
the difference ("size S"), which with the old record (already described) pins the new one.
Before, the new variant was named by its price alone, which several siblings share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_emotion.tracer.preference import record_lists
from tau_emotion.tracer.values import option_values, options_phrase


def relative_variant(
    base: Mapping[str, Any] | None, new: Mapping[str, Any] | None, result: Any
) -> tuple[str, str] | None:
    """('the same Rain Jacket in size S', 'size S') for a new variant that differs from
    `base` (the record the customer has) in the options named; `result` is the parsed
    lookup that listed `new`. None when either has no options, they differ in which options
    they have, the lookup is of another product, or more than one variant would fit."""
    have, want = option_values(base), option_values(new)
    if not have or not want or set(have) != set(want) or new is None or base is None:
        return None
    changed = {k: v for k, v in want.items() if have[k] != v}
    if not changed or not _same_product(base, result):
        return None
    siblings = next((items for items in record_lists(result) if new in items), [])
    if sum(1 for r in siblings if option_values(r) == want) != 1:
        return None
    difference = options_phrase(changed)
    # The customer's line names the product; a variant list only beside it (the lookup's).
    name = base.get("name") or (result.get("name") if isinstance(result, dict) else None)
    thing = f"the same {name}" if isinstance(name, str) and name else "the same one"
    return f"{thing} in {difference}", difference


def _same_product(base: Mapping[str, Any], result: Any) -> bool:
    """Whether the lookup is of the product the customer's record is a variant of (when
    both say which)."""
    mine = base.get("product_id")
    theirs = result.get("product_id") if isinstance(result, dict) else None
    return mine is None or theirs is None or mine == theirs
