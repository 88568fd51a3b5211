"""School domain: every tool's success and refusal paths, the policy checks and the
generated databases."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.school.db import SchoolDB, Student
from tau_emotion.domains.school.rules import (
    CURRENT_TERM,
    MAX_WAITLISTS_PER_TERM,
    OPEN_TERM,
    is_adult,
    split_installments,
)
from tau_emotion.domains.school.tools import SchoolTools
from tau_emotion.errors import ToolError

DESK = Desk("school", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
DB = DESK.db
assert isinstance(DB, SchoolDB)
TOOLS = ENV.tools
assert isinstance(TOOLS, SchoolTools)
Q = TOOLS.q
call, refuses, breaks, allows = DESK.call, DESK.refuses, DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


# -- finding the right people in the eval database -----------------------------------------


def minors_with_guardian(verified: bool = True) -> list[tuple[str, Student]]:
    return [
        (link.guardian_id, s)
        for s in DB.students.values()
        if not is_adult(s.date_of_birth)
        for link in s.guardians
        if link.verified == verified
    ]


def adults(release: bool | None = None) -> list[Student]:
    return [
        s
        for s in DB.students.values()
        if is_adult(s.date_of_birth) and (release is None or s.records_release == release)
    ]


def verified_guardian_of(student: Student) -> str:
    return next(link.guardian_id for link in student.guardians if link.verified)


def decider(student: Student) -> str:
    """Who may act on the student's record (a test fails if nobody may)."""
    found = may_act(student)
    assert found is not None, student.id
    return found


def may_act(student: Student) -> str | None:
    if is_adult(student.date_of_birth):
        return student.id
    return next((link.guardian_id for link in student.guardians if link.verified), None)


def summer_sections(title: str | None = None) -> list[Any]:
    return [
        s
        for s in DB.sections.values()
        if s.term == OPEN_TERM and (title is None or DB.courses[s.course_id].title == title)
    ]


def eligible_for(section_id: str) -> Iterator[tuple[str, Student]]:
    """Deciders and students who pass every registration rule but seats for a section."""
    section = DB.sections[section_id]
    for s in DB.students.values():
        if may_act(s) is not None and _eligible(s, section):
            yield decider(s), s


def usable_method(caller: str) -> str:
    return next(
        m.id
        for m in DB.payment_methods.values()
        if m.owner_id == caller and (m.expires is None or m.expires >= "2025-03")
    )


def full_section() -> Any:
    for section in summer_sections():
        enrolled, _ = Q.section_roster(section.id)
        if len(enrolled) >= section.capacity:
            return section
    raise AssertionError("no full summer section")


def open_section_and_student() -> tuple[Any, str, Student]:
    for section in summer_sections():
        enrolled, _ = Q.section_roster(section.id)
        if len(enrolled) < section.capacity:
            for caller, student in eligible_for(section.id):
                return section, caller, student
    raise AssertionError("no open section with an eligible student")


# -- authentication ------------------------------------------------------------------------


def test_lookups_find_guardians_and_students() -> None:
    guardian = next(iter(DB.guardians.values()))
    student = adults()[0]
    assert call("find_caller_by_email", email=guardian.email.upper())["caller_id"] == guardian.id
    found = call("find_caller_by_phone", phone=guardian.phone.replace(" ", ""))
    assert found == {
        "caller_id": guardian.id,
        "role": "guardian",
        "full_name": f"{guardian.first_name} {guardian.last_name}",
    }
    by_name = call(
        "find_caller_by_name_and_zip",
        full_name=f"{student.first_name}  {student.last_name}",
        zip_code=student.zip_code,
    )
    assert by_name["role"] == "student" and by_name["caller_id"] == student.id


def test_lookups_refuse_unknown_short_and_ambiguous() -> None:
    refuses("no guardian or student", "find_caller_by_email", email="nobody@nowhere.example")
    refuses("10-digit", "find_caller_by_phone", phone="555-0101")
    refuses("no guardian or student", "find_caller_by_phone", phone="(999) 000-0000")
    refuses("no guardian", "find_caller_by_name_and_zip", full_name="No Body", zip_code="00000")
    people = [*DB.guardians.values(), *DB.students.values()]
    counts = Counter((p.first_name, p.last_name, p.zip_code) for p in people)
    first, last, zip_code = next(k for k, n in counts.items() if n > 1)
    refuses(
        "more than one",
        "find_caller_by_name_and_zip",
        full_name=f"{first} {last}",
        zip_code=zip_code,
    )


