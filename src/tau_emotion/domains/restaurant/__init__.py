"""Restaurant: guest services of Ember & Vine, a three-location restaurant group.

Table reservations, pickup and delivery orders with allergen-aware menus, loyalty points,
refunds and complaints, and private events with deposits. Two databases (two cities) keep
training and evaluation customers apart.
"""

from __future__ import annotations

from tau_emotion.domains.kit.package import domain_package
from tau_emotion.domains.restaurant.checks import CHECKS
from tau_emotion.domains.restaurant.db import RestaurantDB
from tau_emotion.domains.restaurant.generate import SPLIT
from tau_emotion.domains.restaurant.tools import RestaurantTools

DESCRIPTION = (
    "Guest services for a restaurant group: reservations, menus and allergens, pickup and "
    "delivery orders, loyalty points, refunds and complaints, private events."
)

DOMAIN = domain_package(
    __file__, DESCRIPTION, db=RestaurantDB, tools=RestaurantTools, checks=CHECKS, generate=SPLIT
)
