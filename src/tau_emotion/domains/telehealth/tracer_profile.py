"""What the Tracer needs to know about the telehealth domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.telehealth.tools import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"voucher_code": "voucher_code", "member_id": "member_id"},
    public_tables=frozenset(["drugs"]),
    test_target=70,
)
