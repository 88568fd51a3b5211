"""Summer-school registration tools: enroll, waitlist, drop (with refunds and promotion)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.school.db import (
    Enrollment,
    Fee,
    Refund,
    Section,
    Student,
)
from tau_emotion.domains.school.rules import (
    OPEN_TERM,
    SUMMER_FEE_DUE,
    TODAY,
)
from tau_emotion.domains.school.tools_base import SchoolToolBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class RegistrationTools(SchoolToolBase):
    """Changes to summer-school registrations. The tools keep a schedule possible (the open
    term, one row per course, no period clash, seats); who is eligible and how many waitlists
    a student may join are the policy's, judged in `checks.py`."""

    # -- registration -------------------------------------------------------------------

    def _open_section(self, section_id: str) -> Section:
        section = self.q.section(section_id)
        if section.term != OPEN_TERM:
            raise ToolError(
                f"{section.term} registrations cannot be changed by phone; only {OPEN_TERM} "
                "(summer school) is open. Changes to the current term go through the counselor"
            )
        return section

    def _enroll(self, student: Student, section: Section, enrollment_id: str | None) -> Fee:
        """Enroll (or promote a waitlisted row) and bill the section's tuition."""
        eid = enrollment_id or self.q.new_id(self.q.db.enrollments, "E")
        self.q.db.enrollments[eid] = Enrollment(
            id=eid, student_id=student.id, section_id=section.id, status="enrolled", grade=None
        )
        fee_id = self.q.new_id(self.q.db.fees, "F")
        title = self.q.db.courses[section.course_id].title
        fee = Fee(
            id=fee_id,
            student_id=student.id,
            description=f"Summer 2025 tuition: {title} ({section.id})",
            amount=section.fee,
            paid=Decimal("0.00"),
            due_date=SUMMER_FEE_DUE,
            status="open",
            section_id=section.id,
        )
        self.q.db.fees[fee_id] = fee
        return fee

    @tool("write")
    def enroll_in_section(self, caller_id: str, student_id: str, section_id: str) -> dict[str, Any]:
        """Enroll a student in a summer-school section that has a free seat, and bill its
        tuition (due 2025-05-30). The policy says which students are eligible.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            section_id: The section id from search_sections.
        """
        student = self.q.authorize(caller_id, student_id, "act")
        section = self._open_section(section_id)
        self.q.check_registration(student, section)
        enrolled, waitlist = self.q.section_roster(section.id)
        if len(enrolled) >= section.capacity:
            raise ToolError(
                f"section {section.id} is full ({len(waitlist)} on the waitlist); the student "
                "can join the waitlist instead"
            )
        fee = self._enroll(student, section, None)
        return {
            "section_id": section.id,
            "course": self.q.db.courses[section.course_id].title,
            "period": section.period,
            "status": "enrolled",
            "fee_id": fee.id,
            "tuition": fmt(fee.amount),
            "due_date": fee.due_date,
        }

    @tool("write")
    def join_waitlist(self, caller_id: str, student_id: str, section_id: str) -> dict[str, Any]:
        """Put a student on the waitlist of a full summer-school section. Tuition is billed
        only if a seat opens and the student is moved in. The policy says which students are
        eligible and how many waitlists one may join.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            section_id: The full section's id.
        """
        student = self.q.authorize(caller_id, student_id, "act")
        section = self._open_section(section_id)
        self.q.check_registration(student, section)
        enrolled, waitlist = self.q.section_roster(section.id)
        if len(enrolled) < section.capacity:
            raise ToolError(f"section {section.id} has free seats; enroll the student instead")
        # The 2-waitlist limit is the policy's (school.waitlist_limit).
        eid = self.q.new_id(self.q.db.enrollments, "E")
        self.q.db.enrollments[eid] = Enrollment(
            id=eid,
            student_id=student.id,
            section_id=section.id,
            status="waitlisted",
            grade=None,
        )
        return {"section_id": section.id, "status": "waitlisted", "position": len(waitlist) + 1}

    @tool("write")
    def drop_section(self, caller_id: str, student_id: str, section_id: str) -> dict[str, Any]:
        """Drop a student's summer-school section or waitlist place. Unpaid tuition is
        cancelled; paid tuition is refunded in full to the method it was paid with. The freed
        seat goes to the first waitlisted student whose schedule allows it.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            section_id: The section to drop.
        """
        student = self.q.authorize(caller_id, student_id, "act")
        section = self._open_section(section_id)
        row = next(
            (e for e in self.q.student_enrollments(student.id) if e.section_id == section.id), None
        )
        if row is None:
            raise ToolError(f"the student is not enrolled or waitlisted in {section.id}")
        result: dict[str, Any] = {"section_id": section.id, "dropped": row.status}
        if row.status == "enrolled":
            result["refunds"] = self._cancel_tuition(student.id, section.id)
        self.q.db.enrollments[row.id] = row.model_copy(update={"status": "dropped"})
        if row.status == "enrolled":
            self._promote(section)
        return result

    def _cancel_tuition(self, student_id: str, section_id: str) -> list[dict[str, str]]:
        fee = next(
            f
            for f in self.q.student_fees(student_id)
            if f.section_id == section_id and f.status in ("open", "paid", "in_plan")
        )
        if fee.status == "in_plan":
            raise ToolError(
                "this tuition is part of a payment plan; the business office must rework the plan "
                "before the course can be dropped (transfer to a human agent)"
            )
        refunds = []
        for p in sorted(self.q.db.payments.values(), key=lambda p: p.id):
            if p.fee_id != fee.id:
                continue
            rid = self.q.new_id(self.q.db.refunds, "RF")
            self.q.db.refunds[rid] = Refund(
                id=rid,
                payment_id=p.id,
                fee_id=fee.id,
                method_id=p.method_id,
                amount=p.amount,
                date=TODAY.isoformat(),
            )
            refunds.append(
                {"amount": fmt(p.amount), "to": self.q.db.payment_methods[p.method_id].label}
            )
        status = "refunded" if refunds else "cancelled"
        self.q.db.fees[fee.id] = fee.model_copy(update={"status": status})
        return refunds

    def _promote(self, section: Section) -> None:
        """Give the seat to the first waitlisted student without a period clash."""
        for row in self.q.section_roster(section.id)[1]:
            student = self.q.db.students[row.student_id]
            clash = any(
                self.q.db.sections[e.section_id].period == section.period
                for e in self.q.student_enrollments(student.id, section.term)
                if e.status == "enrolled"
            )
            if not clash:
                self._enroll(student, section, row.id)
                return
