"""Restaurant: guest services of Ember & Vine, a three-location restaurant group.

Table reservations, pickup and delivery orders with allergen-aware menus, loyalty points,
refunds and complaints, and private events with deposits. Two databases (two cities) keep
training and evaluation customers apart.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.domains.kit.split import SPLIT_DATABASE
from tau_emotion.domains.restaurant.checks import CHECKS
from tau_emotion.domains.restaurant.db import RestaurantDB
from tau_emotion.domains.restaurant.generate import SPLIT
from tau_emotion.domains.restaurant.tools import RestaurantTools

DOMAIN = Domain(
    name="restaurant",
    description=(
        "Guest services for a restaurant group: reservations, menus and allergens, pickup and "
        "delivery orders, loyalty points, refunds and complaints, private events."
    ),
    root=Path(__file__).parent,
    db_model=RestaurantDB,
    toolset=RestaurantTools,
    databases=SPLIT.databases(),
    split_database=SPLIT_DATABASE,
    checks=CHECKS,
)
