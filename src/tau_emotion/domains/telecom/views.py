"""How records look to the agent: plain dicts with money as '45.00' and derived facts spelled out.

Derived facts (bill status, data paused, installments left) are computed here rather than
stored, so they can never disagree with the records they come from. Every view of account
data names its customer_id, which the one-account policy check relies on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import timedelta
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.telecom.db import (
    Addon,
    Bill,
    Charge,
    Customer,
    Device,
    Line,
    PaymentMethod,
    Plan,
    Ticket,
)
from tau_emotion.domains.telecom.rules import (
    HOLD_MAX_DAYS,
    TODAY,
    bill_balance,
    bill_status,
    bill_total,
    card_expired,
    current_month,
    day,
    method_label,
    next_month_start,
    parse_day,
)

View = dict[str, Any]


def method_view(method: PaymentMethod) -> View:
    return {
        "payment_method_id": method.method_id,
        "description": method_label(method),
        "expires": method.expires,
        "expired": card_expired(method),
    }


def customer_view(
    customer: Customer, lines: list[Line], plans: Mapping[str, Plan], tickets: list[Ticket]
) -> View:
    autopay = next(
        (m for m in customer.payment_methods if m.method_id == customer.autopay_method_id), None
    )
    return {
        "customer_id": customer.customer_id,
        "name": f"{customer.first_name} {customer.last_name}",
        "email": customer.email,
        "date_of_birth": customer.date_of_birth,
        "zip_code": customer.zip_code,
        "member_since": customer.member_since,
        "autopay": method_view(autopay) if autopay else None,
        "payment_methods": [method_view(m) for m in customer.payment_methods],
        "last_late_fee_waiver_on": customer.last_late_fee_waiver_on,
        "lines": [
            {
                "line_id": line.line_id,
                "phone_number": line.phone_number,
                "plan": plans[line.plan_id].name,
                "status": line.status,
            }
            for line in lines
        ],
        "tickets": [ticket_view(t) for t in tickets],
    }


def ticket_view(ticket: Ticket) -> View:
    return {
        "ticket_id": ticket.ticket_id,
        "line_id": ticket.line_id,
        "category": ticket.category,
        "status": ticket.status,
        "opened_on": ticket.opened_on,
    }


def plan_view(plan: Plan) -> View:
    return {
        "plan_id": plan.plan_id,
        "name": plan.name,
        "monthly_price": fmt(plan.monthly_price),
        "data_gb": plan.data_gb if plan.data_gb is not None else "unlimited",
        "hotspot_gb": plan.hotspot_gb,
        "available": plan.available,
        "minimum_age": plan.min_age,
    }


def addon_view(addon: Addon) -> View:
    view: View = {
        "addon_id": addon.addon_id,
        "name": addon.name,
        "kind": addon.kind,
        "price": fmt(addon.price),
    }
    if addon.data_gb is not None:
        view["data_gb"] = addon.data_gb
    if addon.days is not None:
        view["days"] = addon.days
    return view


def data_allowance_mb(line: Line, plan: Plan, addons: Mapping[str, Addon]) -> int | None:
    """Plan data plus this month's top-ups, or None on an unlimited plan."""
    if plan.data_gb is None:
        return None
    topups = sum(
        addons[a.addon_id].data_gb or 0
        for a in line.addons
        if addons[a.addon_id].kind == "data_topup" and a.purchased_on[:7] == current_month()
    )
    return 1024 * (plan.data_gb + topups)


def line_view(
    line: Line, plans: Mapping[str, Plan], addons: Mapping[str, Addon], device: Device
) -> View:
    plan = plans[line.plan_id]
    allowance = data_allowance_mb(line, plan, addons)
    view: View = {
        "customer_id": line.customer_id,
        "line_id": line.line_id,
        "phone_number": line.phone_number,
        "activated_on": line.activated_on,
        "status": line.status,
        "suspension_reason": line.suspension_reason,
        "suspended_on": line.suspended_on,
        "plan": plan_view(plan),
        "pending_plan": None,
        "last_plan_change_on": line.last_plan_change_on,
        "data_used_gb": f"{line.data_used_mb / 1024:.1f}",
        "data_allowance_gb": "unlimited" if allowance is None else f"{allowance / 1024:.1f}",
        "data_paused": allowance is not None and line.data_used_mb >= allowance,
        "data_topups_this_month": sum(
            1
            for a in line.addons
            if addons[a.addon_id].kind == "data_topup" and a.purchased_on[:7] == current_month()
        ),
        "roaming_enabled": line.roaming_enabled,
        "active_addons": [
            {"addon_id": a.addon_id, "name": addons[a.addon_id].name, "ends_on": a.ends_on}
            for a in line.addons
            if a.ends_on >= day(TODAY)
        ],
        "device_id": device.device_id,
        "device_model": device.model,
        "network_resets": line.network_resets,
        "last_network_reset_on": line.last_network_reset_on,
    }
    if line.pending_plan_id is not None:
        pending = plans[line.pending_plan_id]
        view["pending_plan"] = {
            "plan_id": pending.plan_id,
            "name": pending.name,
            "effective_on": day(next_month_start(TODAY)),
        }
    if line.suspension_reason == "temporary_hold" and line.suspended_on is not None:
        ends = parse_day(line.suspended_on) + timedelta(days=HOLD_MAX_DAYS)
        view["hold_ends_on"] = day(ends)
    return view


def device_view(device: Device, phone_number: str) -> View:
    financing = device.financing
    remaining = financing.remaining_balance if financing else Decimal("0.00")
    return {
        "customer_id": device.customer_id,
        "device_id": device.device_id,
        "line_id": device.line_id,
        "phone_number": phone_number,
        "model": device.model,
        "imei": device.imei,
        "status": device.status,
        "purchased_on": device.purchased_on,
        "financing": None
        if financing is None
        else {
            "monthly_installment": fmt(financing.monthly_installment),
            "remaining_balance": fmt(remaining),
            # Rounded up: a last, smaller installment still counts. (Decimal's // truncates
            # towards zero, so the integer idiom -(-a // b) would not round up here.)
            "installments_left": math.ceil(remaining / financing.monthly_installment),
        },
        "paid_off": remaining == 0,
        "unlocked": device.unlocked,
    }


def bill_view(bill: Bill) -> View:
    waived = bill.late_fee_waived_on is not None
    return {
        "bill_id": bill.bill_id,
        "period": bill.period,
        "issued_on": bill.issued_on,
        "due_on": bill.due_on,
        "status": bill_status(bill),
        "total": fmt(bill_total(bill)),
        "paid": fmt(bill.amount_paid),
        "balance": fmt(bill_balance(bill)),
        "late_fee_waived_on": bill.late_fee_waived_on,
        "items": [
            {
                "description": item.description
                + (" (waived)" if waived and item.kind == "late_fee" else ""),
                "amount": fmt(item.amount),
                "line_id": item.line_id,
            }
            for item in bill.items
        ],
    }


def charge_view(charge: Charge) -> View:
    return {
        "description": charge.description,
        "amount": fmt(charge.amount),
        "line_id": charge.line_id,
        "created_on": charge.created_on,
    }
