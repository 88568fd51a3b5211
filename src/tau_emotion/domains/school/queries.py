"""Lookups and authorization over one episode's state, shared by every tool.

Authorization lives here, in one function, because the disclosure rules (who may see and who
may change a student's record) are the heart of the policy and every tool must apply them the
same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, Literal

from tau_emotion.domains.common import next_id, require
from tau_emotion.domains.school.db import (
    Enrollment,
    Fee,
    Guardian,
    PaymentMethod,
    PaymentPlan,
    SchoolDB,
    Section,
    Staff,
    Student,
)
from tau_emotion.domains.school.rules import (
    COMPLETED_TERM,
    ID_WIDTH,
    PREREQ_PASSING,
    TODAY,
    is_adult,
)
from tau_emotion.domains.state import State
from tau_emotion.errors import ToolError

Access = Literal["view", "act"]
"""'view': see the record and handle its fees. 'act': change registrations, absences, meetings."""


class Queries:
    """Typed tables plus the lookups the tools share."""

    def __init__(self, state: State) -> None:
        self.db = state.view(SchoolDB)
        self.lead: str = self.db.settings["school"].id_lead

    def new_id(self, table: Mapping[str, Any], prefix: str) -> str:
        return next_id(table, prefix + self.lead, ID_WIDTH)

    # -- people -------------------------------------------------------------------------

    def person(self, caller_id: str) -> Student | Guardian:
        person: Student | Guardian | None = self.db.guardians.get(
            caller_id
        ) or self.db.students.get(caller_id)
        if person is None:
            raise ToolError(f"no guardian or student with id {caller_id}")
        return person

    def caller(self, caller_id: str) -> Student | Guardian:
        """The caller, refused if it is a student under 18 (minors are served via guardians)."""
        person = self.person(caller_id)
        if isinstance(person, Student) and not is_adult(person.date_of_birth):
            raise ToolError(
                "this student is under 18: the school serves minors only through a verified "
                "guardian, so ask for a parent or guardian to call"
            )
        return person

    def authorize(self, caller_id: str, student_id: str, access: Access) -> Student:
        """The student, if the caller may view (or act on) their record; else a refusal."""
        caller = self.caller(caller_id)
        student = self.db.students.get(student_id)
        if student is None:
            raise ToolError(f"no student with id {student_id}")
        if caller.id == student.id:
            return student
        if isinstance(caller, Student):
            raise ToolError("a student can only access their own record")
        link = next((g for g in student.guardians if g.guardian_id == caller.id), None)
        if link is None:
            raise ToolError(f"{caller.id} is not a listed guardian of student {student_id}")
        if not link.verified:
            raise ToolError(
                "this guardian link is not verified yet: the guardian must bring photo ID and "
                "custody or guardianship papers to the registrar's office; nothing on the "
                "student's record can be shared or changed until then"
            )
        if not is_adult(student.date_of_birth):
            return student
        if access == "act":
            raise ToolError(
                "the student is 18 or older: only the student can change registrations, report "
                "absences or book meetings on their record"
            )
        if not student.records_release:
            raise ToolError(
                "the student is 18 or older and has not signed a records release, so their "
                "records cannot be shared with a guardian"
            )
        return student

    def payment_method(self, caller_id: str, method_id: str) -> PaymentMethod:
        method = self.db.payment_methods.get(method_id)
        if method is None or method.owner_id != caller_id:
            raise ToolError(f"payment method {method_id} does not belong to the caller")
        if method.expires is not None and method.expires < TODAY.isoformat()[:7]:
            raise ToolError(f"{method.label} expired in {method.expires}; use another method")
        return method

    @staticmethod
    def full_name(person: Student | Guardian | Staff) -> str:
        return f"{person.first_name} {person.last_name}"

    # -- courses and registrations ------------------------------------------------------

    def section(self, section_id: str) -> Section:
        return require(self.db.sections, section_id, f"no section with id {section_id}")

    def student_enrollments(self, student_id: str, term: str | None = None) -> list[Enrollment]:
        return [
            e
            for e in self.db.enrollments.values()
            if e.student_id == student_id
            and e.status != "dropped"
            and (term is None or self.db.sections[e.section_id].term == term)
        ]

    def section_roster(self, section_id: str) -> tuple[list[Enrollment], list[Enrollment]]:
        """(enrolled, waitlisted in order of joining) for one section."""
        rows = sorted(
            (e for e in self.db.enrollments.values() if e.section_id == section_id),
            key=lambda e: e.id,
        )
        return (
            [e for e in rows if e.status == "enrolled"],
            [e for e in rows if e.status == "waitlisted"],
        )

    def passed(self, student: Student, course_id: str) -> bool:
        """Passed with C or better: in an earlier year, or in the finished fall term."""
        if course_id in student.prior_credits:
            return True
        return any(
            self.db.sections[e.section_id].course_id == course_id and e.grade in PREREQ_PASSING
            for e in self.student_enrollments(student.id, COMPLETED_TERM)
        )

    def ineligibility(self, student: Student, section: Section) -> str | None:
        """Why the policy does not let the student take the section's course (grade level,
        the course already passed, prerequisites), or None. The judged check
        school.enrollment_eligibility asks it; the tools do not."""
        course = self.db.courses[section.course_id]
        if student.grade_level < course.min_grade:
            return f"{course.title} is open to grade {course.min_grade} and up"
        if self.passed(student, course.id):
            return f"the student has already passed {course.title} with C or better"
        missing = [
            self.db.courses[p].title for p in course.prerequisites if not self.passed(student, p)
        ]
        if missing:
            return f"{course.title} needs {', '.join(missing)} passed with C or better first"
        return None

    def check_registration(self, student: Student, section: Section) -> None:
        """The schedule's integrity: one row per course, one enrolled section per period."""
        course = self.db.courses[section.course_id]
        for e in self.student_enrollments(student.id, section.term):
            other = self.db.sections[e.section_id]
            if other.course_id == course.id:
                raise ToolError(f"the student is already {e.status} in {course.title} ({other.id})")
            if e.status == "enrolled" and other.period == section.period:
                clash = self.db.courses[other.course_id].title
                raise ToolError(
                    f"period {section.period} clashes with {clash} "
                    f"({other.id}), which the student is enrolled in"
                )

    def staff_member(self, staff_id: str) -> Staff:
        return require(self.db.staff, staff_id, f"no staff member with id {staff_id}")

    def booked_starts(self, staff_id: str) -> set[str]:
        return {
            a.start
            for a in self.db.appointments.values()
            if a.staff_id == staff_id and a.status == "scheduled"
        }

    # -- money --------------------------------------------------------------------------

    def student_fees(self, student_id: str) -> list[Fee]:
        return sorted(
            (f for f in self.db.fees.values() if f.student_id == student_id), key=lambda f: f.id
        )

    def active_plan(self, student_id: str) -> PaymentPlan | None:
        return next(
            (
                p
                for p in self.db.payment_plans.values()
                if p.student_id == student_id and p.status == "active"
            ),
            None,
        )


def parse_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"dates are written YYYY-MM-DD, not {text!r}") from None
