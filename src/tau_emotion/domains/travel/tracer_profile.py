"""What the Tracer needs to know about the travel domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.travel.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "add_tour": ("add {tour} on {date} to {entity}", "add {tour} on {date} to {entity}"),
    "book_trip": (
        "book {departure} with the {fare} fare and a {room_type} room",
        "book {departure}, {fare} fare, {room_type} room",
    ),
    "buy_insurance": (
        "buy {plan} travel insurance for {entity}",
        "add {plan} insurance to {entity}",
    ),
    "cancel_booking": ("cancel {entity} ({reason})", "cancel {entity}, {reason}"),
    "change_departure": ("move {entity} to {new_departure}", "move {entity} to {new_departure}"),
    "change_room_type": (
        "change the room on {entity} to {room_type}",
        "change my room on {entity} to {room_type}",
    ),
    "correct_traveller_name": (
        "correct the name of {traveller} on {entity} to {full_name}",
        "fix the spelling of {traveller} on {entity} to {full_name}",
    ),
    "file_insurance_claim": (
        "file a {claim_type} claim of {amount} for an incident on {incident_date} on {entity}",
        "claim {amount} for {claim_type} from {incident_date} on {entity}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"booking_code": "booking_code"},
    phrases=PHRASES,
)