def test_caller_details_for_guardian_and_adult_student() -> None:
    gid, student = minors_with_guardian()[0]
    details = call("get_caller_details", caller_id=gid)
    assert details["role"] == "guardian"
    assert student.id in [s["student_id"] for s in details["students"]]
    adult = adults()[0]
    mine = call("get_caller_details", caller_id=adult.id)
    assert mine["role"] == "student" and mine["records_release"] == adult.records_release


def test_caller_details_refuses_unknown_and_minor_students() -> None:
    refuses("no guardian or student", "get_caller_details", caller_id="G999999")
    _, minor = minors_with_guardian()[0]
    refuses("under 18", "get_caller_details", caller_id=minor.id)


# -- who may see what ----------------------------------------------------------------------


def test_student_record_for_verified_guardian_and_adult_self() -> None:
    gid, student = minors_with_guardian()[0]
    record = call("get_student_record", caller_id=gid, student_id=student.id)
    assert record["student_id"] == student.id and record["spring_schedule"]
    adult = adults()[0]
    assert call("get_student_record", caller_id=adult.id, student_id=adult.id)["is_18_or_older"]


def test_waitlisted_registration_shows_position() -> None:
    row = next(e for e in DB.enrollments.values() if e.status == "waitlisted")
    student = DB.students[row.student_id]
    record = call("get_student_record", caller_id=decider(student), student_id=student.id)
    entry = next(r for r in record["summer_registrations"] if r["section_id"] == row.section_id)
    assert entry["status"] == "waitlisted" and entry["waitlist_position"] >= 1


def test_records_refused_to_unverified_unlinked_and_other_students() -> None:
    gid, student = minors_with_guardian(verified=False)[0]
    if any(g.guardian_id == gid and g.verified for g in student.guardians):
        pytest.skip("guardian verified through another link")
    refuses("not verified", "get_student_record", caller_id=gid, student_id=student.id)
    other_gid, other = minors_with_guardian()[0]
    stranger = next(
        g for g in DB.guardians if g not in {link.guardian_id for link in other.guardians}
    )
    refuses("not a listed guardian", "get_student_record", caller_id=stranger, student_id=other.id)
    adult = adults()[0]
    refuses("their own record", "get_student_record", caller_id=adult.id, student_id=other.id)
    refuses("no student", "get_student_record", caller_id=other_gid, student_id="S999999")


def test_adult_records_need_release_for_guardians() -> None:
    closed = next(s for s in adults(release=False) if any(g.verified for g in s.guardians))
    refuses(
        "has not signed a records release",
        "get_grades",
        caller_id=verified_guardian_of(closed),
        student_id=closed.id,
        term="2024-FALL",
    )
    shared = next(s for s in adults(release=True) if any(g.verified for g in s.guardians))
    grades = call(
        "get_grades",
        caller_id=verified_guardian_of(shared),
        student_id=shared.id,
        term="2024-FALL",
    )
    assert grades["kind"] == "final" and grades["gpa"] is not None


def test_grades_gpa_and_terms() -> None:
    gid, student = minors_with_guardian()[0]
    spring = call("get_grades", caller_id=gid, student_id=student.id, term=CURRENT_TERM)
    assert spring["kind"] == "progress report" and spring["grades"]
    refuses("unknown term", "get_grades", caller_id=gid, student_id=student.id, term="2023-FALL")
    refuses("no grades yet", "get_grades", caller_id=gid, student_id=student.id, term=OPEN_TERM)


def test_fees_show_balances_and_plan() -> None:
    plan = next(iter(DB.payment_plans.values()))
    student = DB.students[plan.student_id]
    fees = call("get_fees", caller_id=decider(student), student_id=student.id)
    assert fees["payment_plan"]["plan_id"] == plan.id
    assert all(set(f) >= {"fee_id", "balance", "status", "past_due"} for f in fees["fees"])


def test_catalogue_and_staff_slots_are_public() -> None:
    rows = call("search_sections", term=OPEN_TERM, course_title="geometry")
    assert rows and all(r["course"] == "Geometry" for r in rows)
    refuses("unknown term", "search_sections", term="1999-FALL")
    refuses("no 2025-SUMMER section", "search_sections", term=OPEN_TERM, course_title="Astrology")
    staff = next(iter(DB.staff.values()))
    slots = call("get_staff_availability", staff_id=staff.id)["open_slots"]
    assert slots and all(s > "2025-03-10T09:00" for s in slots)
    refuses("no staff member", "get_staff_availability", staff_id="T999999")


# -- registration --------------------------------------------------------------------------


