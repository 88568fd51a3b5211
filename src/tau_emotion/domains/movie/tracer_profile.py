"""What the Tracer needs to know about the movie domain beyond its code and data."""

from __future__ import annotations

import re

from tau_emotion.domains.movie.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import TracerSpec
from tau_emotion.tracer.ground.scene import Choice, Scene


def _free_seats(seat_map: dict[str, object]) -> list[list[str]]:
    """Rows of free seats from a seat map's 'A': '1-3, 5, 7' notation."""
    rows = seat_map.get("free_seats_by_row")
    out: list[list[str]] = []
    if not isinstance(rows, dict):
        return out
    for row, spec in rows.items():
        seats: list[str] = []
        for part in str(spec).split(","):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", part)
            if m:
                lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
                seats += [f"{row}{n}" for n in range(lo, hi + 1)]
        if seats:
            out.append(seats)
    return out


def seats_hook(tool: str, scene: Scene) -> list[dict[str, Choice]]:
    """Adjacent free seats of one row, as many as the booking holds (or a new party)."""
    seat_map = next((r for name, r in reversed(scene.results) if name == "get_seat_map"), None)
    if not isinstance(seat_map, dict):
        return []
    tickets = next(
        (
            r.get("tickets")
            for name, r in reversed(scene.results)
            if name == "get_booking" and isinstance(r, dict)
        ),
        None,
    )
    if tool == "book_tickets":
        count = scene.rng.choice((1, 2, 2, 3, 4))
    elif isinstance(tickets, list) and tickets:
        count = len(tickets)
    else:
        return []
    rows = [r for r in _free_seats(seat_map) if len(r) >= count]
    scene.rng.shuffle(rows)
    out: list[dict[str, Choice]] = []
    for row in rows[:4]:
        start = scene.rng.randrange(len(row) - count + 1)
        seats = row[start : start + count]
        frag = {"seats": Choice(seats, "seen", seat_map, scene.step - 1)}
        if tool == "book_tickets":
            frag["adult_tickets"] = Choice(count, "made")
        out.append(frag)
    return out


TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    known_codes={"booking_code": "booking_code"},
    hooks={"book_tickets": seats_hook, "change_seats": seats_hook, "exchange_booking": seats_hook},
    # Showtimes are searched by title; results name a film under "movie".
    param_aliases={"movie_title": ("movie", "title")},
    name_keys=("movie",),
)
