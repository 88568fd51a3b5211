"""The clinic's judgement rules: what policy.md allows, judged on the database before each write.

The tools refuse only what cannot happen (unknown or someone else's records, a visit that is
not upcoming, a slot that is taken or has started, a prescription with no refill left, a
closed pharmacy, invalid values). Which refills, bookings, reschedules, vouchers, refunds,
moves, plans and replacements the policy allows is the agent's to apply, as a human agent
would; each rule below names the writes it covers. A judge raises ToolError (through the
tools' own lookups) for a write the tool would refuse anyway: that is not a breach.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from tau_emotion.domains.checks import PolicyCheck, judged
from tau_emotion.domains.telehealth.db import Appointment, Patient, Prescription, Provider, Slot
from tau_emotion.domains.telehealth.pricing import visit_price
from tau_emotion.domains.telehealth.rules import (
    CANCEL_WINDOW,
    DEVICE_SILENT,
    FOLLOW_UP_WINDOW_DAYS,
    MAX_RESCHEDULES,
    MIN_BOOKING_LEAD,
    NOW,
    REMOTE_VISIT_TYPES,
    STATE_ZIP_PREFIXES,
    TODAY,
)
from tau_emotion.domains.telehealth.tools import TelehealthTools
from tau_emotion.domains.telehealth.tools_pharmacy import refill_available_from
from tau_emotion.domains.telehealth.tools_visits import offers
from tau_emotion.errors import ToolError

Args = Mapping[str, Any]


# --- prescriptions ----------------------------------------------------------------------


def _rx(tools: TelehealthTools, args: Args) -> Prescription:
    """The prescription of a refill or move, if it is active (the tools refuse any other)."""
    rx = tools._own_prescription(args["patient_id"], args["prescription_id"])
    if rx.status != "active":
        raise ToolError(f"{rx.prescription_id} is {rx.status}")
    return rx


def _refill(tools: TelehealthTools, args: Args) -> Prescription:
    """The prescription of a refill the tool would send (else ToolError, as the tool): an
    expired one too, whose expiry is the policy's to judge."""
    rx = tools._own_prescription(args["patient_id"], args["prescription_id"])
    if rx.status == "discontinued":
        raise ToolError(f"{rx.prescription_id} is discontinued")
    if rx.refills_remaining <= 0 or tools._open_request(rx.prescription_id):
        raise ToolError(f"{rx.prescription_id} has no refill to send")
    if tools.db.pharmacies[rx.pharmacy_id].status != "open":
        raise ToolError(f"{rx.pharmacy_id} is closed")
    return rx


def _refill_expired(tools: TelehealthTools, args: Args) -> str | None:
    rx = _refill(tools, args)
    if rx.expires_on < TODAY.isoformat():
        return f"{rx.prescription_id} ({rx.drug}) expired on {rx.expires_on}"
    return None


def _controlled(tools: TelehealthTools, rx: Prescription) -> str | None:
    # Refills and pharmacy moves refuse controlled drugs alike; only the lookup of rx differs.
    schedule = tools.db.drugs[rx.drug].controlled_schedule
    if schedule:
        return f"{rx.drug} is a schedule {schedule} controlled substance"
    return None


def _controlled_refill(tools: TelehealthTools, args: Args) -> str | None:
    return _controlled(tools, _refill(tools, args))


def _refill_too_early(tools: TelehealthTools, args: Args) -> str | None:
    rx = _refill(tools, args)
    ready = refill_available_from(rx)
    if ready > TODAY:
        return f"a refill of {rx.drug} can be requested from {ready}, not on {TODAY}"
    return None


def _major_interaction(tools: TelehealthTools, args: Args) -> str | None:
    rx = _refill(tools, args)
    check = tools.check_drug_interactions(rx.patient_id, rx.drug)
    major = [i["with"] for i in check["interactions"] if i["severity"] == "major"]
    if major:
        return f"a major interaction is flagged between {rx.drug} and {', '.join(major)}"
    return None


