"""What a visit costs the patient: one function used by the generator and by the tools,
so that seeded history and new bookings follow the same price rules."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from tau_emotion.domains.telehealth.db import Coverage, InsurancePlan, Voucher
from tau_emotion.domains.telehealth.rules import REMOTE_VISIT_TYPES, SELF_PAY

PlanLookup = Mapping[str, InsurancePlan]
"""The plans: a parsed table (generator) or this episode's live one (tools)."""


def coverage_status(coverage: Coverage | None, plans: PlanLookup, visit_day: str) -> str:
    """'none', 'out_of_network', 'expired' or 'active' for a visit on `visit_day`."""
    if coverage is None:
        return "none"
    plan = plans.get(coverage.plan_id)
    if plan is None or not plan.accepted:
        return "out_of_network"
    if coverage.valid_through < visit_day:
        return "expired"
    return "active"


def visit_price(
    coverage: Coverage | None, plans: PlanLookup, visit_type: str, visit_day: str
) -> tuple[Decimal, str]:
    """Price and its basis: the plan copay, or the self-pay rate and why."""
    status = coverage_status(coverage, plans, visit_day)
    self_pay = SELF_PAY[visit_type]
    if status != "active" or coverage is None:
        return self_pay, f"self-pay rate (coverage: {status})"
    plan = plans.get(coverage.plan_id)
    assert plan is not None  # coverage_status checked it
    if visit_type in REMOTE_VISIT_TYPES and not plan.covers_telehealth:
        return self_pay, "self-pay rate (plan does not cover telehealth)"
    copay = {
        "video": plan.video_copay,
        "phone": plan.phone_copay,
        "in_person_follow_up": plan.in_person_copay,
    }[visit_type]
    return copay, f"{plan.payer} {plan.plan_name} copay"


def voucher_discount(voucher: Voucher, price: Decimal) -> Decimal:
    """Vouchers have no cash value: the discount never exceeds the price."""
    if voucher.kind == "copay_waiver":
        return price
    return min(voucher.amount, price)
