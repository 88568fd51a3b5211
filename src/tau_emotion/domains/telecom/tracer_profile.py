"""What the Tracer needs to know about the telecom domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.telecom.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "cancel_autopay": ("turn off autopay on your account", "turn off autopay"),
    "change_plan": ("switch {line} to the {new_plan} plan", "switch {line} to the {new_plan} plan"),
    "enroll_autopay": ("set up autopay", "set up autopay"),
    "open_ticket": (
        "open a {category} support ticket for {line}",
        "report a {category} problem with {line}",
    ),
    "pay_bill": ("pay {bill}", "pay {bill}"),
    "pay_off_device": ("pay off {device}", "pay off {device}"),
    "purchase_addon": ("add the {addon} to {line}", "add the {addon} to {line}"),
    "reactivate_line": ("reactivate {line}", "get {line} working again"),
    "reset_network_settings": (
        "reset the network settings of {line}",
        "reset the network settings on {line}",
    ),
    "set_international_roaming": (
        "turn {enabled} international roaming for {line}",
        "turn {enabled} roaming for {line}",
    ),
    "suspend_line": ("suspend {line}, reason: {reason}", "suspend {line}, {reason}"),
    "unlock_device": ("unlock {device}", "unlock {device}"),
    "waive_late_fee": ("have the late fee on {bill} waived", "get the late fee on {bill} waived"),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    public_tables=frozenset(["addons", "plans"]),
    phrases=PHRASES,
    test_target=70,
)