def _controlled_move(tools: TelehealthTools, args: Args) -> str | None:
    return _controlled(tools, _rx(tools, args))


# --- booking ----------------------------------------------------------------------------


def _slot(tools: TelehealthTools, slot_id: str) -> Slot:
    """An open slot that has not started (the tools refuse any other)."""
    slot = tools._open_slot(slot_id)
    tools._not_started(slot)
    return slot


def _booking(tools: TelehealthTools, args: Args) -> tuple[Patient, Slot, Provider]:
    """The patient, slot and provider of a booking the tool would make (else ToolError)."""
    patient = tools._patient(args["patient_id"])
    slot = _slot(tools, args["slot_id"])
    provider = tools._provider(slot.provider_id)
    offers(provider, args["visit_type"])
    return patient, slot, provider


def _lead_time(tools: TelehealthTools, args: Args) -> str | None:
    if "new_slot_id" in args:  # reschedule_appointment
        slot_id, slot = args["new_slot_id"], _new_slot(tools, args)
    else:
        slot_id, slot = args["slot_id"], _booking(tools, args)[1]
    start = datetime.fromisoformat(slot.start)
    if start < NOW + MIN_BOOKING_LEAD:
        return f"slot {slot_id} starts at {start.isoformat()}, less than 2 hours from now"
    return None


def _licensed(tools: TelehealthTools, args: Args) -> str | None:
    patient, _, provider = _booking(tools, args)
    state = patient.address.state
    if args["visit_type"] in REMOTE_VISIT_TYPES and state not in provider.licensed_states:
        return (
            f"{provider.name} is not licensed in {state}, where {patient.patient_id} lives, "
            f"for a {args['visit_type']} visit"
        )
    return None


def _follow_up(tools: TelehealthTools, args: Args) -> str | None:
    if args["visit_type"] != "in_person_follow_up":
        return None
    _, slot, _ = _booking(tools, args)
    start = datetime.fromisoformat(slot.start)
    window = timedelta(days=FOLLOW_UP_WINDOW_DAYS)
    seen = any(
        a.patient_id == args["patient_id"]
        and a.provider_id == slot.provider_id
        and a.status == "completed"
        and start - datetime.fromisoformat(a.start) <= window
        for a in tools.db.appointments.values()
    )
    if not seen:
        return (
            f"{args['patient_id']} has no completed visit with {slot.provider_id} in the "
            f"{FOLLOW_UP_WINDOW_DAYS} days before {slot.start[:10]}"
        )
    return None


def _one_per_provider(tools: TelehealthTools, args: Args) -> str | None:
    provider_id = _booking(tools, args)[1].provider_id
    for other in tools.db.appointments.values():
        if (
            other.patient_id == args["patient_id"]
            and other.provider_id == provider_id
            and other.status == "scheduled"
        ):
            return f"{args['patient_id']} already has {other.appointment_id} with {provider_id}"
    return None


# --- vouchers ---------------------------------------------------------------------------


def _voucher_terms(tools: TelehealthTools, args: Args) -> str | None:
    code = args.get("voucher_code")
    if code is None:
        return None
    patient = tools._patient(args["patient_id"])
    if "appointment_id" in args:  # apply_voucher
        appt = tools._upcoming(args["patient_id"], args["appointment_id"])
        if appt.voucher_code:
            raise ToolError(f"{appt.appointment_id} already has a voucher")
        visit_type, day, price = appt.visit_type, appt.start[:10], appt.copay
    else:  # book_appointment
        visit_type, day = args["visit_type"], _booking(tools, args)[1].start[:10]
        price = visit_price(patient.coverage, tools.db.insurance_plans, visit_type, day)[0]
    voucher, _ = tools._usable_voucher(patient, code, price)
    if voucher.expires_on < TODAY.isoformat():
        return f"voucher {voucher.code} expired on {voucher.expires_on}"
    if voucher.expires_on < day:
        return f"voucher {voucher.code} expires {voucher.expires_on}, before the visit on {day}"
    if visit_type not in voucher.eligible_visit_types:
        allowed = ", ".join(voucher.eligible_visit_types)
        return f"voucher {voucher.code} covers only {allowed} visits, not {visit_type}"
    if price <= 0:
        return f"the visit costs nothing, so voucher {voucher.code} has nothing to cover"
    return None


