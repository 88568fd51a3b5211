"""Telehealth domain: tools (success and every refusal) and policy checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.common import fmt
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


def price(p: Patient, visit_type: str, slot_id: str) -> Decimal:
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


def breaks(rule: str, name: str, /, **arguments: Any) -> str:
    """The judgement rule `telehealth.<rule>` forbids the write, and the tool carries it out."""
    return DESK.breaks(f"telehealth.{rule}", name, **arguments)


def allows(rule: str, name: str, /, **arguments: Any) -> None:
    DESK.allows(f"telehealth.{rule}", name, **arguments)


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


def test_update_contact_details_refuses_a_blank_street_or_city() -> None:
    args = {"patient_id": "P0002", "zip_code": DB.patients["P0002"].address.zip_code}
    refuses("together", "update_contact_details", street="   ", city="Seattle", **args)
    refuses("together", "update_contact_details", street="1 Elm St", city="\t", **args)
    call("update_contact_details", street=" 1 Elm St ", city=" Seattle ", **args)
    address = row("patients", "P0002").address
    assert (address.street, address.city) == ("1 Elm St", "Seattle")


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
        "not in a state the clinic serves",
        "update_contact_details",
        patient_id="P0002",
        street="1 Elm St",
        city="New York",
        zip_code="10001",
    )
    refuses("nothing to change", "update_contact_details", patient_id="P0002")
    refuses("nothing to change", "update_contact_details", patient_id="P0002", email=p.email)


def test_a_move_to_another_state_is_the_agents_to_refuse() -> None:
    address = {"patient_id": "P0002", "street": "1 Elm St"}
    allows(
        "address_in_state", "update_contact_details", city="Seattle", zip_code="98109", **address
    )
    allows("address_in_state", "update_contact_details", patient_id="P0002", email="a@b.org")
    breaks(
        "address_in_state", "update_contact_details", city="Portland", zip_code="97205", **address
    )
    # Carried out, the address follows its ZIP into Oregon rather than mix two states.
    assert row("patients", "P0002").address.state == "OR"


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
        "3 letters", "update_insurance", patient_id="P0034", plan_id="PLN-EVG", member_id="12345"
    )
    rule, card = "in_network_insurance_only", {"patient_id": "P0034", "member_id": "BHG123456789"}
    allows(rule, "update_insurance", plan_id="PLN-EVG", **card)
    breaks(rule, "update_insurance", plan_id="PLN-PDE", **card)
    # Carried out, the plan is on file and prices visits at self-pay rates.
    assert call("get_patient_details", patient_id="P0034")["insurance"]["status_today"] == (
        "out_of_network"
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
    # Every open slot still to come: how soon one may be booked is the policy's.
    assert early and all(r["start"] > "2025-03-10T09:00" for r in early)
    assert len(early) <= tools_visits.MAX_SLOTS_SHOWN
    soon = [
        s
        for s in DB.slots.values()
        if s.status == "open" and "2025-03-10T09:00" < s.start < "2025-03-10T11:00"
    ]
    shown = call("search_available_slots", provider_id=soon[0].provider_id, date="2025-03-10")
    assert soon[0].slot_id in {r["slot_id"] for r in shown}


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
    assert result["charged"] == fmt(cost) and result["charged_to"] == method
    assert result["appointment_id"] == f"A{len(DB.appointments) + 1:05d}"
    assert row("slots", slot_id).status == "booked"
    assert [c.amount for c in copays(result["appointment_id"])] == [cost]


def test_book_appointment_refusals() -> None:
    p, slot_id = bookable()
    method = valid_method(p)
    base = {"patient_id": p.patient_id, "visit_type": "video", "payment_method_id": method}
    booked = first(DB.slots.values(), lambda s: s.status == "booked").slot_id
    blocked = first(DB.slots.values(), lambda s: s.status == "blocked").slot_id
    passed = first(DB.slots.values(), lambda s: s.status == "open" and hours_until(s.start) <= 0)
    refuses("no slot", "book_appointment", slot_id="SL-X", **base)
    refuses("not available", "book_appointment", slot_id=booked, **base)
    refuses("not available", "book_appointment", slot_id=blocked, **base)
    refuses("has passed", "book_appointment", slot_id=passed.slot_id, **base)
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


def test_booking_rules_are_the_agents_to_apply() -> None:
    p, slot_id = bookable()
    base = {"patient_id": p.patient_id, "visit_type": "video", "payment_method_id": valid_method(p)}
    for rule in (
        "booking_lead_time",
        "provider_licensed_in_state",
        "follow_up_needs_recent_visit",
        "one_upcoming_per_provider",
    ):
        allows(rule, "book_appointment", slot_id=slot_id, **base)
    # A provider not licensed in the patient's state.
    far = first(
        DB.providers.values(),
        lambda d: p.address.state not in d.licensed_states and "video" in d.visit_types,
    )
    breaks(
        "provider_licensed_in_state", "book_appointment", slot_id=open_slot(far.provider_id), **base
    )


def test_a_slot_under_two_hours_away_is_the_agents_to_refuse() -> None:
    p, _ = bookable()
    base = {"patient_id": p.patient_id, "payment_method_id": valid_method(p)}
    soon = first(
        DB.slots.values(),
        lambda s: (
            s.status == "open"
            and 0 < hours_until(s.start) < 2
            and not has_upcoming_with(p.patient_id, s.provider_id)
        ),
    )
    kind = DB.providers[soon.provider_id].visit_types[0]
    breaks("booking_lead_time", "book_appointment", slot_id=soon.slot_id, visit_type=kind, **base)


def test_an_in_person_follow_up_without_a_recent_visit_is_the_agents_to_refuse() -> None:
    p, _ = bookable()
    base = {"patient_id": p.patient_id, "payment_method_id": valid_method(p)}
    seen = {a.provider_id for a in DB.appointments.values() if a.patient_id == p.patient_id}
    stranger = first(
        DB.providers.values(),
        lambda d: "in_person_follow_up" in d.visit_types and d.provider_id not in seen,
    )
    breaks(
        "follow_up_needs_recent_visit",
        "book_appointment",
        visit_type="in_person_follow_up",
        slot_id=open_slot(stranger.provider_id),
        **base,
    )


def test_a_second_upcoming_visit_with_a_provider_is_the_agents_to_refuse() -> None:
    a = upcoming(
        lambda a: a.visit_type == "video" and valid_method(DB.patients[a.patient_id]) is not None
    )
    breaks(
        "one_upcoming_per_provider",
        "book_appointment",
        patient_id=a.patient_id,
        slot_id=open_slot(a.provider_id, after=a.start[:10] + "T23"),
        visit_type="video",
        payment_method_id=valid_method(DB.patients[a.patient_id]),
    )
    assert len([x for x in new_rows("appointments") if x.provider_id == a.provider_id]) == 1


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
    booking = {"patient_id": p.patient_id, "slot_id": slot_id, "visit_type": "video"}
    allows("voucher_terms", "book_appointment", voucher_code=v.code.lower(), **booking)
    result = call("book_appointment", voucher_code=v.code.lower(), **booking)
    assert result["charged"] == "0.00" and result["charged_to"] is None
    assert copays(result["appointment_id"]) == []
    assert row("vouchers", v.code).status == "redeemed"


def test_voucher_refusals_and_terms() -> None:
    a = upcoming(
        lambda a: (
            a.visit_type == "video"
            and a.copay > 0
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
    rule = "voucher_terms"
    breaks(rule, "apply_voucher", voucher_code=expired.code, **args)
    ENV.reset()
    breaks(rule, "apply_voucher", voucher_code=early.code, **args)
    ENV.reset()
    remote_only = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and "in_person_follow_up" not in v.eligible_visit_types
            and v.expires_on >= "2025-04-05"
        )
    )
    in_person = upcoming(
        lambda a: a.visit_type == "in_person_follow_up" and a.copay > 0 and not a.voucher_code
    )
    breaks(
        rule,
        "apply_voucher",
        patient_id=in_person.patient_id,
        appointment_id=in_person.appointment_id,
        voucher_code=remote_only.code,
    )
    ENV.reset()
    free = upcoming(lambda a: a.copay == 0 and not a.voucher_code and a.visit_type == "video")
    waiver = voucher(
        lambda v: (
            v.status == "available"
            and v.patient_id is None
            and v.expires_on >= "2025-04-05"
            and "video" in v.eligible_visit_types
        )
    )
    allows(rule, "apply_voucher", voucher_code=waiver.code, **args)
    breaks(
        rule,
        "apply_voucher",
        patient_id=free.patient_id,
        appointment_id=free.appointment_id,
        voucher_code=waiver.code,
    )
    # Carried out, a voucher on a free visit is used up for nothing.
    assert row("vouchers", waiver.code).status == "redeemed"
    ENV.reset()
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
            and v.amount == Decimal("50.00")
            and "video" in v.eligible_visit_types
            and v.expires_on >= "2025-04-05"
        )
    )
    a = upcoming(
        lambda a: (
            a.visit_type == "video"
            and a.copay >= Decimal("50.00")
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
    assert result["refunded"] == "50.00" and result["patient_pays"] == fmt(
        a.copay - Decimal("50.00")
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


def test_reschedule_notice_and_limit_are_the_agents_to_apply() -> None:
    soon = upcoming(lambda a: 0 < hours_until(a.start) < 24)
    breaks(
        "reschedule_notice",
        "reschedule_appointment",
        patient_id=soon.patient_id,
        appointment_id=soon.appointment_id,
        new_slot_id=open_slot(soon.provider_id),
    )
    maxed = upcoming(lambda a: a.reschedule_count >= 2 and hours_until(a.start) > 24)
    args = {"patient_id": maxed.patient_id, "appointment_id": maxed.appointment_id}
    new_slot = open_slot(maxed.provider_id)
    allows("reschedule_notice", "reschedule_appointment", new_slot_id=new_slot, **args)
    breaks("reschedule_limit", "reschedule_appointment", new_slot_id=new_slot, **args)
    assert row("appointments", maxed.appointment_id).reschedule_count == 3


def test_reschedule_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
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
            s.provider_id == a.provider_id and s.status == "open" and 0 < hours_until(s.start) < 2
        ),
    )
    allows("reschedule_limit", "reschedule_appointment", new_slot_id=soon_slot.slot_id, **args)
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
            and x.copay > 0
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
    breaks(
        "reschedule_within_voucher_expiry",
        "reschedule_appointment",
        patient_id=target.patient_id,
        appointment_id=target.appointment_id,
        new_slot_id=open_slot(target.provider_id, after=v.expires_on + "T23"),
    )
    ENV.reset()
    # Under 2 hours ahead is the policy's to refuse; a reschedule carries it out.
    breaks("booking_lead_time", "reschedule_appointment", new_slot_id=soon_slot.slot_id, **args)
    ENV.reset()
    # Once the visit has started it can no longer be changed.
    monkeypatch.setattr(tools_visits, "NOW", datetime.fromisoformat(a.start) + timedelta(minutes=5))
    refuses("already started", "cancel_appointment", **args)


def test_cancel_with_notice_refunds_and_returns_the_voucher() -> None:
    a = upcoming(
        lambda a: (
            hours_until(a.start) > 24
            and a.voucher_code is not None
            and a.copay > a.voucher_discount
        )
    )
    assert a.voucher_code is not None
    paid = sum((c.amount for c in copays(a.appointment_id)), Decimal("0.00"))
    result = call("cancel_appointment", patient_id=a.patient_id, appointment_id=a.appointment_id)
    assert result["status"] == "cancelled" and result["refunded"] == fmt(paid)
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
    _, dup = duplicate_pair()
    rule = "refund_only_when_owed"
    allows(rule, "refund_payment", patient_id=dup.patient_id, payment_id=dup.payment_id)
    result = call("refund_payment", patient_id=dup.patient_id, payment_id=dup.payment_id)
    assert result["amount"] == fmt(dup.amount) and result["refunded_to"] == dup.method_id
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
    allows(rule, "refund_payment", patient_id=owed.patient_id, payment_id=owed.payment_id)
    assert call("refund_payment", patient_id=owed.patient_id, payment_id=owed.payment_id)[
        "amount"
    ] == fmt(owed.amount)
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
    rule = "refund_only_when_owed"
    reason = breaks(
        rule, "refund_payment", patient_id=completed.patient_id, payment_id=completed.payment_id
    )
    assert "completed visit" in reason
    original, _ = duplicate_pair()
    reason = breaks(
        rule, "refund_payment", patient_id=original.patient_id, payment_id=original.payment_id
    )
    assert "the duplicate charge is" in reason


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
        ("discontinued", lambda v, r: v["status"] == "discontinued"),
        (
            "no refills left",
            lambda v, r: v["status"] == "active" and v["refills_remaining"] == 0,
        ),
        (
            "is closed",
            lambda v, r: (
                v["status"] == "active"
                and v["refills_remaining"] > 0
                and v["refill_in_progress"] is None
                and DB.pharmacies[r.pharmacy_id].status == "closed"
            ),
        ),
    ]
    for match, pred in cases:
        r = rx(pred)
        refuses(match, "request_refill", patient_id=r.patient_id, prescription_id=r.prescription_id)
    refuses("has no prescription", "request_refill", patient_id="P0001", prescription_id="RX99999")


REFILL_RULES = (
    "refill_not_expired",
    "no_controlled_refill",
    "refill_timing",
    "no_refill_with_major_interaction",
)


def sendable(v: dict[str, Any], r: Prescription) -> bool:
    """A refill the tool sends: not discontinued, refills left, none in progress, an open
    pharmacy."""
    return (
        v["status"] != "discontinued"
        and v["refills_remaining"] > 0
        and v["refill_in_progress"] is None
        and DB.pharmacies[r.pharmacy_id].status == "open"
    )


@pytest.mark.parametrize(
    ("rule", "pred"),
    [
        ("refill_not_expired", lambda v, r: sendable(v, r) and v["status"] == "expired"),
        ("no_controlled_refill", lambda v, r: sendable(v, r) and v["controlled_schedule"]),
        (
            "refill_timing",
            lambda v, r: sendable(v, r) and v["refill_available_from"] > TODAY.isoformat(),
        ),
        ("no_refill_with_major_interaction", lambda v, r: sendable(v, r) and major(r)),
    ],
)
def test_refill_eligibility_is_the_agents_to_judge(
    rule: str, pred: Callable[[dict[str, Any], Prescription], bool]
) -> None:
    r = rx(pred)
    breaks(rule, "request_refill", patient_id=r.patient_id, prescription_id=r.prescription_id)
    assert row("prescriptions", r.prescription_id).refills_remaining == r.refills_remaining - 1


def test_a_refill_of_an_expired_prescription_is_the_agents_to_refuse() -> None:
    r = rx(
        lambda v, r: sendable(v, r) and v["status"] == "active" and refillable(v) and not major(r)
    )
    args = {"patient_id": r.patient_id, "prescription_id": r.prescription_id}
    for rule in REFILL_RULES:
        allows(rule, "request_refill", **args)
    # An active one whose expiry date passed yesterday (its status not yet updated).
    lapsed = r.model_copy(update={"expires_on": (TODAY - timedelta(days=1)).isoformat()})
    ENV.state.table("prescriptions")[r.prescription_id] = lapsed
    breaks("refill_not_expired", "request_refill", **args)


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
    rule, to = "controlled_stays_at_pharmacy", {"pharmacy_id": target.pharmacy_id}
    allows(rule, "change_prescription_pharmacy", **to, **args)
    result = call("change_prescription_pharmacy", pharmacy_id=target.pharmacy_id, **args)
    assert result["pharmacy_id"] == target.pharmacy_id
    for match, pred in [
        ("only active", lambda v, r: v["status"] != "active"),
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


def test_moving_a_controlled_substance_is_the_agents_to_refuse() -> None:
    r = rx(
        lambda v, r: (
            v["status"] == "active"
            and v["controlled_schedule"] is not None
            and v["refill_in_progress"] is None
        )
    )
    target = first(
        DB.pharmacies.values(), lambda p: p.status == "open" and p.pharmacy_id != r.pharmacy_id
    )
    breaks(
        "controlled_stays_at_pharmacy",
        "change_prescription_pharmacy",
        patient_id=r.patient_id,
        prescription_id=r.prescription_id,
        pharmacy_id=target.pharmacy_id,
    )
    assert row("prescriptions", r.prescription_id).pharmacy_id == target.pharmacy_id


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
    rule = "device_replacement_eligibility"
    allows(
        rule,
        "request_device_replacement",
        patient_id=silent.patient_id,
        device_id=silent.device_id,
        reason="not_syncing",
    )
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
    which = {"patient_id": syncing.patient_id, "device_id": syncing.device_id}
    allows(rule, "request_device_replacement", reason="damaged", **which)
    damaged = call("request_device_replacement", reason="damaged", **which)
    assert damaged["shipment_id"] != result["shipment_id"]
    ENV.reset()
    breaks(rule, "request_device_replacement", reason="not_syncing", **which)


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


def test_some_patients_carry_a_major_interaction_from_another_prescriber() -> None:
    """`add_interacting_prescriptions`: a recent prescription from another specialty flags a
    major interaction on a drug the patient refills, so refusing that refill is a situation
    the database holds for several patients, not one."""
    from tau_emotion.domains.telehealth.generate_situations import add_interacting_prescriptions

    assert add_interacting_prescriptions.__doc__
    flagged = {
        r.patient_id
        for r in DB.prescriptions.values()
        if r.status == "active" and r.refills_remaining > 0 and major(r)
    }
    assert len(flagged) >= 8


def test_a_voucher_on_an_upcoming_visit_runs_out_before_the_schedule_does() -> None:
    """`date_visit_vouchers`: moving such a visit past a few days after its date breaks the
    voucher's expiry, and the open schedule has slots past it."""
    last_open = max(s.start[:10] for s in DB.slots.values() if s.status == "open")
    on_visits = [
        (a, DB.vouchers[a.voucher_code])
        for a in DB.appointments.values()
        if a.status == "scheduled" and a.voucher_code is not None
    ]
    assert on_visits
    for appt, v in on_visits:
        assert (
            appt.start[:10]
            < v.expires_on
            <= (date.fromisoformat(appt.start[:10]) + timedelta(days=4)).isoformat()
        )
    assert sum(v.expires_on < last_open for _, v in on_visits) >= len(on_visits) // 2


def test_a_credit_from_a_recent_clinic_cancellation_is_on_the_rebooked_visit() -> None:
    """`redeem_credits_on_visits` went through `apply_voucher`: the upcoming visit carries
    the patient's own credit, its discount came back as a refund of the copay, and the
    clinic had cancelled a visit with the same provider."""
    refunded = {
        (p.appointment_id, p.amount)
        for p in DB.payments.values()
        if p.kind == "refund" and p.posted_on == TODAY.isoformat()
    }
    credited = [
        a
        for a in DB.appointments.values()
        if a.status == "scheduled"
        and a.voucher_code is not None
        and DB.vouchers[a.voucher_code].patient_id == a.patient_id
        and (a.appointment_id, a.voucher_discount) in refunded
    ]
    assert credited
    for appt in credited:
        assert any(
            a.provider_id == appt.provider_id and a.status == "cancelled_by_clinic"
            for a in DB.appointments.values()
            if a.patient_id == appt.patient_id
        )
