"""What the Tracer needs to know about the retail domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.retail.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"order_number": "order_number"},
    test_target=70,
    # Few customers hold orders in the states several writes need at once (one pending and
    # one delivered), so three in four of the test pool's walks find nobody to carry them.
    test_walks=3200,
)
