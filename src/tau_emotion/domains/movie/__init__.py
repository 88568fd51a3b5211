"""Lumen Cinemas: showtimes and seats, bookings, exchanges and refunds, concessions,
film passes and Lumen Club memberships."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.domains.kit.split import SPLIT_DATABASE
from tau_emotion.domains.movie.checks import CHECKS
from tau_emotion.domains.movie.db import MovieDB
from tau_emotion.domains.movie.generate import SPLIT
from tau_emotion.domains.movie.tools import MovieTools

DOMAIN = Domain(
    name="movie",
    description=(
        "Customer service of a cinema chain: showtimes and seat maps, ticket bookings, seat "
        "changes, exchanges, cancellations and refunds, concessions, film passes and "
        "memberships."
    ),
    root=Path(__file__).parent,
    db_model=MovieDB,
    toolset=MovieTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
