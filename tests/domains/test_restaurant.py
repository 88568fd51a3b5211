"""Restaurant domain: every tool's success and refusal paths, the policy checks, and the size and
separation of the generated databases."""

from __future__ import annotations

from typing import Any

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.restaurant.db import RestaurantDB

DESK = Desk("restaurant", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
call, refuses, patch = DESK.call_json, DESK.refuses, DESK.patch
breaks, allows = DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


# ---------------------------------------------------------------- identity and profile


def test_lookups_authenticate() -> None:
    assert call("find_customer_by_email", email=" Anton.Ellingsen26@mail.example.com ") == {
        "customer_id": "C50008"
    }
    assert call("find_customer_by_phone", phone="(512) 517-1293") == {"customer_id": "C50008"}
    found = call("find_customer_by_name_and_zip", full_name="anton  ellingsen", zip_code="78701")
    assert found == {"customer_id": "C50008"}


def test_lookup_refusals() -> None:
    refuses("no customer profile has that email", "find_customer_by_email", email="x@example.com")
    refuses("10 digits", "find_customer_by_phone", phone="517-1293")
    refuses("no customer profile has that phone", "find_customer_by_phone", phone="512-000-0000")
    refuses(
        "name and zip",
        "find_customer_by_name_and_zip",
        full_name="Anton Ellingsen",
        zip_code="78702",
    )


def test_customer_details_and_locations() -> None:
    details = call("get_customer_details", customer_id="C50008")
    assert details["customer_id"] == "C50008"
    assert [r["status"] for r in details["reservations"]].count("no_show") == 2
    assert details["orders"][0]["total"] == "79.50"
    refuses("no customer with id", "get_customer_details", customer_id="C99999")
    locations = call("list_locations")
    assert [loc["id"] for loc in locations] == ["L51", "L52", "L53"]


def test_transfer_records_handoff() -> None:
    assert "TR0001" in call("transfer_to_human_agents", summary="guest feels ill")
    assert "TR0002" in call("transfer_to_human_agents", summary="again")
    refuses("summary", "transfer_to_human_agents", summary="  ")


# ---------------------------------------------------------------- reservations


def test_check_availability() -> None:
    tables = call("check_availability", location_id="L51", date="2025-06-20", party_size=4)
    assert "19:00" not in tables["available_times"] and "20:00" in tables["available_times"]
    today = call("check_availability", location_id="L51", date="2025-06-14", party_size=2)
    assert min(today["available_times"]) >= "17:00"  # two hours' notice from 15:00
    rooms = call("check_availability", location_id="L52", date="2025-07-26", party_size=20)
    assert [r["id"] for r in rooms["free_private_rooms"]] == ["L52-A"]
    refuses("no location", "check_availability", location_id="L99", date="2025-06-20", party_size=2)
    refuses("YYYY-MM-DD", "check_availability", location_id="L51", date="20/06/2025", party_size=2)
    refuses(
        "not a calendar date",
        "check_availability",
        location_id="L51",
        date="2025-02-30",
        party_size=2,
    )
    refuses("at least 1", "check_availability", location_id="L51", date="2025-06-20", party_size=0)
    refuses(
        "closed on mondays",
        "check_availability",
        location_id="L53",
        date="2025-06-16",
        party_size=2,
    )


def test_get_reservation_shows_fee() -> None:
    assert (
        call("get_reservation", reservation_code="r500487")["cancellation_fee_if_cancelled_now"]
        == "120.00"
    )
    assert (
        call("get_reservation", reservation_code="R500301")["cancellation_fee_if_cancelled_now"]
        == "0.00"
    )
    refuses("no reservation", "get_reservation", reservation_code="R000000")


BOOK = {"customer_id": "C50187", "location_id": "L51", "date": "2025-06-20", "party_size": 4}


def test_create_reservation() -> None:
    made = call("create_reservation", time="20:00", occasion="birthday", **BOOK)
    assert made["code"] == "R500805" and made["status"] == "booked"
    assert made["guarantee_payment_method_id"] is None
    big = call(
        "create_reservation",
        customer_id="C50023",
        location_id="L53",
        date="2025-06-21",
        time="18:00",
        party_size=7,
        seating="patio",
        guarantee_payment_method_id="PM500067",
    )
    assert big["code"] == "R500806" and big["guarantee_payment_method_id"] == "PM500067"


@pytest.mark.parametrize(
    ("rule", "customer_id", "time", "said"),
    [
        ("restaurant.no_show_limit", "C50008", "20:00", "missed 2 reservations"),
        ("restaurant.one_table_per_day", "C50143", "12:00", "R500346"),
    ],
)
def test_guest_limits_are_the_agents_to_apply(
    rule: str, customer_id: str, time: str, said: str
) -> None:
    allows(rule, "create_reservation", **BOOK, time="20:00")
    reason = breaks(rule, "create_reservation", **{**BOOK, "customer_id": customer_id}, time=time)
    assert said in reason


def test_booking_window_is_the_agents_to_apply() -> None:
    rule = "restaurant.booking_window"
    allows(rule, "create_reservation", **BOOK, time="20:00")
    soon = {**BOOK, "date": "2025-06-14"}
    assert "less than 2 hours" in breaks(rule, "create_reservation", **soon, time="16:30")
    far = {**BOOK, "date": "2025-08-20"}
    assert "more than 60 days" in breaks(rule, "create_reservation", **far, time="19:00")
    allows(
        rule,
        "modify_reservation",
        reservation_code="R500327",
        date="2025-06-20",
        time="19:30",
        party_size=2,
    )
    change = {"date": "2025-06-17", "time": "19:30", "party_size": 5}
    patch("reservations", "R500301", date="2025-06-14", time="16:30")
    breaks(rule, "modify_reservation", reservation_code="R500301", **change)


def test_large_party_guarantee_is_the_agents_to_apply() -> None:
    rule = "restaurant.large_party_guarantee"
    six = {**BOOK, "customer_id": "C50023", "party_size": 6}
    allows(rule, "create_reservation", **six, time="12:00", guarantee_payment_method_id="PM500067")
    breaks(rule, "create_reservation", **{**BOOK, "party_size": 6}, time="12:00")
    assert DESK.new_rows("reservations")[-1].guarantee_payment_method_id is None
    grow = {"reservation_code": "R500327", "date": "2025-06-20", "time": "19:30"}
    allows(rule, "modify_reservation", **grow, party_size=5)
    breaks(rule, "modify_reservation", **grow, party_size=6)


def test_create_reservation_refusals() -> None:
    refuses("private event", "create_reservation", **{**BOOK, "party_size": 11}, time="20:00")
    refuses("1 to 10", "create_reservation", **{**BOOK, "party_size": 0}, time="20:00")
    refuses(
        "closed on mondays",
        "create_reservation",
        **{**BOOK, "location_id": "L53", "date": "2025-06-16"},
        time="20:00",
    )
    refuses("not a seating time", "create_reservation", **BOOK, time="19:15")
    refuses("not a seating time", "create_reservation", **BOOK, time="21:30")
    refuses("already begun", "create_reservation", **{**BOOK, "date": "2025-06-14"}, time="14:30")
    refuses("room for 1 more", "create_reservation", **BOOK, time="19:00")
    refuses(
        "not a gift card",
        "create_reservation",
        **{**BOOK, "customer_id": "C50023", "party_size": 6},
        time="12:00",
        guarantee_payment_method_id="PM500069",
    )
    refuses(
        "not on this customer's profile",
        "create_reservation",
        **{**BOOK, "customer_id": "C50023", "party_size": 6},
        time="12:00",
        guarantee_payment_method_id="PM500001",
    )


def test_modify_reservation() -> None:
    moved = call(
        "modify_reservation",
        reservation_code="R500301",
        date="2025-06-17",
        time="19:30",
        party_size=5,
    )
    assert (moved["date"], moved["time"], moved["party_size"]) == ("2025-06-17", "19:30", 5)
    grown = call(
        "modify_reservation",
        reservation_code="R500327",
        date="2025-06-20",
        time="19:30",
        party_size=6,
        guarantee_payment_method_id="PM500427",
    )
    assert grown["guarantee_payment_method_id"] == "PM500427"
    shrunk = call(
        "modify_reservation",
        reservation_code="R500327",
        date="2025-06-20",
        time="19:30",
        party_size=2,
    )
    assert shrunk["guarantee_payment_method_id"] is None


def test_modify_reservation_refusals() -> None:
    refuses(
        "is completed",
        "modify_reservation",
        reservation_code="R500466",
        date="2025-06-20",
        time="19:30",
        party_size=2,
    )
    patch("reservations", "R500301", date="2025-06-14", time="13:00")
    refuses(
        "already started",
        "modify_reservation",
        reservation_code="R500301",
        date="2025-06-20",
        time="19:30",
        party_size=2,
    )
    refuses(
        "same as the current",
        "modify_reservation",
        reservation_code="R500327",
        date="2025-06-20",
        time="19:00",
        party_size=4,
    )
    refuses(
        "room for 4 more",
        "modify_reservation",
        reservation_code="R500327",
        date="2025-06-20",
        time="19:00",
        party_size=6,
    )


def test_cancel_reservation() -> None:
    late = call("cancel_reservation", reservation_code="R500487")
    assert (late["status"], late["late_cancel_fee"]) == ("cancelled", "120.00")
    small = call("cancel_reservation", reservation_code="R500334")
    assert small["late_cancel_fee"] == "0.00"
    refuses("is cancelled", "cancel_reservation", reservation_code="R500334")
    patch("reservations", "R500301", date="2025-06-14", time="13:00")
    refuses("already started", "cancel_reservation", reservation_code="R500301")


def test_no_late_fee_without_a_guarantee_card() -> None:
    """A large party booked without a card (against the policy) has no card to charge."""
    patch("reservations", "R500487", guarantee_payment_method_id=None)
    shown = call("get_reservation", reservation_code="R500487")
    assert shown["cancellation_fee_if_cancelled_now"] == "0.00"
    assert call("cancel_reservation", reservation_code="R500487")["late_cancel_fee"] == "0.00"
    tonight = {**BOOK, "date": "2025-06-14", "party_size": 6}
    made = call("create_reservation", time="21:00", **tonight)
    assert made["guarantee_payment_method_id"] is None
    assert call("cancel_reservation", reservation_code=made["code"])["late_cancel_fee"] == "0.00"


# ---------------------------------------------------------------- menu and orders


def test_get_menu_filters() -> None:
    full = call("get_menu", location_id="L53")
    assert "M5021" not in {m["id"] for m in full}  # truffle fries are off at Hyde Park
    vegan = call("get_menu", location_id="L53", dietary_tag="Vegan")
    assert all("vegan" in m["dietary_tags"] for m in vegan)
    no_nuts = call("get_menu", location_id="L51", exclude_allergens=["tree_nuts", "PEANUTS"])
    assert not any({"tree_nuts", "peanuts"} & set(m["allergens"]) for m in no_nuts)
    refuses("no location", "get_menu", location_id="L00")


def test_get_order() -> None:
    order = call("get_order", order_number="o500880")
    assert order["minutes_late"] == 25 and order["refund_ids"] == []
    refuses("no order", "get_order", order_number="O000001")


ORDER = {"customer_id": "C50094", "location_id": "L51", "payment_method_id": "PM500280"}


def test_place_order() -> None:
    placed = call(
        "place_order",
        fulfillment="delivery",
        items={"M5011": 1, "M5013": 1, "M5028": 1},
        redeem_points=300,
        **ORDER,
    )
    assert (placed["number"], placed["total"], placed["delivery_fee"]) == (
        "O500901",
        "47.49",
        "4.99",
    )
    assert placed["promised_at"] == "2025-06-14T15:45"
    assert call("get_customer_details", customer_id="C50094")["loyalty_points"] == 1020
    gift = call(
        "place_order",
        customer_id="C50001",
        location_id="L53",
        fulfillment="pickup",
        items={"M5028": 3, "M5015": 1},
        payment_method_id="PM500003",
    )
    assert gift["total"] == "42.00"
    balance = call("get_customer_details", customer_id="C50001")["payment_methods"][1]["balance"]
    assert balance == "58.00"


def test_gold_member_delivers_free() -> None:
    gold = ENV.state.table("customers")["C50003"]
    assert gold.loyalty_tier == "gold"
    placed = call(
        "place_order",
        customer_id="C50003",
        location_id="L52",
        fulfillment="delivery",
        items={"M5014": 1},
        payment_method_id=gold.payment_methods[0].id,
    )
    assert placed["delivery_fee"] == "0.00"


def test_delivery_minimum_is_the_agents_to_apply() -> None:
    rule, delivery = "restaurant.delivery_minimum", {**ORDER, "fulfillment": "delivery"}
    allows(rule, "place_order", **delivery, items={"M5011": 1, "M5013": 1, "M5028": 1})
    allows(rule, "place_order", **{**ORDER, "fulfillment": "pickup"}, items={"M5031": 1})
    offer = DESK.offers(rule, "place_order", **delivery, items={"M5031": 1})
    assert offer.arguments == {**ORDER, "fulfillment": "pickup", "items": {"M5031": 1}}
    assert "subtotal of" in breaks(rule, "place_order", **delivery, items={"M5031": 1})


def test_place_order_refusals() -> None:
    pickup = {**ORDER, "fulfillment": "pickup"}
    refuses("at least one item", "place_order", items={}, **pickup)
    refuses("not on today's menu", "place_order", items={"M9999": 1}, **pickup)
    refuses("not on today's menu", "place_order", items={"M5030": 1}, **pickup)
    refuses("quantity", "place_order", items={"M5011": 0}, **pickup)
    refuses("quantity", "place_order", items={"M5011": 21}, **pickup)
    refuses(
        "contains shellfish",
        "place_order",
        customer_id="C50051",
        location_id="L51",
        fulfillment="pickup",
        items={"M5012": 1},
        payment_method_id="PM500151",
    )
    refuses(
        "does not deliver to zip code 78721",
        "place_order",
        customer_id="C50051",
        location_id="L51",
        fulfillment="delivery",
        items={"M5010": 1},
        payment_method_id="PM500151",
    )
    refuses("blocks of 100", "place_order", items={"M5011": 1}, redeem_points=150, **pickup)
    refuses("only 1320 points", "place_order", items={"M5011": 1}, redeem_points=1400, **pickup)
    refuses(
        "more than the food subtotal",
        "place_order",
        items={"M5031": 1},
        redeem_points=100,
        **pickup,
    )
    refuses(
        "not on this customer's profile",
        "place_order",
        **{**pickup, "payment_method_id": "PM500001"},
        items={"M5011": 1},
    )
    refuses(
        "has 100.00 left",
        "place_order",
        customer_id="C50001",
        location_id="L51",
        fulfillment="pickup",
        items={"M5014": 3},
        payment_method_id="PM500003",
    )
    patch("locations", "L51", closed_on=("saturday",))
    refuses("closed on saturdays", "place_order", items={"M5011": 1}, **pickup)
    patch("locations", "L51", closed_on=(), open_time="17:00")
    refuses("closed now", "place_order", items={"M5011": 1}, **pickup)


def test_cancel_order() -> None:
    cancelled = call("cancel_order", order_number="O500898")
    assert (cancelled["refund_amount"], cancelled["points_returned"]) == ("55.49", 200)
    assert call("get_customer_details", customer_id="C50014")["loyalty_points"] == 1470
    refuses("only orders not yet being prepared", "cancel_order", order_number="O500896")
    refuses("is cancelled", "cancel_order", order_number="O500898")


def test_refund_order_items() -> None:
    refund = call(
        "refund_order_items", order_number="O500861", item_ids=["M5012"], reason="quality_issue"
    )
    assert (refund["id"], refund["amount"]) == ("RF5046", "26.00")
    order = call("get_order", order_number="O500861")
    assert order["refunded_amount"] == "26.00" and order["refund_ids"] == ["RF5046"]


def test_refund_capped_by_points_discount() -> None:
    # O500890 paid 10.50 after 300 points; refunding every line pays back at most 10.50.
    lines = [line["item_id"] for line in call("get_order", order_number="O500890")["lines"]]
    patch("orders", "O500890", status="completed", completed_at="2025-06-14T14:50")
    refund = call(
        "refund_order_items", order_number="O500890", item_ids=lines, reason="missing_item"
    )
    assert refund["amount"] == "10.50"


def test_refund_window_is_the_agents_to_apply() -> None:
    rule = "restaurant.refund_window"
    fresh_one = {"item_ids": ["M5012"], "reason": "quality_issue"}
    allows(rule, "refund_order_items", order_number="O500861", **fresh_one)
    old = {"item_ids": ["M5001"], "reason": "missing_item"}
    assert "48 hours ago" in breaks(rule, "refund_order_items", order_number="O500777", **old)


def test_refund_order_items_refusals() -> None:
    refuses(
        "only for orders that were picked up or delivered",
        "refund_order_items",
        order_number="O500898",
        item_ids=["M5011"],
        reason="missing_item",
    )
    refuses(
        "at least one item",
        "refund_order_items",
        order_number="O500861",
        item_ids=[],
        reason="missing_item",
    )
    refuses(
        "listed twice",
        "refund_order_items",
        order_number="O500861",
        item_ids=["M5012", "M5012"],
        reason="missing_item",
    )
    refuses(
        "not on order",
        "refund_order_items",
        order_number="O500861",
        item_ids=["M5001"],
        reason="missing_item",
    )
    refuses(
        "already refunded",
        "refund_order_items",
        order_number="O500865",
        item_ids=["M5034"],
        reason="missing_item",
    )


def test_file_complaint() -> None:
    late = call(
        "file_complaint",
        customer_id="C50206",
        category="late_delivery",
        location_id="L51",
        order_number="O500880",
    )
    assert (late["id"], late["points_awarded"], late["loyalty_points_balance"]) == (
        "CP5044",
        150,
        440,
    )
    on_time = call(
        "file_complaint",
        customer_id="C50004",
        category="late_delivery",
        location_id=call("get_order", order_number="O500875")["location_id"],
        order_number="O500875",
    )
    assert on_time["points_awarded"] == 0
    visit = call("file_complaint", customer_id="C50004", category="cleanliness", location_id="L53")
    assert visit["order_number"] is None and visit["id"] == "CP5046"


def test_old_late_delivery_earns_no_points() -> None:
    patch("orders", "O500880", completed_at="2025-06-12T14:00", promised_at="2025-06-12T13:00")
    late = call(
        "file_complaint",
        customer_id="C50206",
        category="late_delivery",
        location_id="L51",
        order_number="O500880",
    )
    assert late["points_awarded"] == 0


def test_file_complaint_refusals() -> None:
    refuses(
        "does not belong",
        "file_complaint",
        customer_id="C50008",
        category="food_quality",
        location_id="L51",
        order_number="O500880",
    )
    refuses(
        "came from location L51",
        "file_complaint",
        customer_id="C50206",
        category="food_quality",
        location_id="L52",
        order_number="O500880",
    )
    refuses(
        "needs a delivered delivery order",
        "file_complaint",
        customer_id="C50206",
        category="late_delivery",
        location_id="L51",
    )
    refuses(
        "needs a delivered delivery order",
        "file_complaint",
        customer_id="C50233",
        category="late_delivery",
        location_id="L51",
        order_number="O500861",
    )
    call(
        "file_complaint",
        customer_id="C50206",
        category="late_delivery",
        location_id="L51",
        order_number="O500880",
    )
    refuses(
        "exists",
        "file_complaint",
        customer_id="C50206",
        category="late_delivery",
        location_id="L51",
        order_number="O500880",
    )


# ---------------------------------------------------------------- private events


EVENT = {
    "customer_id": "C50166",
    "location_id": "L52",
    "room_id": "L52-A",
    "package": "dinner",
    "payment_method_id": "PM500496",
}


def test_private_events() -> None:
    shown = call("get_private_event", event_id="ev5016")
    assert shown["deposit_refund_if_cancelled_now"] == "415.63"
    booked = call("book_private_event", date="2025-07-26", guests=20, **EVENT)
    assert (booked["id"], booked["deposit"]) == ("EV5049", "310.00")
    full = call("cancel_private_event", event_id="EV5049")
    assert full["deposit_refund"] == "310.00"
    half = call("cancel_private_event", event_id="EV5016")
    assert half["deposit_refund"] == "415.63"
    nothing = call("cancel_private_event", event_id="EV5011")
    assert nothing["deposit_refund"] == "0.00"
    refuses("no private event", "get_private_event", event_id="EV0000")


def test_event_booking_window_is_the_agents_to_apply() -> None:
    rule = "restaurant.event_booking_window"
    allows(rule, "book_private_event", **EVENT, date="2025-07-26", guests=20)
    assert "less than 7 days" in breaks(
        rule, "book_private_event", **EVENT, date="2025-06-18", guests=20
    )
    assert "more than 180 days" in breaks(
        rule, "book_private_event", **EVENT, date="2026-01-10", guests=20
    )


def test_book_private_event_refusals() -> None:
    refuses(
        "not at Ember & Vine East Sixth",
        "book_private_event",
        **{**EVENT, "room_id": "L51-A"},
        date="2025-07-26",
        guests=20,
    )
    refuses("today or past", "book_private_event", **EVENT, date="2025-06-14", guests=20)
    refuses(
        "closed on mondays",
        "book_private_event",
        **{**EVENT, "location_id": "L53", "room_id": "L53-A"},
        date="2025-07-21",
        guests=20,
    )
    refuses("12 to 24 guests, not 30", "book_private_event", **EVENT, date="2025-07-26", guests=30)
    refuses(
        "already booked on 2025-09-15", "book_private_event", **EVENT, date="2025-09-15", guests=20
    )
    refuses(
        "credit card",
        "book_private_event",
        **{**EVENT, "customer_id": "C50001", "payment_method_id": "PM500003"},
        date="2025-07-26",
        guests=20,
    )


def test_cancel_private_event_refusals() -> None:
    completed = next(
        e for e in ENV.state.table("private_events").values() if e.status == "completed"
    )
    refuses("is completed", "cancel_private_event", event_id=completed.id)
    patch("private_events", "EV5011", date="2025-06-14")
    refuses("today or past", "cancel_private_event", event_id="EV5011")


# ---------------------------------------------------------------- policy checks


def violated(*steps: tuple[Any, ...]) -> set[str]:
    """Rules broken by these steps, run on a fresh eval state."""
    return conversation(ENV, *steps).rules()


AUTH = ("call", "find_customer_by_email", {"email": "marisol.ishikawa22@example.com"})
READ = ("call", "get_order", {"order_number": "O500898"})
ASK = ("agent", "I will cancel order O500898 and refund 55.49. Shall I go ahead?")
YES = ("user", "Yes, go ahead.")
CANCEL = ("call", "cancel_order", {"order_number": "O500898"})


def test_clean_trajectory_passes_every_check() -> None:
    assert violated(("user", "cancel my order"), AUTH, READ, ASK, YES, CANCEL) == set()


def test_check_confirmation() -> None:
    no = ("user", "No, wait.")
    assert "restaurant.confirm_before_write" in violated(AUTH, READ, CANCEL)
    assert "restaurant.confirm_before_write" in violated(AUTH, READ, ASK, no, CANCEL)


def test_check_authentication() -> None:
    assert "restaurant.authenticate_first" in violated(READ, AUTH, ASK, YES, CANCEL)
    assert "restaurant.authenticate_first" in violated(READ)


def test_check_one_customer() -> None:
    other = ("call", "get_customer_details", {"customer_id": "C50008"})
    own = ("call", "get_customer_details", {"customer_id": "C50014"})
    assert "restaurant.one_customer" in violated(AUTH, own, other)


def test_check_own_records_only() -> None:
    foreign = ("call", "get_order", {"order_number": "O500880"})
    assert violated(AUTH, foreign) == {"restaurant.own_records_only"}


def test_check_read_before_change() -> None:
    assert violated(AUTH, ASK, YES, CANCEL) == {"restaurant.read_before_change"}
    event = ("call", "cancel_private_event", {"event_id": "EV5016"})
    auth = ("call", "find_customer_by_phone", {"phone": "512-525-2978"})
    assert "restaurant.read_before_change" in violated(auth, ASK, YES, event)


def test_check_transfer_ends_conversation() -> None:
    transfer = ("call", "transfer_to_human_agents", {"summary": "ill after order"})
    assert violated(AUTH, transfer) == set()
    assert violated(AUTH, transfer, READ) == {"restaurant.transfer_ends_conversation"}


# ---------------------------------------------------------------- the databases


@pytest.mark.parametrize("variant", ["train", "eval"])
def test_database_size(variant: str) -> None:
    counts = DOMAIN.load_db(variant)[0].record_counts()
    assert counts["customers"] == 300 and counts["orders"] == 900 and counts["reservations"] > 600


def test_train_and_eval_have_their_own_places() -> None:
    """Beyond the ids and personal facts the contract test compares for every domain."""

    def places(db: RestaurantDB) -> set[str]:
        found = {c.street for c in db.customers.values()}
        return found | {x for loc in db.locations.values() for x in (loc.name, loc.street)}

    train, test = (DOMAIN.load_db(v)[0] for v in ("train", "eval"))
    assert not places(train) & places(test)  # type: ignore[arg-type]
