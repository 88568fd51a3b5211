"""Policy checks of the school domain: the rules no tool can see from inside one call."""

from __future__ import annotations

import json
from collections.abc import Iterable

from tau_emotion.domains.checks import (
    CallRecord,
    PolicyCheck,
    Trajectory,
    authentication_before,
    confirmation_before_writes,
    one_customer,
)

AUTH_TOOLS = ("find_caller_by_email", "find_caller_by_phone", "find_caller_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "search_sections", "get_staff_availability"))
"""Tools that disclose nothing about a family (the catalogue, staff slots) or that hand off."""


def _needs_identity(call: CallRecord) -> bool:
    return call.kind in ("read", "write") and call.call.name not in PUBLIC_TOOLS


def _authenticated_id(call: CallRecord) -> str | None:
    try:
        result = json.loads(call.result)
    except ValueError:
        return None
    value = result.get("caller_id") if isinstance(result, dict) else None
    return value if isinstance(value, str) else None


def _acts_as_authenticated(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """caller_id must be an id that an authentication lookup returned earlier: the agent may
    not pick a guardian or student id out of a record and act as that person."""
    verified: list[str] = []
    for c in t.calls:
        if c.ok and c.call.name in AUTH_TOOLS:
            found = _authenticated_id(c)
            if found is not None:
                verified.append(found)
            continue
        caller = c.call.arguments.get("caller_id")
        if c.ok and caller is not None and caller not in verified:
            yield (
                f"{c.call.name} used caller_id={caller}, which no lookup authenticated",
                c.message_index,
            )


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("school.confirm_before_write"),
    authentication_before("school.authenticate_first", AUTH_TOOLS, _needs_identity),
    one_customer("school.one_caller", argument="caller_id"),
    PolicyCheck(
        "school.act_as_authenticated_caller",
        "Pass as caller_id only the id the authentication lookup returned for this caller.",
        _acts_as_authenticated,
    ),
]
