"""What the Tracer needs to know about the airline domain beyond its code and data."""

from __future__ import annotations

from tau_emotion.domains.airline.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import Phrase, ReviewEdit, TracerSpec

# How customers ask for each action (see `Phrase`).
PHRASES: dict[str, Phrase] = {
    "book_reservation": (
        "book a {trip_type} trip from {origin} to {destination} in {cabin} class",
        "book a {trip_type} flight from {origin} to {destination} in {cabin}",
    ),
    "cancel_reservation": ("cancel {entity}", "cancel {entity}"),
    "change_cabin": ("move {entity} to {cabin} class", "change {entity} to {cabin} class"),
    "change_flights": ("change the flights of {entity}", "change the flights on {entity}"),
    "issue_compensation_certificate": (
        "get compensation for the disruption of flight {flight} on {date} on {entity}",
        "get compensation for flight {flight} on {date}, {entity}",
    ),
    "update_baggage": (
        "have {checked_bags} checked bags in total on {entity}",
        "have {checked_bags} checked bags in total on {entity}",
    ),
    "update_passengers": (
        "change the passengers on {entity} to {passengers}",
        "change the passengers on {entity} to {passengers}",
    ),
}

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"reservation_code": "reservation_code"},
    public_tables=frozenset(["airports", "flight_days", "flights"]),
    utilities={"calculate": "arithmetic utility; no entity flows through it"},
    review=(
        ReviewEdit(
            "limit",
            "issue_compensation_certificate",
            "1",
            "policy: at most one certificate per conversation",
        ),
    ),
    phrases=PHRASES,
    test_target=70,
)
