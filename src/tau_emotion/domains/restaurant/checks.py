"""Policy rules of the restaurant that no single tool can enforce, audited per trajectory."""

from __future__ import annotations

from tau_emotion.domains.checks import (
    PolicyCheck,
    nothing_after_transfer,
    read_before_change,
    records_of_authenticated,
    session_checks,
    writes_and,
)

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
ACCOUNT_READS = ("get_customer_details", "get_reservation", "get_order", "get_private_event")

# The reads that show a record, by the argument naming it; and which read each change needs.
RECORD_READS = {
    "get_reservation": "reservation_code",
    "get_order": "order_number",
    "get_private_event": "event_id",
}
READ_FIRST = {
    "modify_reservation": "get_reservation",
    "cancel_reservation": "get_reservation",
    "cancel_order": "get_order",
    "refund_order_items": "get_order",
    "file_complaint": "get_order",
    "cancel_private_event": "get_private_event",
}


CHECKS: list[PolicyCheck] = [
    *session_checks("restaurant", AUTH_TOOLS, writes_and(ACCOUNT_READS)),
    records_of_authenticated(
        "restaurant.own_records_only",
        "Show or change only records that belong to the authenticated guest.",
        AUTH_TOOLS,
        writes_and(ACCOUNT_READS),
    ),
    read_before_change(
        "restaurant.read_before_change",
        "Look up a reservation, order or event before changing, refunding or cancelling it.",
        RECORD_READS,
        READ_FIRST,
    ),
    nothing_after_transfer(
        "restaurant.transfer_ends_conversation",
        "After transferring to a human agent, make no further tool calls.",
    ),
]
