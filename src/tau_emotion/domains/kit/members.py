"""The members of one record that a caller names by id: the items of an order to refund or
return, the travellers of a booking to put on a tour.

Every such tool refuses the same three slips, each in its own domain's words: no id at all,
an id given twice, an id the record does not hold. The domain's own per-member checks
(already refunded, under age) run in the caller's loop, member by member, so a refusal of an
earlier member comes before the absence of a later one, as a hand-written loop would have it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from tau_emotion.errors import ToolError

__all__ = ["each_named"]

M = TypeVar("M")


def each_named(
    ids: Sequence[str],
    members: Mapping[str, M],
    *,
    empty: str,
    missing: Callable[[str], str],
    repeated: str | None = None,
) -> Iterator[M]:
    """The members `ids` names, in the order named.

    Refuses at once with `empty` when `ids` is empty and with `repeated` (`empty` where the
    domain says both in one sentence) when an id is given twice; an id `members` lacks is
    refused with `missing(id)` when the iteration reaches it, so iterate to the end.
    """
    if not ids:
        raise ToolError(empty)
    if len(set(ids)) != len(ids):
        raise ToolError(empty if repeated is None else repeated)
    return _in_order(ids, members, missing)


def _in_order(
    ids: Sequence[str], members: Mapping[str, M], missing: Callable[[str], str]
) -> Iterator[M]:
    for key in ids:
        member = members.get(key)
        if member is None:
            raise ToolError(missing(key))
        yield member