def test_enroll_bills_tuition() -> None:
    section, caller, student = open_section_and_student()
    result = call(
        "enroll_in_section", caller_id=caller, student_id=student.id, section_id=section.id
    )
    fee = Q.db.fees[result["fee_id"]]
    assert result["status"] == "enrolled" and fee.amount == section.fee and fee.status == "open"
    assert fee.due_date == "2025-05-30"


def test_enroll_refusals() -> None:
    gid, student = minors_with_guardian()[0]
    spring = next(s for s in DB.sections.values() if s.term == CURRENT_TERM)
    refuses(
        "cannot be changed",
        "enroll_in_section",
        caller_id=gid,
        student_id=student.id,
        section_id=spring.id,
    )
    refuses(
        "no section", "enroll_in_section", caller_id=gid, student_id=student.id, section_id="SEC0"
    )
    adult = next(s for s in adults() if any(g.verified for g in s.guardians))
    any_section = summer_sections()[0]
    refuses(
        "only the student",
        "enroll_in_section",
        caller_id=verified_guardian_of(adult),
        student_id=adult.id,
        section_id=any_section.id,
    )
    precalc = next(
        s for s in summer_sections("Precalculus") if len(Q.section_roster(s.id)[0]) < s.capacity
    )
    ninth = next(
        (g, s)
        for g, s in minors_with_guardian()
        if s.grade_level == 9 and _schedule_allows(s, precalc)
    )
    reason = breaks(
        "school.enrollment_eligibility",
        "enroll_in_section",
        caller_id=ninth[0],
        student_id=ninth[1].id,
        section_id=precalc.id,
    )
    assert "open to grade 11" in reason


def test_enroll_refuses_duplicate_and_clash() -> None:
    messages: dict[str, str] = {}
    for section in summer_sections():
        for s in DB.students.values():
            if may_act(s) is None:
                continue
            try:
                Q.check_registration(s, section)
            except ToolError as exc:
                for key in ("already enrolled", "clashes"):
                    if key in str(exc) and key not in messages:
                        messages[key] = refuses(
                            key,
                            "enroll_in_section",
                            caller_id=decider(s),
                            student_id=s.id,
                            section_id=section.id,
                        )
            if len(messages) == 2:
                return
    raise AssertionError(f"only found {sorted(messages)}")


def test_passed_course_and_missing_prerequisite_are_the_agents_to_refuse() -> None:
    rule, found = "school.enrollment_eligibility", set()
    for section in summer_sections():
        if len(Q.section_roster(section.id)[0]) >= section.capacity:
            continue
        for s in DB.students.values():
            if may_act(s) is None or not _schedule_allows(s, section):
                continue
            why = Q.ineligibility(s, section) or ""
            key = next((k for k in ("already passed", "needs") if k in why), None)
            if key is None or key in found:
                continue
            args = {"caller_id": decider(s), "student_id": s.id, "section_id": section.id}
            assert key in breaks(rule, "enroll_in_section", **args)
            found.add(key)
            ENV.reset()
        if len(found) == 2:
            break
    assert found == {"already passed", "needs"}
    section, caller, student = open_section_and_student()
    allows(
        rule, "enroll_in_section", caller_id=caller, student_id=student.id, section_id=section.id
    )


def test_full_section_refuses_enrollment_and_takes_waitlist() -> None:
    section = full_section()
    caller, student = next(eligible_for(section.id))
    refuses(
        "is full",
        "enroll_in_section",
        caller_id=caller,
        student_id=student.id,
        section_id=section.id,
    )
    waitlist = Q.section_roster(section.id)[1]
    joined = call("join_waitlist", caller_id=caller, student_id=student.id, section_id=section.id)
    assert joined["position"] == len(waitlist) + 1
    assert not any(f.section_id == section.id for f in Q.student_fees(student.id))


def test_waitlist_refusals() -> None:
    section, caller, student = open_section_and_student()
    refuses(
        "free seats",
        "join_waitlist",
        caller_id=caller,
        student_id=student.id,
        section_id=section.id,
    )
    fulls = [s for s in summer_sections() if len(Q.section_roster(s.id)[0]) >= s.capacity]
    for caller, student in eligible_for(fulls[0].id):
        if any(e.status == "waitlisted" for e in Q.student_enrollments(student.id)):
            continue
        by_course = {s.course_id: s for s in fulls if _eligible(student, s)}
        targets = list(by_course.values())
        if len(targets) >= 3:
            mine = {"caller_id": caller, "student_id": student.id}
            for s in targets[:2]:
                allows("school.waitlist_limit", "join_waitlist", section_id=s.id, **mine)
                call("join_waitlist", section_id=s.id, **mine)
            breaks("school.waitlist_limit", "join_waitlist", section_id=targets[2].id, **mine)
            return
    raise AssertionError("no student eligible for three full sections")


