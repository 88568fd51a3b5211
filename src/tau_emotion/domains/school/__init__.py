"""School: the family-services desk of a private secondary school (grades 9-12).

Guardians and adult students call about registrations for summer school, waitlists, grades,
absences, meetings with staff, fees and payment plans. Who may see or change a student's
record depends on the student's age, the guardian's verification and the student's records
release; the tools enforce it.
"""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.school.checks import CHECKS
from tau_emotion.domains.school.db import SchoolDB
from tau_emotion.domains.school.generate import SPLIT
from tau_emotion.domains.school.tools import SchoolTools

DESCRIPTION = (
    "Family-services desk of a private secondary school: summer-school registration and "
    "waitlists, grades and records access, absences, staff meetings, fees and payment plans."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=SchoolDB, tools=SchoolTools, checks=CHECKS, generate=SPLIT
)
