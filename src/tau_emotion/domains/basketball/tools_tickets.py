"""Ticket and season-pass tools: buy, exchange, refund, upgrade a pass, auto-renewal."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from typing import Any

from tau_emotion.domains.basketball.db import TicketOrder
from tau_emotion.domains.basketball.rules import (
    EXCHANGE_FEE,
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
    """The ticketing writes. They refuse what cannot happen (an unknown or finished record, a
    game not on sale, a sold-out zone, an unusable card); who may exchange or be refunded and
    how many tickets one fan may hold are the policy's, judged in `checks.py`."""

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
        every ticket carries a 3.50 service fee. The policy says how many tickets one order
        and one customer may have.

        Args:
            customer_id: The authenticated customer's id.
            game_id: The game id from list_home_games.
            zone: Seating zone: family, upper, lower or courtside.
            quantity: Number of tickets, at least 1.
            payment_method_id: One of the customer's payment methods.
        """
        self.q.customer(customer_id)
        game = self.q.game(game_id)
        if game.status != "scheduled":
            raise ToolError(f"game {game_id} is {game.status}; tickets are not on sale")
        # The 8-ticket limits are the policy's (basketball.ticket_limit); a zone's seats are
        # the only physical bound.
        if quantity < 1:
            raise ToolError(f"quantity must be at least 1, not {quantity}")
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
        """Move all tickets of an order to another scheduled home game, same zone. The
        customer pays any price increase plus a 10.00 per-ticket exchange fee (waived for
        season-pass holders); a cheaper game is not refunded. The policy says which orders
        may be exchanged and until when.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The ticket order to exchange.
            new_game_id: The scheduled home game to move to.
            payment_method_id: The customer's payment method for any amount due.
        """
        order = self.q.own_order(customer_id, order_id)
        if order.status != "active":
            raise ToolError(f"order {order_id} is {order.status}")
        game = self.q.db.games[order.game_id]
        # A played game's tickets were used. An exchange once before, too close to the game,
        # or away from a cancelled game is the policy's to refuse (basketball.exchange_once,
        # basketball.exchange_notice).
        if game.status == "played":
            raise ToolError(f"game {game.id} was already played; its tickets were used")
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
        """Refund a whole ticket order to the payment method it was paid with (after an
        exchange, each method gets back what it paid): price and service fees for a cancelled
        game, the ticket price only for any other game. The policy says which orders are
        refundable.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The ticket order to refund.
        """
        order = self.q.own_order(customer_id, order_id)
        if order.status != "active":
            raise ToolError(f"order {order_id} is {order.status}")
        game = self.q.db.games[order.game_id]
        # Which games are refundable is the policy's (basketball.refund_eligibility). Service
        # fees come back only for a cancelled game, so any other refund returns the price.
        fees = order.service_fees if game.status != "cancelled" else Decimal("0.00")
        amount = order.total - fees
        shares = self._paid_by(order)
        # The service fees were paid with the first order (an exchange carries them over), so
        # what is withheld comes off that order's method.
        first = next(iter(shares))
        shares[first] -= fees
        self.q.db.ticket_orders[order.id] = order.model_copy(update={"status": "refunded"})
        for method_id, share in shares.items():
            self.q.record(customer_id, method_id, "refund", share, order.id)
        paid_back = [(self.q.db.payment_methods[m].label, s) for m, s in shares.items() if s > 0]
        result: dict[str, Any] = {
            "order_id": order.id,
            "refunded": fmt(amount),
            "to": " and ".join(label for label, _ in paid_back)
            or self.q.db.payment_methods[first].label,
        }
        if len(paid_back) > 1:
            result["split"] = [{"to": label, "refunded": fmt(s)} for label, s in paid_back]
        return result

    def _paid_by(self, order: TicketOrder) -> dict[str, Decimal]:
        """What each payment method paid of an order's total, the first order's method first.

        An exchange leaves the earlier order's money where it was and adds the price increase,
        paid by the exchange's method (the exchange fee is not in the total), so a refund
        goes back to each method that paid (policy: refunds go back to the method that paid).
        """
        chain = [order]
        while chain[-1].exchanged_from is not None:
            chain.append(self.q.db.ticket_orders[chain[-1].exchanged_from])
        chain.reverse()
        shares = {chain[0].payment_method_id: chain[0].total}
        for earlier, later in pairwise(chain):
            method = later.payment_method_id
            shares[method] = shares.get(method, Decimal("0.00")) + later.total - earlier.total
        return shares

    @tool("write")
    def upgrade_season_pass(
        self, customer_id: str, zone: Zone, payment_method_id: str
    ) -> dict[str, Any]:
        """Move a season pass to another zone for the rest of the season. For a better zone
        the customer pays the difference in per-game pass price for every home game still to
        be played; the policy says which moves this desk may make.

        Args:
            customer_id: The authenticated customer's id.
            zone: The new zone: family, upper, lower or courtside.
            payment_method_id: One of the customer's payment methods.
        """
        season_pass = self.q.active_pass(customer_id)
        if season_pass is None:
            raise ToolError("this customer has no active season pass")
        old, new = ZONES[season_pass.zone], ZONES[zone]
        if zone == season_pass.zone:
            raise ToolError(f"the season pass is already in the {zone} zone")
        games = self.q.upcoming()
        seats = self.q.free_seats(zone, games, 1)
        if not seats:
            raise ToolError(f"no {zone} seat is free for all remaining games")
        method = self.q.payment_method(customer_id, payment_method_id)
        # Downgrades are the ticket office's (basketball.pass_upgrade_only); carried out, a
        # downgrade refunds nothing here, as the office settles the money.
        cost = max(new.pass_per_game - old.pass_per_game, Decimal("0.00")) * len(games)
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
