"""Basketball domain: every tool's success and refusal paths, the policy checks, the
generators, the split databases and the seed tasks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from tau_emotion.data import Message, ToolCall
from tau_emotion.domains import load_domain
from tau_emotion.domains.basketball.db import BasketballDB, Game, TicketOrder
from tau_emotion.domains.basketball.rules import TODAY, card_expired
from tau_emotion.domains.basketball.tools import ClubTools
from tau_emotion.domains.checks import Trajectory, run_checks
from tau_emotion.domains.state import db_digest
from tau_emotion.domains.tools import to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError

DOMAIN = load_domain("basketball")
ENV = Environment(DOMAIN, "eval")
DB = ENV.state.db
assert isinstance(DB, BasketballDB)
TOOLS = ENV.tools
assert isinstance(TOOLS, ClubTools)
Q = TOOLS.q


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    ENV.reset()
    yield
    ENV.reset()


def call(name: str, **args: Any) -> Any:
    return ENV.call(name, args)


def refuse(name: str, match: str, **args: Any) -> str:
    with pytest.raises(ToolError) as exc:
        ENV.call(name, args)
    assert match in str(exc.value), str(exc.value)
    return str(exc.value)


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
    refuse("find_customer_by_email", "no customer", email="nobody@nowhere.example")
    refuse("find_customer_by_phone", "10-digit", phone="555-0101")
    refuse("find_customer_by_phone", "no customer", phone="(999) 000-0000")
    refuse("find_customer_by_name_and_zip", "no customer", full_name="No Body", zip_code="00000")
    counts = Counter((c.first_name, c.last_name, c.zip_code) for c in DB.customers.values())
    twins = [k for k, n in counts.items() if n > 1]
    if twins:
        first, last, zip_code = twins[0]
        refuse(
            "find_customer_by_name_and_zip",
            "more than one",
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
    refuse("get_ticket_order", "no ticket order", customer_id=other, order_id=order.id)
    refuse("get_customer_details", "no customer", customer_id="U999999")
    merch = next(iter(DB.merch_orders.values()))
    got = call("get_merch_order", customer_id=merch.customer_id, order_id=merch.id)
    assert [i["item_id"] for i in got["items"]] == [i.item_id for i in merch.items]
    refuse("get_merch_order", "no merchandise order", customer_id=other, order_id=merch.id)


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
    assert Q.orders[bought["order_id"]].seats == tuple(bought["seats"])
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
    refuse("buy_tickets", "not on sale", game_id=played.id, zone="upper", quantity=1, **args)
    postponed = games("postponed")[0]
    refuse("buy_tickets", "not on sale", game_id=postponed.id, zone="upper", quantity=1, **args)
    refuse("buy_tickets", "no home game", game_id="GM0", zone="upper", quantity=1, **args)
    refuse("buy_tickets", "between 1 and 8", game_id=game.id, zone="upper", quantity=9, **args)
    refuse("buy_tickets", "between 1 and 8", game_id=game.id, zone="upper", quantity=0, **args)
    refuse("buy_tickets", "invalid arguments", game_id=game.id, zone="suite", quantity=1, **args)
    premium = games("scheduled", premium=True)[0]
    refuse(
        "buy_tickets", "only 0 courtside", game_id=premium.id, zone="courtside", quantity=1, **args
    )
    call("buy_tickets", game_id=game.id, zone="upper", quantity=6, **args)
    refuse("buy_tickets", "at most 8 tickets", game_id=game.id, zone="upper", quantity=3, **args)
    foreign = next(m.id for m in DB.payment_methods.values() if m.customer_id != cid)
    refuse(
        "buy_tickets",
        "does not belong",
        customer_id=cid,
        game_id=game.id,
        zone="upper",
        quantity=1,
        payment_method_id=foreign,
    )
    expired = next(m for m in DB.payment_methods.values() if card_expired(m.expires))
    refuse(
        "buy_tickets",
        "expired",
        customer_id=expired.customer_id,
        game_id=game.id,
        zone="upper",
        quantity=1,
        payment_method_id=expired.id,
    )


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
    assert Q.orders[order.id].status == "exchanged"
    new = Q.orders[out["new_order_id"]]
    assert new.exchanged_from == order.id and new.game_id == target.id and new.zone == order.zone
    refuse(
        "exchange_tickets",
        "already exchanged once",
        customer_id=order.customer_id,
        order_id=new.id,
        new_game_id=order.game_id,
        payment_method_id=method,
    )
    refuse(
        "exchange_tickets",
        "is exchanged",
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
    refuse(
        "exchange_tickets",
        "give a payment method",
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
    assert not any(t.reference == out["new_order_id"] for t in Q.transactions.values())


def test_exchange_refusals() -> None:
    tomorrow = games("scheduled")[0]
    assert tomorrow.start.startswith("2025-02-15")
    soon = active_order(tomorrow)
    target = later_game()
    refuse(
        "exchange_tickets",
        "48 hours",
        customer_id=soon.customer_id,
        order_id=soon.id,
        new_game_id=target.id,
    )
    cancelled = active_order(games("cancelled")[0])
    refuse(
        "exchange_tickets",
        "refund the order instead",
        customer_id=cancelled.customer_id,
        order_id=cancelled.id,
        new_game_id=target.id,
    )
    order = active_order(target)
    refuse(
        "exchange_tickets",
        "not another scheduled",
        customer_id=order.customer_id,
        order_id=order.id,
        new_game_id=order.game_id,
    )
    refuse(
        "exchange_tickets",
        "not another scheduled",
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
    refuse(
        "exchange_tickets",
        "seats are left",
        customer_id=courtside.customer_id,
        order_id=courtside.id,
        new_game_id=premium.id,
    )
    other = next(c for c in DB.customers if c != order.customer_id)
    refuse(
        "exchange_tickets",
        "no ticket order",
        customer_id=other,
        order_id=order.id,
        new_game_id=target.id,
    )
    plain = active_order(later_game())
    foreign = next(m.id for m in DB.payment_methods.values() if m.customer_id != plain.customer_id)
    refuse(
        "exchange_tickets",
        "does not belong",
        customer_id=plain.customer_id,
        order_id=plain.id,
        new_game_id=next(
            g.id
            for g in games("scheduled", premium=False)
            if g.id != plain.game_id and g.start > "2025-02-22"
        ),
        payment_method_id=foreign,
    )


def test_refunds_for_cancelled_and_postponed_games() -> None:
    cancelled = active_order(games("cancelled")[0])
    out = call("refund_tickets", customer_id=cancelled.customer_id, order_id=cancelled.id)
    assert out["refunded"] == f"{cancelled.total:.2f}"
    postponed = active_order(games("postponed")[0])
    out = call("refund_tickets", customer_id=postponed.customer_id, order_id=postponed.id)
    assert out["refunded"] == f"{postponed.total - postponed.service_fees:.2f}"
    refunds = [
        t for t in Q.transactions.values() if t.kind == "refund" and t.date == TODAY.isoformat()
    ]
    assert {t.reference for t in refunds} == {cancelled.id, postponed.id}
    refuse(
        "refund_tickets", "is refunded", customer_id=cancelled.customer_id, order_id=cancelled.id
    )


def test_refund_refused_for_scheduled_and_played_games() -> None:
    for game in (later_game(), games("played")[0]):
        order = active_order(game, fresh=False)
        refuse(
            "refund_tickets", "offer an exchange", customer_id=order.customer_id, order_id=order.id
        )


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
    out = call("upgrade_season_pass", customer_id=cid, zone="lower", payment_method_id=method)
    assert (
        out["charged"] == f"{Decimal('30.00') * remaining:.2f}" and out["games_left"] == remaining
    )
    moved = Q.active_pass(cid)
    assert moved is not None and moved.zone == "lower" and moved.seat == out["seat"]
    for game in Q.upcoming():
        taken = [
            o
            for o in Q.orders.values()
            if o.game_id == game.id and out["seat"] in o.seats and o.status == "active"
        ]
        assert taken == []


def test_upgrade_pass_refusals() -> None:
    cid, method = _pass_holder("lower")
    refuse(
        "upgrade_season_pass",
        "not an upgrade",
        customer_id=cid,
        zone="upper",
        payment_method_id=method,
    )
    refuse(
        "upgrade_season_pass",
        "not an upgrade",
        customer_id=cid,
        zone="lower",
        payment_method_id=method,
    )
    refuse(
        "upgrade_season_pass",
        "no courtside seat",
        customer_id=cid,
        zone="courtside",
        payment_method_id=method,
    )
    plain, card = plain_customer()
    refuse(
        "upgrade_season_pass",
        "no active season pass",
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
        refuse(
            "upgrade_season_pass",
            "expired",
            customer_id=family.customer_id,
            zone="upper",
            payment_method_id=expired,
        )


def test_auto_renew_toggle() -> None:
    p = next(p for p in DB.season_passes.values() if p.auto_renew)
    assert (
        call("set_pass_auto_renew", customer_id=p.customer_id, enabled=False)["auto_renew"] is False
    )
    refuse("set_pass_auto_renew", "already off", customer_id=p.customer_id, enabled=False)
    plain, _ = plain_customer()
    refuse("set_pass_auto_renew", "no active season pass", customer_id=plain, enabled=True)


# -- team store ----------------------------------------------------------------------------


def test_cancel_processing_order_refunds_everything() -> None:
    order = next(o for o in DB.merch_orders.values() if o.status == "processing")
    out = call("cancel_merch_order", customer_id=order.customer_id, order_id=order.id)
    assert out["refunded"] == f"{order.total:.2f}" and Q.merch[order.id].status == "cancelled"
    for status in ("shipped", "delivered", "cancelled"):
        other = next(o for o in DB.merch_orders.values() if o.status == status)
        refuse(
            "cancel_merch_order", f"is {status}", customer_id=other.customer_id, order_id=other.id
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
    refuse(
        "return_merch_items",
        "final sale",
        customer_id=order.customer_id,
        order_id=order.id,
        item_ids=[custom.item_id],
    )
    out = call(
        "return_merch_items",
        customer_id=order.customer_id,
        order_id=order.id,
        item_ids=[i.item_id for i in plain],
    )
    assert out["refunded"] == f"{sum(i.price for i in plain):.2f}"
    refuse(
        "return_merch_items",
        "already returned",
        customer_id=order.customer_id,
        order_id=order.id,
        item_ids=[plain[0].item_id],
    )


def test_return_refusals() -> None:
    order = _recent_delivered(personalized=False)
    args = {"customer_id": order.customer_id, "order_id": order.id}
    refuse("return_merch_items", "no item", item_ids=[f"{order.id}-9"], **args)
    refuse("return_merch_items", "once", item_ids=[], **args)
    first = order.items[0].item_id
    refuse("return_merch_items", "once", item_ids=[first, first], **args)
    old = next(
        o
        for o in DB.merch_orders.values()
        if o.status == "delivered"
        and o.delivered
        and (TODAY - date.fromisoformat(o.delivered)).days > 30
    )
    refuse(
        "return_merch_items",
        "return window",
        customer_id=old.customer_id,
        order_id=old.id,
        item_ids=[old.items[0].item_id],
    )
    shipped = next(o for o in DB.merch_orders.values() if o.status == "shipped")
    refuse(
        "return_merch_items",
        "only delivered",
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
    refuse(
        "register_camper",
        "already registered",
        camper_name="ADA LEE",
        camper_birth_date="2014-05-01",
        **args,
    )


def test_register_refusals() -> None:
    cid, method = plain_customer()
    base = {"customer_id": cid, "payment_method_id": method, "camper_name": "Cy Park"}
    refuse(
        "register_camper",
        "already started",
        camp_id=_camp("Holiday Camp").id,
        camper_birth_date="2014-01-01",
        **base,
    )
    spring = _camp("Spring Break Skills Camp").id
    refuse("register_camper", "ages 8-14", camp_id=spring, camper_birth_date="2019-01-01", **base)
    refuse("register_camper", "ages 8-14", camp_id=spring, camper_birth_date="2009-01-01", **base)
    refuse("register_camper", "YYYY-MM-DD", camp_id=spring, camper_birth_date="May 1 2014", **base)
    refuse("register_camper", "no camp", camp_id="CA0", camper_birth_date="2014-01-01", **base)
    full = _camp("Youth Hoops Clinic").id
    refuse("register_camper", "is full", camp_id=full, camper_birth_date="2014-01-01", **base)


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
        out = call("cancel_camp_registration", customer_id=reg.customer_id, registration_id=reg.id)
        assert out["refunded"] == f"{(reg.price_paid * share).quantize(Decimal('0.01')):.2f}", name
        refuse(
            "cancel_camp_registration",
            "already cancelled",
            customer_id=reg.customer_id,
            registration_id=reg.id,
        )


def test_cancel_camp_refusals() -> None:
    past = next(r for r in DB.camp_registrations.values() if r.camp_id == _camp("Holiday Camp").id)
    refuse(
        "cancel_camp_registration",
        "already started",
        customer_id=past.customer_id,
        registration_id=past.id,
    )
    other = next(c for c in DB.customers if c != past.customer_id)
    refuse(
        "cancel_camp_registration",
        "no camp registration",
        customer_id=other,
        registration_id=past.id,
    )


def test_transfer_records_hand_off_with_stable_hash() -> None:
    assert "TR500001" in call("transfer_to_human_agents", summary="wants a pass refund")
    first = ENV.hash()
    ENV.reset()
    call("transfer_to_human_agents", summary="other words")
    assert ENV.hash() == first


# -- policy checks -------------------------------------------------------------------------


def _trajectory(*steps: tuple[Any, ...]) -> Trajectory:
    messages: list[Message] = []
    for n, step in enumerate(steps):
        if step[0] in ("user", "assistant"):
            messages.append(Message(role=step[0], content=step[1]))
            continue
        _, name, args = step
        try:
            content, error = to_text(ENV.call(name, args)), False
        except ToolError as exc:
            content, error = f"Error: {exc}", True
        messages.append(
            Message(role="assistant", tool_calls=[ToolCall(id=f"c{n}", name=name, arguments=args)])
        )
        messages.append(Message(role="tool", content=content, tool_call_id=f"c{n}", error=error))
    ENV.reset()
    return Trajectory(messages, DOMAIN.tool_kinds)


def _rules(t: Trajectory) -> set[str]:
    return {v.rule_id for v in run_checks(DOMAIN.checks, t)}


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
    t = _trajectory(
        ("user", "One upper ticket please."),
        ("call", "list_home_games", {}),
        ("call", "find_customer_by_email", {"email": email}),
        ("assistant", "One upper ticket for 39.50 total. Shall I buy it?"),
        ("user", "Yes."),
        ("call", "buy_tickets", buy),
    )
    assert _rules(t) == set()


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
    no_auth = _trajectory(("assistant", "Buy it?"), ("user", "yes"), ("call", "buy_tickets", buy))
    assert _rules(no_auth) == {
        "basketball.authenticate_first",
        "basketball.act_as_authenticated_customer",
    }
    unconfirmed = _trajectory(
        ("call", "find_customer_by_email", {"email": email}), ("call", "buy_tickets", buy)
    )
    assert _rules(unconfirmed) == {"basketball.confirm_before_write"}
    other = next(c for c in DB.customers.values() if c.id != cid)
    two = _trajectory(
        ("call", "find_customer_by_email", {"email": email}),
        ("call", "get_customer_details", {"customer_id": cid}),
        ("call", "find_customer_by_email", {"email": other.email}),
        ("call", "get_customer_details", {"customer_id": other.id}),
    )
    assert _rules(two) == {"basketball.one_customer"}
    impersonating = _trajectory(
        ("call", "find_customer_by_email", {"email": email}),
        ("call", "get_customer_details", {"customer_id": other.id}),
    )
    assert "basketball.act_as_authenticated_customer" in _rules(impersonating)


# -- databases and tasks -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["train", "eval"])
def test_generator_reproduces_snapshot(variant: str) -> None:
    _, digest = DOMAIN.load_db(variant)
    assert db_digest(DOMAIN.databases[variant].generate()) == digest


def _identifiers(db: BasketballDB) -> set[str]:
    found: set[str] = set()
    for name, table in db.tables().items():
        if name != "settings":
            found.update(table)
    for c in db.customers.values():
        found.update({c.email, c.phone, f"{c.first_name} {c.last_name}".lower()})
    found.update(f"{p.first_name} {p.last_name}".lower() for p in db.players.values())
    found.update(m.label for m in db.payment_methods.values())
    found.update(r.camper_name.lower() for r in db.camp_registrations.values())
    return found


def test_train_and_eval_share_no_ids_or_people() -> None:
    train, _ = DOMAIN.load_db("train")
    evaluation, _ = DOMAIN.load_db("eval")
    assert isinstance(train, BasketballDB) and isinstance(evaluation, BasketballDB)
    assert _identifiers(train) & _identifiers(evaluation) == set()


def test_database_sizes_look_like_a_real_club() -> None:
    counts = DB.record_counts()
    assert counts["customers"] >= 300 and counts["ticket_orders"] >= 500
    assert counts["merch_orders"] >= 300 and counts["transactions"] >= 1000


def test_seed_tasks_replay_and_cover_every_write() -> None:
    tasks = DOMAIN.tasks()
    assert len(tasks) >= 15 and len([t for t in tasks if t.split == "train"]) >= 3
    assert sum(len(t.intents) > 1 for t in tasks) >= 3
    writes = {n for n, k in DOMAIN.tool_kinds.items() if k != "read"}
    assert writes <= {a.name for t in tasks for a in t.gold_actions}
    envs = {"train": Environment(DOMAIN, "train"), "test": ENV}
    for task in tasks:
        env = envs[task.split]
        assert env.replay(task.gold_actions) != env.hash(), task.id
