"""The course catalogue, the yearly course tracks and the summer-school offer.

Catalogue entries are fixed; each database numbers them in its own id space.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit.reference import Reference


@dataclass(frozen=True)
class CourseSpec:
    title: str
    department: str
    credits: str
    min_grade: int
    prerequisites: tuple[str, ...] = ()


_REFERENCE = Reference(__package__ or __name__, "courses.json")
CATALOG = _REFERENCE.table("courses", tuple[CourseSpec, ...])

# Year-long courses by grade: one choice per slot. The maths and language slots follow a
# sequence, so a student's earlier years are the courses before this year's in the sequence.
CORE_BY_GRADE: dict[int, tuple[tuple[str, ...], ...]] = {
    9: (("English 9",), ("Biology",), ("World History",)),
    10: (("English 10",), ("Chemistry", "Environmental Science"), ("US History",)),
    11: (
        ("American Literature",),
        ("Physics", "Anatomy and Physiology", "AP Biology"),
        ("Psychology", "US History"),
    ),
    12: (
        ("British Literature",),
        ("Physics", "AP Biology", "Environmental Science"),
        ("Government", "Economics"),
    ),
}
MATH_SEQUENCE = ("Algebra I", "Geometry", "Algebra II", "Precalculus", "AP Calculus AB")
LANGUAGE_SEQUENCES = (("Spanish I", "Spanish II", "Spanish III"), ("French I", "French II"))
ELECTIVES = (
    "Creative Writing",
    "Journalism",
    "Studio Art",
    "Ceramics",
    "Concert Band",
    "Digital Photography",
    "Physical Education",
    "Health",
    "Intro to Programming",
    "AP Computer Science A",
    "Statistics",
)
EARLIER_YEARS: dict[str, tuple[str, ...]] = {
    # Courses every student has passed before reaching the grade (the school's program).
    "10": ("English 9", "Biology", "World History"),
    "11": ("English 9", "English 10", "Biology", "World History", "US History"),
    "12": ("English 9", "English 10", "American Literature", "Biology", "World History"),
}

SUMMER_OFFER: tuple[tuple[str, str], ...] = (
    ("Geometry", "AM"),
    ("Geometry", "PM"),
    ("Algebra II", "AM"),
    ("Algebra II", "PM"),
    ("Precalculus", "AM"),
    ("Chemistry", "AM"),
    ("Biology", "PM"),
    ("Creative Writing", "PM"),
    ("Intro to Programming", "AM"),
    ("Intro to Programming", "PM"),
    ("Digital Photography", "PM"),
    ("Spanish II", "AM"),
    ("Health", "AM"),
    ("Health", "PM"),
    ("Physical Education", "AM"),
    ("Statistics", "PM"),
    ("US History", "AM"),
    ("Studio Art", "PM"),
    ("Psychology", "AM"),
    ("AP Computer Science A", "PM"),
)
SUMMER_TUITION = {"1.0": "640.00", "0.5": "340.00"}

DEPARTMENT_TEACHERS = {
    "English": 6,
    "Mathematics": 6,
    "Science": 6,
    "Social Studies": 5,
    "World Languages": 4,
    "Arts": 3,
    "Physical Education": 2,
    "Computer Science": 2,
}
