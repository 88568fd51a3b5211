"""What the Tracer needs to know about the retail domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.retail.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"order_number": "order_number"},
    test_target=70,
)
