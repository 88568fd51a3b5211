"""Basketball: the fan-services desk of a professional basketball club.

Fans call about single-game tickets (buying, exchanging, refunds for cancelled or postponed
games), season passes, team-store orders and youth camp registrations.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.domains.basketball.checks import CHECKS
from tau_emotion.domains.basketball.db import BasketballDB
from tau_emotion.domains.basketball.generate import SPLIT
from tau_emotion.domains.basketball.tools import ClubTools
from tau_emotion.domains.kit.split import SPLIT_DATABASE

DOMAIN = Domain(
    name="basketball",
    description=(
        "Fan-services desk of a basketball club: game tickets and exchanges, refunds for "
        "cancelled games, season passes, team-store orders and youth camps."
    ),
    root=Path(__file__).parent,
    db_model=BasketballDB,
    toolset=ClubTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
