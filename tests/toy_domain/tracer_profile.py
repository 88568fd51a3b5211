"""What the Tracer needs to know about the toy domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.tracer.declaration import TracerSpec

TRACER = TracerSpec(
    auth_tools=("find_customer",),
    phrases={
        "add_credit": (
            "get {amount} dollars of store credit on your account",
            "get {amount} dollars of store credit",
        ),
    },
    test_target=3,
)
