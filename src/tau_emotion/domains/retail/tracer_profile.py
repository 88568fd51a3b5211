"""What the Tracer needs to know about the retail domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.retail.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "cancel_pending_order": (
        "cancel {entity} because it is {reason}",
        "cancel {entity}, it's {reason}",
    ),
    "change_order_payment_method": (
        "pay for {entity} with a different card or account",
        "change how I pay for {entity}",
    ),
    "change_pending_item": (
        "swap an item on {entity} for another variant",
        "swap an item on {entity}",
    ),
    "issue_late_delivery_credit": (
        "get the credit for the late delivery of {entity}",
        "get a credit because {entity} arrived late",
    ),
    "request_exchange": ("exchange items from {entity}", "exchange something from {entity}"),
    "request_return": ("return items from {entity}", "return something from {entity}"),
    "update_customer_address": (
        "change the address on your account to {line1}, {city}, {state} {zip_code}",
        "change the address on my account to {line1}, {city}, {state} {zip_code}",
    ),
    "update_order_address": (
        "have {entity} shipped to {line1}, {city}, {state} {zip_code}",
        "change where {entity} ships to: {line1}, {city}, {state} {zip_code}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"order_number": "order_number"},
    phrases=PHRASES,
    test_target=70,
)
