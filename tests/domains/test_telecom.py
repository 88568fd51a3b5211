"""Telecom domain: every tool's success and refusals, the policy checks, the generated data."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

import pytest
from domain_testing import Conversation, Desk, fresh_state

from tau_emotion.domains.common import fmt
from tau_emotion.domains.telecom.db import Bill, Customer, Device, Line, TelecomDB
from tau_emotion.domains.telecom.rules import (
    TODAY,
    age_on,
    bill_balance,
    bill_status,
    card_expired,
    current_month,
    days_ago,
    parse_day,
    prorated,
)

DESK = Desk("telecom")
DOMAIN, ENV = DESK.domain, DESK.env
DB: TelecomDB = DESK.db
call, refuses, now = DESK.call, DESK.refuses, DESK.row
breaks, allows = DESK.breaks, DESK.allows
fresh = fresh_state(ENV)
NEXT_TICKET = f"T-{len(DB.tickets) + 1:05d}"


# -- finding test subjects in the generated data ------------------------------------------------


def bills_of(customer_id: str) -> list[Bill]:
    return sorted(
        (b for b in DB.bills.values() if b.customer_id == customer_id), key=lambda b: b.period
    )


def in_good_standing(customer_id: str) -> bool:
    return all(bill_status(b) != "overdue" for b in bills_of(customer_id))


def usable_method(c: Customer) -> str | None:
    return next((m.method_id for m in c.payment_methods if not card_expired(m)), None)


def expired_method(c: Customer) -> str | None:
    return next((m.method_id for m in c.payment_methods if card_expired(m)), None)


def customer(pred: Callable[[Customer], Any]) -> Customer:
    return next(c for c in DB.customers.values() if pred(c))


def line(pred: Callable[[Line, Customer], Any]) -> tuple[Line, Customer]:
    return next(
        (ln, DB.customers[ln.customer_id])
        for ln in DB.lines.values()
        if pred(ln, DB.customers[ln.customer_id])
    )


def device(pred: Callable[[Device, Customer], Any]) -> tuple[Device, Customer]:
    return next(
        (d, DB.customers[d.customer_id])
        for d in DB.devices.values()
        if pred(d, DB.customers[d.customer_id])
    )


def active_line(ln: Line, c: Customer) -> bool:
    return ln.status == "active" and in_good_standing(c.customer_id)


def unchanged_this_month(ln: Line) -> bool:
    return ln.last_plan_change_on is None or ln.last_plan_change_on[:7] != current_month()


def overdue_bill(c: Customer) -> Bill | None:
    return next((b for b in bills_of(c.customer_id) if bill_status(b) == "overdue"), None)


def financed(d: Device) -> bool:
    return d.financing is not None and d.financing.remaining_balance > 0


def other_customer(c: Customer) -> str:
    return next(x for x in DB.customers if x != c.customer_id)


# -- reads ----------------------------------------------------------------------------------------


def test_lookups_find_the_customer_and_refuse_unknowns() -> None:
    ln, c = line(lambda ln, c: True)
    digits = ln.phone_number.replace("-", "")
    assert (
        call("find_customer_by_phone", phone_number=ln.phone_number)["customer_id"] == c.customer_id
    )
    assert call("find_customer_by_phone", phone_number=f"+1 ({digits[:3]}) {digits[3:]}") == {
        "customer_id": c.customer_id
    }
    refuses("10 digits", "find_customer_by_phone", phone_number="555-0100")
    refuses("no line", "find_customer_by_phone", phone_number="999-555-0000")
    assert (
        call("find_customer_by_email", email=f" {c.email.upper()} ")["customer_id"] == c.customer_id
    )
    refuses("no customer", "find_customer_by_email", email="nobody@example.com")
    full = f"{c.first_name.lower()}  {c.last_name.upper()}"
    assert call("find_customer_by_name_and_dob", full_name=full, date_of_birth=c.date_of_birth) == {
        "customer_id": c.customer_id
    }
    refuses("YYYY-MM-DD", "find_customer_by_name_and_dob", full_name=full, date_of_birth="3/4/1980")
    refuses(
        "no customer", "find_customer_by_name_and_dob", full_name=full, date_of_birth="1900-01-01"
    )


def test_account_reads_and_catalog() -> None:
    c = customer(lambda c: overdue_bill(c) is not None)
    view = call("get_customer_details", customer_id=c.customer_id)
    assert [x["line_id"] for x in view["lines"]] == list(c.line_ids)
    assert all("expired" in m for m in view["payment_methods"])
    ln = DB.lines[c.line_ids[0]]
    line_view = call("get_line_details", line_id=ln.line_id)
    assert line_view["customer_id"] == c.customer_id and line_view["device_id"] == ln.device_id
    dev = call("get_device_details", device_id=ln.device_id)
    assert dev["phone_number"] == ln.phone_number and dev["customer_id"] == c.customer_id
    billing = call("get_bills", customer_id=c.customer_id)
    owed = sum(
        (bill_balance(b) for b in bills_of(c.customer_id) if bill_status(b) == "overdue"),
        Decimal(0),
    )
    assert billing["overdue_balance"] == fmt(owed) != "0.00"
    assert {p["plan_id"] for p in call("list_plans")} == set(DB.plans)
    assert {a["addon_id"] for a in call("list_addons")} == set(DB.addons)
    for tool, arg in (
        ("get_customer_details", "customer_id"),
        ("get_bills", "customer_id"),
        ("get_line_details", "line_id"),
        ("get_device_details", "device_id"),
    ):
        refuses("no ", tool, **{arg: "X0"})


def test_data_paused_and_hold_end_are_spelled_out() -> None:
    ln, _ = line(
        lambda ln, c: (
            DB.plans[ln.plan_id].data_gb == 5 and not ln.addons and ln.data_used_mb >= 5 * 1024
        )
    )
    assert call("get_line_details", line_id=ln.line_id)["data_paused"] is True
    held, _ = line(lambda ln, c: ln.suspension_reason == "temporary_hold")
    assert "hold_ends_on" in call("get_line_details", line_id=held.line_id)


# -- plans ----------------------------------------------------------------------------------------


def test_upgrade_applies_today_with_proration() -> None:
    ln, c = line(
        lambda ln, c: ln.plan_id == "basic_5gb" and active_line(ln, c) and unchanged_this_month(ln)
    )
    quote = call("quote_plan_change", line_id=ln.line_id, new_plan_id="unlimited")
    expected = fmt(prorated(Decimal("65.00") - Decimal("35.00")))
    assert quote["change"] == "upgrade" and quote["prorated_charge"] == expected == "19.00"
    result = call(
        "change_plan", customer_id=c.customer_id, line_id=ln.line_id, new_plan_id="unlimited"
    )
    assert result["effective_on"] == TODAY.isoformat()
    assert now("lines", ln.line_id).plan_id == "unlimited"
    charges = [ch for ch in ENV.state.changes()["charges"].values() if ch.kind == "proration"]
    assert [ch.amount for ch in charges] == [Decimal("19.00")]
    breaks(
        "telecom.plan_change_eligibility",
        "change_plan",
        customer_id=c.customer_id,
        line_id=ln.line_id,
        new_plan_id="unlimited_max",
    )


def test_downgrade_waits_for_next_month() -> None:
    ln, c = line(
        lambda ln, c: (
            ln.plan_id == "unlimited_max" and active_line(ln, c) and unchanged_this_month(ln)
        )
    )
    result = call(
        "change_plan", customer_id=c.customer_id, line_id=ln.line_id, new_plan_id="plus_15gb"
    )
    assert result == {
        "customer_id": c.customer_id,
        "line_id": ln.line_id,
        "new_plan": "Plus 15GB",
        "effective_on": "2025-07-01",
        "prorated_charge": "0.00",
    }
    after = now("lines", ln.line_id)
    assert after.plan_id == "unlimited_max" and after.pending_plan_id == "plus_15gb"
    assert "charges" not in ENV.state.changes()


def on_unlimited(ln: Line, c: Customer) -> bool:
    """An active line on the unlimited plan, its plan not changed this month, of a customer
    under 55 (so 55+ Unlimited is closed to them)."""
    return (
        ln.plan_id == "unlimited"
        and ln.status == "active"
        and unchanged_this_month(ln)
        and age_on(c.date_of_birth) < 55
    )


def test_plan_change_refusals() -> None:
    ln, c = line(on_unlimited)
    refuses("already on", "quote_plan_change", line_id=ln.line_id, new_plan_id="unlimited")
    refuses("already on", "change_plan", customer_id=c.customer_id, **on(ln, "unlimited"))
    refuses("no plan", "quote_plan_change", line_id=ln.line_id, new_plan_id="gold")
    refuses(
        "not on customer",
        "change_plan",
        customer_id=other_customer(c),
        line_id=ln.line_id,
        new_plan_id="unlimited_max",
    )


def on(ln: Line, plan: str) -> dict[str, str]:
    return {"line_id": ln.line_id, "new_plan_id": plan}


def test_plan_change_eligibility_is_the_agents_to_judge() -> None:
    rule = "telecom.plan_change_eligibility"
    ln, c = line(on_unlimited)
    args = {"customer_id": c.customer_id}
    allows(rule, "change_plan", **args, **on(ln, "unlimited_max"))
    # The quote prices what the policy forbids; the agent must not go on to make the change.
    assert call("quote_plan_change", **on(ln, "unlimited_2019"))["change"] == "downgrade"
    breaks(rule, "change_plan", **args, **on(ln, "unlimited_55"))
    assert now("lines", ln.line_id).pending_plan_id == "unlimited_55"
    ENV.reset()
    breaks(rule, "change_plan", **args, **on(ln, "unlimited_2019"))
    old, oc = line(lambda ln, c: ln.status == "active" and age_on(c.date_of_birth) >= 55)
    if old.plan_id != "unlimited_55" and unchanged_this_month(old):
        allows(rule, "change_plan", customer_id=oc.customer_id, **on(old, "unlimited_55"))
    changed, cc = line(lambda ln, c: ln.status == "active" and not unchanged_this_month(ln))
    target = "basic_5gb" if changed.plan_id != "basic_5gb" else "plus_15gb"
    breaks(rule, "change_plan", customer_id=cc.customer_id, **on(changed, target))
    suspended, sc = line(lambda ln, c: ln.status == "suspended" and ln.plan_id != "basic_5gb")
    breaks(rule, "change_plan", customer_id=sc.customer_id, **on(suspended, "basic_5gb"))


# -- billing ----------------------------------------------------------------------------------------


def test_pay_bill_pays_the_full_balance_oldest_first() -> None:
    c = customer(
        lambda c: (
            sum(bill_status(b) == "overdue" for b in bills_of(c.customer_id)) == 2
            and usable_method(c)
        )
    )
    method = usable_method(c)
    older, newer = [b for b in bills_of(c.customer_id) if bill_status(b) == "overdue"]
    rule = "telecom.bills_oldest_first"
    pay = {"customer_id": c.customer_id, "payment_method_id": method}
    allows(rule, "pay_bill", **pay, bill_id=older.bill_id)
    breaks(rule, "pay_bill", **pay, bill_id=newer.bill_id)
    assert bill_balance(now("bills", newer.bill_id)) == 0
    ENV.reset()
    paid = call(
        "pay_bill", customer_id=c.customer_id, bill_id=older.bill_id, payment_method_id=method
    )
    assert paid["amount_paid"] == fmt(bill_balance(older))
    assert paid["account_overdue_balance"] == fmt(bill_balance(newer))
    assert bill_balance(now("bills", older.bill_id)) == 0
    assert now("payments", paid["payment_id"]).amount == bill_balance(older)
    refuses(
        "no balance",
        "pay_bill",
        customer_id=c.customer_id,
        bill_id=older.bill_id,
        payment_method_id=method,
    )


def test_pay_bill_refusals() -> None:
    c = customer(lambda c: overdue_bill(c) and usable_method(c) and expired_method(c))
    bill = overdue_bill(c)
    assert bill is not None
    refuses(
        "expired",
        "pay_bill",
        customer_id=c.customer_id,
        bill_id=bill.bill_id,
        payment_method_id=expired_method(c),
    )
    refuses(
        "not on file",
        "pay_bill",
        customer_id=c.customer_id,
        bill_id=bill.bill_id,
        payment_method_id="PM-0-0",
    )
    refuses(
        "not on customer",
        "pay_bill",
        customer_id=other_customer(c),
        bill_id=bill.bill_id,
        payment_method_id=usable_method(c),
    )
    refuses("no bill", "pay_bill", customer_id=c.customer_id, bill_id="B0", payment_method_id="x")
    refuses(
        "no customer", "pay_bill", customer_id="C0", bill_id=bill.bill_id, payment_method_id="x"
    )


def eligible_for_waiver(c: Customer) -> bool:
    long_enough = parse_day(c.member_since) <= days_ago(365)
    recent = c.last_late_fee_waiver_on is not None and parse_day(
        c.last_late_fee_waiver_on
    ) > days_ago(365)
    return long_enough and not recent


def test_waive_late_fee_once() -> None:
    c = customer(lambda c: overdue_bill(c) and eligible_for_waiver(c))
    bill = overdue_bill(c)
    assert bill is not None
    result = call("waive_late_fee", customer_id=c.customer_id, bill_id=bill.bill_id)
    assert result["waived_amount"] == "10.00"
    assert result["bill_balance"] == fmt(bill_balance(bill) - Decimal("10.00"))
    assert now("customers", c.customer_id).last_late_fee_waiver_on == TODAY.isoformat()
    refuses("already waived", "waive_late_fee", customer_id=c.customer_id, bill_id=bill.bill_id)


def test_late_fee_waiver_eligibility_is_the_agents_to_judge() -> None:
    rule = "telecom.late_fee_waiver_eligibility"
    ok = customer(lambda c: overdue_bill(c) and eligible_for_waiver(c))
    allows(
        rule,
        "waive_late_fee",
        customer_id=ok.customer_id,
        bill_id=cast(Bill, overdue_bill(ok)).bill_id,
    )
    recent = customer(
        lambda c: (
            overdue_bill(c)
            and parse_day(c.member_since) <= days_ago(365)
            and not eligible_for_waiver(c)
        )
    )
    breaks(
        rule,
        "waive_late_fee",
        customer_id=recent.customer_id,
        bill_id=cast(Bill, overdue_bill(recent)).bill_id,
    )
    new = customer(lambda c: overdue_bill(c) and parse_day(c.member_since) > days_ago(365))
    breaks(
        rule,
        "waive_late_fee",
        customer_id=new.customer_id,
        bill_id=cast(Bill, overdue_bill(new)).bill_id,
    )
    assert now("customers", new.customer_id).last_late_fee_waiver_on == TODAY.isoformat()


def test_waive_late_fee_refusals() -> None:
    paid = next(
        b
        for b in DB.bills.values()
        if bill_balance(b) == 0 and any(i.kind == "late_fee" for i in b.items)
    )
    refuses(
        "paid late fees are not refunded",
        "waive_late_fee",
        customer_id=paid.customer_id,
        bill_id=paid.bill_id,
    )
    clean = next(b for b in DB.bills.values() if not any(i.kind == "late_fee" for i in b.items))
    refuses("no late fee", "waive_late_fee", customer_id=clean.customer_id, bill_id=clean.bill_id)


def test_autopay_enroll_and_cancel() -> None:
    c = customer(
        lambda c: (
            c.autopay_method_id is None and usable_method(c) and in_good_standing(c.customer_id)
        )
    )
    method = usable_method(c)
    result = call("enroll_autopay", customer_id=c.customer_id, payment_method_id=method)
    assert result["discount_per_line"] == "5.00"
    assert now("customers", c.customer_id).autopay_method_id == method
    refuses("already uses", "enroll_autopay", customer_id=c.customer_id, payment_method_id=method)
    assert call("cancel_autopay", customer_id=c.customer_id)["autopay"] is None
    refuses("not on", "cancel_autopay", customer_id=c.customer_id)


def test_autopay_needs_good_standing_and_a_valid_method() -> None:
    c = customer(
        lambda c: (
            overdue_bill(c)
            and usable_method(c)
            and expired_method(c)
            and c.autopay_method_id != usable_method(c)
        )
    )
    rule = "telecom.autopay_no_overdue_bills"
    breaks(rule, "enroll_autopay", customer_id=c.customer_id, payment_method_id=usable_method(c))
    good = customer(lambda c: usable_method(c) and in_good_standing(c.customer_id))
    method = usable_method(good)
    if good.autopay_method_id != method:
        allows(rule, "enroll_autopay", customer_id=good.customer_id, payment_method_id=method)
    refuses(
        "expired", "enroll_autopay", customer_id=c.customer_id, payment_method_id=expired_method(c)
    )


def test_pay_off_device() -> None:
    dev, c = device(lambda d, c: financed(d) and usable_method(c))
    result = call(
        "pay_off_device",
        customer_id=c.customer_id,
        device_id=dev.device_id,
        payment_method_id=usable_method(c),
    )
    assert result["amount_paid"] == fmt(cast(Any, dev.financing).remaining_balance)
    assert now("devices", dev.device_id).financing.remaining_balance == 0
    refuses(
        "no installment balance",
        "pay_off_device",
        customer_id=c.customer_id,
        device_id=dev.device_id,
        payment_method_id=usable_method(c),
    )
    refuses(
        "not on customer",
        "pay_off_device",
        customer_id=other_customer(c),
        device_id=dev.device_id,
        payment_method_id="x",
    )
    expired, ec = device(lambda d, c: financed(d) and expired_method(c))
    refuses(
        "expired",
        "pay_off_device",
        customer_id=ec.customer_id,
        device_id=expired.device_id,
        payment_method_id=expired_method(ec),
    )


# -- add-ons and roaming ------------------------------------------------------------------------------


def test_data_topups_up_to_two_a_month() -> None:
    ln, c = line(
        lambda ln, c: (
            active_line(ln, c) and DB.plans[ln.plan_id].data_gb is not None and not ln.addons
        )
    )
    rule, args = "telecom.addon_eligibility", {"customer_id": c.customer_id, "line_id": ln.line_id}
    for _ in range(2):
        allows(rule, "purchase_addon", **args, addon_id="data_2gb")
        result = call("purchase_addon", **args, addon_id="data_2gb")
        assert result["price"] == "10.00" and result["valid_until"] == "2025-06-30"
    assert len(ENV.state.changes()["charges"]) == 2
    breaks(rule, "purchase_addon", **args, addon_id="data_5gb")
    assert len(ENV.state.changes()["charges"]) == 3
    refuses(
        "no add-on",
        "purchase_addon",
        customer_id=c.customer_id,
        line_id=ln.line_id,
        addon_id="gold",
    )
    unlimited, uc = line(lambda ln, c: active_line(ln, c) and DB.plans[ln.plan_id].data_gb is None)
    refuses(
        "unlimited data",
        "purchase_addon",
        customer_id=uc.customer_id,
        line_id=unlimited.line_id,
        addon_id="data_2gb",
    )


def test_travel_pass_needs_roaming_and_one_at_a_time() -> None:
    ln, c = line(lambda ln, c: active_line(ln, c) and not ln.roaming_enabled)
    args = {"customer_id": c.customer_id, "line_id": ln.line_id}
    breaks("telecom.addon_eligibility", "purchase_addon", **args, addon_id="travel_7d")
    ENV.reset()
    allows("telecom.roaming_eligibility", "set_international_roaming", **args, enabled=True)
    assert call("set_international_roaming", **args, enabled=True)["roaming_enabled"] is True
    refuses("already on", "set_international_roaming", **args, enabled=True)
    result = call("purchase_addon", **args, addon_id="travel_7d")
    assert result == {
        **args,
        "addon": "Travel Pass 7 Days",
        "price": "35.00",
        "valid_until": "2025-06-18",
    }
    breaks("telecom.addon_eligibility", "purchase_addon", **args, addon_id="travel_30d")
    allows("telecom.roaming_eligibility", "set_international_roaming", **args, enabled=False)
    call("set_international_roaming", **args, enabled=False)
    refuses("already off", "set_international_roaming", **args, enabled=False)


def test_addons_and_roaming_on_suspended_or_overdue_accounts_are_the_agents_to_refuse() -> None:
    sus, sc = line(lambda ln, c: ln.status == "suspended" and not ln.roaming_enabled)
    on_sus = {"customer_id": sc.customer_id, "line_id": sus.line_id}
    breaks("telecom.addon_eligibility", "purchase_addon", **on_sus, addon_id="data_2gb")
    breaks("telecom.roaming_eligibility", "set_international_roaming", **on_sus, enabled=True)
    late, lc = line(
        lambda ln, c: (
            ln.status == "active"
            and not ln.roaming_enabled
            and not in_good_standing(c.customer_id)
            and DB.plans[ln.plan_id].data_gb is not None
        )
    )
    on_late = {"customer_id": lc.customer_id, "line_id": late.line_id}
    breaks("telecom.addon_eligibility", "purchase_addon", **on_late, addon_id="data_2gb")
    breaks("telecom.roaming_eligibility", "set_international_roaming", **on_late, enabled=True)


# -- suspension and reactivation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "status"), [("lost_device", "lost"), ("stolen_device", "stolen")]
)
def test_lost_or_stolen_blocks_the_device(reason: str, status: str) -> None:
    ln, c = line(lambda ln, c: ln.status == "active")
    result = call("suspend_line", customer_id=c.customer_id, line_id=ln.line_id, reason=reason)
    assert result["device_blocked"] == DB.devices[ln.device_id].model
    after = now("lines", ln.line_id)
    assert (after.status, after.suspension_reason) == ("suspended", reason)
    assert now("devices", ln.device_id).status == status
    refuses(
        "already suspended",
        "suspend_line",
        customer_id=c.customer_id,
        line_id=ln.line_id,
        reason=reason,
    )


def holdable(ln: Line, c: Customer) -> bool:
    """An active line that has had no hold yet, on a device paid off."""
    return (
        ln.status == "active" and ln.last_hold_on is None and not financed(DB.devices[ln.device_id])
    )


def test_temporary_hold_rules() -> None:
    ln, c = line(holdable)
    args = {"customer_id": c.customer_id, "line_id": ln.line_id}
    assert call("suspend_line", **args, reason="temporary_hold")["hold_ends_on"] == "2025-09-10"
    assert call("reactivate_line", **args)["status"] == "active"
    refuses("not suspended", "reactivate_line", **args)
    rule = "telecom.temporary_hold_eligibility"
    allows(rule, "suspend_line", **args, reason="lost_device")
    breaks(rule, "suspend_line", **args, reason="temporary_hold")
    fin, fc = line(lambda ln, c: ln.status == "active" and financed(DB.devices[ln.device_id]))
    on_fin = {"customer_id": fc.customer_id, "line_id": fin.line_id}
    breaks(rule, "suspend_line", **on_fin, reason="temporary_hold")
    assert now("lines", fin.line_id).suspension_reason == "temporary_hold"


def test_temporary_hold_allowed() -> None:
    ln, c = line(holdable)
    on_ln = {"customer_id": c.customer_id, "line_id": ln.line_id}
    allows("telecom.temporary_hold_eligibility", "suspend_line", **on_ln, reason="temporary_hold")


def test_reactivation_by_reason() -> None:
    rule = "telecom.reactivation_eligibility"
    lost, lc = line(lambda ln, c: ln.suspension_reason == "lost_device")
    allows(rule, "reactivate_line", customer_id=lc.customer_id, line_id=lost.line_id)
    call("reactivate_line", customer_id=lc.customer_id, line_id=lost.line_id)
    assert now("devices", lost.device_id).status == "active"
    stolen, sc = line(lambda ln, c: ln.suspension_reason == "stolen_device")
    breaks(rule, "reactivate_line", customer_id=sc.customer_id, line_id=stolen.line_id)
    assert now("devices", stolen.device_id).status == "stolen", "a stolen phone stays blocked"
    cut, cc = line(lambda ln, c: ln.suspension_reason == "nonpayment" and usable_method(c))
    breaks(rule, "reactivate_line", customer_id=cc.customer_id, line_id=cut.line_id)
    ENV.reset()
    for bill in bills_of(cc.customer_id):
        if bill_status(bill) == "overdue":
            call(
                "pay_bill",
                customer_id=cc.customer_id,
                bill_id=bill.bill_id,
                payment_method_id=usable_method(cc),
            )
    allows(rule, "reactivate_line", customer_id=cc.customer_id, line_id=cut.line_id)
    call("reactivate_line", customer_id=cc.customer_id, line_id=cut.line_id)
    assert now("lines", cut.line_id).status == "active"


# -- troubleshooting, tickets, unlocks, transfers --------------------------------------------------------


def test_reset_network_settings() -> None:
    ln, c = line(lambda ln, c: ln.status == "active")
    call("reset_network_settings", customer_id=c.customer_id, line_id=ln.line_id)
    after = now("lines", ln.line_id)
    assert after.network_resets == ln.network_resets + 1
    assert after.last_network_reset_on == TODAY.isoformat()
    sus, sc = line(lambda ln, c: ln.status == "suspended")
    refuses(
        "will not help", "reset_network_settings", customer_id=sc.customer_id, line_id=sus.line_id
    )


def test_open_ticket_one_open_per_category() -> None:
    ln, c = line(lambda ln, c: not any(t.line_id == ln.line_id for t in DB.tickets.values()))
    args = {"customer_id": c.customer_id, "line_id": ln.line_id, "category": "device"}
    refuses("describe the problem", "open_ticket", **args, description="  ")
    result = call("open_ticket", **args, description="Screen flickers")
    assert result["ticket_id"] == NEXT_TICKET
    refuses(
        f"{NEXT_TICKET} \\(device\\) is already open", "open_ticket", **args, description="again"
    )
    refuses(
        "not on customer",
        "open_ticket",
        **{**args, "customer_id": other_customer(c)},
        description="x",
    )


def test_ticket_description_stays_out_of_the_state_hash() -> None:
    ln, c = line(lambda ln, c: not any(t.line_id == ln.line_id for t in DB.tickets.values()))
    args = {"customer_id": c.customer_id, "line_id": ln.line_id, "category": "billing"}
    call("open_ticket", **args, description="one wording")
    first = ENV.hash()
    ENV.reset()
    call("open_ticket", **args, description="another wording entirely")
    assert ENV.hash() == first


def test_unlock_device_rules() -> None:
    rule = "telecom.unlock_eligibility"
    dev, c = device(
        lambda d, c: (
            not d.unlocked
            and not financed(d)
            and d.status == "active"
            and parse_day(d.purchased_on) <= days_ago(60)
            and in_good_standing(c.customer_id)
        )
    )
    allows(rule, "unlock_device", customer_id=c.customer_id, device_id=dev.device_id)
    assert call("unlock_device", customer_id=c.customer_id, device_id=dev.device_id)["unlocked"]
    refuses("already unlocked", "unlock_device", customer_id=c.customer_id, device_id=dev.device_id)
    refuses(
        "not on customer", "unlock_device", customer_id=other_customer(c), device_id=dev.device_id
    )
    owing, oc = device(lambda d, c: financed(d) and d.status == "active" and not d.unlocked)
    breaks(rule, "unlock_device", customer_id=oc.customer_id, device_id=owing.device_id)
    lost, lc = device(lambda d, c: d.status != "active" and not d.unlocked)
    breaks(rule, "unlock_device", customer_id=lc.customer_id, device_id=lost.device_id)
    fresh_dev, fc = device(
        lambda d, c: (
            not d.unlocked
            and not financed(d)
            and d.status == "active"
            and parse_day(d.purchased_on) > days_ago(60)
        )
    )
    breaks(rule, "unlock_device", customer_id=fc.customer_id, device_id=fresh_dev.device_id)
    late, lc2 = device(
        lambda d, c: (
            not d.unlocked
            and not financed(d)
            and d.status == "active"
            and parse_day(d.purchased_on) <= days_ago(60)
            and not in_good_standing(c.customer_id)
        )
    )
    breaks(rule, "unlock_device", customer_id=lc2.customer_id, device_id=late.device_id)


def test_transfer_is_recorded_without_its_free_text() -> None:
    assert "Transfer successful" in call("transfer_to_human_agents", summary="Port-out request")
    assert now("transfers", "TR-00001").summary == "Port-out request"
    first = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="Completely different words")
    assert ENV.hash() == first


# -- policy checks --------------------------------------------------------------------------------------


ME = {"customer_id": "C1"}
OTHER = {"customer_id": "C2"}


def authed() -> Conversation:
    return (
        Conversation(ENV)
        .user("Hi, my number is 415-555-0100")
        .call("find_customer_by_phone", ME, phone_number="415-555-0100")
    )


def reset(convo: Conversation, line_id: str = "L1") -> Conversation:
    return convo.confirm().call("reset_network_settings", ME, customer_id="C1", line_id=line_id)


def test_clean_conversation_passes_every_check() -> None:
    convo = authed().call("get_line_details", ME, line_id="L1")
    convo.call("quote_plan_change", ME, line_id="L1", new_plan_id="unlimited")
    convo.confirm().call("change_plan", ME, customer_id="C1", line_id="L1", new_plan_id="unlimited")
    reset(convo).confirm().call(
        "open_ticket", ME, customer_id="C1", line_id="L1", category="network", description="x"
    )
    convo.call("list_plans", {"plans": []})
    assert convo.rules() == set()


def test_confirmation_check() -> None:
    unconfirmed = authed().call("cancel_autopay", ME, customer_id="C1")
    assert unconfirmed.details("telecom.confirm_before_write")
    declined = (
        authed()
        .agent("Cancel autopay?")
        .user("No, wait.")
        .call("cancel_autopay", ME, customer_id="C1")
    )
    assert declined.details("telecom.confirm_before_write")
    assert (
        not authed()
        .confirm()
        .call("cancel_autopay", ME, customer_id="C1")
        .details("telecom.confirm_before_write")
    )


def test_authentication_check() -> None:
    peek = Conversation(ENV).call("get_bills", ME, customer_id="C1")
    assert peek.details("telecom.authenticate_first")
    failed = Conversation(ENV).fail("find_customer_by_email", email="x@example.com")
    failed.confirm().call("cancel_autopay", ME, customer_id="C1")
    assert failed.details("telecom.authenticate_first")
    catalog_only = Conversation(ENV).call("list_plans", {}).call("list_addons", {})
    assert not catalog_only.details("telecom.authenticate_first")
    assert (
        not authed().call("get_bills", ME, customer_id="C1").details("telecom.authenticate_first")
    )


def test_one_customer_checks() -> None:
    two = authed().confirm().call("cancel_autopay", ME, customer_id="C1")
    two.confirm().call("cancel_autopay", OTHER, customer_id="C2")
    assert two.details("telecom.one_customer")
    peek = authed().call("get_line_details", OTHER, line_id="L9")
    assert peek.details("telecom.no_other_account_data")
    assert not peek.details("telecom.one_customer")  # reads by line id name no customer
    second_lookup = authed().call("find_customer_by_email", OTHER, email="someone@example.com")
    assert second_lookup.details("telecom.no_other_account_data")
    own = (
        authed().call("get_line_details", ME, line_id="L1").call("get_bills", ME, customer_id="C1")
    )
    assert not own.details("telecom.no_other_account_data")
    assert not own.details("telecom.one_customer")


def test_quote_before_plan_change_check() -> None:
    blind = (
        authed()
        .confirm()
        .call("change_plan", ME, customer_id="C1", line_id="L1", new_plan_id="unlimited")
    )
    assert blind.details("telecom.quote_before_plan_change")
    other_plan = authed().call("quote_plan_change", ME, line_id="L1", new_plan_id="unlimited_max")
    other_plan.confirm().call(
        "change_plan", ME, customer_id="C1", line_id="L1", new_plan_id="unlimited"
    )
    assert other_plan.details("telecom.quote_before_plan_change")
    quoted = authed().call("quote_plan_change", ME, line_id="L1", new_plan_id="unlimited")
    quoted.confirm().call(
        "change_plan", ME, customer_id="C1", line_id="L1", new_plan_id="unlimited"
    )
    assert not quoted.details("telecom.quote_before_plan_change")


def test_reset_before_network_ticket_check() -> None:
    def ticket(convo: Conversation, category: str) -> Conversation:
        return convo.confirm().call(
            "open_ticket", ME, customer_id="C1", line_id="L1", category=category, description="x"
        )

    rule = "telecom.reset_before_network_ticket"
    assert ticket(authed(), "network").details(rule)
    assert ticket(reset(authed(), line_id="L2"), "network").details(rule)
    assert not ticket(reset(authed()), "network").details(rule)
    assert not ticket(authed(), "device").details(rule)


# -- generated data ------------------------------------------------------------------------------


def test_database_size() -> None:
    counts = DB.record_counts()
    assert counts["customers"] >= 300 and counts["bills"] > counts["customers"]
    assert (DOMAIN.root / "db.json").stat().st_size < 3_000_000


def test_generated_data_is_consistent() -> None:
    for c in DB.customers.values():
        assert all(DB.lines[lid].customer_id == c.customer_id for lid in c.line_ids)
        assert c.last_late_fee_waiver_on is None or c.last_late_fee_waiver_on >= c.member_since
    for ln in DB.lines.values():
        assert DB.devices[ln.device_id].line_id == ln.line_id
        blocked = DB.devices[ln.device_id].status != "active"
        assert blocked == (ln.suspension_reason in ("lost_device", "stolen_device"))
    phones = [ln.phone_number for ln in DB.lines.values()]
    assert len(phones) == len(set(phones))