def test_some_students_stand_at_the_waitlist_limit() -> None:
    """`add_second_waitlists`: families hedge for popular courses, so some students hold two
    summer waitlists and a third is a request the policy refuses."""
    held = Counter(e.student_id for e in DB.enrollments.values() if e.status == "waitlisted")
    at_limit = sorted(s for s, n in held.items() if n >= MAX_WAITLISTS_PER_TERM)
    assert len(at_limit) >= 5
    fulls = [s for s in summer_sections() if len(Q.section_roster(s.id)[0]) >= s.capacity]
    for sid in at_limit:
        student = DB.students[sid]
        mine = {e.section_id for e in Q.student_enrollments(sid)}
        target = next((s for s in fulls if s.id not in mine and _eligible(student, s)), None)
        if target is not None:
            args = {"caller_id": decider(student), "student_id": sid, "section_id": target.id}
            breaks("school.waitlist_limit", "join_waitlist", **args)
            return
    raise AssertionError("no student at the limit has a third full section to ask for")


def _schedule_allows(student: Student, section: Any) -> bool:
    """The tools' integrity rules: no second row in the course, no period clash."""
    try:
        Q.check_registration(student, section)
    except ToolError:
        return False
    return True


def _eligible(student: Student, section: Any) -> bool:
    return _schedule_allows(student, section) and Q.ineligibility(student, section) is None


def test_drop_paid_course_refunds_and_promotes_waitlist() -> None:
    for fee in DB.fees.values():
        if fee.section_id and fee.status == "paid" and Q.section_roster(fee.section_id)[1]:
            break
    else:
        raise AssertionError("no paid tuition in a section with a waitlist")
    student = DB.students[fee.student_id]
    first_waiting = Q.section_roster(fee.section_id)[1][0]
    result = call(
        "drop_section", caller_id=decider(student), student_id=student.id, section_id=fee.section_id
    )
    assert result["refunds"][0]["amount"] == f"{fee.paid:.2f}"
    assert Q.db.fees[fee.id].status == "refunded"
    assert len([r for r in Q.db.refunds.values() if r.fee_id == fee.id]) == 1
    promoted = Q.db.enrollments[first_waiting.id]
    assert promoted.status == "enrolled"
    assert any(f.section_id == fee.section_id for f in Q.student_fees(promoted.student_id))


def test_drop_unpaid_course_cancels_and_drop_waitlist_place() -> None:
    fee = next(f for f in DB.fees.values() if f.section_id and f.status == "open")
    student = DB.students[fee.student_id]
    result = call(
        "drop_section", caller_id=decider(student), student_id=student.id, section_id=fee.section_id
    )
    assert result["refunds"] == [] and Q.db.fees[fee.id].status == "cancelled"
    row = next(e for e in DB.enrollments.values() if e.status == "waitlisted")
    waiting = DB.students[row.student_id]
    out = call(
        "drop_section", caller_id=decider(waiting), student_id=waiting.id, section_id=row.section_id
    )
    assert out == {"section_id": row.section_id, "dropped": "waitlisted"}
    assert Q.db.enrollments[row.id].status == "dropped"


def test_drop_refusals() -> None:
    gid, student = minors_with_guardian()[0]
    section = next(
        s
        for s in summer_sections()
        if all(e.section_id != s.id for e in Q.student_enrollments(student.id))
    )
    refuses(
        "not enrolled", "drop_section", caller_id=gid, student_id=student.id, section_id=section.id
    )
    spring = Q.student_enrollments(student.id, CURRENT_TERM)[0]
    refuses(
        "cannot be changed",
        "drop_section",
        caller_id=gid,
        student_id=student.id,
        section_id=spring.section_id,
    )
    # Tuition inside a payment plan: put a summer tuition into a plan, then try to drop it.
    fee = next(f for f in DB.fees.values() if f.section_id and f.status == "open")
    Q.db.fees[fee.id] = fee.model_copy(update={"status": "in_plan"})
    owner = DB.students[fee.student_id]
    refuses(
        "payment plan",
        "drop_section",
        caller_id=decider(owner),
        student_id=owner.id,
        section_id=fee.section_id,
    )


# -- attendance and meetings ---------------------------------------------------------------


