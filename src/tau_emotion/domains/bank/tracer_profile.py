"""What the Tracer needs to know about the bank domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.bank.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, ReviewEdit, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "file_dispute": ("dispute {txn} ({reason})", "dispute {txn}, {reason}"),
    "freeze_card": ("freeze {card}, reason: {reason}", "freeze {card}, {reason}"),
    "release_hold": ("have {hold} released", "get {hold} released"),
    "replace_card": ("replace {card}, reason: {reason}", "replace {card}, {reason}"),
    "reverse_fee": ("have {txn} reversed", "get {txn} reversed"),
    "set_card_limit": (
        "set the daily {limit_type} limit of {card} to {amount}",
        "set the {limit_type} limit on {card} to {amount}",
    ),
    "transfer_funds": (
        "move {amount} out of {from_account}",
        "transfer {amount} from {from_account}",
    ),
    "unfreeze_card": ("unfreeze {card}", "unfreeze {card}"),
    "update_mailing_address": (
        "change your mailing address to {street}, {city}, {state} {zip_code}",
        "change my mailing address to {street}, {city}, {state} {zip_code}",
    ),
}

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
    phrases=PHRASES,
)
