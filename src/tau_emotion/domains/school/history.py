"""The school's history up to "now": fees and payments, payment plans, summer registrations,
absences and booked meetings.

Summer registrations go through the real tools, so the snapshot obeys exactly the rules an
agent meets (eligibility, seats, waitlists, tuition billing).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Literal, get_args

from tau_emotion.domains.common import make_id, money
from tau_emotion.domains.school.catalog import SUMMER_OFFER, SUMMER_TUITION
from tau_emotion.domains.school.db import (
    Absence,
    Appointment,
    Fee,
    Installment,
    Payment,
    PaymentMethod,
    PaymentPlan,
    SchoolDB,
    Section,
    Student,
    Topic,
)
from tau_emotion.domains.school.rules import (
    CURRENT_TERM,
    ID_WIDTH,
    MAX_WAITLISTS_PER_TERM,
    NOW,
    OPEN_TERM,
    SPRING_START,
    TODAY,
    AbsenceReason,
    is_adult,
    is_school_day,
    split_installments,
)
from tau_emotion.domains.school.tools import SchoolTools
from tau_emotion.domains.state import State
from tau_emotion.errors import ToolError

TUITION = Decimal("7450.00")
POPULAR = ("Health", "Physical Education", "Intro to Programming", "Geometry", "Chemistry")


@dataclass
class Ledger:
    """Fees, payments and plans being written."""

    db: SchoolDB
    rng: random.Random
    fees: dict[str, Fee] = field(default_factory=dict)
    payments: dict[str, Payment] = field(default_factory=dict)
    plans: dict[str, PaymentPlan] = field(default_factory=dict)

    def new_id(self, prefix: str, table: dict[str, Any]) -> str:
        """Rows are numbered 1, 2, ... in the order they are written."""
        return make_id(prefix + self.db.settings["school"].id_lead, len(table) + 1, ID_WIDTH)

    def payer(self, student: Student) -> PaymentMethod | None:
        """Who pays this student's bills: the adult student now and then, else a guardian."""
        owners = [g.guardian_id for g in student.guardians if g.verified]
        if is_adult(student.date_of_birth) and self.rng.random() < 0.5:
            owners.insert(0, student.id)
        for owner in owners:
            methods = [m for m in self.db.payment_methods.values() if m.owner_id == owner]
            if methods:
                return methods[0]
        return None

    def bill(
        self, student: Student, description: str, amount: str, due: str, paid: Decimal | str
    ) -> Fee:
        """A fee with `paid` already paid (in one payment shortly before the due date)."""
        total, paid = Decimal(amount), money(paid)
        method = self.payer(student) if paid > 0 else None
        if method is None:
            paid = Decimal("0.00")
        fee = self.add_fee(
            student, description, total, paid, due, "paid" if paid == total else "open"
        )
        if method is not None:
            day = min(date.fromisoformat(due), TODAY - timedelta(days=1))
            self.pay(fee, method, paid, day - timedelta(days=self.rng.randint(0, 14)))
        return fee

    def add_fee(
        self,
        student: Student,
        description: str,
        amount: Decimal,
        paid: Decimal,
        due: str,
        status: Literal["open", "paid", "in_plan"],
    ) -> Fee:
        """A fee numbered in write order; the ledger's fees are school-wide, never a section's
        tuition (summer tuition is billed by the registration tool)."""
        fid = self.new_id("F", self.fees)
        fee = Fee(
            id=fid,
            student_id=student.id,
            description=description,
            amount=amount,
            paid=paid,
            due_date=due,
            status=status,
            section_id=None,
        )
        self.fees[fid] = fee
        return fee

    def pay(self, fee: Fee, method: PaymentMethod, amount: Decimal, day: date) -> None:
        pid = self.new_id("PAY", self.payments)
        self.payments[pid] = Payment(
            id=pid,
            fee_id=fee.id,
            payer_id=method.owner_id,
            method_id=method.id,
            amount=amount,
            date=day.isoformat(),
        )

    def tuition_plan(self, student: Student, method: PaymentMethod) -> None:
        """A four-installment tuition plan set up in December, three installments charged."""
        amounts = split_installments(TUITION, 4)
        dates = ["2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01"]
        charged = sum(amounts[:3], Decimal("0.00"))
        fee = self.add_fee(
            student, "Spring 2025 tuition", TUITION, charged, "2025-01-15", "in_plan"
        )
        for day, amount in zip(dates[:3], amounts[:3], strict=True):
            self.pay(fee, method, amount, date.fromisoformat(day))
        pid = self.new_id("PP", self.plans)
        self.plans[pid] = PaymentPlan(
            id=pid,
            student_id=student.id,
            set_up_by=method.owner_id,
            method_id=method.id,
            fee_ids=(fee.id,),
            total=TUITION,
            installments=tuple(
                Installment(due_date=d, amount=a) for d, a in zip(dates, amounts, strict=True)
            ),
            status="active",
        )


