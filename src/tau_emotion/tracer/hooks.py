"""The few parameters no name rule can fill: each hook reads an earlier output's own format.

A hook returns whole argument fragments (several parameters chosen together), best first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tau_emotion.tracer.scene import Choice, Scene

Hook = Callable[[str, Scene], list[dict[str, Choice]]]


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


def _movie_seats(tool: str, scene: Scene) -> list[dict[str, Choice]]:
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


HOOKS: dict[tuple[str, str], Hook] = {
    ("movie", "book_tickets"): _movie_seats,
    ("movie", "change_seats"): _movie_seats,
    ("movie", "exchange_booking"): _movie_seats,
}


def hook_choices(domain: str, tool: str, scene: Scene) -> list[dict[str, Choice]]:
    hook = HOOKS.get((domain, tool))
    return hook(tool, scene) if hook else []