def test_report_future_absence_and_excuse_recent_one() -> None:
    gid, student = minors_with_guardian()[0]
    made = call(
        "report_absence", caller_id=gid, student_id=student.id, date="2025-03-12", reason="illness"
    )
    assert Q.db.absences[made["absence_id"]].excused
    recent = next(
        a for a in DB.absences.values() if not a.excused and "2025-03-03" <= a.date < "2025-03-10"
    )
    owner = DB.students[recent.student_id]
    call(
        "report_absence",
        caller_id=decider(owner),
        student_id=owner.id,
        date=recent.date,
        reason="medical_appointment",
    )
    assert (
        Q.db.absences[recent.id].excused
        and Q.db.absences[recent.id].reason == "medical_appointment"
    )


def test_report_absence_refusals() -> None:
    gid, student = minors_with_guardian()[0]
    args = {"caller_id": gid, "student_id": student.id, "reason": "illness"}
    refuses("YYYY-MM-DD", "report_absence", date="March 12", **args)
    refuses("not a school day", "report_absence", date="2025-03-15", **args)
    refuses("not a school day", "report_absence", date="2025-03-25", **args)
    refuses(
        "invalid arguments",
        "report_absence",
        date="2025-03-12",
        caller_id=gid,
        student_id=student.id,
        reason="vacation",
    )
    recorded = {a.date for a in DB.absences.values() if a.student_id == student.id}
    free_day = next(
        d for d in ("2025-03-03", "2025-03-04", "2025-03-05", "2025-03-06") if d not in recorded
    )
    refuses("nothing to excuse", "report_absence", date=free_day, **args)
    excused = next(
        a for a in DB.absences.values() if a.excused and "2025-03-03" <= a.date < "2025-03-10"
    )
    owner = DB.students[excused.student_id]
    refuses(
        "already excused",
        "report_absence",
        caller_id=decider(owner),
        student_id=owner.id,
        date=excused.date,
        reason="illness",
    )
    call("report_absence", date="2025-03-12", **args)
    refuses("already on the record", "report_absence", date="2025-03-12", **args)


def test_absence_window_is_the_agents_to_apply() -> None:
    rule = "school.absence_window"
    gid, student = minors_with_guardian()[0]
    args = {"caller_id": gid, "student_id": student.id, "reason": "illness"}
    allows(rule, "report_absence", date="2025-03-21", **args)
    breaks(rule, "report_absence", date="2025-04-01", **args)
    old = next(
        a
        for a in DB.absences.values()
        if not a.excused and a.date < "2025-03-03" and may_act(DB.students[a.student_id])
    )
    owner = DB.students[old.student_id]
    mine = {"caller_id": decider(owner), "student_id": owner.id, "reason": "illness"}
    assert "attendance office" in breaks(rule, "report_absence", date=old.date, **mine)
    assert Q.db.absences[old.id].excused


def _meeting_setup() -> tuple[str, Student, str, str]:
    """A decider, their student, the student's counselor and a free slot of the counselor."""
    for gid, student in minors_with_guardian():
        if any(
            a.student_id == student.id and a.status == "scheduled" for a in DB.appointments.values()
        ):
            continue
        slots = call("get_staff_availability", staff_id=student.counselor_id)["open_slots"]
        later = [s for s in slots if s >= "2025-03-12"]
        if later:
            return gid, student, student.counselor_id, later[0]
    raise AssertionError("no free counselor slot")


def test_book_and_cancel_meeting() -> None:
    gid, student, staff_id, slot = _meeting_setup()
    booked = call(
        "book_appointment",
        caller_id=gid,
        student_id=student.id,
        staff_id=staff_id,
        start=slot,
        topic="course planning",
    )
    assert Q.db.appointments[booked["appointment_id"]].status == "scheduled"
    assert slot not in call("get_staff_availability", staff_id=staff_id)["open_slots"]
    cancelled = call("cancel_appointment", caller_id=gid, appointment_id=booked["appointment_id"])
    assert cancelled["status"] == "cancelled"
    refuses(
        "already cancelled",
        "cancel_appointment",
        caller_id=gid,
        appointment_id=booked["appointment_id"],
    )


