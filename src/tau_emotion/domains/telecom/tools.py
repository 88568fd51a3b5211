"""The telecom tool set: read, billing and service tools over one shared state."""

from __future__ import annotations

from tau_emotion.domains.telecom.tools_billing import BillingTools
from tau_emotion.domains.telecom.tools_read import ReadTools
from tau_emotion.domains.telecom.tools_service import ServiceTools


class TelecomTools(ReadTools, BillingTools, ServiceTools):
    """All telecom tools; each group lives in its own module."""