def add_fees(ledger: Ledger) -> None:
    rng, db = ledger.rng, ledger.db
    spring_titles: dict[str, list[str]] = {}
    for e in db.enrollments.values():
        section = db.sections[e.section_id]
        if section.term == CURRENT_TERM:
            spring_titles.setdefault(e.student_id, []).append(db.courses[section.course_id].title)
    for student in db.students.values():
        roll = rng.random()
        method = ledger.payer(student)
        if roll < 0.08 and method is not None:
            ledger.tuition_plan(student, method)
        else:
            balance = rng.choice(["950", "1200", "1450", "1800", "2250", "2600", "3100"])
            paid = TUITION - Decimal(balance) if roll < 0.18 else TUITION
            ledger.bill(student, "Spring 2025 tuition", "7450.00", "2025-01-15", paid)
        ledger.bill(
            student, "Technology fee 2024-25", "225.00", "2025-02-01", _paid(rng, "225.00", 0.88)
        )
        titles = spring_titles.get(student.id, [])
        if any(
            t in ("Chemistry", "Physics", "AP Biology", "Anatomy and Physiology") for t in titles
        ):
            ledger.bill(
                student, "Spring science lab fee", "75.00", "2025-02-20", _paid(rng, "75.00", 0.7)
            )
        if "Concert Band" in titles:
            ledger.bill(
                student, "Instrument rental", "140.00", "2025-03-01", _paid(rng, "140.00", 0.6)
            )
        if student.grade_level == 11:
            roll = rng.random()
            deposit = "1180.00" if roll < 0.35 else "300.00" if roll < 0.6 else "0"
            ledger.bill(
                student, "Grade 11 trip: Washington, D.C.", "1180.00", "2025-03-31", deposit
            )
        if rng.random() < 0.35:
            ledger.bill(
                student, "Spring athletics fee", "180.00", "2025-03-15", _paid(rng, "180.00", 0.55)
            )
        if rng.random() < 0.3:
            ledger.bill(student, "Yearbook 2025", "70.00", "2025-04-15", _paid(rng, "70.00", 0.5))


def _paid(rng: random.Random, amount: str, chance: float) -> str:
    return amount if rng.random() < chance else "0"


def add_summer(db: SchoolDB, rng: random.Random) -> SchoolDB:
    """Summer sections, then registrations made through the tools by each student's
    verified guardian (or the adult student)."""
    lead = db.settings["school"].id_lead
    sections = dict(db.sections)
    by_title = {c.title: c for c in db.courses.values()}
    teachers = [s for s in db.staff.values() if s.role == "teacher"]
    for n, (title, period) in enumerate(SUMMER_OFFER, start=len(sections) + 1):
        course = by_title[title]
        sid = make_id("SEC" + lead, n, ID_WIDTH)
        dept = [t.id for t in teachers if t.department == course.department]
        sections[sid] = Section(
            id=sid,
            course_id=course.id,
            term=OPEN_TERM,
            teacher_id=rng.choice(dept),
            period=period,
            room=f"{course.department[0]}{201 + n % 30}",
            capacity=rng.randint(6, 9) if title in POPULAR else rng.randint(10, 16),
            fee=Decimal(SUMMER_TUITION[str(course.credits)]),
        )
    db = db.model_copy(update={"sections": sections})
    state = State(db, "")
    tools = SchoolTools(state)
    summer = [s for s in sections.values() if s.term == OPEN_TERM]
    weights = [2 if db.courses[s.course_id].title in POPULAR else 1 for s in summer]
    for student in db.students.values():
        caller = _decider(student)
        if caller is None or rng.random() > 0.38:
            continue
        wanted = 2 if rng.random() < 0.2 else 1
        for section in rng.choices(summer, weights=weights, k=5):
            args = {"caller_id": caller, "student_id": student.id, "section_id": section.id}
            # The tools leave eligibility and the waitlist limit to the policy; the school's
            # own history keeps them.
            if tools.q.ineligibility(student, section) is not None:
                continue
            try:
                tools.invoke("enroll_in_section", args)
            except ToolError as exc:
                if "full" not in str(exc) or rng.random() < 0.6:
                    continue
                if _waitlists(tools, student) >= MAX_WAITLISTS_PER_TERM:
                    continue
                try:
                    tools.invoke("join_waitlist", args)
                except ToolError:
                    continue
            wanted -= 1
            if wanted == 0:
                break
    return state.applied(SchoolDB)


def _waitlists(tools: SchoolTools, student: Student) -> int:
    return sum(e.status == "waitlisted" for e in tools.q.student_enrollments(student.id, OPEN_TERM))


def _decider(student: Student) -> str | None:
    if is_adult(student.date_of_birth):
        return student.id
    return next((g.guardian_id for g in student.guardians if g.verified), None)


def pay_some_summer_tuition(ledger: Ledger, fees: Mapping[str, Fee]) -> dict[str, Fee]:
    out = dict(fees)
    for fid, fee in fees.items():
        if fee.section_id is None or ledger.rng.random() > 0.4:
            continue
        method = ledger.payer(ledger.db.students[fee.student_id])
        if method is None:
            continue
        day = TODAY - timedelta(days=ledger.rng.randint(1, 20))
        ledger.pay(fee, method, fee.amount, day)
        out[fid] = fee.model_copy(update={"paid": fee.amount, "status": "paid"})
    return out


