"""Retail domain: tools (success and every refusal) and policy checks."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_DOWN, Decimal
from typing import Any

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.common import fmt
from tau_emotion.domains.retail.db import Customer, Order, RetailDB
from tau_emotion.domains.retail.rules import TODAY, days_between

DESK = Desk("retail")
DOMAIN, ENV = DESK.domain, DESK.env
DB: RetailDB = DESK.db
call, refuses, breaks, allows = DESK.call, DESK.refuses, DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


def customer_of(order: Order) -> Customer:
    return DB.customers[order.customer_id]


def method_kind(order: Order) -> str:
    c = customer_of(order)
    return next(m.kind for m in c.payment_methods if m.id == order.transactions[0].method_id)


def find_order(pred: Callable[[Order], bool]) -> Order:
    return next(o for o in DB.orders.values() if pred(o))


def returnable(o: Order) -> bool:
    return (
        o.status == "delivered"
        and o.delivered_on is not None
        and days_between(o.delivered_on, TODAY) <= 30
    )


def current(order_number: str) -> Order:
    return ENV.state.table("orders")[order_number]  # type: ignore[no-any-return]


def balance(customer_id: str, method_id: str) -> Decimal | None:
    c = ENV.state.table("customers")[customer_id]
    return next(m.balance for m in c.payment_methods if m.id == method_id)  # type: ignore[no-any-return]


def subtotal(order: Order) -> Decimal:
    return sum((line.price for line in order.lines), Decimal(0))


def variant_pair(order: Order, wanted: Callable[[Decimal], bool]) -> tuple[str, str] | None:
    """(item on the order, in-stock variant of the same product) whose price difference
    (new minus old) satisfies `wanted`."""
    on_order = {line.item_id for line in order.lines}
    for line in order.lines:
        for item_id in DB.products[line.product_id].item_ids:
            item = DB.items[item_id]
            if item_id not in on_order and item.available and wanted(item.price - line.price):
                return line.item_id, item_id
    return None


def up(diff: Decimal) -> bool:
    return diff > 0


def down(diff: Decimal) -> bool:
    return diff < 0


def even(diff: Decimal) -> bool:
    return diff == 0


def price_change(pair: tuple[str, str]) -> Decimal:
    return DB.items[pair[1]].price - DB.items[pair[0]].price


PENDING_CARD = find_order(lambda o: o.status == "pending" and method_kind(o) == "card")
PENDING_GIFT = find_order(lambda o: o.status == "pending" and method_kind(o) == "gift_card")
PROCESSING = find_order(lambda o: o.status == "processing")
SHIPPED = find_order(lambda o: o.status == "shipped")
RETURNABLE = find_order(lambda o: returnable(o) and method_kind(o) == "card" and len(o.lines) > 1)
TOO_OLD = find_order(
    lambda o: (
        o.status == "delivered"
        and o.delivered_on is not None
        and days_between(o.delivered_on, TODAY) > 30
    )
)
LATE = find_order(
    lambda o: (
        o.delivered_on is not None
        and o.delivered_on > o.promised_by
        and not o.late_credit
        and customer_of(o).tier == "member"
    )
)
ON_TIME = find_order(lambda o: o.delivered_on is not None and o.delivered_on <= o.promised_by)
CREDITED = find_order(lambda o: o.late_credit > 0)
ADDRESS = {
    "line1": "418 Juniper Street",
    "line2": "Unit 5",
    "city": "Boise",
    "state": "id",
    "zip_code": "83702",
}


# ---- lookups and reads -------------------------------------------------------------------


def test_lookups_find_the_customer_and_refuse_unknowns() -> None:
    c = customer_of(PENDING_CARD)
    assert call("find_customer_by_email", email=c.email.upper()) == {"customer_id": c.id}
    assert call("find_customer_by_phone", phone=f"+1 ({c.phone[:3]}) {c.phone[4:]}") == {
        "customer_id": c.id
    }
    assert call(
        "find_customer_by_name_zip",
        first_name=c.first_name.lower(),
        last_name=c.last_name,
        zip_code=c.address.zip_code,
    ) == {"customer_id": c.id}
    refuses("no customer", "find_customer_by_email", email="nobody@example.com")
    refuses("ten digits", "find_customer_by_phone", phone="555-01")
    refuses("no customer", "find_customer_by_phone", phone="999-555-0000")
    refuses(
        "no customer",
        "find_customer_by_name_zip",
        first_name=c.first_name,
        last_name=c.last_name,
        zip_code="00000",
    )


def test_account_and_catalogue_reads() -> None:
    c = customer_of(PENDING_CARD)
    profile = call("get_customer", customer_id=c.id)
    assert profile["customer_id"] == c.id
    assert {o["order_number"] for o in profile["orders"]} == set(c.order_numbers)
    refuses("no customer", "get_customer", customer_id="CU-1")
    view = call("get_order", order_number="#" + PENDING_CARD.id.lower())
    assert view["order_number"] == PENDING_CARD.id and view["customer_id"] == c.id
    refuses("no order", "get_order", order_number="ORD-000000")
    assert len(call("search_products")) == len(DB.products)
    assert [p["name"] for p in call("search_products", keyword="KETTLE")] == [
        "Electric Gooseneck Kettle"
    ]
    refuses("no product matches", "search_products", keyword="spaceship")
    product = call("get_product", product_id="p-1001")
    assert len(product["variants"]) == len(DB.products["P-1001"].item_ids)
    refuses("no product", "get_product", product_id="P-9")


def test_order_view_shows_return_details() -> None:
    o = find_order(lambda o: o.status == "return_requested")
    assert call("get_order", order_number=o.id)["return"]["return_id"] == o.return_id


# ---- pending orders ----------------------------------------------------------------------


def test_cancel_refunds_card_and_restores_gift_card() -> None:
    total = subtotal(PENDING_CARD)
    result = call("cancel_pending_order", order_number=PENDING_CARD.id, reason="no longer needed")
    assert result["total_refunded"] == fmt(total)
    after = current(PENDING_CARD.id)
    assert after.status == "cancelled" and after.cancel_reason == "no longer needed"
    gift_id = PENDING_GIFT.transactions[0].method_id
    before = balance(PENDING_GIFT.customer_id, gift_id)
    assert before is not None
    call("cancel_pending_order", order_number=PENDING_GIFT.id, reason="ordered by mistake")
    gift_total = subtotal(PENDING_GIFT)
    assert balance(PENDING_GIFT.customer_id, gift_id) == before + gift_total


@pytest.mark.parametrize("order", [PROCESSING, SHIPPED, TOO_OLD], ids=lambda o: o.status)
def test_only_pending_orders_change(order: Order) -> None:
    refuses(
        "can no longer|only a return",
        "cancel_pending_order",
        order_number=order.id,
        reason="no longer needed",
    )
    refuses("can no longer|only a return", "update_order_address", order_number=order.id, **ADDRESS)
    refuses(
        "can no longer|only a return",
        "change_order_payment_method",
        order_number=order.id,
        payment_method_id="x",
    )
    refuses(
        "can no longer|only a return",
        "change_pending_item",
        order_number=order.id,
        item_id="x",
        new_item_id="y",
    )


def test_cancel_refuses_cancelled_orders_and_unknown_reasons() -> None:
    cancelled = find_order(lambda o: o.status == "cancelled")
    refuses(
        "is cancelled", "cancel_pending_order", order_number=cancelled.id, reason="no longer needed"
    )
    refuses(
        "invalid arguments",
        "cancel_pending_order",
        order_number=PENDING_CARD.id,
        reason="found it cheaper",
    )


def test_update_order_address_validates() -> None:
    result = call("update_order_address", order_number=PENDING_CARD.id, **ADDRESS)
    assert result["shipping_address"]["state"] == "ID"
    assert current(PENDING_CARD.id).shipping_address.city == "Boise"
    refuses("already ships", "update_order_address", order_number=PENDING_CARD.id, **ADDRESS)
    refuses(
        "state",
        "update_order_address",
        order_number=PENDING_CARD.id,
        **{**ADDRESS, "state": "Idaho"},
    )
    refuses(
        "zip_code",
        "update_order_address",
        order_number=PENDING_CARD.id,
        **{**ADDRESS, "zip_code": "8370"},
    )
    refuses(
        "street line",
        "update_order_address",
        order_number=PENDING_CARD.id,
        **{**ADDRESS, "line1": " "},
    )


def test_change_payment_method() -> None:
    c = customer_of(PENDING_CARD)
    old = PENDING_CARD.transactions[0].method_id
    refuses(
        "already paid",
        "change_order_payment_method",
        order_number=PENDING_CARD.id,
        payment_method_id=old,
    )
    refuses(
        "not on this customer",
        "change_order_payment_method",
        order_number=PENDING_CARD.id,
        payment_method_id="card_0",
    )
    credit = next(m for m in c.payment_methods if m.kind == "store_credit")
    total = subtotal(PENDING_CARD)
    assert (credit.balance or 0) < total
    refuses(
        "not enough",
        "change_order_payment_method",
        order_number=PENDING_CARD.id,
        payment_method_id=credit.id,
    )
    gift = next(
        o
        for o in DB.orders.values()
        if o.status == "pending"
        and method_kind(o) == "card"
        and any(
            m.kind == "gift_card" and (m.balance or 0) >= subtotal(o)
            for m in customer_of(o).payment_methods
        )
    )
    card = next(m for m in customer_of(gift).payment_methods if m.kind == "gift_card")
    amount = subtotal(gift)
    result = call("change_order_payment_method", order_number=gift.id, payment_method_id=card.id)
    assert result["charged"]["amount"] == fmt(amount)
    assert balance(gift.customer_id, card.id) == (card.balance or 0) - amount
    assert call("get_order", order_number=gift.id)["net_amount_paid"] == fmt(amount)


def test_change_pending_item_settles_difference() -> None:
    order = find_order(
        lambda o: (
            o.status == "pending" and method_kind(o) == "card" and variant_pair(o, up) is not None
        )
    )
    pair = variant_pair(order, up)
    assert pair is not None
    old, new = pair
    result = call("change_pending_item", order_number=order.id, item_id=old, new_item_id=new)
    assert result["price_difference"] == fmt(price_change(pair))
    after = current(order.id)
    assert new in {line.item_id for line in after.lines}
    assert after.transactions[-1].kind == "charge"
    refuses(
        "is not on order",
        "change_pending_item",
        order_number=order.id,
        item_id=old,
        new_item_id=new,
    )


def test_change_pending_item_refusals() -> None:
    order = PENDING_CARD
    line = order.lines[0]
    other = next(i for i in DB.items.values() if i.product_id != line.product_id)
    args = {"order_number": order.id, "item_id": line.item_id}
    refuses("different product", "change_pending_item", **args, new_item_id=other.id)
    refuses("same variant", "change_pending_item", **args, new_item_id=line.item_id)
    refuses("no catalogue item", "change_pending_item", **args, new_item_id="SKU-0")
    for o in DB.orders.values():
        if o.status != "pending":
            continue
        for li in o.lines:
            gone = [i for i in DB.products[li.product_id].item_ids if not DB.items[i].available]
            if gone and gone[0] != li.item_id:
                refuses(
                    "out of stock",
                    "change_pending_item",
                    order_number=o.id,
                    item_id=li.item_id,
                    new_item_id=gone[0],
                )
                return
    raise AssertionError("no pending order with an out-of-stock variant")


def test_change_pending_item_needs_gift_card_balance() -> None:
    for o in DB.orders.values():
        if o.status != "pending" or method_kind(o) != "gift_card":
            continue
        left = balance(o.customer_id, o.transactions[0].method_id) or 0
        pair = variant_pair(o, lambda diff: diff > left)  # noqa: B023 - used at once
        if pair is not None:
            before = ENV.hash()
            refuses(
                "not enough",
                "change_pending_item",
                order_number=o.id,
                item_id=pair[0],
                new_item_id=pair[1],
            )
            assert ENV.hash() == before
            return
    raise AssertionError("no gift-card order with an upgrade above its balance")


def test_split_payment_is_refused() -> None:
    extra = PENDING_CARD.transactions[0].model_copy(update={"method_id": "paypal_1"})
    split = PENDING_CARD.model_copy(update={"transactions": (*PENDING_CARD.transactions, extra)})
    ENV.state.table("orders").put(split.id, split)
    pair = variant_pair(split, lambda d: True)
    assert pair is not None
    refuses(
        "exactly one payment method",
        "change_order_payment_method",
        order_number=split.id,
        payment_method_id="x",
    )
    refuses(
        "exactly one payment method",
        "change_pending_item",
        order_number=split.id,
        item_id=pair[0],
        new_item_id=pair[1],
    )


# ---- returns and exchanges ---------------------------------------------------------------


def test_request_return_to_original_method_then_only_once() -> None:
    line = RETURNABLE.lines[0]
    method = RETURNABLE.transactions[0].method_id
    result = call(
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=[line.item_id.lower()],
        refund_method_id=method,
    )
    assert result["refund_amount"] == fmt(line.price)
    new_id = f"RMA-{10000 + len(DB.returns) + 1}"
    assert result["return_id"] == new_id and new_id not in DB.returns
    after = current(RETURNABLE.id)
    assert after.status == "return_requested" and after.return_id == new_id
    refuses(
        "already has a return",
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=[RETURNABLE.lines[1].item_id],
        refund_method_id=method,
    )
    refuses(
        "already has a return",
        "request_exchange",
        order_number=RETURNABLE.id,
        item_ids=[line.item_id],
        new_item_ids=[line.item_id],
    )


def test_request_return_refusals() -> None:
    c = customer_of(RETURNABLE)
    method = RETURNABLE.transactions[0].method_id
    item = RETURNABLE.lines[0].item_id
    refuses(
        "can no longer",
        "request_return",
        order_number=SHIPPED.id,
        item_ids=[SHIPPED.lines[0].item_id],
        refund_method_id=method,
    )
    refuses(
        "is not on order",
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=["SKU-1"],
        refund_method_id=method,
    )
    refuses(
        "only once",
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=[item, item],
        refund_method_id=method,
    )
    refuses(
        "at least one",
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=[],
        refund_method_id=method,
    )
    refuses(
        "not on this customer",
        "request_return",
        order_number=RETURNABLE.id,
        item_ids=[item],
        refund_method_id="card_0",
    )
    other = next(
        (
            m
            for m in c.payment_methods
            if m.kind in ("card", "paypal", "gift_card") and m.id != method
        ),
        None,
    )
    assert other is not None, "the test needs a customer with another payment method"
    credit = next(m for m in c.payment_methods if m.kind == "store_credit")
    assert call(
        "request_return", order_number=RETURNABLE.id, item_ids=[item], refund_method_id=credit.id
    )


def test_return_window_is_the_agents_to_apply() -> None:
    rule, item = "retail.return_window", RETURNABLE.lines[0].item_id
    method = RETURNABLE.transactions[0].method_id
    args = {"item_ids": [item], "refund_method_id": method}
    allows(rule, "request_return", order_number=RETURNABLE.id, **args)
    old = TOO_OLD.transactions[0].method_id
    reason = breaks(
        rule,
        "request_return",
        order_number=TOO_OLD.id,
        item_ids=[TOO_OLD.lines[0].item_id],
        refund_method_id=old,
    )
    assert "days after delivery" in reason
    assert current(TOO_OLD.id).status == "return_requested"
    late = next(
        (o, pair)
        for o in DB.orders.values()
        if o.status == "delivered"
        and o.id != TOO_OLD.id
        and o.delivered_on is not None
        and days_between(o.delivered_on, TODAY) > 30
        and method_kind(o) == "card"
        and (pair := variant_pair(o, lambda diff: True)) is not None
    )
    order, (old_item, new_item) = late
    breaks(
        rule,
        "request_exchange",
        order_number=order.id,
        item_ids=[old_item],
        new_item_ids=[new_item],
        payment_method_id=order.transactions[0].method_id,
    )


def test_refund_destination_is_the_agents_to_apply() -> None:
    rule, item = "retail.refund_to_original_or_store_credit", RETURNABLE.lines[0].item_id
    c = customer_of(RETURNABLE)
    args = {"order_number": RETURNABLE.id, "item_ids": [item]}
    allows(rule, "request_return", **args, refund_method_id=RETURNABLE.transactions[0].method_id)
    allows(rule, "request_return", **args, refund_method_id=store_credit(c))
    paid = RETURNABLE.transactions[0].method_id
    other = next(m for m in c.payment_methods if m.kind != "store_credit" and m.id != paid)
    offer = DESK.offers(rule, "request_return", **args, refund_method_id=other.id)
    assert offer.arguments == {**args, "refund_method_id": paid}
    breaks(rule, "request_return", **args, refund_method_id=other.id)
    assert DESK.row("returns", current(RETURNABLE.id).return_id).refund_method_id == other.id


def exchangeable(wanted: Callable[[Decimal], bool]) -> tuple[Order, str, str]:
    """A returnable card-paid order and a variant swap whose price change satisfies `wanted`."""
    for o in DB.orders.values():
        if returnable(o) and method_kind(o) == "card":
            pair = variant_pair(o, wanted)
            if pair is not None:
                return o, pair[0], pair[1]
    raise AssertionError("no exchangeable order")


def store_credit(c: Customer) -> str:
    return next(m.id for m in c.payment_methods if m.kind == "store_credit")


def test_exchange_even_needs_no_payment_method() -> None:
    order, old, new = exchangeable(even)
    result = call(
        "request_exchange",
        order_number=order.id,
        item_ids=[old],
        new_item_ids=[new],
        payment_method_id="anything",
    )
    assert result["price_difference"] == "0.00" and result["payment_method_id"] is None
    assert result["exchange_id"] == f"EXC-{10000 + len(DB.exchanges) + 1}"
    assert current(order.id).status == "exchange_requested"


def test_exchange_upgrade_charges_the_difference() -> None:
    order, old, new = exchangeable(up)
    args = {"order_number": order.id, "item_ids": [old], "new_item_ids": [new]}
    refuses("payment method is needed", "request_exchange", **args)
    refuses("not on this customer", "request_exchange", **args, payment_method_id="card_0")
    method = order.transactions[0].method_id
    result = call("request_exchange", **args, payment_method_id=method)
    assert result["price_difference"] == fmt(price_change((old, new)))
    assert current(order.id).transactions[-1].kind == "charge"


def test_exchange_downgrade_refunds_to_original_or_store_credit() -> None:
    order, old, new = exchangeable(down)
    c = customer_of(order)
    args = {"order_number": order.id, "item_ids": [old], "new_item_ids": [new]}
    paid_with = order.transactions[0].method_id
    other = [m.id for m in c.payment_methods if m.kind != "store_credit" and m.id != paid_with]
    assert other, "the test needs a customer with another payment method"
    rule = "retail.refund_to_original_or_store_credit"
    allows(rule, "request_exchange", **args, payment_method_id=paid_with)
    breaks(rule, "request_exchange", **args, payment_method_id=other[0])
    ENV.reset()
    credit = store_credit(c)
    allows(rule, "request_exchange", **args, payment_method_id=credit)
    before = balance(c.id, credit) or 0
    call("request_exchange", **args, payment_method_id=credit)
    assert balance(c.id, credit) == before - price_change((old, new))


def test_exchange_refusals() -> None:
    order, old, new = exchangeable(up)
    args = {"order_number": order.id, "item_ids": [old]}
    refuses("exactly one new item", "request_exchange", **args, new_item_ids=[new, new])
    other = next(i for i in DB.items.values() if i.product_id != DB.items[old].product_id)
    refuses("different product", "request_exchange", **args, new_item_ids=[other.id])
    refuses("same variant", "request_exchange", **args, new_item_ids=[old])
    refuses(
        "is not on order",
        "request_exchange",
        order_number=order.id,
        item_ids=["SKU-1"],
        new_item_ids=[new],
    )
    refuses(
        "not shipped yet",
        "request_exchange",
        **{**args, "order_number": PENDING_CARD.id},
        new_item_ids=[new],
    )
    gone = next(
        (i for i in DB.products[DB.items[old].product_id].item_ids if not DB.items[i].available),
        None,
    )
    assert gone is not None and gone != old
    refuses("out of stock", "request_exchange", **args, new_item_ids=[gone])


def test_exchange_charge_must_fit_a_balance() -> None:
    for o in DB.orders.values():
        credit = store_credit(customer_of(o))
        pair = variant_pair(o, up) if returnable(o) else None
        if pair is not None and (balance(o.customer_id, credit) or 0) < price_change(pair):
            refuses(
                "not enough",
                "request_exchange",
                order_number=o.id,
                item_ids=[pair[0]],
                new_item_ids=[pair[1]],
                payment_method_id=credit,
            )
            return
    raise AssertionError("no exchange larger than a store credit balance")


# ---- late-delivery credit, profile, transfer ---------------------------------------------


def test_late_delivery_credit() -> None:
    c = customer_of(LATE)
    credit = next(m for m in c.payment_methods if m.kind == "store_credit")
    # A member's 10%, rounded down to the cent, at most 50.00.
    share = (subtotal(LATE) / 10).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    expected = min(share, Decimal("50.00"))
    result = call("issue_late_delivery_credit", order_number=LATE.id)
    assert result["credit"] == fmt(expected)
    assert balance(c.id, credit.id) == (credit.balance or 0) + expected
    refuses("already received", "issue_late_delivery_credit", order_number=LATE.id)
    refuses("already received", "issue_late_delivery_credit", order_number=CREDITED.id)


def test_late_credit_eligibility_is_the_agents_to_apply() -> None:
    rule = "retail.late_credit_eligibility"
    allows(rule, "issue_late_delivery_credit", order_number=LATE.id)
    assert "on time" in breaks(rule, "issue_late_delivery_credit", order_number=ON_TIME.id)
    reason = breaks(rule, "issue_late_delivery_credit", order_number=SHIPPED.id)
    assert "not been delivered" in reason


def test_gold_late_credit_is_capped() -> None:
    order = find_order(
        lambda o: (
            o.delivered_on is not None
            and o.delivered_on > o.promised_by
            and not o.late_credit
            and customer_of(o).tier == "gold"
            and subtotal(o) > 250
        )
    )
    assert call("issue_late_delivery_credit", order_number=order.id)["credit"] == "50.00"


def test_update_customer_address() -> None:
    c = customer_of(PENDING_CARD)
    call("update_customer_address", customer_id=c.id, **ADDRESS)
    assert ENV.state.table("customers")[c.id].address.zip_code == "83702"
    assert current(PENDING_CARD.id).shipping_address == PENDING_CARD.shipping_address
    refuses("already the default", "update_customer_address", customer_id=c.id, **ADDRESS)
    refuses("no customer", "update_customer_address", customer_id="CU-0", **ADDRESS)


def test_transfer_records_a_handoff_graded_without_its_wording() -> None:
    assert "TR-10001" in call("transfer_to_human_agents", summary="Package missing.")
    first = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="Customer says the parcel never came.")
    assert ENV.hash() == first
    assert "TR-10002" in call("transfer_to_human_agents", summary="again")
    refuses("summary", "transfer_to_human_agents", summary="  ")


# ---- policy checks -----------------------------------------------------------------------

Step = tuple[Any, ...]


LOOKUP: Step = (
    "call",
    "find_customer_by_email",
    {"email": "a@example.com"},
    '{"customer_id": "CU-1"}',
    False,
)
READ: Step = (
    "call",
    "get_order",
    {"order_number": "ORD-1"},
    '{"order_number": "ORD-1", "customer_id": "CU-1"}',
    False,
)
ASK: tuple[Step, Step] = (
    ("agent", "I will cancel ORD-1 and refund 10.00. Shall I?"),
    ("user", "Yes please."),
)
CANCEL: Step = (
    "call",
    "cancel_pending_order",
    {"order_number": "#ord-1", "reason": "no longer needed"},
    '{"customer_id": "CU-1"}',
    False,
)
TRANSFER: Step = (
    "call",
    "transfer_to_human_agents",
    {"summary": "missing parcel"},
    "Transfer TR-10001 created",
    False,
)
CLEAN = (("user", "Cancel ORD-1"), LOOKUP, READ, *ASK, CANCEL)


def violations(*steps: Step) -> set[str]:
    return conversation(ENV, *steps).rules()


def test_checks_pass_a_clean_trajectory() -> None:
    assert violations(*CLEAN) == set()
    assert violations(*CLEAN, TRANSFER) == set()


@pytest.mark.parametrize(
    ("rule", "steps"),
    [
        ("retail.confirm_before_write", (LOOKUP, READ, CANCEL)),
        (
            "retail.confirm_before_write",
            (LOOKUP, READ, ("agent", "Cancel it?"), ("user", "no, wait"), CANCEL),
        ),
        ("retail.authenticate_first", (READ, LOOKUP, *ASK, CANCEL)),
        (
            "retail.authenticate_first",
            (("call", "find_customer_by_email", {"email": "x"}, "Error: no customer", True), READ),
        ),
        (
            "retail.one_customer",
            (
                *CLEAN,
                ("call", "get_order", {"order_number": "ORD-2"}, '{"customer_id": "CU-2"}', False),
            ),
        ),
        (
            "retail.one_customer",
            (
                LOOKUP,
                (
                    "call",
                    "find_customer_by_phone",
                    {"phone": "1"},
                    '{"customer_id": "CU-2"}',
                    False,
                ),
            ),
        ),
        (
            "retail.one_customer",
            (LOOKUP, ("call", "get_customer", {"customer_id": "CU-2"}, "{}", False)),
        ),
        ("retail.read_order_before_change", (LOOKUP, *ASK, CANCEL)),
        (
            "retail.read_order_before_change",
            (LOOKUP, ("call", "get_order", {"order_number": "ORD-1"}, "Error", True), *ASK, CANCEL),
        ),
        ("retail.transfer_is_last", (LOOKUP, TRANSFER, READ)),
    ],
)
def test_each_check_catches_its_violation(rule: str, steps: tuple[Step, ...]) -> None:
    assert rule in violations(*steps)


def test_every_check_is_exercised() -> None:
    # The judgement rules are tested where their tools are (`breaks` and `allows`).
    assert {c.rule_id for c in DOMAIN.checks if c.judgement is None} == {
        "retail.confirm_before_write",
        "retail.authenticate_first",
        "retail.one_customer",
        "retail.read_order_before_change",
        "retail.transfer_is_last",
    }


# ---- the database ------------------------------------------------------------------------


def test_database_size_and_tool_kinds() -> None:
    counts = DB.record_counts()
    assert counts["customers"] >= 300 and counts["orders"] >= 1000 and counts["transfers"] == 0
    assert sum(k == "write" for k in DOMAIN.tool_kinds.values()) == 8
