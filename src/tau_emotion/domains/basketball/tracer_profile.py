"""What the Tracer needs to know about the basketball domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.basketball.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "buy_tickets": (
        "buy {quantity} {zone} tickets for the game {game}",
        "buy {quantity} {zone} tickets for the game {game}",
    ),
    "cancel_camp_registration": ("cancel {registration}", "cancel {registration}"),
    "cancel_merch_order": ("cancel {entity}", "cancel {entity}"),
    "exchange_tickets": (
        "move the tickets of {entity} to the game {new_game}",
        "switch {entity} to the game {new_game}",
    ),
    "refund_tickets": ("get a refund for {entity}", "get my money back for {entity}"),
    "register_camper": (
        "register {camper_name} (born {camper_birth_date}) for {camp}",
        "sign {camper_name} (born {camper_birth_date}) up for {camp}",
    ),
    "return_merch_items": ("return items from {entity}", "return something from {entity}"),
    "set_pass_auto_renew": (
        "turn automatic renewal of your season pass {enabled}",
        "turn auto-renew on my season pass {enabled}",
    ),
    "upgrade_season_pass": (
        "upgrade your season pass to the {zone} zone",
        "upgrade my season pass to {zone}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"order_id": "order_number"},
    phrases=PHRASES,
)
