"""Travel: customer care of Wayfarer Journeys, a tour operator selling trip packages.

Packages with hotel rooms and departures, optional tours, bookings with travellers,
cancellations and date changes by fare rules, travel insurance and claims. Two databases
(two markets with different catalogues) keep training and evaluation customers apart.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.domains.kit.split import SPLIT_DATABASE
from tau_emotion.domains.travel.checks import CHECKS
from tau_emotion.domains.travel.db import TravelDB
from tau_emotion.domains.travel.generate import SPLIT
from tau_emotion.domains.travel.tools import TravelTools

DOMAIN = Domain(
    name="travel",
    description=(
        "Customer care for a tour operator: trip packages, hotel rooms, tours, bookings with "
        "travellers, cancellations and date changes by fare rules, travel insurance and claims."
    ),
    root=Path(__file__).parent,
    db_model=TravelDB,
    toolset=TravelTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
