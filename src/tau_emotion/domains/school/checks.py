"""Policy checks of the school domain, audited over a finished trajectory.

The tools enforce integrity: the records exist, the caller may see or change the student's
record (the access table of policy.md), only summer registrations change, a schedule has one
row per course and no period clash, seats, balances and cards must be there. Who is eligible
for a course or a payment plan, how many waitlists, how far ahead or back an absence, whom a
meeting is with and until when it may be cancelled are the agent's to apply, as a human agent
would; the judged checks below audit them on the database as it stood before each write. The
others audit what only the conversation shows: who was authenticated, what the caller agreed
to, one caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.checks import (
    PolicyCheck,
    act_as_authenticated,
    all_but,
    judged,
    session_checks,
)
from tau_emotion.domains.common import fmt
from tau_emotion.domains.school.queries import parse_date
from tau_emotion.domains.school.rules import (
    ABSENCE_LOOKAHEAD_DAYS,
    ABSENCE_LOOKBACK_DAYS,
    CANCEL_NOTICE,
    CURRENT_TERM,
    MAX_WAITLISTS_PER_TERM,
    NOW,
    OPEN_TERM,
    PLAN_INSTALLMENTS,
    PLAN_MAX_DAYS_PAST_DUE,
    PLAN_MIN_TOTAL,
    TODAY,
)
from tau_emotion.domains.school.tools import SchoolTools

AUTH_TOOLS = ("find_caller_by_email", "find_caller_by_phone", "find_caller_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "search_sections", "get_staff_availability"))
"""Tools that disclose nothing about a family (the catalogue, staff slots) or that hand off."""


def _eligible(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    student = tools.q.authorize(args["caller_id"], args["student_id"], "act")
    return tools.q.ineligibility(student, tools.q.section(args["section_id"]))


def _waitlists(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    student = tools.q.authorize(args["caller_id"], args["student_id"], "act")
    held = [
        e.section_id
        for e in tools.q.student_enrollments(student.id, OPEN_TERM)
        if e.status == "waitlisted"
    ]
    if len(held) >= MAX_WAITLISTS_PER_TERM:
        return f"{student.id} is already on {len(held)} waitlists ({', '.join(held)})"
    return None


def _plan(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    student = tools.q.authorize(args["caller_id"], args["student_id"], "view")
    if int(args["installments"]) not in PLAN_INSTALLMENTS:
        return f"{args['installments']} installments; a plan has 2, 3 or 4"
    active = tools.q.active_plan(student.id)
    if active is not None:
        return f"{student.id} already has an active payment plan ({active.id})"
    fees = [f for f in tools.q.student_fees(student.id) if f.status == "open"]
    overdue = [f.id for f in fees if (TODAY - parse_date(f.due_date)).days > PLAN_MAX_DAYS_PAST_DUE]
    if overdue:
        return f"{', '.join(overdue)} more than {PLAN_MAX_DAYS_PAST_DUE} days past due"
    total = sum((f.amount - f.paid for f in fees), Decimal("0.00"))
    if fees and total < PLAN_MIN_TOTAL:
        return f"open fees of {fmt(total)}, under {fmt(PLAN_MIN_TOTAL)}"
    return None


def _absence_window(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    day = parse_date(args["date"])
    if day < TODAY and (TODAY - day).days > ABSENCE_LOOKBACK_DAYS:
        return f"{day} is over {ABSENCE_LOOKBACK_DAYS} days ago (the attendance office's)"
    if (day - TODAY).days > ABSENCE_LOOKAHEAD_DAYS:
        return f"{day} is over {ABSENCE_LOOKAHEAD_DAYS} days ahead"
    return None


def _meeting_staff(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    student = tools.q.authorize(args["caller_id"], args["student_id"], "act")
    staff = tools.q.staff_member(args["staff_id"])
    teachers = {
        tools.q.db.sections[e.section_id].teacher_id
        for e in tools.q.student_enrollments(student.id, CURRENT_TERM)
    }
    if staff.id != student.counselor_id and staff.id not in teachers:
        return (
            f"{tools.q.full_name(staff)} is neither {student.id}'s counselor nor one of their "
            "current teachers"
        )
    return None


def _one_meeting(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    for a in tools.q.db.appointments.values():
        if (
            a.student_id == args["student_id"]
            and a.staff_id == args["staff_id"]
            and a.status == "scheduled"
        ):
            return f"{a.id} with {a.staff_id} about {a.student_id} is already booked for {a.start}"
    return None


def _cancel_notice(tools: SchoolTools, args: Mapping[str, Any]) -> str | None:
    appointment = tools.q.db.appointments.get(args["appointment_id"])
    if appointment is None:
        return None  # the tool refuses it
    if datetime.fromisoformat(appointment.start) - NOW < CANCEL_NOTICE:
        return f"{appointment.id} starts {appointment.start}, less than 24 hours from now"
    return None


# The registration, plan, absence and meeting rules of policy.md, judged before the write.
JUDGED: list[PolicyCheck] = [
    judged(
        "school.enrollment_eligibility",
        "Enroll or waitlist a student only at the course's grade level, with every "
        "prerequisite passed with C or better, and not in a course already passed so.",
        ["enroll_in_section", "join_waitlist"],
        _eligible,
    ),
    judged(
        "school.waitlist_limit",
        f"A student may be on at most {MAX_WAITLISTS_PER_TERM} waitlists.",
        ["join_waitlist"],
        _waitlists,
    ),
    judged(
        "school.payment_plan_eligibility",
        "Set up a payment plan only with 2, 3 or 4 installments, for a student with no other "
        "active plan, open fees of at least 500.00 and none more than 30 days past due.",
        ["create_payment_plan"],
        _plan,
    ),
    judged(
        "school.absence_window",
        f"Report absences up to {ABSENCE_LOOKAHEAD_DAYS} days ahead and excuse recorded ones "
        f"up to {ABSENCE_LOOKBACK_DAYS} days back; older ones go to the attendance office.",
        ["report_absence"],
        _absence_window,
    ),
    judged(
        "school.meeting_staff",
        "Book meetings only with the student's counselor or one of their current teachers.",
        ["book_appointment"],
        _meeting_staff,
    ),
    judged(
        "school.one_meeting_per_staff",
        "Only one upcoming meeting per student with the same staff member.",
        ["book_appointment"],
        _one_meeting,
    ),
    judged(
        "school.meeting_cancel_notice",
        "Cancel a meeting here only at least 24 hours before it starts.",
        ["cancel_appointment"],
        _cancel_notice,
    ),
]

CHECKS: list[PolicyCheck] = [
    *session_checks(
        "school",
        AUTH_TOOLS,
        all_but(PUBLIC_TOOLS),
        argument="caller_id",
        one="one_caller",
        person="caller",
    ),
    act_as_authenticated(
        "school.act_as_authenticated_caller",
        "Pass as caller_id only the id the authentication lookup returned for this caller.",
        AUTH_TOOLS,
        "caller_id",
    ),
    *JUDGED,
]