def add_absences(db: SchoolDB, rng: random.Random) -> dict[str, Absence]:
    lead = db.settings["school"].id_lead
    days = [SPRING_START + timedelta(days=i) for i in range((TODAY - SPRING_START).days + 22)]
    past = [d for d in days if d < TODAY and is_school_day(d)]
    recent = [d for d in past if (TODAY - d).days <= 7]
    ahead = [d for d in days if d >= TODAY and is_school_day(d) and (d - TODAY).days <= 14]
    reasons: tuple[AbsenceReason, ...] = get_args(AbsenceReason)
    absences: dict[str, Absence] = {}
    for student in db.students.values():
        decider = _decider(student) or student.guardians[0].guardian_id
        count = rng.choices(range(8), weights=[30, 25, 18, 11, 7, 4, 3, 2])[0]
        picked = rng.sample(past, count)
        if rng.random() < 0.12:
            picked.append(rng.choice(recent))
        future = [rng.choice(ahead)] if rng.random() < 0.04 else []
        taken: list[date] = []
        for day in sorted(picked) + future:
            if day in taken:
                continue
            taken.append(day)
            # Recent absences are often still waiting for a guardian's note.
            excused = day >= TODAY or rng.random() < (0.4 if day in recent else 0.7)
            aid = make_id("AB" + lead, len(absences) + 1, ID_WIDTH)
            absences[aid] = Absence(
                id=aid,
                student_id=student.id,
                date=day.isoformat(),
                excused=excused,
                reason=rng.choice(reasons) if excused else None,
                reported_by=decider if excused else None,
            )
    return absences


def add_appointments(db: SchoolDB, rng: random.Random) -> dict[str, Appointment]:
    lead = db.settings["school"].id_lead
    topics: tuple[Topic, ...] = get_args(Topic)
    teachers_of: dict[str, list[str]] = {}
    for e in db.enrollments.values():
        section = db.sections[e.section_id]
        if section.term == CURRENT_TERM:
            teachers_of.setdefault(e.student_id, []).append(section.teacher_id)
    booked: list[tuple[str, str]] = []
    appointments: dict[str, Appointment] = {}
    students = [s for s in db.students.values() if _decider(s) is not None]
    for student in rng.sample(students, 75):
        staff_id = rng.choice([student.counselor_id, *teachers_of.get(student.id, [])])
        open_slots = [
            s
            for s in db.staff[staff_id].office_hours
            if (staff_id, s) not in booked and s > NOW.isoformat()[:16]
        ]
        start = rng.choice(open_slots)
        cancelled = rng.random() < 0.1
        if not cancelled:
            booked.append((staff_id, start))
        aid = make_id("AP" + lead, len(appointments) + 1, ID_WIDTH)
        appointments[aid] = Appointment(
            id=aid,
            staff_id=staff_id,
            student_id=student.id,
            booked_by=_decider(student) or student.id,
            start=start,
            topic=rng.choice(topics),
            status="cancelled" if cancelled else "scheduled",
        )
    return appointments


def add_history(db: SchoolDB, rng: random.Random) -> SchoolDB:
    ledger = Ledger(db, rng)
    add_fees(ledger)
    db = db.model_copy(
        update={"fees": ledger.fees, "payments": ledger.payments, "payment_plans": ledger.plans}
    )
    db = add_summer(db, rng)
    ledger.db = db
    fees = pay_some_summer_tuition(ledger, db.fees)
    db = db.model_copy(
        update={
            "fees": fees,
            "payments": ledger.payments,
            "absences": add_absences(db, rng),
            "appointments": add_appointments(db, rng),
        }
    )
    return add_second_waitlists(db)


SECOND_WAITLIST_SHARE = 0.6
"""Of the students on one summer waitlist, the share that join a second one."""


def add_second_waitlists(db: SchoolDB) -> SchoolDB:
    """Some students on one summer waitlist join a second full section's, as families
    hedging for a popular course do: they stand at the policy's limit, so a request for a
    third (school.waitlist_limit) is one a real caller can make.

    It runs last, on its own seeded stream: every other record of the snapshot is the one
    the history made before, and the new places take the next enrollment ids."""
    rng = random.Random(f"school/second-waitlists/{db.settings['school'].id_lead}")
    state = State(db, "")
    tools = SchoolTools(state)
    summer = [s for s in db.sections.values() if s.term == OPEN_TERM]
    for student in db.students.values():
        caller = _decider(student)
        if caller is None or _waitlists(tools, student) != 1:
            continue
        if rng.random() > SECOND_WAITLIST_SHARE:
            continue
        held = {e.section_id for e in tools.q.student_enrollments(student.id, OPEN_TERM)}
        for section in rng.sample(summer, len(summer)):
            if section.id in held or tools.q.ineligibility(student, section) is not None:
                continue
            args = {"caller_id": caller, "student_id": student.id, "section_id": section.id}
            try:
                tools.invoke("join_waitlist", args)
            except ToolError:
                continue  # free seats, a clash with the schedule: not a waitlist to join
            break
    return state.applied(SchoolDB)
