"""Policy checks of the basketball domain: the rules no tool can see from inside one call."""

from __future__ import annotations

from tau_emotion.domains.checks import (
    PolicyCheck,
    act_as_authenticated,
    all_but,
    session_checks,
)

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "list_home_games", "get_team_roster", "list_camps"))
"""The schedule, roster and camp list are public; everything else concerns an account."""


CHECKS: list[PolicyCheck] = [
    *session_checks("basketball", AUTH_TOOLS, all_but(PUBLIC_TOOLS)),
    act_as_authenticated(
        "basketball.act_as_authenticated_customer",
        "Pass as customer_id only the id the authentication lookup returned for this caller.",
        AUTH_TOOLS,
        "customer_id",
    ),
]
