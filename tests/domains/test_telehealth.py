"""Telehealth domain: tools (success and every refusal) and policy checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.common import cents_text
from tau_emotion.domains.telehealth import tools_visits
from tau_emotion.domains.telehealth.db import (
    Appointment,
    Device,
    Patient,
    Prescription,
    TelehealthDB,
    Voucher,
)
from tau_emotion.domains.telehealth.pricing import visit_price
from tau_emotion.domains.telehealth.rules import NOW, TODAY

DESK = Desk("telehealth")
DOMAIN, ENV = DESK.domain, DESK.env
DB: TelehealthDB = DESK.db
call, refuses, row, new_rows = DESK.call, DESK.refuses, DESK.row, DESK.new_rows
fresh = fresh_state(ENV)
T = TypeVar("T")


def first(items: Iterable[T], pred: Callable[[T], bool] = lambda _: True) -> T:
    return next(x for x in items if pred(x))


def hours_until(start: str) -> float:
    return (datetime.fromisoformat(start) - NOW).total_seconds() / 3600


def valid_method(p: Patient) -> str | None:
    return next((m.method_id for m in p.payment_methods if m.expires >= "2025-03"), None)


def expired_method(p: Patient) -> str | None:
    return next((m.method_id for m in p.payment_methods if m.expires < "2025-03"), None)


def upcoming(pred: Callable[[Appointment], bool] = lambda _: True) -> Appointment:
    return first(DB.appointments.values(), lambda a: a.status == "scheduled" and pred(a))


def has_upcoming_with(patient_id: str, provider_id: str) -> bool:
    return any(
        a.patient_id == patient_id and a.provider_id == provider_id and a.status == "scheduled"
        for a in DB.appointments.values()
    )


def open_slot(provider_id: str, after: str = "2025-03-12", before: str = "2025-12-31") -> str:
    return first(
        sorted(DB.slots.values(), key=lambda s: s.start),
        lambda s: s.provider_id == provider_id and s.status == "open" and after <= s.start < before,
    ).slot_id


def price(p: Patient, visit_type: str, slot_id: str) -> int:
    day = DB.slots[slot_id].start[:10]
    return visit_price(p.coverage, DB.insurance_plans, visit_type, day)[0]


def bookable() -> tuple[Patient, str]:
    """A patient with a valid card, their primary provider's open slot, and a price above 0."""
    for p in DB.patients.values():
        pcp = p.primary_provider_id
        if pcp is None or valid_method(p) is None or has_upcoming_with(p.patient_id, pcp):
            continue
        slot_id = open_slot(pcp)
        if price(p, "video", slot_id) > 0:
            return p, slot_id
    raise AssertionError("no bookable patient")


def copays(appointment_id: str) -> list[Any]:
    return [
        p
        for p in ENV.state.table("payments").values()
        if p.appointment_id == appointment_id and p.kind == "copay"
    ]


# --- snapshot ---------------------------------------------------------------


def test_snapshot_has_realistic_volume() -> None:
    counts = DB.record_counts()
    assert counts["patients"] >= 300 and counts["providers"] >= 20
    assert counts["slots"] > 1000 and counts["appointments"] > 500
    assert counts["transfers"] == 0 and counts["device_shipments"] > 0


# --- identity ------------------------------------------------------------------------------


def test_lookups_find_the_patient_and_refuse_unknown_facts() -> None:
    p = DB.patients["P0042"]
    assert call("find_patient_by_email", email=p.email.upper())["patient_id"] == "P0042"
    digits = p.phone.replace("-", "")
    assert (
        call("find_patient_by_phone", phone=f"+1 ({digits[:3]}) {digits[3:]}")["patient_id"]
        == "P0042"
    )
    full = f" {p.first_name}  {p.last_name.lower()} "
    found = call("find_patient_by_name_and_dob", full_name=full, date_of_birth=p.date_of_birth)
    assert found == {"patient_id": "P0042", "first_name": p.first_name, "last_name": p.last_name}
    refuses("no patient with that email", "find_patient_by_email", email="nobody@example.com")
    refuses("10 digits", "find_patient_by_phone", phone="555-0100")
    refuses("no patient with that phone", "find_patient_by_phone", phone="000-555-0100")
    refuses("YYYY-MM-DD", "find_patient_by_name_and_dob", full_name=full, date_of_birth="3/4/61")
    refuses(
        "no patient with that name",
        "find_patient_by_name_and_dob",
        full_name=full,
        date_of_birth="1900-01-01",
    )


