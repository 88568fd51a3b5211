"""What the Tracer needs to know about the toy domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.tracer.declaration import TracerSpec, TransferReason

TRACER = TracerSpec(
    auth_tools=("find_customer",),
    phrases={
        "add_credit": (
            "get {amount} dollars of store credit on your account",
            "get {amount} dollars of store credit",
        ),
    },
    transfer_reasons=(
        TransferReason(
            situation="I'm moving abroad and want my account with you closed for good",
            policy="Transfer to a human agent a customer who wants to close their account.",
        ),
    ),
    test_target=3,
)
