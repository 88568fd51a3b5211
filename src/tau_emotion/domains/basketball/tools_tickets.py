"""Ticket and season-pass tools: buy, exchange, refund, upgrade a pass, auto-renewal."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.basketball.db import TicketOrder
from tau_emotion.domains.basketball.rules import (
    EXCHANGE_FEE,
    EXCHANGE_NOTICE,
    MAX_TICKETS_PER_GAME,
    NOW,
    SERVICE_FEE,
    TODAY,
    ZONES,
    Zone,
)
from tau_emotion.domains.basketball.tools_base import ClubToolBase
from tau_emotion.domains.common import fmt
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


class TicketTools(ClubToolBase):
    """Every ticketing rule of the policy that a single call can check is enforced here."""

    def _new_order(
        self,
        customer_id: str,
        game_id: str,
        zone: Zone,
        seats: list[str],
        unit_price: Decimal,
        service_fees: Decimal,
        method_id: str,
        exchanged_from: str | None,
    ) -> TicketOrder:
        oid = self.q.new_id(self.q.db.ticket_orders, "TO")
        order = TicketOrder(
            id=oid,
            customer_id=customer_id,
            game_id=game_id,
            zone=zone,
            seats=tuple(seats),
            unit_price=unit_price,
            service_fees=service_fees,
            total=unit_price * len(seats) + service_fees,
            payment_method_id=method_id,
            status="active",
            exchanged_from=exchanged_from,
            placed=TODAY.isoformat(),
        )
        self.q.db.ticket_orders[oid] = order
        return order

    @tool("write")
    def buy_tickets(
        self, customer_id: str, game_id: str, zone: Zone, quantity: int, payment_method_id: str
    ) -> dict[str, Any]:
        """Buy tickets for a scheduled home game in one seating zone; the lowest free seat
        numbers of the zone are assigned. Season-pass holders get 10% off the ticket price;
        every ticket carries a 3.50 service fee.

        Args:
            customer_id: The authenticated customer's id.
            game_id: The game id from list_home_games.
            zone: Seating zone: family, upper, lower or courtside.
            quantity: Number of tickets, 1 to 8.
            payment_method_id: One of the customer's payment methods.
        """
        self.q.customer(customer_id)
        game = self.q.game(game_id)
        if game.status != "scheduled":
            raise ToolError(f"game {game_id} is {game.status}; tickets are not on sale")
        if not 1 <= quantity <= MAX_TICKETS_PER_GAME:
            raise ToolError(f"buy between 1 and {MAX_TICKETS_PER_GAME} tickets")
        held = sum(
            len(o.seats)
            for o in self.q.db.ticket_orders.values()
            if o.customer_id == customer_id and o.game_id == game_id and o.status == "active"
        )
        if held + quantity > MAX_TICKETS_PER_GAME:
            raise ToolError(
                f"a customer may hold at most {MAX_TICKETS_PER_GAME} tickets per game; this "
                f"customer already has {held}"
            )
        method = self.q.payment_method(customer_id, payment_method_id)
        seats = self.q.free_seats(zone, [game], quantity)
        if len(seats) < quantity:
            raise ToolError(f"only {len(seats)} {zone} seats are left for this game")
        unit = self.q.unit_price(customer_id, game, zone)
        order = self._new_order(
            customer_id, game.id, zone, seats, unit, SERVICE_FEE * quantity, method.id, None
        )
        self.q.record(customer_id, method.id, "charge", order.total, order.id)
        return {
            "order_id": order.id,
            "seats": list(order.seats),
            "unit_price": fmt(unit),
            "service_fees": fmt(order.service_fees),
            "total": fmt(order.total),
        }

    @tool("write")
    def exchange_tickets(
        self, customer_id: str, order_id: str, new_game_id: str, payment_method_id: str = ""
    ) -> dict[str, Any]:
        """Move all tickets of an order to another scheduled home game, same zone, at least
        48 hours before the original game. The customer pays any price increase plus a 10.00
        per-ticket exchange fee (waived for season-pass holders); a cheaper game is not
        refunded. An order can be exchanged only once.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The ticket order to exchange.
            new_game_id: The scheduled home game to move to.
            payment_method_id: The customer's payment method for any amount due.
        """
        order = self.q.own_order(customer_id, order_id)
        if order.status != "active":
            raise ToolError(f"order {order_id} is {order.status}")
        if order.exchanged_from is not None:
            raise ToolError("these tickets were already exchanged once and cannot be again")
        game = self.q.db.games[order.game_id]
        if game.status == "cancelled":
            raise ToolError("that game was cancelled; refund the order instead of exchanging it")
        if game.status == "played" or self.q.starts(game) - NOW < EXCHANGE_NOTICE:
            raise ToolError("tickets can be exchanged only up to 48 hours before the game")
        new_game = self.q.game(new_game_id)
        if new_game.status != "scheduled" or new_game.id == game.id:
            raise ToolError(f"game {new_game_id} is not another scheduled home game")
        count = len(order.seats)
        seats = self.q.free_seats(order.zone, [new_game], count)
        if len(seats) < count:
            raise ToolError(f"only {len(seats)} {order.zone} seats are left for that game")
        new_unit = self.q.unit_price(customer_id, new_game, order.zone)
        increase = max(new_unit - order.unit_price, Decimal("0.00")) * count
        fee = Decimal("0.00") if self.q.active_pass(customer_id) else EXCHANGE_FEE * count
        due = increase + fee
        method_id = order.payment_method_id
        if due > 0:
            if not payment_method_id:
                raise ToolError(f"{fmt(due)} is due for this exchange; give a payment method")
            method_id = self.q.payment_method(customer_id, payment_method_id).id
        self.q.db.ticket_orders[order.id] = order.model_copy(update={"status": "exchanged"})
        new = self._new_order(
            customer_id,
            new_game.id,
            order.zone,
            seats,
            max(new_unit, order.unit_price),
            order.service_fees,
            method_id,
            order.id,
        )
        self.q.record(customer_id, method_id, "charge", due, new.id)
        return {"new_order_id": new.id, "seats": list(new.seats), "charged": fmt(due)}

    @tool("write")
    def refund_tickets(self, customer_id: str, order_id: str) -> dict[str, Any]:
        """Refund a whole ticket order to the payment method it was paid with. Only for a
        cancelled game (price and service fees) or a postponed one (ticket price only).

        Args:
            customer_id: The authenticated customer's id.
            order_id: The ticket order to refund.
        """
        order = self.q.own_order(customer_id, order_id)
        if order.status != "active":
            raise ToolError(f"order {order_id} is {order.status}")
        game = self.q.db.games[order.game_id]
        if game.status == "cancelled":
            amount = order.total
        elif game.status == "postponed" and self.q.starts(game) > NOW:
            amount = order.total - order.service_fees
        else:
            raise ToolError(
                "tickets are refundable only for a cancelled or postponed game; offer an exchange"
            )
        self.q.db.ticket_orders[order.id] = order.model_copy(update={"status": "refunded"})
        self.q.record(customer_id, order.payment_method_id, "refund", amount, order.id)
        return {
            "order_id": order.id,
            "refunded": fmt(amount),
            "to": self.q.db.payment_methods[order.payment_method_id].label,
        }

    @tool("write")
    def upgrade_season_pass(
        self, customer_id: str, zone: Zone, payment_method_id: str
    ) -> dict[str, Any]:
        """Move a season pass to a better zone for the rest of the season. The customer pays
        the difference in per-game pass price for every home game still to be played.

        Args:
            customer_id: The authenticated customer's id.
            zone: The better zone: upper, lower or courtside.
            payment_method_id: One of the customer's payment methods.
        """
        season_pass = self.q.active_pass(customer_id)
        if season_pass is None:
            raise ToolError("this customer has no active season pass")
        old, new = ZONES[season_pass.zone], ZONES[zone]
        if new.rank <= old.rank:
            raise ToolError(f"{zone} is not an upgrade from {season_pass.zone}")
        games = self.q.upcoming()
        seats = self.q.free_seats(zone, games, 1)
        if not seats:
            raise ToolError(f"no {zone} seat is free for all remaining games")
        method = self.q.payment_method(customer_id, payment_method_id)
        cost = (new.pass_per_game - old.pass_per_game) * len(games)
        updated = season_pass.model_copy(
            update={"zone": zone, "seat": seats[0], "price_paid": season_pass.price_paid + cost}
        )
        self.q.db.season_passes[season_pass.id] = updated
        self.q.record(customer_id, method.id, "charge", cost, season_pass.id)
        return {"zone": zone, "seat": seats[0], "games_left": len(games), "charged": fmt(cost)}

    @tool("write")
    def set_pass_auto_renew(self, customer_id: str, enabled: bool) -> dict[str, Any]:
        """Turn automatic renewal of the season pass for next season on or off.

        Args:
            customer_id: The authenticated customer's id.
            enabled: True to renew automatically, False to stop.
        """
        season_pass = self.q.active_pass(customer_id)
        if season_pass is None:
            raise ToolError("this customer has no active season pass")
        if season_pass.auto_renew == enabled:
            raise ToolError(f"auto-renewal is already {'on' if enabled else 'off'}")
        self.q.db.season_passes[season_pass.id] = season_pass.model_copy(
            update={"auto_renew": enabled}
        )
        return {"pass_id": season_pass.id, "auto_renew": enabled}