def test_patient_details_and_read_tools() -> None:
    details = call("get_patient_details", patient_id="P0042")
    assert details["patient_id"] == "P0042" and "insurance" in details
    assert all("expired" in m for m in details["payment_methods"])
    refuses("no patient with id", "get_patient_details", patient_id="P9999")
    refuses("no patient with id", "list_appointments", patient_id="P9999")
    assert call("list_appointments", patient_id="P0042")
    summaries = call("get_visit_summaries", patient_id="P0011")
    assert summaries and all(s["patient_id"] == "P0011" for s in summaries)
    assert len(call("list_insurance_plans")) == len(DB.insurance_plans)
    assert {p["specialty"] for p in call("list_providers", specialty="dermatology")} == {
        "dermatology"
    }


# --- contact details and insurance -------------------------------------------------------


def test_update_contact_details_changes_email_phone_and_address() -> None:
    p = DB.patients["P0002"]
    result = call(
        "update_contact_details",
        patient_id="P0002",
        email="New.Address@Example.org",
        phone="(206) 555 0177",
    )
    assert result["email"] == "new.address@example.org" and result["phone"] == "206-555-0177"
    zip_code = next(z for z in ("98101", "99201", "98402") if z != p.address.zip_code)
    if p.address.state != "WA":
        pytest.fail("fixture patient P0002 is expected to live in WA")
    call(
        "update_contact_details", patient_id="P0002", street="1 Elm St", city="X", zip_code=zip_code
    )
    assert row("patients", "P0002").address.zip_code == zip_code


def test_update_contact_details_refusals() -> None:
    p, other = DB.patients["P0002"], DB.patients["P0003"]
    refuses("not a valid email", "update_contact_details", patient_id="P0002", email="nope")
    refuses("another patient", "update_contact_details", patient_id="P0002", email=other.email)
    refuses("10 digits", "update_contact_details", patient_id="P0002", phone="12345")
    refuses("another patient", "update_contact_details", patient_id="P0002", phone=other.phone)
    refuses("together", "update_contact_details", patient_id="P0002", street="1 Elm St")
    refuses(
        "5 digits",
        "update_contact_details",
        patient_id="P0002",
        street="1 Elm St",
        city="Seattle",
        zip_code="981",
    )
    refuses(
        "outside WA",
        "update_contact_details",
        patient_id="P0002",
        street="1 Elm St",
        city="Portland",
        zip_code="97205",
    )
    refuses("nothing to change", "update_contact_details", patient_id="P0002")
    refuses("nothing to change", "update_contact_details", patient_id="P0002", email=p.email)


def test_update_insurance_and_its_refusals() -> None:
    view = call("update_insurance", patient_id="P0034", plan_id="PLN-BCG", member_id="bhg123456789")
    assert view["member_id"] == "BHG123456789" and view["status_today"] == "active"
    refuses(
        "already on file",
        "update_insurance",
        patient_id="P0034",
        plan_id="PLN-BCG",
        member_id="BHG123456789",
    )
    refuses("no insurance plan", "update_insurance", patient_id="P0034", plan_id="X", member_id="A")
    refuses(
        "out of network",
        "update_insurance",
        patient_id="P0034",
        plan_id="PLN-PDE",
        member_id="BHG123456789",
    )
    refuses(
        "3 letters", "update_insurance", patient_id="P0034", plan_id="PLN-EVG", member_id="12345"
    )


def test_transfer_records_a_handoff_whose_wording_does_not_change_the_hash() -> None:
    text = call("transfer_to_human_agents", summary="patient needs the nurse line")
    assert "TR0001" in text
    first_hash = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="completely different words")
    assert ENV.hash() == first_hash
    assert row("transfers", "TR0001").summary == "completely different words"


# --- scheduling -------------------------------------------------------------------------


def test_search_available_slots() -> None:
    refuses("provider_id or a specialty", "search_available_slots")
    rows = call("search_available_slots", specialty="cardiology", date="2025-03-12")
    assert rows and all(r["start"].startswith("2025-03-12") for r in rows)
    early = call("search_available_slots", provider_id="D001")
    assert early and all(r["start"] >= "2025-03-10T11:00" for r in early)
    assert len(early) <= tools_visits.MAX_SLOTS_SHOWN


