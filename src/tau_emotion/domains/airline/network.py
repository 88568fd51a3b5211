"""The route network: airports, the daily flight schedule, and each flight's day-by-day record.

Four hubs connect to every other airport; a few busy city pairs also fly direct. Durations come
from great-circle distance, fares from duration, so that prices look plausible and stay
consistent between the schedule, the per-day fares and the fares in old reservations.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime, time, timedelta

from tau_emotion.domains.airline.db import Airport, Fares, Flight, FlightDay, Seats, day_key
from tau_emotion.domains.airline.rules import (
    CABINS,
    FIRST_DAY,
    FLIGHT_PREFIX,
    LAST_DAY,
    NOW,
    Cabin,
)

# code, name, city, latitude, longitude
_AIRPORTS: tuple[tuple[str, str, str, float, float], ...] = (
    ("ATL", "Hartsfield-Jackson Atlanta International", "Atlanta", 33.64, -84.43),
    ("ORD", "Chicago O'Hare International", "Chicago", 41.98, -87.90),
    ("DEN", "Denver International", "Denver", 39.86, -104.67),
    ("DFW", "Dallas/Fort Worth International", "Dallas", 32.90, -97.04),
    ("JFK", "John F. Kennedy International", "New York", 40.64, -73.78),
    ("BOS", "Boston Logan International", "Boston", 42.36, -71.01),
    ("MIA", "Miami International", "Miami", 25.79, -80.29),
    ("MCO", "Orlando International", "Orlando", 28.43, -81.31),
    ("CLT", "Charlotte Douglas International", "Charlotte", 35.21, -80.94),
    ("PHL", "Philadelphia International", "Philadelphia", 39.87, -75.24),
    ("DCA", "Ronald Reagan Washington National", "Washington", 38.85, -77.04),
    ("DTW", "Detroit Metropolitan Wayne County", "Detroit", 42.21, -83.35),
    ("MSP", "Minneapolis-Saint Paul International", "Minneapolis", 44.88, -93.22),
    ("IAH", "George Bush Intercontinental", "Houston", 29.99, -95.34),
    ("AUS", "Austin-Bergstrom International", "Austin", 30.19, -97.67),
    ("BNA", "Nashville International", "Nashville", 36.12, -86.68),
    ("MSY", "Louis Armstrong New Orleans International", "New Orleans", 29.99, -90.26),
    ("PHX", "Phoenix Sky Harbor International", "Phoenix", 33.43, -112.01),
    ("LAS", "Harry Reid International", "Las Vegas", 36.08, -115.15),
    ("SLC", "Salt Lake City International", "Salt Lake City", 40.79, -111.98),
    ("LAX", "Los Angeles International", "Los Angeles", 33.94, -118.41),
    ("SFO", "San Francisco International", "San Francisco", 37.62, -122.38),
    ("SAN", "San Diego International", "San Diego", 32.73, -117.19),
    ("SEA", "Seattle-Tacoma International", "Seattle", 47.45, -122.31),
    ("PDX", "Portland International", "Portland", 45.59, -122.60),
)
HUBS = ("ATL", "ORD", "DEN", "DFW")
_DIRECT_PAIRS = (
    ("JFK", "BOS"), ("JFK", "MIA"), ("JFK", "LAX"), ("JFK", "SFO"), ("LAX", "SFO"),
    ("LAX", "SEA"), ("LAX", "LAS"), ("SFO", "SEA"), ("SEA", "PDX"), ("BOS", "DCA"),
    ("MCO", "PHL"), ("IAH", "MSY"),
)  # fmt: skip

_CABIN_FACTOR: dict[Cabin, float] = {
    "basic": 0.78,
    "economy": 1.0,
    "premium": 1.65,
    "business": 2.9,
}
_MAX_SEATS: dict[Cabin, int] = {"basic": 9, "economy": 38, "premium": 10, "business": 6}
_DEPARTURE_WINDOWS = ((5 * 60 + 30, 11 * 60), (11 * 60, 16 * 60), (16 * 60, 22 * 60))


def airports() -> dict[str, Airport]:
    return {code: Airport(code=code, name=name, city=city) for code, name, city, _, _ in _AIRPORTS}


def _distance_km(a: str, b: str) -> float:
    coords = {code: (lat, lon) for code, _, _, lat, lon in _AIRPORTS}
    (lat1, lon1), (lat2, lon2) = coords[a], coords[b]
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def base_fare(flight: Flight, cabin: Cabin) -> int:
    """The undiscounted fare of a flight: grows with its duration."""
    return round((45 + 1.15 * flight.duration_minutes) * _CABIN_FACTOR[cabin])


def _routes() -> list[tuple[str, str]]:
    codes = [a[0] for a in _AIRPORTS]
    pairs: list[tuple[str, str]] = []
    for hub in HUBS:
        for other in codes:
            if other != hub:
                pairs += [(hub, other)] if other in HUBS else [(hub, other), (other, hub)]
    for a, b in _DIRECT_PAIRS:
        pairs += [(a, b), (b, a)]
    return pairs


def flights(rng: random.Random) -> dict[str, Flight]:
    """The daily schedule: one to three flights per route, at spread-out hours."""
    plan: list[tuple[str, str, int]] = []
    for origin, destination in _routes():
        hub_pair = origin in HUBS and destination in HUBS
        count = 3 if hub_pair else rng.choices((1, 2), (55, 45))[0]
        windows = rng.sample(_DEPARTURE_WINDOWS, count)
        for lo, hi in sorted(windows):
            plan.append((origin, destination, rng.randrange(lo, hi, 5)))
    numbers = rng.sample(range(100, 1000), len(plan))
    result: dict[str, Flight] = {}
    for (origin, destination, minute), n in zip(plan, numbers, strict=True):
        duration = 5 * round((35 + _distance_km(origin, destination) / 780 * 60) / 5)
        end = minute + duration
        number = f"{FLIGHT_PREFIX}{n}"
        result[number] = Flight(
            number=number,
            origin=origin,
            destination=destination,
            departure=f"{minute // 60:02d}:{minute % 60:02d}",
            arrival=f"{end % 1440 // 60:02d}:{end % 60:02d}",
            arrival_day_offset=end // 1440,
            duration_minutes=duration,
        )
    return dict(sorted(result.items()))


def operating_days() -> list[date]:
    return [FIRST_DAY + timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)]


def _disruption(rng: random.Random, departs: datetime) -> tuple[bool, int]:
    """Whether the flight is cancelled, and its delay in minutes. Disruptions are known for
    past flights and announced for the next few days; further out nearly all are on time."""
    soon = departs <= NOW + timedelta(days=3)
    if rng.random() < (0.03 if soon else 0.004):
        return True, 0
    r = rng.random()
    if not soon:
        return False, 0
    if r < 0.08:
        return False, rng.randrange(120, 345, 15)
    if r < 0.25:
        return False, rng.randrange(10, 95, 5)
    return False, 0


def _fares(rng: random.Random, flight: Flight, day: date) -> Fares:
    # Fares climb as the date approaches and wobble from day to day.
    days_out = (day - NOW.date()).days
    factor = 1.0 + 0.04 * max(0, 10 - days_out) + rng.uniform(-0.12, 0.18)
    return Fares(**{c: round(base_fare(flight, c) * factor) for c in CABINS})


def _seats(rng: random.Random) -> Seats:
    return Seats(**{c: max(0, rng.randint(-_MAX_SEATS[c] // 5, _MAX_SEATS[c])) for c in CABINS})


def flight_days(rng: random.Random, schedule: dict[str, Flight]) -> dict[str, FlightDay]:
    result: dict[str, FlightDay] = {}
    for number, flight in schedule.items():
        for day in operating_days():
            departs = datetime.combine(day, time.fromisoformat(flight.departure))
            cancelled, delay = _disruption(rng, departs)
            actual = departs + timedelta(minutes=delay)
            if cancelled:
                record = FlightDay(status="cancelled")
            elif actual + timedelta(minutes=flight.duration_minutes) <= NOW:
                record = FlightDay(status="landed", delay_minutes=delay)
            elif actual <= NOW:
                record = FlightDay(status="departed", delay_minutes=delay)
            else:
                record = FlightDay(
                    status="delayed" if delay else "scheduled",
                    delay_minutes=delay,
                    seats=_seats(rng),
                    prices=_fares(rng, flight, day),
                )
            result[day_key(number, day.isoformat())] = record
    return result