def test_book_refusals() -> None:
    gid, student, staff_id, slot = _meeting_setup()
    args = {"caller_id": gid, "student_id": student.id, "topic": "behavior"}
    teachers = {
        DB.sections[e.section_id].teacher_id
        for e in Q.student_enrollments(student.id, CURRENT_TERM)
    }
    outsider, free = next(
        (s.id, open_slots)
        for s in DB.staff.values()
        if s.id not in teachers and s.id != student.counselor_id
        for open_slots in [call("get_staff_availability", staff_id=s.id)["open_slots"]]
        if open_slots
    )
    allows("school.meeting_staff", "book_appointment", staff_id=staff_id, start=slot, **args)
    assert "neither" in breaks(
        "school.meeting_staff", "book_appointment", staff_id=outsider, start=free[0], **args
    )
    ENV.reset()
    refuses("no staff member", "book_appointment", staff_id="T999999", start=slot, **args)
    refuses(
        "upcoming slots", "book_appointment", staff_id=staff_id, start="2025-03-12T23:00", **args
    )
    taken = next(
        (
            a.start
            for a in DB.appointments.values()
            if a.staff_id == staff_id and a.status == "scheduled"
        ),
        None,
    )
    if taken is not None:
        refuses("already taken", "book_appointment", staff_id=staff_id, start=taken, **args)
    rule = "school.one_meeting_per_staff"
    allows(rule, "book_appointment", staff_id=staff_id, start=slot, **args)
    call("book_appointment", staff_id=staff_id, start=slot, **args)
    other = call("get_staff_availability", staff_id=staff_id)["open_slots"][-1]
    breaks(rule, "book_appointment", staff_id=staff_id, start=other, **args)


def test_cancel_refusals() -> None:
    soon = next(
        a
        for a in DB.appointments.values()
        if a.status == "scheduled" and a.start < "2025-03-11T09:00"
    )
    owner = DB.students[soon.student_id]
    refuses("no appointment", "cancel_appointment", caller_id=decider(owner), appointment_id="AP0")
    rule, mine = "school.meeting_cancel_notice", {"caller_id": decider(owner)}
    later = next(
        a
        for a in DB.appointments.values()
        if a.status == "scheduled"
        and a.start > "2025-03-12T09:00"
        and may_act(DB.students[a.student_id])
    )
    allows(
        rule,
        "cancel_appointment",
        caller_id=decider(DB.students[later.student_id]),
        appointment_id=later.id,
    )
    breaks(rule, "cancel_appointment", appointment_id=soon.id, **mine)
    assert Q.db.appointments[soon.id].status == "cancelled"


# -- money ---------------------------------------------------------------------------------


def _open_fee_with_payer() -> tuple[Any, str, str]:
    for fee in DB.fees.values():
        if fee.status != "open":
            continue
        caller = may_act(DB.students[fee.student_id])
        if caller is None:
            continue
        for method in DB.payment_methods.values():
            if method.owner_id == caller and (
                method.expires is None or method.expires >= "2025-03"
            ):
                return fee, caller, method.id
    raise AssertionError("no open fee with a payer")


def test_pay_fee_in_parts() -> None:
    fee, caller, method = _open_fee_with_payer()
    balance = fee.amount - fee.paid
    first = call("pay_fee", caller_id=caller, fee_id=fee.id, payment_method_id=method, amount=10.0)
    assert (
        first["remaining_balance"] == f"{balance - 10:.2f}" and Q.db.fees[fee.id].status == "open"
    )
    call(
        "pay_fee",
        caller_id=caller,
        fee_id=fee.id,
        payment_method_id=method,
        amount=float(balance - 10),
    )
    assert Q.db.fees[fee.id].status == "paid"
    refuses(
        "nothing is owed",
        "pay_fee",
        caller_id=caller,
        fee_id=fee.id,
        payment_method_id=method,
        amount=1.0,
    )


def test_pay_fee_refusals() -> None:
    fee, caller, method = _open_fee_with_payer()
    args = {"caller_id": caller, "fee_id": fee.id}
    refuses(
        "no fee", "pay_fee", caller_id=caller, fee_id="F0", payment_method_id=method, amount=1.0
    )
    refuses("at most the balance", "pay_fee", payment_method_id=method, amount=999999.0, **args)
    refuses("more than 0.00", "pay_fee", payment_method_id=method, amount=0.0, **args)
    foreign = next(m.id for m in DB.payment_methods.values() if m.owner_id != caller)
    refuses("does not belong", "pay_fee", payment_method_id=foreign, amount=1.0, **args)
    expired = next(m for m in DB.payment_methods.values() if m.expires and m.expires < "2025-03")
    owner = expired.owner_id
    mine = next(
        (
            f
            for f in DB.fees.values()
            if f.status == "open" and may_act(DB.students[f.student_id]) == owner
        ),
        None,
    )
    if mine is not None:
        refuses(
            "expired",
            "pay_fee",
            caller_id=owner,
            fee_id=mine.id,
            payment_method_id=expired.id,
            amount=1.0,
        )
    planned = next(f for f in DB.fees.values() if f.status == "in_plan")
    payer = decider(DB.students[planned.student_id])
    refuses(
        "payment plan",
        "pay_fee",
        caller_id=payer,
        fee_id=planned.id,
        payment_method_id=method,
        amount=1.0,
    )


