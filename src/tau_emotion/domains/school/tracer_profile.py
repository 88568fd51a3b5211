"""What the Tracer needs to know about the school domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.school.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import CallerRule, TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    # The school serves minors only through a guardian: students call only once adults.
    caller_rules={"students": CallerRule("date_of_birth", "2007-03-10")},
)