def test_book_appointment_charges_the_price_and_books_the_slot() -> None:
    p, slot_id = bookable()
    cost = price(p, "video", slot_id)
    method = valid_method(p)
    result = call(
        "book_appointment",
        patient_id=p.patient_id,
        slot_id=slot_id,
        visit_type="video",
        payment_method_id=method,
    )
    assert result["charged"] == cents_text(cost) and result["charged_to"] == method
    assert result["appointment_id"] == f"A{len(DB.appointments) + 1:05d}"
    assert row("slots", slot_id).status == "booked"
    assert [c.amount_cents for c in copays(result["appointment_id"])] == [cost]


def test_book_appointment_refusals() -> None:
    p, slot_id = bookable()
    method = valid_method(p)
    base = {"patient_id": p.patient_id, "visit_type": "video", "payment_method_id": method}
    booked = first(DB.slots.values(), lambda s: s.status == "booked").slot_id
    blocked = first(DB.slots.values(), lambda s: s.status == "blocked").slot_id
    soon = first(DB.slots.values(), lambda s: s.status == "open" and hours_until(s.start) < 2)
    refuses("no slot", "book_appointment", slot_id="SL-X", **base)
    refuses("not available", "book_appointment", slot_id=booked, **base)
    refuses("not available", "book_appointment", slot_id=blocked, **base)
    refuses("too soon", "book_appointment", slot_id=soon.slot_id, **base)
    refuses(
        "an amount is due",
        "book_appointment",
        **{**base, "payment_method_id": None},
        slot_id=slot_id,
    )
    refuses(
        "no payment method",
        "book_appointment",
        **{**base, "payment_method_id": "pm_x"},
        slot_id=slot_id,
    )
    # A provider who does not offer phone visits.
    derm = first(DB.providers.values(), lambda d: "phone" not in d.visit_types)
    refuses(
        "does not offer phone",
        "book_appointment",
        **{**base, "visit_type": "phone"},
        slot_id=open_slot(derm.provider_id),
    )
    # A provider not licensed in the patient's state.
    far = first(DB.providers.values(), lambda d: p.address.state not in d.licensed_states)
    refuses("not licensed", "book_appointment", slot_id=open_slot(far.provider_id), **base)
    # In person needs a recent completed visit with the same provider.
    seen = {a.provider_id for a in DB.appointments.values() if a.patient_id == p.patient_id}
    stranger = first(
        DB.providers.values(),
        lambda d: "in_person_follow_up" in d.visit_types and d.provider_id not in seen,
    )
    refuses(
        "completed visit",
        "book_appointment",
        **{**base, "visit_type": "in_person_follow_up"},
        slot_id=open_slot(stranger.provider_id),
    )
    # One upcoming appointment per provider.
    a = upcoming(lambda a: a.visit_type == "video")
    other = open_slot(a.provider_id, after=a.start[:10] + "T23")
    refuses(
        "already has an upcoming",
        "book_appointment",
        patient_id=a.patient_id,
        slot_id=other,
        visit_type="video",
        payment_method_id="pm_x",
    )
    # An expired card.
    q = first(
        DB.patients.values(),
        lambda q: (
            expired_method(q) is not None
            and q.primary_provider_id is not None
            and not has_upcoming_with(q.patient_id, q.primary_provider_id)
            and price(q, "video", open_slot(q.primary_provider_id)) > 0
        ),
    )
    assert q.primary_provider_id is not None
    refuses(
        "expired in",
        "book_appointment",
        patient_id=q.patient_id,
        slot_id=open_slot(q.primary_provider_id),
        visit_type="video",
        payment_method_id=expired_method(q),
    )


def voucher(pred: Callable[[Voucher], bool]) -> Voucher:
    return first(DB.vouchers.values(), pred)


def test_book_with_a_waiver_charges_nothing_and_redeems_the_voucher() -> None:
    p, slot_id = bookable()
    v = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and v.kind == "copay_waiver"
            and v.expires_on >= DB.slots[slot_id].start[:10]
            and "video" in v.eligible_visit_types
        )
    )
    result = call(
        "book_appointment",
        patient_id=p.patient_id,
        slot_id=slot_id,
        visit_type="video",
        voucher_code=v.code.lower(),
    )
    assert result["charged"] == "0.00" and result["charged_to"] is None
    assert copays(result["appointment_id"]) == []
    assert row("vouchers", v.code).status == "redeemed"


