"""Policy checks of the basketball domain, audited over a finished trajectory.

The tools enforce integrity: the records exist and are the caller's, a played game's tickets
or a shipped order cannot change, seats, places and cards must be there. How many tickets one
fan may hold, which orders may be exchanged or refunded, what may be returned, who may join a
camp and until when are the agent's to apply, as a human agent would; the judged checks below
audit them on the database as it stood before each write. The others audit what only the
conversation shows: who was authenticated, what the user agreed to, one customer.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from tau_emotion.domains.basketball.db import Game, MerchOrder, TicketOrder
from tau_emotion.domains.basketball.rules import (
    EXCHANGE_NOTICE,
    MAX_TICKETS_PER_GAME,
    NOW,
    RETURN_WINDOW_DAYS,
    TODAY,
    ZONES,
    age_on,
)
from tau_emotion.domains.basketball.tools import ClubTools
from tau_emotion.domains.basketball.tools_shop import camper_birth
from tau_emotion.domains.checks import (
    Offer,
    PolicyCheck,
    act_as_authenticated,
    all_but,
    judged,
    session_checks,
)
from tau_emotion.errors import ToolError

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
PUBLIC_TOOLS = frozenset((*AUTH_TOOLS, "list_home_games", "get_team_roster", "list_camps"))
"""The schedule, roster and camp list are public; everything else concerns an account."""


def _ticket_limit(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    quantity = int(args["quantity"])
    if quantity > MAX_TICKETS_PER_GAME:
        return f"{quantity} tickets in one order, over {MAX_TICKETS_PER_GAME}"
    held = sum(
        len(o.seats)
        for o in tools.q.db.ticket_orders.values()
        if o.customer_id == args["customer_id"]
        and o.game_id == args["game_id"]
        and o.status == "active"
    )
    if held + quantity > MAX_TICKETS_PER_GAME:
        return (
            f"{args['customer_id']} already holds {held} tickets for {args['game_id']}; "
            f"{quantity} more is over {MAX_TICKETS_PER_GAME}"
        )
    return None


def _named_order(tools: ClubTools, args: Mapping[str, Any]) -> TicketOrder:
    return tools.q.own_order(args["customer_id"], args["order_id"])


def _ordered_game(tools: ClubTools, args: Mapping[str, Any]) -> Game:
    """The game of the ticket order a write names: its status and start decide the write."""
    return tools.q.db.games[_named_order(tools, args).game_id]


def _named_merch(tools: ClubTools, args: Mapping[str, Any]) -> MerchOrder:
    return tools.q.own_merch(args["customer_id"], args["order_id"])


def _exchange_once(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    order = _named_order(tools, args)
    if order.exchanged_from is not None:
        return f"{order.id} was already exchanged once, from {order.exchanged_from}"
    return None


def _refund_cancelled(tools: ClubTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """A cancelled game's tickets are refunded, not exchanged (policy.md, Tickets)."""
    if _ordered_game(tools, args).status != "cancelled":
        return None  # too close to the game: nothing to offer
    arguments = {"customer_id": args["customer_id"], "order_id": args["order_id"]}
    return Offer("refund_tickets", arguments, "refund those tickets instead")


