"""What the Tracer needs to know about the restaurant domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.restaurant.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "book_private_event": (
        "book {room} for a private {package} event for {guests} guests on {date}",
        "book {room} for a {package} event for {guests} people on {date}",
    ),
    "cancel_order": ("cancel {entity}", "cancel {entity}"),
    "cancel_private_event": ("cancel {event}", "cancel {event}"),
    "cancel_reservation": ("cancel {entity}", "cancel {entity}"),
    "create_reservation": (
        "book a table for {party_size} at {location} on {date} at {time}",
        "book a table for {party_size} at {location} on {date} at {time}",
    ),
    "file_complaint": (
        "complain about {category} at {location}",
        "make a complaint about {category} at {location}",
    ),
    "modify_reservation": (
        "change {entity} to {party_size} people on {date} at {time}",
        "change {entity} to {party_size} people on {date} at {time}",
    ),
    "place_order": (
        "order for {fulfillment} from {location}",
        "place a {fulfillment} order from {location}",
    ),
    "refund_order_items": (
        "get a refund for items on {entity} ({reason})",
        "get a refund for part of {entity}, {reason}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"reservation_code": "reservation_code", "order_number": "order_number"},
    phrases=PHRASES,
)
