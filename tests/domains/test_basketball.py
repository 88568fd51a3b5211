"""Basketball domain: every tool's success and refusal paths, the policy checks and
the generated databases."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal
from typing import Any

from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.basketball.db import BasketballDB, Game, TicketOrder
from tau_emotion.domains.basketball.rules import TODAY, card_expired
from tau_emotion.domains.basketball.tools import ClubTools

DESK = Desk("basketball", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
DB = DESK.db
assert isinstance(DB, BasketballDB)
TOOLS = ENV.tools
assert isinstance(TOOLS, ClubTools)
Q = TOOLS.q
call, refuses, breaks, allows = DESK.call, DESK.refuses, DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


# -- finding the right records in the eval database ----------------------------------------


def valid_method(customer_id: str) -> str | None:
    return next(
        (
            m.id
            for m in DB.payment_methods.values()
            if m.customer_id == customer_id and not card_expired(m.expires)
        ),
        None,
    )


def usable_methods(customer_id: str) -> list[str]:
    return [
        m.id
        for m in DB.payment_methods.values()
        if m.customer_id == customer_id and not card_expired(m.expires)
    ]


def holders() -> set[str]:
    return {p.customer_id for p in DB.season_passes.values() if p.status == "active"}


def plain_customer() -> tuple[str, str]:
    """A customer without a season pass and with a usable payment method."""
    for c in DB.customers.values():
        method = valid_method(c.id)
        if c.id not in holders() and method:
            return c.id, method
    raise AssertionError("no plain customer")


def games(status: str, premium: bool | None = None) -> list[Game]:
    return [
        g
        for g in sorted(DB.games.values(), key=lambda g: g.start)
        if g.status == status and (premium is None or g.premium == premium)
    ]


def active_order(game: Game, *, holder: bool = False, fresh: bool = True) -> TicketOrder:
    for o in DB.ticket_orders.values():
        if o.game_id != game.id or o.status != "active":
            continue
        if (o.customer_id in holders()) != holder or (fresh and o.exchanged_from is not None):
            continue
        return o
    raise AssertionError(f"no active order for {game.id}")


def later_game() -> Game:
    """A scheduled, non-premium game at least a week away."""
    return next(g for g in games("scheduled", premium=False) if g.start >= "2025-02-22")


# -- lookups and reads ---------------------------------------------------------------------


def test_lookups_find_customers() -> None:
    c = next(iter(DB.customers.values()))
    found = {"customer_id": c.id, "full_name": f"{c.first_name} {c.last_name}"}
    assert call("find_customer_by_email", email=f" {c.email.upper()} ") == found
    assert call("find_customer_by_phone", phone=c.phone.replace("(", "").replace(")", "")) == found
    name = f"{c.first_name}   {c.last_name}".lower()
    assert call("find_customer_by_name_and_zip", full_name=name, zip_code=c.zip_code) == found


def test_lookups_refuse_unknown_short_and_ambiguous() -> None:
    refuses("no customer", "find_customer_by_email", email="nobody@nowhere.example")
    refuses("10-digit", "find_customer_by_phone", phone="555-0101")
    refuses("no customer", "find_customer_by_phone", phone="(999) 000-0000")
    refuses("no customer", "find_customer_by_name_and_zip", full_name="No Body", zip_code="00000")
    counts = Counter((c.first_name, c.last_name, c.zip_code) for c in DB.customers.values())
    twins = [k for k, n in counts.items() if n > 1]
    if twins:
        first, last, zip_code = twins[0]
        refuses(
            "more than one",
            "find_customer_by_name_and_zip",
            full_name=f"{first} {last}",
            zip_code=zip_code,
        )


def test_customer_details_and_own_orders_only() -> None:
    order = active_order(later_game())
    details = call("get_customer_details", customer_id=order.customer_id)
    assert order.id in [o["order_id"] for o in details["ticket_orders"]]
    shown = call("get_ticket_order", customer_id=order.customer_id, order_id=order.id)
    assert shown["seats"] == list(order.seats) and shown["total"] == f"{order.total:.2f}"
    other = next(c for c in DB.customers if c != order.customer_id)
    refuses("no ticket order", "get_ticket_order", customer_id=other, order_id=order.id)
    refuses("no customer", "get_customer_details", customer_id="U999999")
    merch = next(iter(DB.merch_orders.values()))
    got = call("get_merch_order", customer_id=merch.customer_id, order_id=merch.id)
    assert [i["item_id"] for i in got["items"]] == [i.item_id for i in merch.items]
    refuses("no merchandise order", "get_merch_order", customer_id=other, order_id=merch.id)


def test_public_reads() -> None:
    schedule = call("list_home_games")
    assert len(schedule) == len(DB.games)
    on_sale = [g for g in schedule if g["status"] == "scheduled"]
    assert on_sale and all(
        set(g["zones"]) == {"family", "upper", "lower", "courtside"} for g in on_sale
    )
    premium = next(g for g in on_sale if g["premium"])
    assert premium["zones"]["courtside"] == {"price": "231.25", "seats_left": 0}
    postponed = next(g for g in schedule if g["status"] == "postponed")
    assert postponed["rescheduled_to"] and "zones" not in postponed
    roster = call("get_team_roster")
    assert len(roster) == 14 and roster == sorted(roster, key=lambda p: p["number"])
    camps = call("list_camps")
    assert any(not c["registration_open"] for c in camps)
    assert any(c["places_left"] == 0 and c["registration_open"] for c in camps)


# -- tickets -------------------------------------------------------------------------------


def test_buy_tickets_and_pass_discount() -> None:
    cid, method = plain_customer()
    game = later_game()
    bought = call(
        "buy_tickets",
        customer_id=cid,
        game_id=game.id,
        zone="upper",
        quantity=2,
        payment_method_id=method,
    )
    assert bought["unit_price"] == "36.00" and bought["total"] == "79.00"
    assert Q.db.ticket_orders[bought["order_id"]].seats == tuple(bought["seats"])
    assert set(bought["seats"]).isdisjoint(
        s
        for o in DB.ticket_orders.values()
        if o.game_id == game.id and o.status == "active"
        for s in o.seats
    )
    holder = next(h for h in sorted(holders()) if valid_method(h))
    extra = call(
        "buy_tickets",
        customer_id=holder,
        game_id=game.id,
        zone="family",
        quantity=1,
        payment_method_id=valid_method(holder),
    )
    assert extra["unit_price"] == "25.20" and extra["total"] == "28.70"


def test_buy_tickets_refusals() -> None:
    cid, method = plain_customer()
    game = later_game()
    args = {"customer_id": cid, "payment_method_id": method}
    played = games("played")[0]
    refuses("not on sale", "buy_tickets", game_id=played.id, zone="upper", quantity=1, **args)
    postponed = games("postponed")[0]
    refuses("not on sale", "buy_tickets", game_id=postponed.id, zone="upper", quantity=1, **args)
    refuses("no home game", "buy_tickets", game_id="GM0", zone="upper", quantity=1, **args)
    refuses("at least 1", "buy_tickets", game_id=game.id, zone="upper", quantity=0, **args)
    refuses("invalid arguments", "buy_tickets", game_id=game.id, zone="suite", quantity=1, **args)
    premium = games("scheduled", premium=True)[0]
    refuses(
        "only 0 courtside", "buy_tickets", game_id=premium.id, zone="courtside", quantity=1, **args
    )
    foreign = next(m.id for m in DB.payment_methods.values() if m.customer_id != cid)
    refuses(
        "does not belong",
        "buy_tickets",
        customer_id=cid,
        game_id=game.id,
        zone="upper",
        quantity=1,
        payment_method_id=foreign,
    )
    expired = next(m for m in DB.payment_methods.values() if card_expired(m.expires))
    refuses(
        "expired",
        "buy_tickets",
        customer_id=expired.customer_id,
        game_id=game.id,
        zone="upper",
        quantity=1,
        payment_method_id=expired.id,
    )


def test_ticket_limit_is_the_agents_to_apply() -> None:
    cid, method = plain_customer()
    game = later_game()
    args = {"customer_id": cid, "game_id": game.id, "zone": "upper", "payment_method_id": method}
    allows("basketball.ticket_limit", "buy_tickets", quantity=8, **args)
    breaks("basketball.ticket_limit", "buy_tickets", quantity=9, **args)
    ENV.reset()
    call("buy_tickets", quantity=6, **args)
    allows("basketball.ticket_limit", "buy_tickets", quantity=2, **args)
    breaks("basketball.ticket_limit", "buy_tickets", quantity=3, **args)
    held = [o for o in Q.db.ticket_orders.values() if o.customer_id == cid and o.status == "active"]
    assert sum(len(o.seats) for o in held if o.game_id == game.id) == 9


def test_exchange_charges_fee_and_increase() -> None:
    order = active_order(later_game())
    method = valid_method(order.customer_id)
    target = next(
        g
        for g in games("scheduled", premium=False)
        if g.id != order.game_id and g.start > "2025-02-22"
    )
    out = call(
        "exchange_tickets",
        customer_id=order.customer_id,
        order_id=order.id,
        new_game_id=target.id,
        payment_method_id=method,
    )
    assert out["charged"] == f"{Decimal('10.00') * len(order.seats):.2f}"
    assert Q.db.ticket_orders[order.id].status == "exchanged"
    new = Q.db.ticket_orders[out["new_order_id"]]
    assert new.exchanged_from == order.id and new.game_id == target.id and new.zone == order.zone
    again_args = {
        "customer_id": order.customer_id,
        "new_game_id": order.game_id,
        "payment_method_id": method,
    }
    breaks("basketball.exchange_once", "exchange_tickets", order_id=new.id, **again_args)
    assert Q.db.ticket_orders[new.id].status == "exchanged"
    refuses(
        "is exchanged",
        "exchange_tickets",
        customer_id=order.customer_id,
        order_id=order.id,
        new_game_id=target.id,
    )
    again = next(
        o
        for o in DB.ticket_orders.values()
        if o.game_id == order.game_id
        and o.status == "active"
        and o.id != order.id
        and o.customer_id not in holders()
        and o.exchanged_from is None
    )
    pricier = next(
        g
        for g in games("scheduled", premium=True)
        if Q.seats_left(g, again.zone) >= len(again.seats)
    )
    refuses(
        "give a payment method",
        "exchange_tickets",
        customer_id=again.customer_id,
        order_id=again.id,
        new_game_id=pricier.id,
    )


def test_exchange_free_for_holder_when_not_dearer() -> None:
    order = active_order(later_game(), holder=True)
    target = next(
        g
        for g in games("scheduled", premium=False)
        if g.id != order.game_id
        and g.start > "2025-02-22"
        and Q.seats_left(g, order.zone) >= len(order.seats)
    )
    out = call(
        "exchange_tickets", customer_id=order.customer_id, order_id=order.id, new_game_id=target.id
    )
    assert out["charged"] == "0.00"
    assert not any(t.reference == out["new_order_id"] for t in Q.db.transactions.values())


def test_exchange_refusals() -> None:
    tomorrow = games("scheduled")[0]
    assert tomorrow.start.startswith("2025-02-15")
    target = later_game()
    played = active_order(games("played")[0], fresh=False)
    refuses(
        "already played",
        "exchange_tickets",
        customer_id=played.customer_id,
        order_id=played.id,
        new_game_id=target.id,
    )
    order = active_order(target)
    refuses(
        "not another scheduled",
        "exchange_tickets",
        customer_id=order.customer_id,
        order_id=order.id,
        new_game_id=order.game_id,
    )
    refuses(
        "not another scheduled",
        "exchange_tickets",
        customer_id=order.customer_id,
        order_id=order.id,
        new_game_id=games("played")[0].id,
    )
    premium = games("scheduled", premium=True)[0]
    courtside = next(
        o
        for o in DB.ticket_orders.values()
        if o.zone == "courtside"
        and o.status == "active"
        and DB.games[o.game_id].status == "scheduled"
        and not DB.games[o.game_id].premium
        and o.game_id != tomorrow.id
        and o.exchanged_from is None
    )
    refuses(
        "seats are left",
        "exchange_tickets",
        customer_id=courtside.customer_id,
        order_id=courtside.id,
        new_game_id=premium.id,
    )
    other = next(c for c in DB.customers if c != order.customer_id)
    refuses(
        "no ticket order",
        "exchange_tickets",
        customer_id=other,
        order_id=order.id,
        new_game_id=target.id,
    )
    plain = active_order(later_game())
    foreign = next(m.id for m in DB.payment_methods.values() if m.customer_id != plain.customer_id)
    refuses(
        "does not belong",
        "exchange_tickets",
        customer_id=plain.customer_id,
        order_id=plain.id,
        new_game_id=next(
            g.id
            for g in games("scheduled", premium=False)
            if g.id != plain.game_id and g.start > "2025-02-22"
        ),
        payment_method_id=foreign,
    )


def test_exchange_notice_is_the_agents_to_apply() -> None:
    rule, target = "basketball.exchange_notice", later_game()
    fresh = active_order(target)
    move = {
        "customer_id": fresh.customer_id,
        "order_id": fresh.id,
        "new_game_id": next(
            g.id
            for g in games("scheduled", premium=False)
            if g.id != fresh.game_id and g.start > "2025-02-22"
        ),
        "payment_method_id": valid_method(fresh.customer_id),
    }
    allows(rule, "exchange_tickets", **move)
    allows("basketball.exchange_once", "exchange_tickets", **move)
    tomorrow = games("scheduled")[0]
    assert tomorrow.start.startswith("2025-02-15")
    for game in (tomorrow, games("cancelled")[0]):
        order = next(
            o
            for o in DB.ticket_orders.values()
            if o.game_id == game.id
            and o.status == "active"
            and o.exchanged_from is None
            and valid_method(o.customer_id)
        )
        asked = {
            "customer_id": order.customer_id,
            "order_id": order.id,
            "new_game_id": target.id,
            "payment_method_id": valid_method(order.customer_id),
        }
        if game.status == "cancelled":  # its tickets are refunded instead
            offer = DESK.offers(rule, "exchange_tickets", **asked)
            assert (offer.tool, offer.arguments["order_id"]) == ("refund_tickets", order.id)
        else:  # too close to the game: nothing to offer
            DESK.offers_nothing(rule, "exchange_tickets", **asked)
        breaks(rule, "exchange_tickets", **asked)
        assert Q.db.ticket_orders[order.id].status == "exchanged"


def test_refunds_for_cancelled_and_postponed_games() -> None:
    cancelled = active_order(games("cancelled")[0])
    postponed = active_order(games("postponed")[0])
    for o in (cancelled, postponed):
        allows(
            "basketball.refund_eligibility",
            "refund_tickets",
            customer_id=o.customer_id,
            order_id=o.id,
        )
    out = call("refund_tickets", customer_id=cancelled.customer_id, order_id=cancelled.id)
    assert out["refunded"] == f"{cancelled.total:.2f}"
    out = call("refund_tickets", customer_id=postponed.customer_id, order_id=postponed.id)
    assert out["refunded"] == f"{postponed.total - postponed.service_fees:.2f}"
    refunds = [
        t for t in Q.db.transactions.values() if t.kind == "refund" and t.date == TODAY.isoformat()
    ]
    assert {t.reference for t in refunds} == {cancelled.id, postponed.id}
    refuses(
        "is refunded", "refund_tickets", customer_id=cancelled.customer_id, order_id=cancelled.id
    )


def test_refund_after_exchange_goes_back_to_each_method_that_paid() -> None:
    """One card bought the tickets, another paid the exchange: each gets back what it paid
    (the exchange fee excepted, which no refund returns)."""
    cid = next(c for c in DB.customers if c not in holders() and len(usable_methods(c)) >= 2)
    first, second = usable_methods(cid)[:2]
    bought = call(
        "buy_tickets",
        customer_id=cid,
        game_id=later_game().id,
        zone="lower",
        quantity=2,
        payment_method_id=first,
    )
    pricier = next(
        g
        for g in games("scheduled", premium=True)
        if g.start > "2025-02-22" and Q.seats_left(g, "lower") >= 2
    )
    moved = call(
        "exchange_tickets",
        customer_id=cid,
        order_id=bought["order_id"],
        new_game_id=pricier.id,
        payment_method_id=second,
    )
    old, new = Q.db.ticket_orders[bought["order_id"]], Q.db.ticket_orders[moved["new_order_id"]]
    increase = new.total - old.total
    assert Decimal(moved["charged"]) == increase + Decimal("20.00") > Decimal("20.00")
    out = call("refund_tickets", customer_id=cid, order_id=new.id)
    refunds = {t.method_id: t.amount for t in DESK.new_rows("transactions") if t.kind == "refund"}
    assert refunds == {first: old.total - old.service_fees, second: increase}
    assert out["refunded"] == f"{new.total - new.service_fees:.2f}"
    labels = [DB.payment_methods[m].label for m in (first, second)]
    assert out["to"] == " and ".join(labels)
    assert [s["to"] for s in out["split"]] == labels


def test_refund_for_scheduled_and_played_games_is_the_agents_to_refuse() -> None:
    for game in (later_game(), games("played")[0]):
        order = active_order(game, fresh=False)
        rule = "basketball.refund_eligibility"
        breaks(rule, "refund_tickets", customer_id=order.customer_id, order_id=order.id)
        # Carried out, only a cancelled game's service fees come back.
        refund = next(
            t for t in Q.db.transactions.values() if t.reference == order.id and t.kind == "refund"
        )
        assert refund.amount == order.total - order.service_fees


# -- season passes -------------------------------------------------------------------------


def _pass_holder(zone: str) -> tuple[str, str]:
    for p in DB.season_passes.values():
        method = valid_method(p.customer_id)
        if p.zone == zone and method:
            return p.customer_id, method
    raise AssertionError(f"no {zone} pass holder with a usable card")


def test_upgrade_pass_charges_remaining_games() -> None:
    cid, method = _pass_holder("upper")
    remaining = len(Q.upcoming())
    allows(
        "basketball.pass_upgrade_only",
        "upgrade_season_pass",
        customer_id=cid,
        zone="lower",
        payment_method_id=method,
    )
    out = call("upgrade_season_pass", customer_id=cid, zone="lower", payment_method_id=method)
    assert (
        out["charged"] == f"{Decimal('30.00') * remaining:.2f}" and out["games_left"] == remaining
    )
    moved = Q.active_pass(cid)
    assert moved is not None and moved.zone == "lower" and moved.seat == out["seat"]
    for game in Q.upcoming():
        taken = [
            o
            for o in Q.db.ticket_orders.values()
            if o.game_id == game.id and out["seat"] in o.seats and o.status == "active"
        ]
        assert taken == []


def test_upgrade_pass_refusals() -> None:
    cid, method = _pass_holder("lower")
    refuses(
        "already in the lower zone",
        "upgrade_season_pass",
        customer_id=cid,
        zone="lower",
        payment_method_id=method,
    )
    refuses(
        "no courtside seat",
        "upgrade_season_pass",
        customer_id=cid,
        zone="courtside",
        payment_method_id=method,
    )
    plain, card = plain_customer()
    refuses(
        "no active season pass",
        "upgrade_season_pass",
        customer_id=plain,
        zone="lower",
        payment_method_id=card,
    )
    family = next(p for p in DB.season_passes.values() if p.zone == "family")
    expired = next(
        (
            m.id
            for m in DB.payment_methods.values()
            if m.customer_id == family.customer_id and card_expired(m.expires)
        ),
        None,
    )
    if expired:
        refuses(
            "expired",
            "upgrade_season_pass",
            customer_id=family.customer_id,
            zone="upper",
            payment_method_id=expired,
        )
    breaks(
        "basketball.pass_upgrade_only",
        "upgrade_season_pass",
        customer_id=cid,
        zone="upper",
        payment_method_id=method,
    )
    moved = Q.active_pass(cid)
    assert moved is not None and moved.zone == "upper"
    assert not any(
        t.reference == moved.id and t.date == TODAY.isoformat() for t in Q.db.transactions.values()
    )


def test_auto_renew_toggle() -> None:
    p = next(p for p in DB.season_passes.values() if p.auto_renew)
    assert (
        call("set_pass_auto_renew", customer_id=p.customer_id, enabled=False)["auto_renew"] is False
    )
    refuses("already off", "set_pass_auto_renew", customer_id=p.customer_id, enabled=False)
    plain, _ = plain_customer()
    refuses("no active season pass", "set_pass_auto_renew", customer_id=plain, enabled=True)


# -- team store ----------------------------------------------------------------------------


def test_cancel_processing_order_refunds_everything() -> None:
    order = next(o for o in DB.merch_orders.values() if o.status == "processing")
    out = call("cancel_merch_order", customer_id=order.customer_id, order_id=order.id)
    assert (
        out["refunded"] == f"{order.total:.2f}"
        and Q.db.merch_orders[order.id].status == "cancelled"
    )
    for status in ("shipped", "delivered", "cancelled"):
        other = next(o for o in DB.merch_orders.values() if o.status == status)
        refuses(
            f"is {status}", "cancel_merch_order", customer_id=other.customer_id, order_id=other.id
        )


def _recent_delivered(personalized: bool) -> Any:
    for o in DB.merch_orders.values():
        if o.status != "delivered" or o.delivered is None or o.delivered < "2025-01-20":
            continue
        has = any(i.personalization for i in o.items)
        if has == personalized and any(
            i.personalization is None and i.status == "ordered" for i in o.items
        ):
            return o
    raise AssertionError("no recent delivered order")


def test_return_items_refunds_item_prices_only() -> None:
    order = _recent_delivered(personalized=True)
    plain = [i for i in order.items if i.personalization is None and i.status == "ordered"]
    custom = next(i for i in order.items if i.personalization)
    mine = {"customer_id": order.customer_id, "order_id": order.id}
    rule = "basketball.personalized_final_sale"
    allows(rule, "return_merch_items", item_ids=[i.item_id for i in plain], **mine)
    allows("basketball.return_window", "return_merch_items", item_ids=[custom.item_id], **mine)
    breaks(rule, "return_merch_items", item_ids=[custom.item_id], **mine)
    out = call(
        "return_merch_items",
        customer_id=order.customer_id,
        order_id=order.id,
        item_ids=[i.item_id for i in plain],
    )
    assert out["refunded"] == f"{sum(i.price for i in plain):.2f}"
    assert Q.db.merch_orders[order.id].items[order.items.index(custom)].status == "returned"
    refuses(
        "already returned",
        "return_merch_items",
        customer_id=order.customer_id,
        order_id=order.id,
        item_ids=[plain[0].item_id],
    )


def test_return_refusals() -> None:
    order = _recent_delivered(personalized=False)
    args = {"customer_id": order.customer_id, "order_id": order.id}
    refuses("no item", "return_merch_items", item_ids=[f"{order.id}-9"], **args)
    refuses("once", "return_merch_items", item_ids=[], **args)
    first = order.items[0].item_id
    refuses("once", "return_merch_items", item_ids=[first, first], **args)
    old = next(
        o
        for o in DB.merch_orders.values()
        if o.status == "delivered"
        and o.delivered
        and (TODAY - date.fromisoformat(o.delivered)).days > 30
    )
    breaks(
        "basketball.return_window",
        "return_merch_items",
        customer_id=old.customer_id,
        order_id=old.id,
        item_ids=[old.items[0].item_id],
    )
    shipped = next(o for o in DB.merch_orders.values() if o.status == "shipped")
    refuses(
        "only delivered",
        "return_merch_items",
        customer_id=shipped.customer_id,
        order_id=shipped.id,
        item_ids=[shipped.items[0].item_id],
    )


# -- camps ---------------------------------------------------------------------------------


def _camp(name: str) -> Any:
    return next(c for c in DB.camps.values() if c.name == name)


def test_register_two_children_with_sibling_discount() -> None:
    camp = _camp("Spring Break Skills Camp")
    enrolled = {r.customer_id for r in DB.camp_registrations.values() if r.camp_id == camp.id}
    cid = next(c for c in DB.customers if c not in enrolled and valid_method(c))
    args = {"customer_id": cid, "camp_id": camp.id, "payment_method_id": valid_method(cid)}
    first = call(
        "register_camper", camper_name="  ada   LEE ", camper_birth_date="2014-05-01", **args
    )
    assert first["camper"] == "Ada Lee" and first["charged"] == "325.00"
    second = call("register_camper", camper_name="Ben Lee", camper_birth_date="2013-01-20", **args)
    assert second["charged"] == "292.50"
    refuses(
        "already registered",
        "register_camper",
        camper_name="ADA LEE",
        camper_birth_date="2014-05-01",
        **args,
    )


def test_register_refusals() -> None:
    cid, method = plain_customer()
    base = {"customer_id": cid, "payment_method_id": method, "camper_name": "Cy Park"}
    spring = _camp("Spring Break Skills Camp").id
    refuses("YYYY-MM-DD", "register_camper", camp_id=spring, camper_birth_date="May 1 2014", **base)
    refuses("no camp", "register_camper", camp_id="CA0", camper_birth_date="2014-01-01", **base)
    full = _camp("Youth Hoops Clinic").id
    refuses("is full", "register_camper", camp_id=full, camper_birth_date="2014-01-01", **base)


def test_register_refuses_a_birth_date_after_today() -> None:
    cid, method = plain_customer()
    base = {"customer_id": cid, "payment_method_id": method, "camper_name": "Zed Future"}
    spring = _camp("Spring Break Skills Camp").id
    refuses(
        "after today", "register_camper", camp_id=spring, camper_birth_date="2031-01-01", **base
    )
    tomorrow = date.fromordinal(TODAY.toordinal() + 1).isoformat()
    refuses("after today", "register_camper", camp_id=spring, camper_birth_date=tomorrow, **base)


def test_camp_eligibility_is_the_agents_to_apply() -> None:
    cid, method = plain_customer()
    base = {"customer_id": cid, "payment_method_id": method, "camper_name": "Cy Park"}
    spring = _camp("Spring Break Skills Camp").id
    started, age = "basketball.camp_not_started", "basketball.camper_age_range"
    allows(started, "register_camper", camp_id=spring, camper_birth_date="2014-01-01", **base)
    allows(age, "register_camper", camp_id=spring, camper_birth_date="2014-01-01", **base)
    holiday = _camp("Holiday Camp").id
    breaks(started, "register_camper", camp_id=holiday, camper_birth_date="2014-01-01", **base)
    breaks(age, "register_camper", camp_id=spring, camper_birth_date="2019-01-01", **base)
    breaks(age, "register_camper", camp_id=spring, camper_birth_date="2009-01-01", **base)


def test_cancel_camp_refund_tiers() -> None:
    expected = {
        "Presidents' Day Mini Camp": Decimal("0"),
        "Winter Shooting Clinic": Decimal("0.5"),
        "Youth Hoops Clinic": Decimal("1"),
    }
    for name, share in expected.items():
        camp = _camp(name)
        reg = next(
            r
            for r in DB.camp_registrations.values()
            if r.camp_id == camp.id and r.status == "registered"
        )
        mine = {"customer_id": reg.customer_id, "registration_id": reg.id}
        if share:
            allows("basketball.camp_not_started", "cancel_camp_registration", **mine)
        out = call("cancel_camp_registration", **mine)
        assert out["refunded"] == f"{(reg.price_paid * share).quantize(Decimal('0.01')):.2f}", name
        refuses(
            "already cancelled",
            "cancel_camp_registration",
            customer_id=reg.customer_id,
            registration_id=reg.id,
        )


def test_cancel_camp_refusals() -> None:
    past = next(r for r in DB.camp_registrations.values() if r.camp_id == _camp("Holiday Camp").id)
    other = next(c for c in DB.customers if c != past.customer_id)
    refuses(
        "no camp registration",
        "cancel_camp_registration",
        customer_id=other,
        registration_id=past.id,
    )
    mine = {"customer_id": past.customer_id, "registration_id": past.id}
    breaks("basketball.camp_not_started", "cancel_camp_registration", **mine)
    assert Q.db.camp_registrations[past.id].status == "cancelled"
    assert not any(t.reference == past.id for t in Q.db.transactions.values() if t.kind == "refund")


def test_transfer_records_hand_off_with_stable_hash() -> None:
    assert "TR500001" in call("transfer_to_human_agents", summary="wants a pass refund")
    first = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="other words")
    assert ENV.hash() == first


# -- policy checks -------------------------------------------------------------------------


def test_clean_trajectory_passes_every_check() -> None:
    cid, method = plain_customer()
    email = DB.customers[cid].email
    buy = {
        "customer_id": cid,
        "game_id": later_game().id,
        "zone": "upper",
        "quantity": 1,
        "payment_method_id": method,
    }
    t = conversation(
        ENV,
        ("user", "One upper ticket please."),
        ("call", "list_home_games", {}),
        ("call", "find_customer_by_email", {"email": email}),
        ("assistant", "One upper ticket for 39.50 total. Shall I buy it?"),
        ("user", "Yes."),
        ("call", "buy_tickets", buy),
    )
    assert t.rules() == set()


def test_checks_catch_violations() -> None:
    cid, method = plain_customer()
    email = DB.customers[cid].email
    buy = {
        "customer_id": cid,
        "game_id": later_game().id,
        "zone": "upper",
        "quantity": 1,
        "payment_method_id": method,
    }
    no_auth = conversation(
        ENV, ("assistant", "Buy it?"), ("user", "yes"), ("call", "buy_tickets", buy)
    )
    assert no_auth.rules() == {
        "basketball.authenticate_first",
        "basketball.act_as_authenticated_customer",
    }
    unconfirmed = conversation(
        ENV, ("call", "find_customer_by_email", {"email": email}), ("call", "buy_tickets", buy)
    )
    assert unconfirmed.rules() == {"basketball.confirm_before_write"}
    other = next(c for c in DB.customers.values() if c.id != cid)
    two = conversation(
        ENV,
        ("call", "find_customer_by_email", {"email": email}),
        ("call", "get_customer_details", {"customer_id": cid}),
        ("call", "find_customer_by_email", {"email": other.email}),
        ("call", "get_customer_details", {"customer_id": other.id}),
    )
    # the second lookup, and then acting on that customer
    assert two.rules() == {"basketball.single_identity", "basketball.one_customer"}
    impersonating = conversation(
        ENV,
        ("call", "find_customer_by_email", {"email": email}),
        ("call", "get_customer_details", {"customer_id": other.id}),
    )
    assert "basketball.act_as_authenticated_customer" in impersonating.rules()


# -- the databases ------------------------------------------------------------------------


def test_train_and_eval_have_their_own_payment_methods_and_campers() -> None:
    """Beyond the ids and personal facts the contract test compares for every domain."""

    def own(db: BasketballDB) -> set[str]:
        found = {m.label for m in db.payment_methods.values()}
        return found | {r.camper_name.lower() for r in db.camp_registrations.values()}

    train, test = (DOMAIN.load_db(v)[0] for v in ("train", "eval"))
    assert not own(train) & own(test)  # type: ignore[arg-type]


def test_database_sizes_look_like_a_real_club() -> None:
    counts = DB.record_counts()
    assert counts["customers"] >= 300 and counts["ticket_orders"] >= 500
    assert counts["merch_orders"] >= 300 and counts["transactions"] >= 1000
