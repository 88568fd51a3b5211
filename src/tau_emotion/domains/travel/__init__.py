"""Travel: customer care of Wayfarer Journeys, a tour operator selling trip packages.

Packages with hotel rooms and departures, optional tours, bookings with travellers,
cancellations and date changes by fare rules, travel insurance and claims. Two databases
(two markets with different catalogues) keep training and evaluation customers apart.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Database, Domain
from tau_emotion.domains.travel.checks import CHECKS
from tau_emotion.domains.travel.db import TravelDB
from tau_emotion.domains.travel.generate import generate_eval, generate_train
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
    databases={
        "train": Database("db_train.json", generate_train),
        "eval": Database("db_eval.json", generate_eval),
    },
    split_database={"train": "train", "test": "eval"},
    checks=CHECKS,
)
