"""What the Tracer needs to know about the airline domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.airline.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import ReviewEdit, TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"reservation_code": "reservation_code"},
    public_tables=frozenset(["airports", "flight_days", "flights"]),
    utilities={"calculate": "arithmetic utility; no entity flows through it"},
    review=(
        ReviewEdit(
            "limit",
            "issue_compensation_certificate",
            "1",
            "policy: at most one certificate per conversation",
        ),
    ),
    test_target=70,
)
