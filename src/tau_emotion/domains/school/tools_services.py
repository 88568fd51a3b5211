"""Attendance, meetings, records release and the hand-off to a person."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.summary_desk import summary_desk
from tau_emotion.domains.school.db import Absence, Appointment, Topic
from tau_emotion.domains.school.queries import parse_date
from tau_emotion.domains.school.rules import (
    ID_WIDTH,
    NOW,
    TODAY,
    AbsenceReason,
    is_adult,
    is_school_day,
)
from tau_emotion.domains.school.tools_base import SchoolToolBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

HAND_OFF = summary_desk("Transfer {id} created; a staff member will take over.", ID_WIDTH)


class ServiceTools(SchoolToolBase):
    """Absences, staff meetings, the records release and transfers."""

    # -- attendance and meetings --------------------------------------------------------

    @tool("write")
    def report_absence(
        self, caller_id: str, student_id: str, date: str, reason: AbsenceReason
    ) -> dict[str, Any]:
        """Report a student's absence for a school day from today on, or excuse an absence
        already recorded as unexcused on an earlier day. The policy says how far ahead and how
        far back this desk may go.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            date: The school day, 'YYYY-MM-DD'.
            reason: One of the excusable reasons.
        """
        student = self.q.authorize(caller_id, student_id, "act")
        day = parse_date(date)
        if not is_school_day(day):
            raise ToolError(f"{day} is not a school day")
        recorded = next(
            (
                a
                for a in self.q.db.absences.values()
                if a.student_id == student.id and a.date == day.isoformat()
            ),
            None,
        )
        # How far ahead and back is the policy's (school.absence_window).
        if day < TODAY:
            if recorded is None:
                raise ToolError(f"no absence is recorded on {day}; nothing to excuse")
            if recorded.excused:
                raise ToolError(f"the absence on {day} is already excused")
            update = {"excused": True, "reason": reason, "reported_by": caller_id}
            self.q.db.absences[recorded.id] = recorded.model_copy(update=update)
            return {"absence_id": recorded.id, "date": recorded.date, "excused": True}
        if recorded is not None:
            raise ToolError(f"an absence on {day} is already on the record")
        aid = self.q.new_id(self.q.db.absences, "AB")
        self.q.db.absences[aid] = Absence(
            id=aid,
            student_id=student.id,
            date=day.isoformat(),
            excused=True,
            reason=reason,
            reported_by=caller_id,
        )
        return {"absence_id": aid, "date": day.isoformat(), "excused": True}

    @tool("write")
    def book_appointment(
        self, caller_id: str, student_id: str, staff_id: str, start: str, topic: Topic
    ) -> dict[str, Any]:
        """Book a meeting about a student with a staff member, in one of their open slots.
        The policy says with whom and how many meetings may be booked.

        Args:
            caller_id: The authenticated caller's id.
            student_id: The student's id.
            staff_id: The counselor's or teacher's staff id.
            start: An open slot from get_staff_availability, 'YYYY-MM-DDTHH:MM'.
            topic: What the meeting is about, one of the listed categories.
        """
        student = self.q.authorize(caller_id, student_id, "act")
        staff = self.q.staff_member(staff_id)
        # Whom a meeting may be with, and one at a time with each, are the policy's
        # (school.meeting_staff, school.one_meeting_per_staff).
        if start not in staff.office_hours or datetime.fromisoformat(start) <= NOW:
            raise ToolError(f"{start} is not one of {self.q.full_name(staff)}'s upcoming slots")
        if start in self.q.booked_starts(staff.id):
            raise ToolError(f"the {start} slot is already taken")
        aid = self.q.new_id(self.q.db.appointments, "AP")
        appointment = Appointment(
            id=aid,
            staff_id=staff.id,
            student_id=student.id,
            booked_by=caller_id,
            start=start,
            topic=topic,
            status="scheduled",
        )
        self.q.db.appointments[aid] = appointment
        return {"appointment_id": aid, "with": self.q.full_name(staff), "start": start}

    @tool("write")
    def cancel_appointment(self, caller_id: str, appointment_id: str) -> dict[str, Any]:
        """Cancel a scheduled meeting. The policy says until when this desk may cancel one.

        Args:
            caller_id: The authenticated caller's id.
            appointment_id: The meeting's id (from get_student_record).
        """
        appointment = self.q.db.appointments.get(appointment_id)
        if appointment is None:
            raise ToolError(f"no appointment with id {appointment_id}")
        self.q.authorize(caller_id, appointment.student_id, "act")
        if appointment.status != "scheduled":
            raise ToolError(f"appointment {appointment_id} is already {appointment.status}")
        # The 24-hour notice is the policy's (school.meeting_cancel_notice).
        self.q.db.appointments[appointment.id] = appointment.model_copy(
            update={"status": "cancelled"}
        )
        return {"appointment_id": appointment.id, "status": "cancelled"}

    # -- consent and hand-off -----------------------------------------------------------

    @tool("write")
    def set_records_release(self, caller_id: str, allow: bool) -> dict[str, Any]:
        """An adult student (18+) grants or withdraws their verified guardians' access to their
        records (grades, attendance, fees). Only the student can do this, for themselves.

        Args:
            caller_id: The authenticated caller's id; must be the adult student.
            allow: True to let verified guardians see the records, False to stop it.
        """
        student = self.q.db.students.get(caller_id)
        if student is None or not is_adult(student.date_of_birth):
            raise ToolError("only an adult student (18 or older) can change their records release")
        if student.records_release == allow:
            raise ToolError(f"the records release is already {'on' if allow else 'off'}")
        self.q.db.students[student.id] = student.model_copy(update={"records_release": allow})
        return {"student_id": student.id, "records_release": allow}

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        SchoolToolBase,
        lambda tools: tools.q.db.transfers,
        lambda tools: tools.q.lead,
    )
