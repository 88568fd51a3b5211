"""Policy checks of the restaurant domain, audited over a finished trajectory.

The tools enforce integrity: records exist, a table's size, seating time and covers, a
location's hours, a record's status, a payment that covers, the allergies on a profile. The
booking rules of policy.md (the no-show limit, one table per location and day, the booking
windows, the guarantee of a large party), the delivery minimum and the refund window are the
agent's to apply; the judged checks below audit them on the database as it stood before each
write. The others audit what only the conversation shows: who was authenticated, what the
guest agreed to, what was looked up first.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from tau_emotion.domains.checks import (
    Offer,
    PolicyCheck,
    judged,
    nothing_after_transfer,
    read_before_change,
    records_of_authenticated,
    session_checks,
    writes_and,
)
from tau_emotion.domains.common import calendar_date, money
from tau_emotion.domains.restaurant import ledger, rules
from tau_emotion.domains.restaurant.tools import RestaurantTools
from tau_emotion.errors import ToolError

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


def _no_shows(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    customer = tools._customer(args["customer_id"])
    missed = tools.recent_no_shows(customer.id)
    if missed >= rules.NO_SHOW_LIMIT:
        return (
            f"{customer.id} missed {missed} reservations in the last "
            f"{rules.NO_SHOW_WINDOW_DAYS} days"
        )
    return None


def _one_table(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    customer = tools._customer(args["customer_id"])
    location = tools._location(args["location_id"])
    held = tools.table_held(customer.id, location.id, args["date"])
    if held is not None:
        return f"{customer.id} already holds {held} at {location.id} on {args['date']}"
    return None


def _booking_window(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    if "reservation_code" in args:
        r = tools._reservation(args["reservation_code"])
        current = rules.parse_dt(r.date, r.time)
        if rules.hours_until(current) < rules.MIN_LEAD_HOURS:
            return f"{r.code} starts in less than {rules.MIN_LEAD_HOURS} hours"
    day = calendar_date(args["date"])
    try:
        seating = rules.parse_dt(day.isoformat(), args["time"])
    except ValueError as error:  # the tool refuses it: not a seating time
        raise ToolError(f"{args['time']!r} is not a time") from error
    return rules.outside_booking_window(seating)


def _guarantee(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    card = args.get("guarantee_payment_method_id", "")
    if "reservation_code" in args:
        card = card or tools._reservation(args["reservation_code"]).guarantee_payment_method_id
    party = int(args["party_size"])
    if party >= rules.GUARANTEE_PARTY and not card:
        return f"a party of {party} and no credit card to guarantee the table"
    return None


def _delivery_minimum(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    if args["fulfillment"] != "delivery":
        return None
    items: Mapping[str, int] = args["items"]
    unknown = sorted(set(items) - set(tools.db.menu_items))
    if unknown:  # the tool refuses it: not a write this rule judges
        raise ToolError(f"item {unknown[0]} is not on the menu")
    prices = (tools.db.menu_items[i].price * int(n) for i, n in items.items())
    subtotal = money(sum(prices, Decimal(0)))
    if subtotal < rules.DELIVERY_MIN_SUBTOTAL:
        return f"a delivery with a food subtotal of {subtotal:.2f}"
    return None


def _pickup(tools: RestaurantTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """The same order for pickup: the minimum is a delivery's alone (policy.md, Orders)."""
    return Offer("place_order", {**args, "fulfillment": "pickup"}, "make it a pickup order instead")


def _refund_window(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    order = tools._order(args["order_number"])
    if ledger.past_refund_window(order, rules.NOW):
        return (
            f"{order.number} was completed at {order.completed_at}, more than "
            f"{rules.REFUND_WINDOW_HOURS} hours ago"
        )
    return None


def _event_window(tools: RestaurantTools, args: Mapping[str, Any]) -> str | None:
    return rules.outside_event_window(calendar_date(args["date"]))


TABLE_WRITES = ("create_reservation", "modify_reservation")

# The booking, delivery and refund rules of policy.md, judged on the database before the write.
JUDGED: list[PolicyCheck] = [
    judged(
        "restaurant.no_show_limit",
        "Guests with 2 or more no-shows in the last 90 days cannot book a table ahead.",
        ["create_reservation"],
        _no_shows,
    ),
    judged(
        "restaurant.one_table_per_day",
        "A guest holds at most one booked table per location per day.",
        ["create_reservation"],
        _one_table,
    ),
    judged(
        "restaurant.booking_window",
        "Book or change a table at least 2 hours before the seating (and before the current "
        "seating) and at most 60 days ahead.",
        TABLE_WRITES,
        _booking_window,
    ),
    judged(
        "restaurant.large_party_guarantee",
        "A party of 6 or more is guaranteed with a credit card on the guest's profile.",
        TABLE_WRITES,
        _guarantee,
    ),
    judged(
        "restaurant.delivery_minimum",
        "A delivery needs a food subtotal of at least 20.00.",
        ["place_order"],
        _delivery_minimum,
        offer=_pickup,
    ),
    judged(
        "restaurant.refund_window",
        "Refund items only when the problem is reported within 48 hours of completion.",
        ["refund_order_items"],
        _refund_window,
    ),
    judged(
        "restaurant.event_booking_window",
        "Book a private event 7 to 180 days ahead.",
        ["book_private_event"],
        _event_window,
    ),
]

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
    *JUDGED,
]
