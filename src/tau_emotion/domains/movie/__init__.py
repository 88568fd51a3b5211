"""Lumen Cinemas: showtimes and seats, bookings, exchanges and refunds, concessions,
film passes and Lumen Club memberships."""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.movie.checks import CHECKS
from tau_emotion.domains.movie.db import MovieDB
from tau_emotion.domains.movie.generate import SPLIT
from tau_emotion.domains.movie.tools import MovieTools

DESCRIPTION = (
    "Customer service of a cinema chain: showtimes and seat maps, ticket bookings, seat changes, "
    "exchanges, cancellations and refunds, concessions, film passes and memberships."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=MovieDB, tools=MovieTools, checks=CHECKS, generate=SPLIT
)
