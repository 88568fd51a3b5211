"""What the Tracer needs to know about the travel domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.travel.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"booking_code": "booking_code"},
)
