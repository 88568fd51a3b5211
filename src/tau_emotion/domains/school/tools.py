"""The tools of the school's family-services desk.

Reads take the authenticated ``caller_id`` (a guardian or an adult student) and check the
disclosure rules in `Queries.authorize`; writes do too, and refuse only what cannot happen.
The policy's judgement rules (eligibility, waitlist and plan limits, absence windows, whom a
meeting is with) and the rules a single call cannot see (confirmation, authentication order,
one caller per conversation) are audited in `checks.py`.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, last_ten, zip_code
from tau_emotion.domains.school.db import Guardian, Student
from tau_emotion.domains.school.queries import Queries
from tau_emotion.domains.school.rules import (
    COMPLETED_TERM,
    CURRENT_TERM,
    NOW,
    OPEN_TERM,
    TERMS,
    TODAY,
    gpa,
    is_adult,
)
from tau_emotion.domains.school.tools_base import SchoolToolBase
from tau_emotion.domains.school.tools_billing import BillingTools
from tau_emotion.domains.school.tools_registration import RegistrationTools
from tau_emotion.domains.school.tools_services import ServiceTools
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)


def _caller(person: Student | Guardian) -> dict[str, str]:
    role = "student" if isinstance(person, Student) else "guardian"
    return {"caller_id": person.id, "role": role, "full_name": Queries.full_name(person)}


CALLERS: Lookups[SchoolToolBase, Student | Guardian] = Lookups(
    Directory(
        answer=_caller,
        missing="no guardian or student found with that {what}",
        ambiguous="more than one person matches that {what}; ask for their email",
        phone=PhoneRule(last_ten, "give the full 10-digit phone number"),
        email_label="email",
    ),
    people=lambda tools: [*tools.q.db.guardians.values(), *tools.q.db.students.values()],
)


class SchoolTools(RegistrationTools, ServiceTools, BillingTools):
    """All tools of the desk: the reads and lookups here, the writes from the mixins."""

    find_caller_by_email = CALLERS.email(DOCS["find_caller_by_email"])
    find_caller_by_phone = CALLERS.phone(DOCS["find_caller_by_phone"])
    find_caller_by_name_and_zip = CALLERS.full_name_and(
        DOCS["find_caller_by_name_and_zip"],
        zip_code(lambda p: p.zip_code),
    )

    @tool("read")
    def get_caller_details(self, caller_id: str) -> dict[str, Any]:
        """The authenticated caller's profile: contact details, linked students (for a
        guardian) and payment methods on file.

        Args:
            caller_id: The id returned by the authentication lookup.
        """
        caller = self.q.caller(caller_id)
        methods = [
            {"payment_method_id": m.id, "label": m.label, "expires": m.expires}
            for m in self.q.db.payment_methods.values()
            if m.owner_id == caller.id
        ]
        details: dict[str, Any] = {
            "caller_id": caller.id,
            "full_name": self.q.full_name(caller),
            "email": caller.email,
            "phone": caller.phone,
            "zip_code": caller.zip_code,
        }
        if isinstance(caller, Student):
            details |= {"role": "student", "grade_level": caller.grade_level}
            details["records_release"] = caller.records_release
        else:
            students = []
            for sid in caller.student_ids:
                s = self.q.db.students[sid]
                link = next(g for g in s.guardians if g.guardian_id == caller.id)
                entry: dict[str, Any] = {
                    "student_id": s.id,
                    "full_name": self.q.full_name(s),
                    "relationship": link.relationship,
                    "guardian_verified": link.verified,
                }
                if link.verified:  # an unverified guardian learns nothing from the record
                    entry |= {
                        "grade_level": s.grade_level,
                        "is_18_or_older": is_adult(s.date_of_birth),
                    }
                students.append(entry)
            details |= {"role": "guardian", "students": students}
        details["payment_methods"] = methods
        return details

    @tool("read")
    def get_student_record(self, caller_id: str, student_id: str) -> dict[str, Any]:
        """A student's record: counselor, guardians, this term's schedule with teachers, summer
        registrations with waitlist positions, this term's absences and upcoming meetings.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id (from get_caller_details).
        """
        s = self.q.authorize(caller_id, student_id, "view")
        counselor = self.q.db.staff[s.counselor_id]
        schedule, summer = [], []
        for e in self.q.student_enrollments(s.id):
            section = self.q.db.sections[e.section_id]
            course = self.q.db.courses[section.course_id].title
            if section.term == CURRENT_TERM:
                teacher = self.q.db.staff[section.teacher_id]
                schedule.append(
                    {
                        "period": section.period,
                        "course": course,
                        "section_id": section.id,
                        "teacher": self.q.full_name(teacher),
                        "teacher_id": teacher.id,
                        "room": section.room,
                    }
                )
            elif section.term == OPEN_TERM:
                entry: dict[str, Any] = {
                    "section_id": section.id,
                    "course": course,
                    "period": section.period,
                    "status": e.status,
                }
                if e.status == "waitlisted":
                    waitlist = self.q.section_roster(section.id)[1]
                    entry["waitlist_position"] = [w.id for w in waitlist].index(e.id) + 1
                summer.append(entry)
        schedule.sort(key=lambda row: row["period"])
        absences = sorted(
            (a for a in self.q.db.absences.values() if a.student_id == s.id), key=lambda a: a.date
        )
        meetings = sorted(
            (a for a in self.q.db.appointments.values() if a.student_id == s.id),
            key=lambda a: a.start,
        )
        return {
            "student_id": s.id,
            "full_name": self.q.full_name(s),
            "grade_level": s.grade_level,
            "date_of_birth": s.date_of_birth,
            "is_18_or_older": is_adult(s.date_of_birth),
            "records_release": s.records_release,
            "counselor": {"staff_id": counselor.id, "name": self.q.full_name(counselor)},
            "guardians": [
                {
                    "name": self.q.full_name(self.q.db.guardians[g.guardian_id]),
                    "relationship": g.relationship,
                    "verified": g.verified,
                }
                for g in s.guardians
            ],
            "spring_schedule": schedule,
            "summer_registrations": summer,
            "absences_this_term": [
                {"date": a.date, "excused": a.excused, "reason": a.reason} for a in absences
            ],
            "meetings": [
                {
                    "appointment_id": a.id,
                    "with": self.q.full_name(self.q.db.staff[a.staff_id]),
                    "start": a.start,
                    "topic": a.topic,
                    "status": a.status,
                }
                for a in meetings
            ],
        }

    @tool("read")
    def get_grades(self, caller_id: str, student_id: str, term: str) -> dict[str, Any]:
        """A student's grades for one term: final grades for fall 2024, progress grades for the
        current spring term, with the credit-weighted GPA on the 4.0 scale.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            term: '2024-FALL' or '2025-SPRING'.
        """
        s = self.q.authorize(caller_id, student_id, "view")
        if term not in TERMS:
            raise ToolError(f"unknown term {term!r}; terms are {', '.join(TERMS)}")
        if term not in (COMPLETED_TERM, CURRENT_TERM):
            raise ToolError(f"{term} has not started, so there are no grades yet")
        rows = []
        for e in self.q.student_enrollments(s.id, term):
            course = self.q.db.courses[self.q.db.sections[e.section_id].course_id]
            rows.append({"course": course.title, "credits": str(course.credits), "grade": e.grade})
        rows.sort(key=lambda r: str(r["course"]))
        graded = [(str(r["grade"]), Decimal(str(r["credits"]))) for r in rows if r["grade"]]
        return {
            "term": term,
            "kind": "final" if term == COMPLETED_TERM else "progress report",
            "grades": rows,
            "gpa": gpa(graded),
        }

    @tool("read")
    def get_fees(self, caller_id: str, student_id: str) -> dict[str, Any]:
        """A student's fees with amounts paid and balances, and their payment plan if any.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
        """
        s = self.q.authorize(caller_id, student_id, "view")
        fees = []
        open_total = Decimal("0.00")
        for f in self.q.student_fees(s.id):
            balance = f.amount - f.paid if f.status in ("open", "in_plan") else Decimal("0.00")
            if f.status == "open":
                open_total += balance
            past_due = f.status == "open" and balance > 0 and f.due_date < TODAY.isoformat()
            fees.append(
                {
                    "fee_id": f.id,
                    "description": f.description,
                    "amount": fmt(f.amount),
                    "paid": fmt(f.paid),
                    "balance": fmt(balance),
                    "due_date": f.due_date,
                    "status": f.status,
                    "past_due": past_due,
                }
            )
        plan = self.q.active_plan(s.id)
        return {
            "student_id": s.id,
            "fees": fees,
            "open_balance_outside_plans": fmt(open_total),
            "payment_plan": None
            if plan is None
            else {
                "plan_id": plan.id,
                "fee_ids": list(plan.fee_ids),
                "total": fmt(plan.total),
                "installments": [
                    {"due_date": i.due_date, "amount": fmt(i.amount)} for i in plan.installments
                ],
            },
        }

    @tool("read")
    def search_sections(self, term: str, course_title: str = "") -> list[dict[str, Any]]:
        """Public course catalogue: sections of a term with period, teacher, seats left,
        waitlist length, tuition and prerequisites. No authentication needed.

        Args:
            term: '2024-FALL', '2025-SPRING' or '2025-SUMMER' (summer school, open now).
            course_title: Optional words of the course title to filter on, e.g. 'geometry'.
        """
        if term not in TERMS:
            raise ToolError(f"unknown term {term!r}; terms are {', '.join(TERMS)}")
        words = course_title.lower().split()
        rows = []
        for section in self.q.db.sections.values():
            course = self.q.db.courses[section.course_id]
            if section.term != term or not all(w in course.title.lower() for w in words):
                continue
            enrolled, waitlist = self.q.section_roster(section.id)
            rows.append(
                {
                    "section_id": section.id,
                    "course": course.title,
                    "credits": str(course.credits),
                    "period": section.period,
                    "teacher": self.q.full_name(self.q.db.staff[section.teacher_id]),
                    "room": section.room,
                    "seats_left": max(section.capacity - len(enrolled), 0),
                    "waitlist_length": len(waitlist),
                    "tuition": fmt(section.fee),
                    "open_to_grades": f"{course.min_grade}-12",
                    "prerequisites": [self.q.db.courses[p].title for p in course.prerequisites],
                }
            )
        if not rows:
            raise ToolError(f"no {term} section matches {course_title!r}")
        return sorted(rows, key=lambda r: (str(r["course"]), str(r["period"])))

    @tool("read")
    def get_staff_availability(self, staff_id: str) -> dict[str, Any]:
        """A staff member's open meeting slots from now on. No authentication needed.

        Args:
            staff_id: The teacher's or counselor's staff id (from get_student_record).
        """
        staff = self.q.staff_member(staff_id)
        taken = self.q.booked_starts(staff.id)
        return {
            "staff_id": staff.id,
            "name": self.q.full_name(staff),
            "role": staff.role,
            "department": staff.department,
            "open_slots": [
                s for s in staff.office_hours if s not in taken and datetime.fromisoformat(s) > NOW
            ],
        }
