"""School: the family-services desk of a private secondary school (grades 9-12).

Guardians and adult students call about registrations for summer school, waitlists, grades,
absences, meetings with staff, fees and payment plans. Who may see or change a student's
record depends on the student's age, the guardian's verification and the student's records
release; the tools enforce it.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.domains.kit.split import SPLIT_DATABASE
from tau_emotion.domains.school.checks import CHECKS
from tau_emotion.domains.school.db import SchoolDB
from tau_emotion.domains.school.generate import SPLIT
from tau_emotion.domains.school.tools import SchoolTools

DOMAIN = Domain(
    name="school",
    description=(
        "Family-services desk of a private secondary school: summer-school registration and "
        "waitlists, grades and records access, absences, staff meetings, fees and payment plans."
    ),
    root=Path(__file__).parent,
    db_model=SchoolDB,
    toolset=SchoolTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
