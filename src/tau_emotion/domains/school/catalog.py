"""The course catalogue, the yearly course tracks and the summer-school offer.

Catalogue entries are fixed; each database numbers them in its own id space.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CourseSpec:
    title: str
    department: str
    credits: str
    min_grade: int
    prerequisites: tuple[str, ...] = ()


CATALOG = (
    CourseSpec("English 9", "English", "1.0", 9),
    CourseSpec("English 10", "English", "1.0", 10),
    CourseSpec("American Literature", "English", "1.0", 11),
    CourseSpec("British Literature", "English", "1.0", 12),
    CourseSpec("Creative Writing", "English", "0.5", 10),
    CourseSpec("Journalism", "English", "0.5", 9),
    CourseSpec("Algebra I", "Mathematics", "1.0", 9),
    CourseSpec("Geometry", "Mathematics", "1.0", 9, ("Algebra I",)),
    CourseSpec("Algebra II", "Mathematics", "1.0", 10, ("Geometry",)),
    CourseSpec("Precalculus", "Mathematics", "1.0", 11, ("Algebra II",)),
    CourseSpec("AP Calculus AB", "Mathematics", "1.0", 11, ("Precalculus",)),
    CourseSpec("Statistics", "Mathematics", "1.0", 11, ("Algebra II",)),
    CourseSpec("Biology", "Science", "1.0", 9),
    CourseSpec("Chemistry", "Science", "1.0", 10, ("Algebra I",)),
    CourseSpec("Physics", "Science", "1.0", 11, ("Algebra II",)),
    CourseSpec("Environmental Science", "Science", "1.0", 10),
    CourseSpec("AP Biology", "Science", "1.0", 11, ("Biology", "Chemistry")),
    CourseSpec("Anatomy and Physiology", "Science", "1.0", 11, ("Biology",)),
    CourseSpec("World History", "Social Studies", "1.0", 9),
    CourseSpec("US History", "Social Studies", "1.0", 10),
    CourseSpec("Government", "Social Studies", "0.5", 12),
    CourseSpec("Economics", "Social Studies", "0.5", 12),
    CourseSpec("Psychology", "Social Studies", "0.5", 11),
    CourseSpec("Spanish I", "World Languages", "1.0", 9),
    CourseSpec("Spanish II", "World Languages", "1.0", 9, ("Spanish I",)),
    CourseSpec("Spanish III", "World Languages", "1.0", 10, ("Spanish II",)),
    CourseSpec("French I", "World Languages", "1.0", 9),
    CourseSpec("French II", "World Languages", "1.0", 9, ("French I",)),
    CourseSpec("Studio Art", "Arts", "0.5", 9),
    CourseSpec("Ceramics", "Arts", "0.5", 9),
    CourseSpec("Concert Band", "Arts", "0.5", 9),
    CourseSpec("Digital Photography", "Arts", "0.5", 10),
    CourseSpec("Physical Education", "Physical Education", "0.5", 9),
    CourseSpec("Health", "Physical Education", "0.5", 9),
    CourseSpec("Intro to Programming", "Computer Science", "0.5", 9),
    CourseSpec("AP Computer Science A", "Computer Science", "1.0", 10, ("Intro to Programming",)),
)

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
