"""Records and the database of the school's family-services back office.

Dates are ISO strings ('2025-03-10'), times are ISO minutes ('2025-03-12T15:30'). Money is a
Decimal kept to the cent and written as a string ('245.50') so the state hash never depends on
float formatting.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from decimal import Decimal
from typing import Literal

from tau_emotion.domains.common import Money, Transfer
from tau_emotion.domains.state import DomainDB, Record

Topic = Literal[
    "academic progress",
    "course planning",
    "attendance",
    "behavior",
    "wellbeing",
    "college planning",
]
"""Meeting topics are categories, not free text, so the state hash does not depend on wording."""

Relationship = Literal[
    "mother", "father", "stepmother", "stepfather", "grandmother", "grandfather", "legal guardian"
]


class Settings(Record):
    """Per-database constants (one row, key 'school')."""

    school_name: str
    id_lead: str
    """Leading digit of every numeric id in this database, so two databases never share ids."""


class GuardianLink(Record):
    guardian_id: str
    relationship: Relationship
    verified: bool
    """Custody or guardianship papers checked by the registrar."""


class Student(Record):
    id: str
    first_name: str
    last_name: str
    date_of_birth: str
    grade_level: int
    email: str
    phone: str | None
    zip_code: str
    counselor_id: str
    prior_credits: tuple[str, ...]
    """Course ids passed with C or better before fall 2024 (earlier school years)."""
    guardians: tuple[GuardianLink, ...]
    records_release: bool
    """An adult student's signed consent letting their verified guardians see their records."""


class Guardian(Record):
    id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    zip_code: str
    student_ids: tuple[str, ...]


class PaymentMethod(Record):
    id: str
    owner_id: str
    kind: Literal["card", "bank_account"]
    label: str
    """How the customer knows it, e.g. 'Visa ending 4417' or 'checking ending 0932'."""
    expires: str | None
    """Cards only, 'YYYY-MM'."""


class Course(Record):
    id: str
    title: str
    department: str
    credits: Decimal
    min_grade: int
    prerequisites: tuple[str, ...]


class Section(Record):
    id: str
    course_id: str
    term: str
    teacher_id: str
    period: str
    """'1'..'7' in the school year; 'AM' or 'PM' in summer. Same term and period clash."""
    room: str
    capacity: int
    fee: Money


class Enrollment(Record):
    id: str
    student_id: str
    section_id: str
    status: Literal["enrolled", "waitlisted", "dropped"]
    grade: str | None
    """Final grade in a finished term, progress grade in the current one."""


class Staff(Record):
    id: str
    first_name: str
    last_name: str
    role: Literal["teacher", "counselor"]
    department: str
    office_hours: tuple[str, ...]
    """Bookable meeting starts, 'YYYY-MM-DDTHH:MM'."""


class Appointment(Record):
    id: str
    staff_id: str
    student_id: str
    booked_by: str
    start: str
    topic: Topic
    status: Literal["scheduled", "cancelled"]


class Absence(Record):
    id: str
    student_id: str
    date: str
    excused: bool
    reason: str | None
    reported_by: str | None


class Fee(Record):
    id: str
    student_id: str
    description: str
    amount: Money
    paid: Money
    due_date: str
    status: Literal["open", "paid", "in_plan", "cancelled", "refunded"]
    section_id: str | None


class Payment(Record):
    id: str
    fee_id: str
    payer_id: str
    method_id: str
    amount: Money
    date: str


class Refund(Record):
    id: str
    payment_id: str
    fee_id: str
    method_id: str
    amount: Money
    date: str


class Installment(Record):
    due_date: str
    amount: Money


class PaymentPlan(Record):
    id: str
    student_id: str
    set_up_by: str
    method_id: str
    fee_ids: tuple[str, ...]
    total: Money
    installments: tuple[Installment, ...]
    status: Literal["active", "completed"]


class SchoolDB(DomainDB):
    settings: MutableMapping[str, Settings]
    students: MutableMapping[str, Student]
    guardians: MutableMapping[str, Guardian]
    payment_methods: MutableMapping[str, PaymentMethod]
    courses: MutableMapping[str, Course]
    sections: MutableMapping[str, Section]
    enrollments: MutableMapping[str, Enrollment]
    staff: MutableMapping[str, Staff]
    appointments: MutableMapping[str, Appointment]
    absences: MutableMapping[str, Absence]
    fees: MutableMapping[str, Fee]
    payments: MutableMapping[str, Payment]
    refunds: MutableMapping[str, Refund]
    payment_plans: MutableMapping[str, PaymentPlan]
    transfers: MutableMapping[str, Transfer]
