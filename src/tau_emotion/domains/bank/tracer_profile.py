"""What the Tracer needs to know about the bank domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.bank.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import ReviewEdit, TracerSpec

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    record_aliases={"code": "one_time_code"},
    review=(
        ReviewEdit(
            "unrequire",
            "reverse_fee",
            "verify_identity",
            "the one-time code verifies as well; covered by require_any",
        ),
        ReviewEdit(
            "unrequire",
            "set_card_limit",
            "send_verification_code",
            "the identity check verifies as well; covered by require_any",
        ),
        ReviewEdit(
            "unrequire",
            "set_card_limit",
            "verify_one_time_code",
            "the identity check verifies as well; covered by require_any",
        ),
        ReviewEdit(
            "require_any",
            "*write",
            "verify_identity|send_verification_code+verify_one_time_code",
            "policy: strong verification before any write but a card freeze",
        ),
        ReviewEdit(
            "require_any", "freeze_card", "", "policy: a freeze needs no strong verification"
        ),
    ),
)