def test_payment_plan_refuses_an_absurd_installment_count() -> None:
    """A count the calendar cannot hold is refused, not a traceback; the policy's 2 to 4 stays
    the agent's (12 is carried out)."""
    caller, student, method = _plan_candidate(overdue=False)
    args = {"caller_id": caller, "student_id": student.id, "payment_method_id": method}
    refuses("at most 12 installments", "create_payment_plan", installments=100_000, **args)
    plan = call("create_payment_plan", installments=12, **args)
    assert plan["installments"][-1]["due_date"] == "2026-03-01"


def test_pay_fee_refuses_fractions_of_a_cent() -> None:
    fee, caller, method = _open_fee_with_payer()
    args = {"caller_id": caller, "fee_id": fee.id, "payment_method_id": method}
    refuses("dollars and cents", "pay_fee", amount=0.005, **args)
    refuses("dollars and cents", "pay_fee", amount=10.004, **args)
    assert call("pay_fee", amount=10.5, **args)["paid"] == "10.50"


def _plan_candidate(*, overdue: bool) -> tuple[str, Student, str]:
    for student in DB.students.values():
        if Q.active_plan(student.id) is not None:
            continue
        fees = [f for f in DB.fees.values() if f.student_id == student.id and f.status == "open"]
        total = sum(f.amount - f.paid for f in fees)
        late = any(f.due_date < "2025-02-08" for f in fees)
        if late != overdue or total < 500:
            continue
        if not is_adult(student.date_of_birth) and not any(g.verified for g in student.guardians):
            continue
        caller = decider(student)
        method = next(
            (
                m.id
                for m in DB.payment_methods.values()
                if m.owner_id == caller and (m.expires is None or m.expires >= "2025-03")
            ),
            None,
        )
        if method:
            return caller, student, method
    raise AssertionError("no plan candidate")


def test_payment_plan_splits_open_fees() -> None:
    caller, student, method = _plan_candidate(overdue=False)
    open_fees = [f for f in DB.fees.values() if f.student_id == student.id and f.status == "open"]
    total = sum(f.amount - f.paid for f in open_fees)
    plan = call(
        "create_payment_plan",
        caller_id=caller,
        student_id=student.id,
        installments=3,
        payment_method_id=method,
    )
    amounts = [i["amount"] for i in plan["installments"]]
    assert amounts == [f"{a:.2f}" for a in split_installments(total, 3)]
    assert [i["due_date"] for i in plan["installments"]] == [
        "2025-04-01",
        "2025-05-01",
        "2025-06-01",
    ]
    assert all(Q.db.fees[f.id].status == "in_plan" for f in open_fees)
    refuses(
        "no open fees",
        "create_payment_plan",
        caller_id=caller,
        student_id=student.id,
        installments=2,
        payment_method_id=method,
    )


def test_payment_plan_refusals() -> None:
    caller, student, method = _plan_candidate(overdue=False)
    args = {"caller_id": caller, "student_id": student.id, "payment_method_id": method}
    refuses("at least 1 installment", "create_payment_plan", installments=0, **args)
    refuses("at most 12 installments", "create_payment_plan", installments=13, **args)
    settled = next(
        s
        for s in DB.students.values()
        if not any(f.status == "open" for f in DB.fees.values() if f.student_id == s.id)
        and Q.active_plan(s.id) is None
        and may_act(s) is not None
    )
    refuses(
        "no open fees",
        "create_payment_plan",
        caller_id=decider(settled),
        student_id=settled.id,
        installments=2,
        payment_method_id=method,
    )


def _two_installments(student: Student) -> dict[str, Any]:
    """A two-installment plan for a student, asked by its decider with a card they may use."""
    return {
        "caller_id": decider(student),
        "student_id": student.id,
        "installments": 2,
        "payment_method_id": usable_method(decider(student)),
    }


def test_payment_plan_eligibility_is_the_agents_to_judge() -> None:
    rule, tool = "school.payment_plan_eligibility", "create_payment_plan"
    caller, student, method = _plan_candidate(overdue=False)
    args = {"caller_id": caller, "student_id": student.id, "payment_method_id": method}
    allows(rule, tool, installments=4, **args)
    assert "2, 3 or 4" in breaks(rule, tool, installments=6, **args)
    plan = Q.active_plan(student.id)
    assert plan is not None and len(plan.installments) == 6
    ENV.reset()
    caller, student, method = _plan_candidate(overdue=True)
    args = {"caller_id": caller, "student_id": student.id, "payment_method_id": method}
    assert "past due" in breaks(rule, tool, installments=2, **args)
    planned = next(
        s
        for s in DB.students.values()
        if Q.active_plan(s.id) is not None
        and any(f.status == "open" for f in Q.db.fees.values() if f.student_id == s.id)
        and may_act(s) is not None
    )
    assert "already has an active" in breaks(rule, tool, **_two_installments(planned))
    small = next(
        s
        for s in DB.students.values()
        if 0
        < sum(
            f.amount - f.paid
            for f in DB.fees.values()
            if f.student_id == s.id and f.status == "open"
        )
        < 500
        and all(
            f.due_date >= "2025-02-08"
            for f in DB.fees.values()
            if f.student_id == s.id and f.status == "open"
        )
        and Q.active_plan(s.id) is None
        and may_act(s) is not None
    )
    assert "under 500.00" in breaks(rule, tool, **_two_installments(small))