def test_voucher_refusals() -> None:
    a = upcoming(
        lambda a: (
            a.visit_type == "video"
            and a.copay_cents > 0
            and not a.voucher_code
            and hours_until(a.start) > 24
        )
    )
    args = {"patient_id": a.patient_id, "appointment_id": a.appointment_id}
    redeemed = voucher(lambda v: v.status == "redeemed")
    void = voucher(lambda v: v.status == "void")
    others = voucher(lambda v: v.patient_id not in (None, a.patient_id) and v.status == "available")
    expired = voucher(lambda v: v.status == "available" and v.expires_on < TODAY.isoformat())
    early = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and TODAY.isoformat() <= v.expires_on < a.start[:10]
        )
    )
    refuses("no voucher", "apply_voucher", voucher_code="NOPE-0000", **args)
    refuses("redeemed", "apply_voucher", voucher_code=redeemed.code, **args)
    refuses("void", "apply_voucher", voucher_code=void.code, **args)
    refuses("another patient", "apply_voucher", voucher_code=others.code, **args)
    refuses("expired on", "apply_voucher", voucher_code=expired.code, **args)
    refuses("before the visit", "apply_voucher", voucher_code=early.code, **args)
    remote_only = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and "in_person_follow_up" not in v.eligible_visit_types
            and v.expires_on >= "2025-04-05"
        )
    )
    in_person = upcoming(
        lambda a: a.visit_type == "in_person_follow_up" and a.copay_cents > 0 and not a.voucher_code
    )
    refuses(
        "covers only",
        "apply_voucher",
        patient_id=in_person.patient_id,
        appointment_id=in_person.appointment_id,
        voucher_code=remote_only.code,
    )
    free = upcoming(lambda a: a.copay_cents == 0 and not a.voucher_code and a.visit_type == "video")
    waiver = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and v.expires_on >= "2025-04-05"
            and "video" in v.eligible_visit_types
        )
    )
    refuses(
        "costs nothing",
        "apply_voucher",
        patient_id=free.patient_id,
        appointment_id=free.appointment_id,
        voucher_code=waiver.code,
    )
    with_voucher = upcoming(lambda a: a.voucher_code is not None)
    refuses(
        "already applied",
        "apply_voucher",
        patient_id=with_voucher.patient_id,
        appointment_id=with_voucher.appointment_id,
        voucher_code=waiver.code,
    )
    done = first(DB.appointments.values(), lambda a: a.status == "completed")
    refuses(
        "upcoming scheduled",
        "apply_voucher",
        patient_id=done.patient_id,
        appointment_id=done.appointment_id,
        voucher_code=waiver.code,
    )


def test_apply_voucher_refunds_the_discount_to_the_card_that_paid() -> None:
    v = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and v.kind == "fixed_amount"
            and v.amount_cents == 5000
            and "video" in v.eligible_visit_types
            and v.expires_on >= "2025-04-05"
        )
    )
    a = upcoming(
        lambda a: (
            a.visit_type == "video"
            and a.copay_cents >= 5000
            and not a.voucher_code
            and len(copays(a.appointment_id)) == 1
        )
    )
    result = call(
        "apply_voucher",
        patient_id=a.patient_id,
        appointment_id=a.appointment_id,
        voucher_code=v.code,
    )
    assert result["refunded"] == "50.00" and result["patient_pays"] == cents_text(
        a.copay_cents - 5000
    )
    refund = first(new_rows("payments"), lambda p: p.kind == "refund")
    assert refund.method_id == copays(a.appointment_id)[0].method_id


def test_reschedule_moves_the_visit_and_frees_the_old_slot() -> None:
    a = upcoming(
        lambda a: (
            hours_until(a.start) > 48
            and a.reschedule_count < 2
            and not a.voucher_code
            and a.slot_id is not None
        )
    )
    new = open_slot(a.provider_id, after=a.start[:10] + "T23")
    result = call(
        "reschedule_appointment",
        patient_id=a.patient_id,
        appointment_id=a.appointment_id,
        new_slot_id=new,
    )
    assert (
        result["start"] == DB.slots[new].start
        and result["reschedule_count"] == a.reschedule_count + 1
    )
    assert a.slot_id is not None
    assert row("slots", a.slot_id).status == "open" and row("slots", new).status == "booked"


