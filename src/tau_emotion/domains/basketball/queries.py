"""Typed tables and the lookups every tool shares: ownership, seat availability, prices."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from tau_emotion.domains.basketball.db import (
    BasketballDB,
    Camp,
    Customer,
    Flow,
    Game,
    MerchOrder,
    PaymentMethod,
    SeasonPass,
    TicketOrder,
    transaction,
)
from tau_emotion.domains.basketball.rules import (
    ID_WIDTH,
    NOW,
    TODAY,
    ZONES,
    Zone,
    card_expired,
    pass_price,
    seat_label,
    single_price,
)
from tau_emotion.domains.common import next_id, require
from tau_emotion.domains.kit.ownership import owned_record
from tau_emotion.domains.state import State
from tau_emotion.errors import ToolError


def _buyer(order: TicketOrder | MerchOrder) -> str:
    return order.customer_id


class Queries:
    def __init__(self, state: State) -> None:
        self.db = state.view(BasketballDB)
        self.lead: str = self.db.settings["club"].id_lead

    def new_id(self, table: Mapping[str, Any], prefix: str) -> str:
        return next_id(table, prefix + self.lead, ID_WIDTH)

    # -- people and money ---------------------------------------------------------------

    def customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id}")

    def payment_method(self, customer_id: str, method_id: str) -> PaymentMethod:
        method = self.db.payment_methods.get(method_id)
        if method is None or method.customer_id != customer_id:
            raise ToolError(f"payment method {method_id} does not belong to this customer")
        if card_expired(method.expires):
            raise ToolError(f"{method.label} expired in {method.expires}; use another method")
        return method

    def record(
        self, customer_id: str, method_id: str, kind: Flow, amount: Decimal, reference: str
    ) -> None:
        """Book a charge or refund; nothing is booked for a zero amount."""
        if amount <= 0:
            return
        tid = self.new_id(self.db.transactions, "TX")
        day = TODAY.isoformat()
        self.db.transactions[tid] = transaction(
            tid, customer_id, method_id, kind, amount, reference, day
        )

    def active_pass(self, customer_id: str) -> SeasonPass | None:
        return next(
            (
                p
                for p in self.db.season_passes.values()
                if p.customer_id == customer_id and p.status == "active"
            ),
            None,
        )

    # -- games and seats ----------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        return require(self.db.games, game_id, f"no home game with id {game_id}")

    @staticmethod
    def starts(game: Game) -> datetime:
        """When the game is (or will be) played: the new date for a postponed game."""
        return datetime.fromisoformat(game.rescheduled_to or game.start)

    def upcoming(self) -> list[Game]:
        """Games still to be played (scheduled, or postponed to a new date)."""
        return [
            g
            for g in self.db.games.values()
            if g.status in ("scheduled", "postponed") and self.starts(g) > NOW
        ]

    def taken_seats(self, game_id: str, zone: Zone) -> set[str]:
        """Seats of active orders for the game plus every active season pass in the zone."""
        taken = {
            seat
            for o in self.db.ticket_orders.values()
            if o.game_id == game_id and o.zone == zone and o.status == "active"
            for seat in o.seats
        }
        taken.update(
            p.seat
            for p in self.db.season_passes.values()
            if p.zone == zone and p.status == "active"
        )
        return taken

    def free_seats(self, zone: Zone, games: list[Game], count: int) -> list[str]:
        """The lowest-numbered seats free in every one of the games; fewer if sold out."""
        taken: set[str] = set()
        for game in games:
            taken |= self.taken_seats(game.id, zone)
        free = (seat_label(zone, n) for n in range(1, ZONES[zone].capacity + 1))
        return [s for s in free if s not in taken][:count]

    def seats_left(self, game: Game, zone: Zone) -> int:
        return ZONES[zone].capacity - len(self.taken_seats(game.id, zone))

    def unit_price(self, customer_id: str, game: Game, zone: Zone) -> Decimal:
        price = single_price(zone, game.premium)
        return pass_price(price) if self.active_pass(customer_id) else price

    def opponent(self, game: Game) -> str:
        team = self.db.teams[game.opponent_id]
        return f"{team.city} {team.name}"

    def own_order(self, customer_id: str, order_id: str) -> TicketOrder:
        refusal = f"no ticket order {order_id} on this customer's account"
        return owned_record(self.db.ticket_orders, order_id, _buyer, customer_id, refusal)

    def own_merch(self, customer_id: str, order_id: str) -> MerchOrder:
        refusal = f"no merchandise order {order_id} on this customer's account"
        return owned_record(self.db.merch_orders, order_id, _buyer, customer_id, refusal)

    def camp_seats_left(self, camp: Camp) -> int:
        taken = sum(
            1
            for r in self.db.camp_registrations.values()
            if r.camp_id == camp.id and r.status == "registered"
        )
        return camp.capacity - taken
