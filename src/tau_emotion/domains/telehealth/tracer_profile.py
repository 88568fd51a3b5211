"""What the Tracer needs to know about the telehealth domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.telehealth.tools import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "apply_voucher": ("use {voucher_code} on {appointment}", "use {voucher_code} on {appointment}"),
    "book_appointment": (
        "book a {visit_type} visit {slot}",
        "book a {visit_type} appointment {slot}",
    ),
    "cancel_appointment": ("cancel {appointment}", "cancel {appointment}"),
    "change_prescription_pharmacy": (
        "move {prescription} to {pharmacy}",
        "move {prescription} to {pharmacy}",
    ),
    "refund_payment": ("get a refund of {payment}", "get a refund of {payment}"),
    "request_device_replacement": (
        "get a replacement for {device} ({reason})",
        "get a replacement for {device}, {reason}",
    ),
    "request_refill": ("get a refill of {prescription}", "get a refill of {prescription}"),
    "reschedule_appointment": (
        "move {appointment} to {new_slot}",
        "move {appointment} to {new_slot}",
    ),
    "update_contact_details": ("update your contact details", "update my contact details"),
    "update_insurance": (
        "put your new insurance on file: {plan}, {member_id}",
        "update my insurance to {plan}, {member_id}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"voucher_code": "voucher_code", "member_id": "member_id"},
    public_tables=frozenset(["drugs"]),
    phrases=PHRASES,
    test_target=70,
)
