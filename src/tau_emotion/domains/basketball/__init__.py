"""Basketball: the fan-services desk of a professional basketball club.

Fans call about single-game tickets (buying, exchanging, refunds for cancelled or postponed
games), season passes, team-store orders and youth camp registrations.
"""

from __future__ import annotations

from tau_emotion.domains.basketball.checks import CHECKS
from tau_emotion.domains.basketball.db import BasketballDB
from tau_emotion.domains.basketball.generate import SPLIT
from tau_emotion.domains.basketball.tools import ClubTools
from tau_emotion.domains.kit.package import domain_package

DESCRIPTION = (
    "Fan-services desk of a basketball club: game tickets and exchanges, refunds for "
    "cancelled games, season passes, team-store orders and youth camps."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=BasketballDB, tools=ClubTools, checks=CHECKS, generate=SPLIT
)
