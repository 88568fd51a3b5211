"""Word pools for the movie generator. Train and eval draw from disjoint pools (surnames,
places, titles, phone area codes) so that no identifier appears in both databases."""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("movie")

EMAIL_DOMAINS = names.email_domains("test")

INCIDENTS = (
    "Projector failure; the film stopped 40 minutes in and did not resume.",
    "Sound system cut out for about 25 minutes in the second half.",
    "Fire alarm evacuation; the screening was abandoned after 55 minutes.",
    "Picture out of focus for the whole screening; staff could not fix it.",
    "Wrong film shown for the first 15 minutes; the screening restarted late.",
)

TRAIN_SURNAMES = names.family("movie.train")

EVAL_SURNAMES = names.family("movie.eval")


@dataclass(frozen=True)
class Series:
    """What makes one database's identifiers its own."""

    digit: str
    """Leading digit of every numeric id (customers, showtimes, bookings, ledger...)."""
    seed: int
    surnames: tuple[str, ...]
    cities: tuple[tuple[str, str, str], ...]
    """(city, zip prefix, phone area code)."""
    sites: tuple[tuple[str, str], ...]
    """(site, city): the cinema is called 'Lumen <site>'."""
    titles: tuple[tuple[str, str, str], ...]
    """(title, rating, genre)."""
    card_last4: tuple[int, int]
    """Range the last four card digits are drawn from."""


TRAIN = Series(
    digit="1",
    seed=1101,
    surnames=TRAIN_SURNAMES,
    cities=(
        ("Maple Falls", "481", "517"),
        ("Cedar Bluff", "482", "616"),
        ("Port Alden", "483", "269"),
    ),
    sites=(
        ("Riverside", "Maple Falls"),
        ("Old Mill", "Cedar Bluff"),
        ("Lakefront", "Port Alden"),
        ("Cedar Commons", "Cedar Bluff"),
    ),
    titles=(
        ("The Lantern Keeper", "PG", "drama"),
        ("Orbit of Ash", "PG-13", "science fiction"),
        ("Paper Boats", "G", "animation"),
        ("Night Shift at Harlow", "R", "thriller"),
        ("Grandma Goes West", "PG", "comedy"),
        ("Iron Tide", "PG-13", "action"),
        ("The Quiet Cellar", "R", "horror"),
        ("Summer of Kites", "PG", "drama"),
        ("Pocket Dragons", "G", "animation"),
        ("Last Train to Velden", "PG-13", "thriller"),
        ("Salt and Honey", "R", "drama"),
        ("Velocity Nine", "PG-13", "action"),
    ),
    card_last4=(1000, 4999),
)

EVAL = Series(
    digit="6",
    seed=6607,
    surnames=EVAL_SURNAMES,
    cities=(
        ("Harbor City", "971", "503"),
        ("Juniper Springs", "972", "541"),
        ("Bellmont", "973", "458"),
    ),
    sites=(
        ("Harbor Point", "Harbor City"),
        ("Union Square", "Harbor City"),
        ("Juniper Hills", "Juniper Springs"),
        ("Bellmont Plaza", "Bellmont"),
    ),
    titles=(
        ("Harbor Lights", "PG", "drama"),
        ("The Clockmaker's Daughter", "PG", "drama"),
        ("Starfall Protocol", "PG-13", "science fiction"),
        ("Moss and Marmalade", "G", "animation"),
        ("Deadline at Dawn", "R", "thriller"),
        ("My Cousin the Astronaut", "PG", "comedy"),
        ("Redline Runners", "PG-13", "action"),
        ("The Hollow Choir", "R", "horror"),
        ("Wind Over Tamsin", "PG-13", "drama"),
        ("Little Lighthouse", "G", "animation"),
        ("Cold Case Cassidy", "R", "thriller"),
        ("Thunder Basin", "PG-13", "action"),
    ),
    card_last4=(5000, 9999),
)
