"""What the Tracer needs to know about the restaurant domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.restaurant.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"reservation_code": "reservation_code", "order_number": "order_number"},
)
