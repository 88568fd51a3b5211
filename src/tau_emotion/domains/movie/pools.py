"""Word pools for the movie generator. Train and eval draw from disjoint pools (surnames,
places, titles, phone area codes) so that no identifier appears in both databases."""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.names import FamilyNamed
from tau_emotion.domains.kit.reference import Reference

FIRST_NAMES = names.given("movie")

EMAIL_DOMAINS = names.email_domains("test")

INCIDENTS = (
    "Projector failure; the film stopped 40 minutes in and did not resume.",
    "Sound system cut out for about 25 minutes in the second half.",
    "Fire alarm evacuation; the screening was abandoned after 55 minutes.",
    "Picture out of focus for the whole screening; staff could not fix it.",
    "Wrong film shown for the first 15 minutes; the screening restarted late.",
)


@dataclass(frozen=True)
class Series(FamilyNamed):
    """What makes one database's identifiers its own."""

    digit: str
    """Leading digit of every numeric id (customers, showtimes, bookings, ledger...)."""
    seed: int
    family_names: str
    """Its own family-name list in the shared name pool."""
    cities: tuple[tuple[str, str, str], ...]
    """(city, zip prefix, phone area code)."""
    sites: tuple[tuple[str, str], ...]
    """(site, city): the cinema is called 'Lumen <site>'."""
    titles: tuple[tuple[str, str, str], ...]
    """(title, rating, genre)."""
    card_last4: tuple[int, int]
    """Range the last four card digits are drawn from."""


_REFERENCE = Reference(__package__ or __name__, "series.json")
TRAIN = _REFERENCE.table("train", Series)
EVAL = _REFERENCE.table("eval", Series)
