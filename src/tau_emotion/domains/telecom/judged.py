"""The judgement rules of policy.md, judged on the account as it stood before each write.

The tools carry these writes out (they enforce integrity only); a judge says why the policy
forbids one, or None. A judge only reads: it goes through the toolset's lookups, whose
ToolError for an unknown or foreign record means "not a valid write", never a breach.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from tau_emotion.domains.checks import Judge, PolicyCheck, judged
from tau_emotion.domains.common import fmt
from tau_emotion.domains.telecom.db import Device, Line
from tau_emotion.domains.telecom.rules import (
    HOLD_INTERVAL_DAYS,
    MAX_TOPUPS_PER_MONTH,
    TODAY,
    UNLOCK_MIN_DAYS,
    WAIVER_INTERVAL_DAYS,
    WAIVER_MIN_TENURE_DAYS,
    age_on,
    bill_balance,
    current_month,
    day,
    parse_day,
)
from tau_emotion.domains.telecom.tools import TelecomTools

Args = Mapping[str, Any]


def _overdue(tools: TelecomTools, customer_id: str) -> str | None:
    overdue = tools._overdue_bills(customer_id)
    return f"the account has overdue bills ({', '.join(overdue)})" if overdue else None


def _suspended(line: Line) -> str | None:
    if line.status != "active":
        return f"line {line.line_id} is suspended ({line.suspension_reason})"
    return None


def _financed(device: Device) -> bool:
    return device.financing is not None and device.financing.remaining_balance > 0


def _within(last: str | None, days: int) -> bool:
    """Whether `last` (a day or None) falls in the `days` days before today."""
    return last is not None and parse_day(last) > TODAY - timedelta(days=days)


def _oldest_first(tools: TelecomTools, args: Args) -> str | None:
    bill = tools._owned_bill(args["customer_id"], args["bill_id"])
    older = [
        b.bill_id
        for b in tools._bills_of(bill.customer_id)
        if b.period < bill.period and bill_balance(b) > 0
    ]
    return f"older bills still have a balance: {', '.join(older)}" if older else None


def _waiver(tools: TelecomTools, args: Args) -> str | None:
    customer = tools._customer(args["customer_id"])
    tools._owned_bill(customer.customer_id, args["bill_id"])
    tenure_start = TODAY - timedelta(days=WAIVER_MIN_TENURE_DAYS)
    if parse_day(customer.member_since) > tenure_start:
        return (
            f"customer since {customer.member_since}, after {day(tenure_start)}: under 12 "
            "months with us"
        )
    if _within(customer.last_late_fee_waiver_on, WAIVER_INTERVAL_DAYS):
        return f"a late fee was already waived on {customer.last_late_fee_waiver_on}"
    return None


def _autopay(tools: TelecomTools, args: Args) -> str | None:
    return _overdue(tools, tools._customer(args["customer_id"]).customer_id)


def _plan_change(tools: TelecomTools, args: Args) -> str | None:
    line = tools._owned_line(args["customer_id"], args["line_id"])
    new = tools._plan(args["new_plan_id"])
    if suspended := _suspended(line):
        return suspended
    if not new.available:
        return f"{new.name} is a legacy plan and is no longer offered"
    if line.last_plan_change_on is not None and line.last_plan_change_on[:7] == current_month():
        return f"line {line.line_id} already changed plan on {line.last_plan_change_on}"
    holder = tools._customer(line.customer_id)
    if new.min_age is not None and age_on(holder.date_of_birth) < new.min_age:
        return f"{new.name} is for account holders {new.min_age} or older"
    return None


def _addon(tools: TelecomTools, args: Args) -> str | None:
    line = tools._owned_line(args["customer_id"], args["line_id"])
    addon = tools.db.addons.get(args["addon_id"])
    if addon is None:
        return None  # the tool refuses an unknown add-on
    if blocked := _suspended(line) or _overdue(tools, line.customer_id):
        return blocked
    same_kind = [a for a in line.addons if tools.db.addons[a.addon_id].kind == addon.kind]
    if addon.kind == "data_topup":
        this_month = [a for a in same_kind if a.purchased_on[:7] == current_month()]
        if len(this_month) >= MAX_TOPUPS_PER_MONTH:
            return f"line {line.line_id} already has {len(this_month)} top-ups this month"
        return None
    if not line.roaming_enabled:
        return f"international roaming is off on line {line.line_id}"
    active = [a for a in same_kind if a.ends_on >= day(TODAY)]
    if active:
        return f"line {line.line_id} already has a travel pass until {active[0].ends_on}"
    return None


def _roaming(tools: TelecomTools, args: Args) -> str | None:
    line = tools._owned_line(args["customer_id"], args["line_id"])
    if not args["enabled"]:
        return None  # roaming can be turned off at any time
    return _suspended(line) or _overdue(tools, line.customer_id)


def _hold(tools: TelecomTools, args: Args) -> str | None:
    line = tools._owned_line(args["customer_id"], args["line_id"])
    if args["reason"] != "temporary_hold":
        return None
    device = tools._device(line.device_id)
    if _financed(device):
        return f"line {line.line_id} has a financed device ({device.model}) with a balance"
    if _within(line.last_hold_on, HOLD_INTERVAL_DAYS):
        return f"line {line.line_id} had a temporary hold from {line.last_hold_on}"
    return None


def _reactivation(tools: TelecomTools, args: Args) -> str | None:
    line = tools._owned_line(args["customer_id"], args["line_id"])
    if line.suspension_reason == "stolen_device":
        return f"line {line.line_id} was suspended for a stolen phone"
    if line.suspension_reason == "nonpayment":
        return _overdue(tools, line.customer_id)
    return None


def _unlock(tools: TelecomTools, args: Args) -> str | None:
    device = tools._owned_device(args["customer_id"], args["device_id"])
    if device.status != "active":
        return f"{device.model} ({device.device_id}) is reported {device.status}"
    if device.financing is not None and _financed(device):
        return (
            f"{device.model} has an installment balance of "
            f"{fmt(device.financing.remaining_balance)}"
        )
    if parse_day(device.purchased_on) > TODAY - timedelta(days=UNLOCK_MIN_DAYS):
        return f"{device.model} was bought on {device.purchased_on}, under {UNLOCK_MIN_DAYS} days"
    return _overdue(tools, device.customer_id)


def _judged(rule: str, description: str, tool: str, judge: Judge) -> PolicyCheck:
    return judged(f"telecom.{rule}", description, [tool], judge)


JUDGED: list[PolicyCheck] = [
    _judged(
        "bills_oldest_first",
        "Pay bills oldest first: never a bill while an older one has a balance.",
        "pay_bill",
        _oldest_first,
    ),
    _judged(
        "late_fee_waiver_eligibility",
        "Waive a late fee only for a customer with us 12 months or more and no waiver in the "
        "last 12 months.",
        "waive_late_fee",
        _waiver,
    ),
    _judged(
        "autopay_no_overdue_bills",
        "Enroll in autopay only an account with no overdue bills.",
        "enroll_autopay",
        _autopay,
    ),
    _judged(
        "plan_change_eligibility",
        "Change the plan only of an active line that has not changed plan this month, never "
        "onto a legacy plan, and onto 55+ Unlimited only for a holder 55 or older.",
        "change_plan",
        _plan_change,
    ),
    _judged(
        "addon_eligibility",
        "Sell add-ons only to an active line of an account with no overdue bills: at most 2 "
        "data top-ups a month, and a travel pass only with roaming on and none active.",
        "purchase_addon",
        _addon,
    ),
    _judged(
        "roaming_eligibility",
        "Turn roaming on only for an active line of an account with no overdue bills.",
        "set_international_roaming",
        _roaming,
    ),
    _judged(
        "temporary_hold_eligibility",
        "Put a line on temporary hold only when its device has no installment balance and it "
        "had no hold in the last 12 months.",
        "suspend_line",
        _hold,
    ),
    _judged(
        "reactivation_eligibility",
        "Never reactivate a line suspended for a stolen phone; lift a nonpayment suspension "
        "only once no bill is overdue.",
        "reactivate_line",
        _reactivation,
    ),
    _judged(
        "unlock_eligibility",
        "Unlock only a paid-off device not reported lost or stolen, bought 60 days ago or "
        "more, on an account with no overdue bills.",
        "unlock_device",
        _unlock,
    ),
]
