"""Flight times and itinerary shape: when a flight leaves and lands, and whether a list of
flights is a valid one-way or round trip between two airports. Pure functions, no state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from tau_emotion.domains.airline.db import Flight, FlightDay
from tau_emotion.domains.airline.rules import (
    MAX_CONNECTION,
    MIN_CONNECTION,
    TripType,
)
from tau_emotion.errors import ToolError


def departure_at(flight: Flight, day: str) -> datetime:
    """Scheduled departure of a flight on a date."""
    return datetime.fromisoformat(f"{day}T{flight.departure}")


def arrival_at(flight: Flight, day: str) -> datetime:
    """Scheduled arrival of a flight that departs on a date."""
    return departure_at(flight, day) + timedelta(minutes=flight.duration_minutes)


def arrival_day(flight: Flight, day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=flight.arrival_day_offset)).isoformat()


def has_flown(record: FlightDay) -> bool:
    """The flight has left the gate (an airline-cancelled flight never flies)."""
    return record.status in ("departed", "landed")


def actual_departure(flight: Flight, day: str, record: FlightDay) -> datetime:
    return departure_at(flight, day) + timedelta(minutes=record.delay_minutes)


def connects(first: Flight, first_day: str, second: Flight, second_day: str) -> bool:
    """A valid connection: same airport, 45 minutes to 6 hours between scheduled times."""
    if first.destination != second.origin:
        return False
    gap = departure_at(second, second_day) - arrival_at(first, first_day)
    return MIN_CONNECTION <= gap <= MAX_CONNECTION


@dataclass(frozen=True)
class Leg:
    flight: Flight
    day: str


def _direction(legs: Sequence[Leg], start: str, end: str, label: str) -> None:
    if not legs:
        raise ToolError(f"the {label} has no flights")
    if len(legs) > 2:
        raise ToolError(f"the {label} has {len(legs)} flights; at most one stop is allowed")
    if legs[0].flight.origin != start or legs[-1].flight.destination != end:
        raise ToolError(f"the {label} must go from {start} to {end}")
    if len(legs) == 2:
        first, second = legs
        if not connects(first.flight, first.day, second.flight, second.day):
            raise ToolError(
                f"{first.flight.number} on {first.day} does not connect to "
                f"{second.flight.number} on {second.day} (connections need the same airport "
                "and 45 minutes to 6 hours between scheduled times)"
            )


def check_itinerary(legs: Sequence[Leg], origin: str, destination: str, trip: TripType) -> None:
    """Raise `ToolError` unless the legs, in order, make the trip (at most one stop each way)."""
    if origin == destination:
        raise ToolError("origin and destination must differ")
    split = next((i + 1 for i, leg in enumerate(legs) if leg.flight.destination == destination),
                 None)  # fmt: skip
    if split is None:
        raise ToolError(f"no flight in the list arrives at {destination}")
    outbound, inbound = legs[:split], legs[split:]
    _direction(outbound, origin, destination, "outbound trip")
    if trip == "one_way":
        if inbound:
            raise ToolError("a one-way trip cannot have flights after reaching the destination")
        return
    _direction(inbound, destination, origin, "return trip")
    if departure_at(inbound[0].flight, inbound[0].day) <= arrival_at(
        outbound[-1].flight, outbound[-1].day
    ):
        raise ToolError("the return trip must leave after the outbound trip arrives")
