"""Deterministic generators for the school's two databases (train and eval).

People, staff, the catalogue and the school year are built here; fees, absences, meetings and
summer registrations in `history.py`. Only `random.Random(seed)` is used, and every loop runs
over lists or insertion-ordered dicts, so a seed always gives the same snapshot.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from tau_emotion.domains.common import PeoplePools
from tau_emotion.domains.kit.generation import GeneratorRun
from tau_emotion.domains.kit.split import SplitGenerator
from tau_emotion.domains.school.catalog import (
    CATALOG,
    CORE_BY_GRADE,
    DEPARTMENT_TEACHERS,
    EARLIER_YEARS,
    ELECTIVES,
    LANGUAGE_SEQUENCES,
    MATH_SEQUENCE,
)
from tau_emotion.domains.school.db import (
    Course,
    Enrollment,
    Guardian,
    GuardianLink,
    PaymentMethod,
    Relationship,
    SchoolDB,
    Section,
    Settings,
    Staff,
    Student,
)
from tau_emotion.domains.school.pools import (
    ADULT_FEMALE_NAMES,
    ADULT_FIRST_NAMES,
    ADULT_MALE_NAMES,
    EVAL_POOLS,
    FIRST_NAMES,
    TRAIN_POOLS,
)
from tau_emotion.domains.school.rules import (
    COMPLETED_TERM,
    CURRENT_TERM,
    ID_WIDTH,
    LETTERS,
    SPRING_BREAK,
    TODAY,
    is_adult,
)

FAMILIES = 185


@dataclass(frozen=True)
class Variant:
    seed: int
    lead: str
    school_name: str
    pools: PeoplePools
    card_parity: int
    """Last digit parity of every card and account number (0 train, 1 eval)."""


TRAIN = Variant(1101, "1", "Linden Hill School", TRAIN_POOLS, card_parity=0)
EVAL = Variant(5505, "5", "Harborview Academy", EVAL_POOLS, card_parity=1)


class Builder(GeneratorRun[SchoolDB]):
    """Accumulates tables while generating; `history.py` finishes the job."""

    def __init__(self, v: Variant) -> None:
        super().__init__(SchoolDB, random.Random(v.seed), v.pools, v.lead, ID_WIDTH)
        self.v = v
        self.ability: dict[str, float] = {}
        self.course_by_title: dict[str, str] = {}

    def card_digits(self, drawn: int) -> str:
        """Last four digits of a card or account: even in the train database and odd in the
        eval one, so no card or account number occurs in both; unique within a database."""
        digits = drawn - drawn % 2 + self.v.card_parity
        while f"card:{digits % 10000:04d}" in self.used:
            digits += 2
        self.used.add(f"card:{digits % 10000:04d}")
        return f"{digits % 10000:04d}"


def office_hours(rng: random.Random, counselor: bool) -> tuple[str, ...]:
    """Bookable starts over the next four weeks (none in spring break)."""
    days = sorted(rng.sample(range(5), 3 if counselor else 2))
    times = ("10:00", "10:30", "13:00", "13:30") if counselor else ("07:45", "15:00", "15:30")
    slots: list[str] = []
    day = TODAY
    while day <= TODAY + timedelta(days=32):
        if day.weekday() in days and not SPRING_BREAK[0] <= day <= SPRING_BREAK[1]:
            slots.extend(f"{day.isoformat()}T{t}" for t in times)
        day += timedelta(days=1)
    return tuple(slots)


def add_staff(b: Builder) -> dict[int, str]:
    """Teachers by department and one counselor per grade; returns grade -> counselor id."""
    last = b.v.pools.last_names

    def person(role: str, department: str) -> Staff:
        sid = b.new_id("T", b.db.staff)
        return Staff(
            id=sid,
            first_name=b.rng.choice(ADULT_FIRST_NAMES),
            last_name=b.rng.choice(last),
            role="counselor" if role == "counselor" else "teacher",
            department=department,
            office_hours=office_hours(b.rng, role == "counselor"),
        )

    counselors = {}
    for grade in (9, 10, 11, 12):
        s = person("counselor", "Counseling")
        b.db.staff[s.id] = s
        counselors[grade] = s.id
    for department, count in DEPARTMENT_TEACHERS.items():
        for _ in range(count):
            s = person("teacher", department)
            b.db.staff[s.id] = s
    return counselors


def add_courses(b: Builder) -> None:
    for spec in CATALOG:
        cid = b.new_id("C", b.db.courses)
        prereqs = tuple(b.course_by_title[t] for t in spec.prerequisites)
        b.course_by_title[spec.title] = cid
        b.db.courses[cid] = Course(
            id=cid,
            title=spec.title,
            department=spec.department,
            credits=Decimal(spec.credits),
            min_grade=spec.min_grade,
            prerequisites=prereqs,
        )


def birth_date(rng: random.Random, grade: int) -> str:
    """Age on 1 September 2024 is grade + 5 (one in twenty is a year older)."""
    age = grade + 5 + (1 if rng.random() < 0.05 else 0)
    start = date(2024 - age - 1, 9, 2)
    return (start + timedelta(days=rng.randint(0, 364))).isoformat()


def year_plan(rng: random.Random, grade: int) -> tuple[list[str], list[str]]:
    """(this year's six course titles, titles passed in earlier years) for a grade."""
    prior = list(EARLIER_YEARS.get(str(grade), ()))
    if grade >= 11:
        prior.append("Chemistry" if rng.random() < 0.7 else "Environmental Science")
    math_index = min(grade - 9 + (1 if rng.random() < 0.3 else 0), len(MATH_SEQUENCE) - 1)
    prior += MATH_SEQUENCE[:math_index]
    courses = [MATH_SEQUENCE[math_index]]
    language = rng.choice(LANGUAGE_SEQUENCES)
    if grade - 9 < len(language):
        prior += language[: grade - 9]
        courses.append(language[grade - 9])
    else:
        prior += language
    for choices in CORE_BY_GRADE[grade]:
        options = [c for c in choices if c not in prior and _ready(c, prior)]
        courses.append(rng.choice(options or list(choices)))
    electives = [
        e for e in ELECTIVES if e not in prior and e not in courses and _ready(e, prior, grade)
    ]
    courses += rng.sample(electives, 6 - len(courses))
    return courses, prior


def _ready(title: str, prior: list[str], grade: int = 12) -> bool:
    spec = next(c for c in CATALOG if c.title == title)
    return spec.min_grade <= grade and all(p in prior for p in spec.prerequisites)


def add_families(b: Builder, counselors: dict[int, str]) -> dict[str, list[str]]:
    """Guardians, students and payment methods; returns student id -> this year's titles."""
    rng, pools = b.rng, b.v.pools
    plans: dict[str, list[str]] = {}
    for _ in range(FAMILIES):
        last = rng.choice(pools.last_names)
        zip_code = rng.choice(pools.zip_codes)
        kinds: list[Relationship]
        roll = rng.random()
        if roll < 0.68:
            kinds = rng.choice(
                [
                    ["mother", "father"],
                    ["father", "mother"],
                    ["mother", "stepfather"],
                    ["father", "stepmother"],
                ]
            )
        elif roll < 0.9:
            kinds = [rng.choice(["mother", "father"])]
        else:
            kinds = [rng.choice(["grandmother", "grandfather", "legal guardian"])]
        guardian_ids = []
        for i, relationship in enumerate(kinds):
            gid = b.new_id("G", b.db.guardians)
            g_last = (
                last
                if relationship in ("mother", "father") or rng.random() < 0.3
                else rng.choice(pools.last_names)
            )
            first = rng.choice(
                ADULT_FEMALE_NAMES
                if relationship in ("mother", "stepmother", "grandmother")
                else ADULT_MALE_NAMES
                if relationship in ("father", "stepfather", "grandfather")
                else ADULT_FIRST_NAMES
            )
            b.db.guardians[gid] = Guardian(
                id=gid,
                first_name=first,
                last_name=g_last,
                email=b.email(first, g_last),
                phone=b.phone(),
                zip_code=zip_code if i == 0 or rng.random() < 0.85 else rng.choice(pools.zip_codes),
                student_ids=(),
            )
            add_methods(b, gid, rng.choice([1, 1, 2]))
            guardian_ids.append((gid, relationship))
        n_kids = rng.choices([1, 2, 3], weights=[55, 33, 12])[0]
        firsts = rng.sample(FIRST_NAMES, n_kids)
        for first in firsts:
            grade = rng.randint(9, 12)
            sid = b.new_id("S", b.db.students)
            dob = birth_date(rng, grade)
            courses, prior = year_plan(rng, grade)
            links = tuple(
                GuardianLink(guardian_id=gid, relationship=rel, verified=rng.random() < 0.9)
                for gid, rel in guardian_ids
            )
            adult = is_adult(dob)
            student = Student(
                id=sid,
                first_name=first,
                last_name=last,
                date_of_birth=dob,
                grade_level=grade,
                email=b.email(first, last),
                phone=b.phone() if adult or rng.random() < 0.7 else None,
                zip_code=zip_code,
                counselor_id=counselors[grade],
                prior_credits=tuple(b.course_by_title[t] for t in prior),
                guardians=links,
                records_release=adult and rng.random() < 0.45,
            )
            b.db.students[sid] = student
            b.ability[sid] = rng.gauss(0.0, 1.0)
            plans[sid] = courses
            if adult and rng.random() < 0.6:
                add_methods(b, sid, 1)
            for gid, _ in guardian_ids:
                g = b.db.guardians[gid]
                b.db.guardians[gid] = g.model_copy(update={"student_ids": (*g.student_ids, sid)})
    return plans


def add_methods(b: Builder, owner_id: str, count: int) -> None:
    for _ in range(count):
        mid = b.new_id("PM", b.db.payment_methods)
        drawn = int(b.unique(lambda: f"{b.rng.randint(0, 9999):04d}"))
        last4 = b.card_digits(drawn)
        if b.rng.random() < 0.75:
            brand = b.rng.choice(["Visa", "Mastercard", "Amex", "Discover"])
            year, month = b.rng.randint(2024, 2029), b.rng.randint(1, 12)
            label, expires = f"{brand} ending {last4}", f"{year}-{month:02d}"
        else:
            label, expires = f"checking account ending {last4}", None
        b.db.payment_methods[mid] = PaymentMethod(
            id=mid,
            owner_id=owner_id,
            kind="card" if expires else "bank_account",
            label=label,
            expires=expires,
        )


def letter(score: float) -> str:
    cuts = (1.3, 0.9, 0.55, 0.2, -0.1, -0.4, -0.7, -1.0, -1.5)
    for cut, grade in zip(cuts, LETTERS, strict=False):
        if score > cut:
            return grade
    return "F"


def add_school_year(b: Builder, plans: dict[str, list[str]]) -> None:
    """Fall and spring sections, and each student's six year-long courses in both terms."""
    rng = b.rng
    teachers: dict[str, list[str]] = {}
    for s in b.db.staff.values():
        if s.role == "teacher":
            teachers.setdefault(s.department, []).append(s.id)
    demand: dict[str, int] = {}
    for titles in plans.values():
        for t in titles:
            demand[t] = demand.get(t, 0) + 1
    scores: dict[tuple[str, str], float] = {}
    for term in (COMPLETED_TERM, CURRENT_TERM):
        by_course: dict[str, list[str]] = {}
        for title, count in demand.items():
            course = b.db.courses[b.course_by_title[title]]
            for _ in range(max(1, math.ceil(count / 24))):
                by_course.setdefault(title, []).append(
                    add_section(b, course, term, str(rng.randint(1, 7)), teachers)
                )
        for sid, titles in plans.items():
            taken: set[str] = set()
            for title in sorted(titles, key=lambda t: (len(by_course[t]), t)):
                course = b.db.courses[b.course_by_title[title]]
                free = [x for x in by_course[title] if b.db.sections[x].period not in taken]
                if not free:
                    period = rng.choice([p for p in "1234567" if p not in taken])
                    free = [add_section(b, course, term, period, teachers)]
                    by_course[title].append(free[0])
                section_id = rng.choice(free)
                taken.add(b.db.sections[section_id].period)
                key = (sid, title)
                if key not in scores:
                    scores[key] = 0.8 * b.ability[sid] + rng.gauss(0.0, 0.6)
                else:  # spring's progress grade drifts from fall's final grade
                    scores[key] += rng.gauss(0.0, 0.4)
                eid = b.new_id("E", b.db.enrollments)
                b.db.enrollments[eid] = Enrollment(
                    id=eid,
                    student_id=sid,
                    section_id=section_id,
                    status="enrolled",
                    grade=letter(scores[key]),
                )
    counts: dict[str, int] = {}
    for e in b.db.enrollments.values():
        counts[e.section_id] = counts.get(e.section_id, 0) + 1
    for sec_id, sec in b.db.sections.items():
        b.db.sections[sec_id] = sec.model_copy(update={"capacity": max(26, counts.get(sec_id, 0))})


def add_section(
    b: Builder, course: Course, term: str, period: str, teachers: dict[str, list[str]]
) -> str:
    sec_id = b.new_id("SEC", b.db.sections)
    number = len(b.db.sections) % 40
    b.db.sections[sec_id] = Section(
        id=sec_id,
        course_id=course.id,
        term=term,
        teacher_id=b.rng.choice(teachers[course.department]),
        period=period,
        room=f"{course.department[0]}{101 + number}",
        capacity=26,
        fee=Decimal("0.00"),
    )
    return sec_id


def generate(v: Variant) -> SchoolDB:
    from tau_emotion.domains.school.history import add_history

    b = Builder(v)
    b.db.settings["school"] = Settings(school_name=v.school_name, id_lead=v.lead)
    counselors = add_staff(b)
    add_courses(b)
    plans = add_families(b, counselors)
    add_school_year(b, plans)
    return add_history(b.db, b.rng)


SPLIT = SplitGenerator(generate, TRAIN, EVAL)
"""The train and eval databases of the domain."""