# -- consent and hand-off ------------------------------------------------------------------


def test_records_release_toggles_for_adult_only() -> None:
    adult = adults(release=False)[0]
    assert call("set_records_release", caller_id=adult.id, allow=True)["records_release"] is True
    refuses("already on", "set_records_release", caller_id=adult.id, allow=True)
    call("set_records_release", caller_id=adult.id, allow=False)
    assert ENV.state.changes() == {}
    gid, _ = minors_with_guardian()[0]
    refuses("only an adult student", "set_records_release", caller_id=gid, allow=True)


def test_transfer_records_hand_off_with_stable_hash() -> None:
    out = call("transfer_to_human_agents", summary="caller wants a late fee waived")
    assert "TR500001" in out
    first = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="different words, same hand-off")
    assert ENV.hash() == first


# -- policy checks -------------------------------------------------------------------------


def test_clean_trajectory_passes_every_check() -> None:
    gid, student = minors_with_guardian()[0]
    guardian = DB.guardians[gid]
    t = conversation(
        ENV,
        ("user", "My kid is sick tomorrow."),
        ("call", "find_caller_by_email", {"email": guardian.email}),
        ("call", "get_caller_details", {"caller_id": gid}),
        ("assistant", "I'll report an illness absence for 2025-03-11. Shall I?"),
        ("user", "Yes please."),
        (
            "call",
            "report_absence",
            {"caller_id": gid, "student_id": student.id, "date": "2025-03-11", "reason": "illness"},
        ),
    )
    assert t.rules() == set()


def test_checks_catch_unconfirmed_unauthenticated_and_impersonating_calls() -> None:
    gid, student = minors_with_guardian()[0]
    guardian = DB.guardians[gid]
    absence = {"student_id": student.id, "date": "2025-03-11", "reason": "illness"}
    no_auth = conversation(
        ENV,
        ("assistant", "Shall I report it?"),
        ("user", "yes"),
        ("call", "report_absence", {"caller_id": gid, **absence}),
    )
    assert no_auth.rules() == {"school.authenticate_first", "school.act_as_authenticated_caller"}
    unconfirmed = conversation(
        ENV,
        ("call", "find_caller_by_email", {"email": guardian.email}),
        ("call", "report_absence", {"caller_id": gid, **absence}),
    )
    assert unconfirmed.rules() == {"school.confirm_before_write"}
    other_gid = next(g for g, s in minors_with_guardian() if g != gid)
    other = DB.guardians[other_gid]
    two_callers = conversation(
        ENV,
        ("call", "find_caller_by_email", {"email": guardian.email}),
        ("call", "get_caller_details", {"caller_id": gid}),
        ("call", "find_caller_by_email", {"email": other.email}),
        ("call", "get_caller_details", {"caller_id": other_gid}),
    )
    # the second lookup, and then acting on that caller
    assert two_callers.rules() == {"school.single_identity", "school.one_caller"}
    impersonating = conversation(
        ENV,
        ("call", "find_caller_by_email", {"email": guardian.email}),
        ("call", "get_caller_details", {"caller_id": other_gid}),
    )
    assert "school.act_as_authenticated_caller" in impersonating.rules()


# -- the databases ------------------------------------------------------------------------


def test_train_and_eval_have_their_own_payment_methods() -> None:
    """Beyond the ids and personal facts the contract test compares for every domain."""
    train, test = (DOMAIN.load_db(v)[0] for v in ("train", "eval"))
    labels = [{m.label for m in db.payment_methods.values()} for db in (train, test)]  # type: ignore[attr-defined]
    assert not labels[0] & labels[1]


def test_database_sizes_look_like_a_real_school() -> None:
    counts = DB.record_counts()
    assert 250 <= counts["students"] <= 400 and counts["guardians"] >= 250
    assert counts["enrollments"] > 2000 and counts["fees"] > 800 and counts["payments"] > 500