def test_reschedule_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    soon = upcoming(lambda a: hours_until(a.start) < 24)
    refuses(
        "less than 24 hours",
        "reschedule_appointment",
        patient_id=soon.patient_id,
        appointment_id=soon.appointment_id,
        new_slot_id=open_slot(soon.provider_id),
    )
    maxed = upcoming(lambda a: a.reschedule_count >= 2 and hours_until(a.start) > 24)
    refuses(
        "rescheduled 2 times",
        "reschedule_appointment",
        patient_id=maxed.patient_id,
        appointment_id=maxed.appointment_id,
        new_slot_id=open_slot(maxed.provider_id),
    )
    soon_open = {
        s.provider_id for s in DB.slots.values() if s.status == "open" and hours_until(s.start) < 2
    }
    a = upcoming(
        lambda a: (
            hours_until(a.start) > 48 and a.reschedule_count < 2 and a.provider_id in soon_open
        )
    )
    args = {"patient_id": a.patient_id, "appointment_id": a.appointment_id}
    elsewhere = first(DB.providers.values(), lambda d: d.provider_id != a.provider_id)
    refuses(
        "same provider",
        "reschedule_appointment",
        new_slot_id=open_slot(elsewhere.provider_id),
        **args,
    )
    taken = first(
        DB.slots.values(),
        lambda s: (
            s.provider_id == a.provider_id and s.status == "booked" and s.slot_id != a.slot_id
        ),
    )
    refuses("not available", "reschedule_appointment", new_slot_id=taken.slot_id, **args)
    soon_slot = first(
        DB.slots.values(),
        lambda s: (
            s.provider_id == a.provider_id and s.status == "open" and hours_until(s.start) < 2
        ),
    )
    refuses("too soon", "reschedule_appointment", new_slot_id=soon_slot.slot_id, **args)
    done = first(DB.appointments.values(), lambda x: x.status == "completed")
    refuses(
        "not scheduled",
        "reschedule_appointment",
        patient_id=done.patient_id,
        appointment_id=done.appointment_id,
        new_slot_id=open_slot(done.provider_id),
    )
    refuses(
        "has no appointment",
        "reschedule_appointment",
        patient_id="P0001",
        appointment_id=a.appointment_id,
        new_slot_id=open_slot(a.provider_id),
    )
    # A voucher that expires before the new date keeps the visit on or before its expiry.
    v = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and "2025-03-20" <= v.expires_on <= "2025-03-31"
            and "video" in v.eligible_visit_types
        )
    )
    target = upcoming(
        lambda x: (
            x.visit_type == "video"
            and x.copay_cents > 0
            and not x.voucher_code
            and hours_until(x.start) > 24
            and x.start[:10] <= v.expires_on
            and x.reschedule_count < 2
        )
    )
    call(
        "apply_voucher",
        patient_id=target.patient_id,
        appointment_id=target.appointment_id,
        voucher_code=v.code,
    )
    refuses(
        "must be on or before",
        "reschedule_appointment",
        patient_id=target.patient_id,
        appointment_id=target.appointment_id,
        new_slot_id=open_slot(target.provider_id, after=v.expires_on + "T23"),
    )
    # Once the visit has started it can no longer be changed.
    monkeypatch.setattr(tools_visits, "NOW", datetime.fromisoformat(a.start) + timedelta(minutes=5))
    refuses("already started", "cancel_appointment", **args)


def test_cancel_with_notice_refunds_and_returns_the_voucher() -> None:
    a = upcoming(
        lambda a: (
            hours_until(a.start) > 24
            and a.voucher_code is not None
            and a.copay_cents > a.voucher_discount_cents
        )
    )
    assert a.voucher_code is not None
    paid = sum(c.amount_cents for c in copays(a.appointment_id))
    result = call("cancel_appointment", patient_id=a.patient_id, appointment_id=a.appointment_id)
    assert result["status"] == "cancelled" and result["refunded"] == cents_text(paid)
    assert result["voucher_returned"] == a.voucher_code
    assert row("vouchers", a.voucher_code).status == "available"
    assert all(r.method_id == copays(a.appointment_id)[0].method_id for r in new_rows("payments"))


def test_late_cancellation_keeps_the_payment() -> None:
    a = upcoming(lambda a: hours_until(a.start) < 24 and a.voucher_code is not None)
    result = call("cancel_appointment", patient_id=a.patient_id, appointment_id=a.appointment_id)
    assert result["status"] == "late_cancelled" and result["refunded"] == "0.00"
    assert result["voucher_returned"] is None and new_rows("payments") == []
    assert a.slot_id is not None and row("slots", a.slot_id).status == "open"
    refuses(
        "not scheduled",
        "cancel_appointment",
        patient_id=a.patient_id,
        appointment_id=a.appointment_id,
    )


# --- billing ----------------------------------------------------------------------------


def duplicate_pair() -> tuple[Any, Any]:
    for a in DB.appointments.values():
        pays = sorted(copays(a.appointment_id), key=lambda p: p.payment_id)
        if len(pays) == 2 and a.status == "completed":
            return pays[0], pays[1]
    raise AssertionError("no duplicate copay")


