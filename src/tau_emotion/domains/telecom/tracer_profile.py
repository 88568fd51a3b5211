"""What the Tracer needs to know about the telecom domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.telecom.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    public_tables=frozenset(["addons", "plans"]),
    test_target=70,
)