# --- rescheduling -----------------------------------------------------------------------


def _upcoming(tools: TelehealthTools, args: Args) -> Appointment:
    return tools._upcoming(args["patient_id"], args["appointment_id"])


def _new_slot(tools: TelehealthTools, args: Args) -> Slot:
    """The new slot of a reschedule the tool would make: the same provider's (else ToolError)."""
    appt = _upcoming(tools, args)
    slot = _slot(tools, args["new_slot_id"])
    if slot.provider_id != appt.provider_id:
        raise ToolError(f"{slot.slot_id} is another provider's")
    return slot


def _reschedule_notice(tools: TelehealthTools, args: Args) -> str | None:
    appt = _upcoming(tools, args)
    if datetime.fromisoformat(appt.start) - NOW < CANCEL_WINDOW:
        return f"{appt.appointment_id} starts at {appt.start}, less than 24 hours from now"
    return None


def _reschedule_limit(tools: TelehealthTools, args: Args) -> str | None:
    appt = _upcoming(tools, args)
    if appt.reschedule_count >= MAX_RESCHEDULES:
        return f"{appt.appointment_id} was already rescheduled {appt.reschedule_count} times"
    return None


def _reschedule_voucher(tools: TelehealthTools, args: Args) -> str | None:
    appt = _upcoming(tools, args)
    voucher = tools.db.vouchers.get(appt.voucher_code or "")
    day = _new_slot(tools, args).start[:10]
    if voucher is not None and day > voucher.expires_on:
        return (
            f"voucher {voucher.code} on {appt.appointment_id} expires {voucher.expires_on}, "
            f"before the new date {day}"
        )
    return None


# --- refunds, contact details, insurance, devices ---------------------------------------


def _refund_owed(tools: TelehealthTools, args: Args) -> str | None:
    payment = tools.db.payments.get(args["payment_id"])
    if payment is None or payment.patient_id != args["patient_id"] or payment.kind != "copay":
        return None  # the tool refuses it
    appt = tools.db.appointments.get(payment.appointment_id or "")
    copays = tools._payments_of(payment.appointment_id or "", "copay")
    # The duplicate is the later charge: refunding the first of two would refund the original.
    duplicate = any(p.payment_id < payment.payment_id and tools._balance(p) > 0 for p in copays)
    if appt is not None and (appt.status == "cancelled_by_clinic" or duplicate):
        return None
    status = appt.status if appt else "unknown"
    later = [p.payment_id for p in copays if p.payment_id > payment.payment_id]
    hint = f"; the duplicate charge is {later[0]}" if later else ""
    return (
        f"{payment.payment_id} is the copay of a {status} visit, neither cancelled by the "
        f"clinic nor charged twice{hint}"
    )


def _address_in_state(tools: TelehealthTools, args: Args) -> str | None:
    zip_code = args.get("zip_code")
    if zip_code is None:
        return None
    patient = tools._patient(args["patient_id"])
    state = patient.address.state
    new = tools._new_address(patient, args.get("street"), args.get("city"), zip_code)
    if not new.zip_code.startswith(STATE_ZIP_PREFIXES[state]):
        return f"ZIP {new.zip_code} is in {new.state}, outside {state}, the patient's home state"
    return None


def _in_network(tools: TelehealthTools, args: Args) -> str | None:
    plan = tools.db.insurance_plans.get(args["plan_id"])
    if plan is not None and not plan.accepted:
        return f"{plan.payer} {plan.plan_name} ({plan.plan_id}) is out of network"
    return None