def test_refund_payment_for_a_duplicate_and_a_clinic_cancellation() -> None:
    original, dup = duplicate_pair()
    refuses(
        "duplicate charge is",
        "refund_payment",
        patient_id=original.patient_id,
        payment_id=original.payment_id,
    )
    result = call("refund_payment", patient_id=dup.patient_id, payment_id=dup.payment_id)
    assert (
        result["amount"] == cents_text(dup.amount_cents) and result["refunded_to"] == dup.method_id
    )
    refuses(
        "already been refunded",
        "refund_payment",
        patient_id=dup.patient_id,
        payment_id=dup.payment_id,
    )
    refunded = {p.refund_of for p in DB.payments.values()}
    owed = first(
        DB.payments.values(),
        lambda p: (
            p.kind == "copay"
            and p.payment_id not in refunded
            and DB.appointments[p.appointment_id or ""].status == "cancelled_by_clinic"
        ),
    )
    assert call("refund_payment", patient_id=owed.patient_id, payment_id=owed.payment_id)[
        "amount"
    ] == cents_text(owed.amount_cents)
    payments = call("list_payments", patient_id=owed.patient_id)
    assert first(payments, lambda p: p["payment_id"] == owed.payment_id)["unrefunded"] == "0.00"


def test_refund_payment_refusals() -> None:
    fee = first(DB.payments.values(), lambda p: p.kind == "no_show_fee")
    refund = first(DB.payments.values(), lambda p: p.kind == "refund")
    completed = first(
        DB.payments.values(),
        lambda p: (
            p.kind == "copay"
            and DB.appointments[p.appointment_id or ""].status == "completed"
            and len(copays(p.appointment_id or "")) == 1
        ),
    )
    refuses("has no payment", "refund_payment", patient_id="P0001", payment_id=fee.payment_id)
    refuses("only copays", "refund_payment", patient_id=fee.patient_id, payment_id=fee.payment_id)
    refuses(
        "only copays", "refund_payment", patient_id=refund.patient_id, payment_id=refund.payment_id
    )
    refuses(
        "not refundable: the visit is completed",
        "refund_payment",
        patient_id=completed.patient_id,
        payment_id=completed.payment_id,
    )


# --- prescriptions ----------------------------------------------------------------------


def rx(pred: Callable[[dict[str, Any], Prescription], bool]) -> Prescription:
    for r in DB.prescriptions.values():
        views = call("list_prescriptions", patient_id=r.patient_id)
        view = next(v for v in views if v["prescription_id"] == r.prescription_id)
        if pred(view, r):
            return r
    raise AssertionError("no matching prescription")


def refillable(v: dict[str, Any]) -> bool:
    return (
        v["status"] == "active"
        and v["controlled_schedule"] is None
        and v["refills_remaining"] > 0
        and v["refill_in_progress"] is None
        and v["refill_available_from"] <= TODAY.isoformat()
    )


def major(r: Prescription) -> bool:
    result = call("check_drug_interactions", patient_id=r.patient_id, drug_name=r.drug)
    return bool(result["major_interaction"])


def test_check_drug_interactions() -> None:
    r = rx(lambda v, r: v["status"] == "active" and major(r))
    result = call("check_drug_interactions", patient_id=r.patient_id, drug_name=r.drug.upper())
    assert result["major_interaction"] and r.drug not in result["checked_against"]
    refuses("drug reference", "check_drug_interactions", patient_id=r.patient_id, drug_name="xyz")


def test_request_refill_sends_it_to_the_pharmacy() -> None:
    r = rx(
        lambda v, r: (
            refillable(v)
            and DB.pharmacies[r.pharmacy_id].status == "open"
            and v["refills_remaining"] >= 2
            and not major(r)
        )
    )
    result = call("request_refill", patient_id=r.patient_id, prescription_id=r.prescription_id)
    assert result["refills_remaining"] == r.refills_remaining - 1
    assert result["pharmacy_name"] == DB.pharmacies[r.pharmacy_id].name
    assert row("refill_requests", result["request_id"]).status == "sent"
    refuses(
        "already at the pharmacy",
        "request_refill",
        patient_id=r.patient_id,
        prescription_id=r.prescription_id,
    )


