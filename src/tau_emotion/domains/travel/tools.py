"""The travel tool set: one class assembled from the per-area mixins."""

from __future__ import annotations

from tau_emotion.domains.travel.tools_account import AccountTools
from tau_emotion.domains.travel.tools_bookings import BookingTools
from tau_emotion.domains.travel.tools_catalogue import CatalogueTools
from tau_emotion.domains.travel.tools_extras import ExtraTools


class TravelTools(AccountTools, CatalogueTools, BookingTools, ExtraTools):
    """Every tool a Wayfarer Journeys customer-care agent can call."""
