"""Policy rules audited over a finished conversation.

The tools enforce integrity: records exist and are on the caller's account, a payment method is
saved and unexpired, a write changes something. Who qualifies for a waiver, a plan, an add-on,
a hold, a reactivation or an unlock is the agent's to apply, as a human agent would; the
judged checks in `judged.py` audit those on the account as it stood before each write. The
checks here audit what only the conversation shows.
"""

from __future__ import annotations

from collections.abc import Iterable

from tau_emotion.domains.checks import PolicyCheck, all_but, other_than_first, session_checks
from tau_emotion.domains.telecom.judged import JUDGED
from tau_emotion.domains.trajectory import Trajectory, result_field

AUTH_TOOLS = ("find_customer_by_phone", "find_customer_by_email", "find_customer_by_name_and_dob")
# Tools that reveal nothing about an account, so they need no authentication.
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "list_plans", "list_addons", "transfer_to_human_agents"))

Findings = Iterable[tuple[str, int | None]]


def _no_other_account_data(t: Trajectory) -> Findings:
    """Reads take line, device or bill ids, so a second account shows up only in results."""
    # Every account view names its customer.
    shown = ((c, result_field(c, "customer_id")) for c in t.successful())
    for c, customer, first in other_than_first(shown):
        yield f"{c.call.name} returned data of customer {customer} after {first}", c.message_index


def _quote_before_plan_change(t: Trajectory) -> Findings:
    quoted: set[tuple[object, object]] = set()
    for c in t.calls:
        key = (c.call.arguments.get("line_id"), c.call.arguments.get("new_plan_id"))
        if c.ok and c.call.name == "quote_plan_change":
            quoted.add(key)
        elif c.ok and c.call.name == "change_plan" and key not in quoted:
            yield f"change_plan {key} ran without a quote for that line and plan", c.message_index


def _reset_before_network_ticket(t: Trajectory) -> Findings:
    reset: set[object] = set()
    for c in t.calls:
        line = c.call.arguments.get("line_id")
        if c.ok and c.call.name == "reset_network_settings":
            reset.add(line)
        elif (
            c.ok
            and c.call.name == "open_ticket"
            and c.call.arguments.get("category") == "network"
            and line not in reset
        ):
            yield f"network ticket for line {line} opened without a reset first", c.message_index


CHECKS: list[PolicyCheck] = [
    # Every lookup result names its customer, so `no_other_account_data` already reports a
    # lookup that finds a second one.
    *session_checks("telecom", AUTH_TOOLS, all_but(PUBLIC_TOOLS), lookups_checked=True),
    PolicyCheck(
        "telecom.no_other_account_data",
        "Only the authenticated customer's account data is looked at.",
        _no_other_account_data,
        hard=True,
    ),
    PolicyCheck(
        "telecom.quote_before_plan_change",
        "Quote a plan change (and tell the customer its cost) before making it.",
        _quote_before_plan_change,
    ),
    PolicyCheck(
        "telecom.reset_before_network_ticket",
        "Reset the line's network settings in the conversation before opening a network ticket.",
        _reset_before_network_ticket,
    ),
    *JUDGED,
]
