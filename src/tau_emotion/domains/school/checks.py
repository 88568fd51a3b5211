"""Policy checks of the school domain: the rules no tool can see from inside one call."""

from __future__ import annotations

from tau_emotion.domains.checks import (
    PolicyCheck,
    act_as_authenticated,
    all_but,
    session_checks,
)

AUTH_TOOLS = ("find_caller_by_email", "find_caller_by_phone", "find_caller_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "search_sections", "get_staff_availability"))
"""Tools that disclose nothing about a family (the catalogue, staff slots) or that hand off."""


CHECKS: list[PolicyCheck] = [
    *session_checks(
        "school", AUTH_TOOLS, all_but(PUBLIC_TOOLS), argument="caller_id", one="one_caller"
    ),
    act_as_authenticated(
        "school.act_as_authenticated_caller",
        "Pass as caller_id only the id the authentication lookup returned for this caller.",
        AUTH_TOOLS,
        "caller_id",
    ),
]
