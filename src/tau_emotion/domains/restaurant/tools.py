"""The restaurant's tool set: one class assembled from the per-area mixins."""

from __future__ import annotations

from tau_emotion.domains.restaurant.tools_account import AccountTools
from tau_emotion.domains.restaurant.tools_events import EventTools
from tau_emotion.domains.restaurant.tools_orders import OrderTools
from tau_emotion.domains.restaurant.tools_tables import TableTools


class RestaurantTools(AccountTools, TableTools, OrderTools, EventTools):
    """Every tool an Ember & Vine guest-services agent can call."""
