"""What the Tracer needs to know about the school domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.school.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import CallerRule, Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "book_appointment": (
        "book a meeting about {topic} for {student} with {staff} on {start}",
        "set up a meeting about {topic} for {student} with {staff} on {start}",
    ),
    "cancel_appointment": ("cancel {appointment}", "cancel {appointment}"),
    "create_payment_plan": (
        "set up a payment plan in {installments} installments for {student}",
        "split the balance for {student} into {installments} payments",
    ),
    "drop_section": ("drop {student} from {section}", "drop {student} from {section}"),
    "enroll_in_section": ("enroll {student} in {section}", "sign {student} up for {section}"),
    "join_waitlist": (
        "put {student} on the waitlist for {section}",
        "put {student} on the waitlist for {section}",
    ),
    "pay_fee": ("pay {amount} towards {fee}", "pay {amount} towards {fee}"),
    "report_absence": (
        "report {student} absent on {date} ({reason})",
        "report {student} absent on {date}, {reason}",
    ),
    "set_records_release": (
        "turn {allow} the release of the student records to guardians",
        "turn {allow} the records release",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    # The school serves minors only through a guardian: students call only once adults.
    caller_rules={"students": CallerRule("date_of_birth", "2007-03-10")},
    phrases=PHRASES,
)