def _device_silent(tools: TelehealthTools, args: Args) -> str | None:
    device = tools._own_device(args["patient_id"], args["device_id"])
    if args["reason"] != "not_syncing":
        return None  # damage is the patient's report to make
    uploads = tools._uploads(device.device_id)
    if uploads and NOW - datetime.fromisoformat(uploads[0].taken_at) <= DEVICE_SILENT:
        return f"{device.device_id} uploaded a reading at {uploads[0].taken_at}, within 72 hours"
    return None


JUDGED: list[PolicyCheck] = [
    judged(
        "telehealth.refill_not_expired",
        "Never request a refill of a prescription past its expiry date; offer a visit.",
        ["request_refill"],
        _refill_expired,
    ),
    judged(
        "telehealth.no_controlled_refill",
        "Never request a refill of a controlled substance; offer a visit with the prescriber.",
        ["request_refill"],
        _controlled_refill,
    ),
    judged(
        "telehealth.refill_timing",
        "Request a refill no earlier than 7 days before the current supply runs out "
        "(refill_available_from).",
        ["request_refill"],
        _refill_too_early,
    ),
    judged(
        "telehealth.no_refill_with_major_interaction",
        "Never request a refill when a major interaction with another active prescription is "
        "flagged: the prescriber must review it.",
        ["request_refill"],
        _major_interaction,
    ),
    judged(
        "telehealth.controlled_stays_at_pharmacy",
        "Never move a controlled substance's prescription to another pharmacy.",
        ["change_prescription_pharmacy"],
        _controlled_move,
    ),
    judged(
        "telehealth.booking_lead_time",
        "Book or reschedule only into a slot at least 2 hours ahead.",
        ["book_appointment", "reschedule_appointment"],
        _lead_time,
    ),
    judged(
        "telehealth.provider_licensed_in_state",
        "Book a video or phone visit only with a provider licensed in the patient's home state.",
        ["book_appointment"],
        _licensed,
    ),
    judged(
        "telehealth.follow_up_needs_recent_visit",
        "Book an in-person follow-up only after a completed visit with the same provider in "
        "the last 180 days.",
        ["book_appointment"],
        _follow_up,
    ),
    judged(
        "telehealth.one_upcoming_per_provider",
        "A patient holds at most one upcoming appointment per provider; reschedule it instead.",
        ["book_appointment"],
        _one_per_provider,
    ),
    judged(
        "telehealth.voucher_terms",
        "Use a voucher only before it expires, for a visit on or before its expiry, of a visit "
        "type printed on it, and never on a visit that costs nothing.",
        ["book_appointment", "apply_voucher"],
        _voucher_terms,
    ),
    judged(
        "telehealth.reschedule_notice",
        "Reschedule only a visit 24 hours or more away; within 24 hours it can only be cancelled.",
        ["reschedule_appointment"],
        _reschedule_notice,
    ),
    judged(
        "telehealth.reschedule_limit",
        "Reschedule an appointment at most twice.",
        ["reschedule_appointment"],
        _reschedule_limit,
    ),
    judged(
        "telehealth.reschedule_within_voucher_expiry",
        "Reschedule a visit with a voucher only to a date on or before the voucher's expiry.",
        ["reschedule_appointment"],
        _reschedule_voucher,
    ),
    judged(
        "telehealth.refund_only_when_owed",
        "Refund a copay only when the clinic cancelled the visit or the copay was charged twice "
        "(the duplicate, not the original).",
        ["refund_payment"],
        _refund_owed,
    ),
    judged(
        "telehealth.address_in_state",
        "An address change stays in the patient's current state; a move to another state goes "
        "to a human agent.",
        ["update_contact_details"],
        _address_in_state,
    ),
    judged(
        "telehealth.in_network_insurance_only",
        "Put only in-network insurance plans on file.",
        ["update_insurance"],
        _in_network,
    ),
    judged(
        "telehealth.device_replacement_eligibility",
        "Replace a device for not syncing only when it has sent no reading for more than 72 hours.",
        ["request_device_replacement"],
        _device_silent,
    ),
]