def test_request_refill_refusals() -> None:
    cases: list[tuple[str, Callable[[dict[str, Any], Prescription], bool]]] = [
        ("expired", lambda v, r: v["status"] == "expired"),
        ("discontinued", lambda v, r: v["status"] == "discontinued"),
        (
            "controlled substance",
            lambda v, r: v["status"] == "active" and v["controlled_schedule"] is not None,
        ),
        (
            "no refills left",
            lambda v, r: (
                v["status"] == "active"
                and v["controlled_schedule"] is None
                and v["refills_remaining"] == 0
            ),
        ),
        (
            "too early",
            lambda v, r: (
                v["status"] == "active"
                and v["controlled_schedule"] is None
                and v["refills_remaining"] > 0
                and v["refill_in_progress"] is None
                and v["refill_available_from"] > TODAY.isoformat()
            ),
        ),
        ("major interaction", lambda v, r: refillable(v) and major(r)),
        (
            "is closed",
            lambda v, r: (
                refillable(v) and not major(r) and DB.pharmacies[r.pharmacy_id].status == "closed"
            ),
        ),
    ]
    for match, pred in cases:
        r = rx(pred)
        refuses(match, "request_refill", patient_id=r.patient_id, prescription_id=r.prescription_id)
    refuses("has no prescription", "request_refill", patient_id="P0001", prescription_id="RX99999")


def test_change_prescription_pharmacy_and_its_refusals() -> None:
    r = rx(
        lambda v, r: (
            v["status"] == "active"
            and v["controlled_schedule"] is None
            and v["refill_in_progress"] is None
        )
    )
    target = first(
        DB.pharmacies.values(), lambda p: p.status == "open" and p.pharmacy_id != r.pharmacy_id
    )
    closed = first(DB.pharmacies.values(), lambda p: p.status == "closed")
    args = {"patient_id": r.patient_id, "prescription_id": r.prescription_id}
    refuses("no pharmacy", "change_prescription_pharmacy", pharmacy_id="PH999", **args)
    refuses("is closed", "change_prescription_pharmacy", pharmacy_id=closed.pharmacy_id, **args)
    refuses("already sent", "change_prescription_pharmacy", pharmacy_id=r.pharmacy_id, **args)
    result = call("change_prescription_pharmacy", pharmacy_id=target.pharmacy_id, **args)
    assert result["pharmacy_id"] == target.pharmacy_id
    for match, pred in [
        ("only active", lambda v, r: v["status"] != "active"),
        ("cannot be moved", lambda v, r: v["status"] == "active" and v["controlled_schedule"]),
        (
            "being filled",
            lambda v, r: (
                v["status"] == "active"
                and not v["controlled_schedule"]
                and v["refill_in_progress"] is not None
            ),
        ),
    ]:
        bad = rx(pred)
        refuses(
            match,
            "change_prescription_pharmacy",
            patient_id=bad.patient_id,
            prescription_id=bad.prescription_id,
            pharmacy_id=target.pharmacy_id,
        )


def test_list_pharmacies_filters_by_city_but_keeps_mail_order() -> None:
    rows = call("list_pharmacies", city="denver")
    assert {r["kind"] for r in rows} == {"retail", "mail_order"}
    assert all(r["kind"] == "mail_order" or r["address"]["city"] == "Denver" for r in rows)


# --- devices ----------------------------------------------------------------------------


def device(pred: Callable[[dict[str, Any]], bool]) -> Device:
    for d in DB.devices.values():
        views = call("list_devices", patient_id=d.patient_id)
        view = next(v for v in views if v["device_id"] == d.device_id)
        if pred(view):
            return d
    raise AssertionError("no matching device")


def test_device_replacement_ships_to_the_address_on_file() -> None:
    silent = device(lambda v: v["status"] == "active" and not v["syncing"])
    result = call(
        "request_device_replacement",
        patient_id=silent.patient_id,
        device_id=silent.device_id,
        reason="not_syncing",
    )
    a = DB.patients[silent.patient_id].address
    assert result["ship_to"] == f"{a.street}, {a.city}, {a.state} {a.zip_code}"
    assert row("devices", silent.device_id).status == "replacement_pending"
    syncing = device(lambda v: v["status"] == "active" and v["syncing"])
    refuses(
        "it is syncing",
        "request_device_replacement",
        patient_id=syncing.patient_id,
        device_id=syncing.device_id,
        reason="not_syncing",
    )
    damaged = call(
        "request_device_replacement",
        patient_id=syncing.patient_id,
        device_id=syncing.device_id,
        reason="damaged",
    )
    assert damaged["shipment_id"] != result["shipment_id"]


