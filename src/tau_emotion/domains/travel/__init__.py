"""Travel: customer care of Wayfarer Journeys, a tour operator selling trip packages.

Packages with hotel rooms and departures, optional tours, bookings with travellers,
cancellations and date changes by fare rules, travel insurance and claims. Two databases
(two markets with different catalogues) keep training and evaluation customers apart.
"""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.travel.checks import CHECKS
from tau_emotion.domains.travel.db import TravelDB
from tau_emotion.domains.travel.generate import SPLIT
from tau_emotion.domains.travel.tools import TravelTools

DESCRIPTION = (
    "Customer care for a tour operator: trip packages, hotel rooms, tours, bookings with "
    "travellers, cancellations and date changes by fare rules, travel insurance and claims."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=TravelDB, tools=TravelTools, checks=CHECKS, generate=SPLIT
)
