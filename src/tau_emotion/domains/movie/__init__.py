"""Lumen Cinemas: showtimes and seats, bookings, exchanges and refunds, concessions,
film passes and Lumen Club memberships."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Database, Domain
from tau_emotion.domains.movie.checks import CHECKS
from tau_emotion.domains.movie.db import MovieDB
from tau_emotion.domains.movie.generate import generate_eval, generate_train
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
    databases={
        "train": Database("db_train.json", generate_train),
        "eval": Database("db_eval.json", generate_eval),
    },
    split_database={"train": "train", "test": "eval"},
    checks=CHECKS,
)