def _exchange_notice(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    game = _ordered_game(tools, args)
    if game.status == "cancelled":
        return f"{game.id} was cancelled; its tickets are refunded, not exchanged"
    starts = tools.q.starts(game)
    if starts - NOW < EXCHANGE_NOTICE:
        return f"{game.id} starts {starts.isoformat()}, less than 48 hours from now"
    return None


def _refund_eligibility(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    game = _ordered_game(tools, args)
    if game.status == "cancelled":
        return None
    if game.status == "postponed" and tools.q.starts(game) > NOW:
        return None
    return f"{game.id} is {game.status}, neither cancelled nor postponed to a later date"


def _pass_upgrade_only(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    season_pass = tools.q.active_pass(args["customer_id"])
    if season_pass is None:
        raise ToolError("no active season pass")  # the tool refuses it
    if ZONES[args["zone"]].rank < ZONES[season_pass.zone].rank:
        return f"{args['zone']} is a downgrade from {season_pass.zone}"
    return None


def _return_window(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    order = _named_merch(tools, args)
    if order.delivered is None:
        return None  # not delivered: the tool refuses it
    if TODAY - date.fromisoformat(order.delivered) > timedelta(days=RETURN_WINDOW_DAYS):
        return f"{order.id} was delivered {order.delivered}, over {RETURN_WINDOW_DAYS} days ago"
    return None


def _personalized(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    order = _named_merch(tools, args)
    final = [
        i.item_id
        for i in order.items
        if i.item_id in args["item_ids"] and i.personalization is not None
    ]
    return f"{', '.join(final)} personalized, final sale" if final else None


def _camp_not_started(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    if "registration_id" in args:  # cancel_camp_registration
        reg = tools.q.db.camp_registrations.get(args["registration_id"])
        if reg is None:
            return None  # the tool refuses it
        camp = tools.q.db.camps[reg.camp_id]
    else:  # register_camper
        found = tools.q.db.camps.get(args["camp_id"])
        if found is None:
            return None
        camp = found
    if date.fromisoformat(camp.start) <= TODAY:
        return f"{camp.name} started {camp.start}"
    return None


def _camper_age(tools: ClubTools, args: Mapping[str, Any]) -> str | None:
    camp = tools.q.db.camps.get(args["camp_id"])
    if camp is None:
        return None
    age = age_on(camper_birth(args["camper_birth_date"]), date.fromisoformat(camp.start))
    if not camp.min_age <= age <= camp.max_age:
        return f"{camp.name} is for ages {camp.min_age}-{camp.max_age}; the camper will be {age}"
    return None


# The ticket, store and camp rules of policy.md, judged on the database before the write.
JUDGED: list[PolicyCheck] = [
    judged(
        "basketball.ticket_limit",
        f"Sell at most {MAX_TICKETS_PER_GAME} tickets per order, and never so many that a "
        f"customer holds more than {MAX_TICKETS_PER_GAME} for one game.",
        ["buy_tickets"],
        _ticket_limit,
    ),
    judged(
        "basketball.exchange_once",
        "Tickets that were already exchanged once cannot be exchanged again.",
        ["exchange_tickets"],
        _exchange_once,
    ),
    judged(
        "basketball.exchange_notice",
        "Exchange tickets only at least 48 hours before the game starts (a postponed game's "
        "new date), and never those of a cancelled game (refund them).",
        ["exchange_tickets"],
        _exchange_notice,
        offer=_refund_cancelled,
    ),
    judged(
        "basketball.refund_eligibility",
        "Refund tickets only for a cancelled game, or a postponed one until it is played.",
        ["refund_tickets"],
        _refund_eligibility,
    ),
    judged(
        "basketball.pass_upgrade_only",
        "Season passes are upgraded here, never downgraded (the ticket office handles that).",
        ["upgrade_season_pass"],
        _pass_upgrade_only,
    ),
    judged(
        "basketball.return_window",
        f"Return store items only within {RETURN_WINDOW_DAYS} days of delivery.",
        ["return_merch_items"],
        _return_window,
    ),
    judged(
        "basketball.personalized_final_sale",
        "Personalized jerseys are final sale and cannot be returned.",
        ["return_merch_items"],
        _personalized,
    ),
    judged(
        "basketball.camp_not_started",
        "Register a camper, or cancel a camp registration, only before the camp starts.",
        ["register_camper", "cancel_camp_registration"],
        _camp_not_started,
    ),
    judged(
        "basketball.camper_age_range",
        "Register a child only if their age on the camp's first day is in the camp's range.",
        ["register_camper"],
        _camper_age,
    ),
]

CHECKS: list[PolicyCheck] = [
    *session_checks("basketball", AUTH_TOOLS, all_but(PUBLIC_TOOLS)),
    act_as_authenticated(
        "basketball.act_as_authenticated_customer",
        "Pass as customer_id only the id the authentication lookup returned for this caller.",
        AUTH_TOOLS,
        "customer_id",
    ),
    *JUDGED,
]