def test_device_replacement_refusals() -> None:
    pending = device(lambda v: v["status"] == "replacement_pending")
    returned = device(lambda v: v["status"] == "returned")
    refuses(
        "already on its way",
        "request_device_replacement",
        patient_id=pending.patient_id,
        device_id=pending.device_id,
        reason="damaged",
    )
    refuses(
        "no longer enrolled",
        "request_device_replacement",
        patient_id=returned.patient_id,
        device_id=returned.device_id,
        reason="damaged",
    )
    refuses(
        "has no device",
        "request_device_replacement",
        patient_id="P0001",
        device_id=pending.device_id,
        reason="damaged",
    )


# --- policy checks ----------------------------------------------------------------------

Step = tuple[Any, ...]


LOOKUP: Step = ("call", "find_patient_by_email", {"email": "a@example.com"}, '{"patient_id": "P1"}')
LOOKUP_2: Step = ("call", "find_patient_by_phone", {"phone": "1"}, '{"patient_id": "P2"}')
CHECK: Step = (
    "call",
    "check_drug_interactions",
    {"patient_id": "P1", "drug_name": "x"},
    '{"drug": "x", "interactions": []}',
)
ASK: Step = ("agent", "I will request the refill. Shall I proceed?")
YES: Step = ("user", "Yes, please.")
REFILL: Step = (
    "call",
    "request_refill",
    {"patient_id": "P1", "prescription_id": "RX1"},
    '{"drug": "x", "request_id": "RR1"}',
)
CLEAN = (("user", "I need a refill."), LOOKUP, CHECK, ASK, YES, REFILL)


def violations(rule: str, *steps: Step) -> list[str]:
    return conversation(ENV, *steps).details(rule)


def test_a_clean_trajectory_passes_every_check() -> None:
    assert conversation(ENV, *CLEAN).rules() == set()


def test_confirmation_and_authentication_checks() -> None:
    assert violations("telehealth.confirm_before_write", LOOKUP, CHECK, REFILL)
    reads_first = ("call", "list_prescriptions", {"patient_id": "P1"}, "[]")
    assert violations("telehealth.authenticate_first", reads_first, *CLEAN)
    failed_lookup = ("call", "find_patient_by_email", {"email": "b"}, "Error: no patient", True)
    assert violations("telehealth.authenticate_first", failed_lookup, CHECK, ASK, YES, REFILL)


def test_one_patient_checks() -> None:
    other = ("call", "list_appointments", {"patient_id": "P2"}, "[]")
    assert violations("telehealth.one_patient", *CLEAN, LOOKUP_2, other)
    assert violations("telehealth.single_identity", LOOKUP, LOOKUP_2)
    assert not violations("telehealth.single_identity", LOOKUP, LOOKUP)
    assert violations("telehealth.verified_patient_only", LOOKUP, other)
    assert not violations("telehealth.verified_patient_only", *CLEAN)


def test_interaction_check_before_refill() -> None:
    assert violations("telehealth.interaction_check_before_refill", LOOKUP, ASK, YES, REFILL)
    wrong_drug = (
        "call",
        "check_drug_interactions",
        {"patient_id": "P1", "drug_name": "y"},
        '{"drug": "y", "interactions": []}',
    )
    assert violations(
        "telehealth.interaction_check_before_refill", LOOKUP, wrong_drug, ASK, YES, REFILL
    )


def test_emergency_check() -> None:
    pain = ("user", "I have crushing chest pain right now, can I book a visit?")
    book = ("call", "book_appointment", {"patient_id": "P1"}, "{}")
    rule = "telehealth.emergency_services"
    assert violations(rule, pain, ("agent", "Let me look at the schedule."))
    assert not violations(rule, pain, ("agent", "Please hang up and call 911 now."))
    assert violations(rule, pain, LOOKUP, ASK, YES, book, ("agent", "Also, call 911."))
    assert not violations(rule, ("user", "I have no chest pain, just a rash."))
    assert not violations(rule, ("user", "Book me a visit."), ("agent", "Done."))


def test_no_medical_advice_check() -> None:
    rule = "telehealth.no_medical_advice"
    for advice in (
        "It's safe to take ibuprofen with that.",
        "You should take an extra pill tonight.",
        "That reading is normal, nothing to worry about.",
        "Just double your dose for a day.",
        "Good news: Dr. Sato will definitely renew it at the visit.",
    ):
        assert violations(rule, ("agent", advice)), advice
    for fine in (
        "I can't tell you whether it is safe to take ibuprofen; the nurse line can.",
        "The reference flags a major interaction between ibuprofen and warfarin.",
        "You should take this up with your prescriber.",
        "I can't promise the doctor will prescribe it; that is their decision.",
    ):
        assert not violations(rule, ("agent", fine)), fine
