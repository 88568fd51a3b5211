"""Policy checks of the basketball domain: the rules no tool can see from inside one call."""

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

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "list_home_games", "get_team_roster", "list_camps"))
"""The schedule, roster and camp list are public; everything else concerns an account."""


def _needs_identity(call: CallRecord) -> bool:
    return call.kind in ("read", "write") and call.call.name not in PUBLIC_TOOLS


def _authenticated_id(call: CallRecord) -> str | None:
    try:
        result = json.loads(call.result)
    except ValueError:
        return None
    value = result.get("customer_id") if isinstance(result, dict) else None
    return value if isinstance(value, str) else None


def _acts_as_authenticated(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """customer_id must be an id an authentication lookup returned earlier: the agent may not
    act on an account it only read about."""
    verified: list[str] = []
    for c in t.calls:
        if c.ok and c.call.name in AUTH_TOOLS:
            found = _authenticated_id(c)
            if found is not None:
                verified.append(found)
            continue
        customer = c.call.arguments.get("customer_id")
        if c.ok and customer is not None and customer not in verified:
            yield (
                f"{c.call.name} used customer_id={customer}, which no lookup authenticated",
                c.message_index,
            )


CHECKS: list[PolicyCheck] = [
    confirmation_before_writes("basketball.confirm_before_write"),
    authentication_before("basketball.authenticate_first", AUTH_TOOLS, _needs_identity),
    one_customer("basketball.one_customer", argument="customer_id"),
    PolicyCheck(
        "basketball.act_as_authenticated_customer",
        "Pass as customer_id only the id the authentication lookup returned for this caller.",
        _acts_as_authenticated,
    ),
]
