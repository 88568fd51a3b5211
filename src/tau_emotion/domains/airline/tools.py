"""The airline's tool set: read tools, booking and changes, compensation and hand-off."""

from __future__ import annotations

from tau_emotion.domains.airline.tools_change import ChangeTools
from tau_emotion.domains.airline.tools_read import ReadTools
from tau_emotion.domains.airline.tools_support import SupportTools


class AirlineTools(ReadTools, ChangeTools, SupportTools):
    """Every tool an airline agent can call (see the mixins for each group)."""
