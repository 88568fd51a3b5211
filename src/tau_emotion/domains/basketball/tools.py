"""The tools of the club's fan-services desk.

Lookups and reads live here; ticketing writes in `tools_tickets.py`, merchandise, camps and the
hand-off in `tools_shop.py`. Every tool that touches an account takes the authenticated
``customer_id`` and refuses records of other customers. The tools refuse only what cannot
happen; the policy's judgement rules (ticket limits, exchange and refund eligibility, return
windows, camp eligibility) and the rules a single call cannot see (confirmation,
authentication order, one customer) are audited in `checks.py`.
"""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.basketball.db import Customer
from tau_emotion.domains.basketball.rules import TODAY, ZONES, single_price
from tau_emotion.domains.basketball.tools_base import ClubToolBase
from tau_emotion.domains.basketball.tools_shop import ShopTools
from tau_emotion.domains.basketball.tools_tickets import TicketTools
from tau_emotion.domains.common import fmt
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, last_ten, zip_code
from tau_emotion.domains.tools import tool

DOCS = ToolDocs.beside(__file__)

FANS: Lookups[ClubToolBase, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.id, "full_name": c.full_name},
        missing="no customer found with that {what}",
        ambiguous="more than one customer matches that {what}; ask for their email",
        phone=PhoneRule(last_ten, "give the full 10-digit phone number"),
        email_label="email",
    ),
    people=lambda tools: tools.q.db.customers.values(),
)


class ClubTools(TicketTools, ShopTools):
    """All tools of the desk: reads and lookups here, the writes from the mixins."""

    find_customer_by_email = FANS.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = FANS.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_and_zip = FANS.full_name_and(
        DOCS["find_customer_by_name_and_zip"],
        zip_code(lambda c: c.zip_code),
    )

    @tool("read")
    def get_customer_details(self, customer_id: str) -> dict[str, Any]:
        """The customer's profile: payment methods, season pass, ticket orders, merchandise
        orders and camp registrations.

        Args:
            customer_id: The id returned by the authentication lookup.
        """
        c = self.q.customer(customer_id)
        season_pass = self.q.active_pass(c.id)
        tickets = []
        for o in sorted(self.q.db.ticket_orders.values(), key=lambda o: o.id):
            if o.customer_id == c.id:
                game = self.q.db.games[o.game_id]
                tickets.append(
                    {
                        "order_id": o.id,
                        "game": f"{self.q.opponent(game)}, {self.q.starts(game).isoformat()}",
                        "zone": o.zone,
                        "tickets": len(o.seats),
                        "status": o.status,
                    }
                )
        return {
            "customer_id": c.id,
            "full_name": c.full_name,
            "email": c.email,
            "phone": c.phone,
            "zip_code": c.zip_code,
            "payment_methods": [
                {"payment_method_id": m.id, "label": m.label, "expires": m.expires}
                for m in self.q.db.payment_methods.values()
                if m.customer_id == c.id
            ],
            "season_pass": None
            if season_pass is None
            else {
                "pass_id": season_pass.id,
                "zone": season_pass.zone,
                "seat": season_pass.seat,
                "auto_renew": season_pass.auto_renew,
            },
            "ticket_orders": tickets,
            "merch_orders": [
                {"order_id": m.id, "placed": m.placed, "status": m.status}
                for m in self.q.db.merch_orders.values()
                if m.customer_id == c.id
            ],
            "camp_registrations": [
                {
                    "registration_id": r.id,
                    "camp": self.q.db.camps[r.camp_id].name,
                    "camper": r.camper_name,
                    "status": r.status,
                }
                for r in self.q.db.camp_registrations.values()
                if r.customer_id == c.id
            ],
        }

    @tool("read")
    def get_ticket_order(self, customer_id: str, order_id: str) -> dict[str, Any]:
        """One ticket order of the customer: game, seats, prices and status.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The ticket order number, e.g. 'TO500123'.
        """
        o = self.q.own_order(customer_id, order_id)
        game = self.q.db.games[o.game_id]
        return {
            "order_id": o.id,
            "game_id": game.id,
            "opponent": self.q.opponent(game),
            "game_start": self.q.starts(game).isoformat(),
            "game_status": game.status,
            "zone": o.zone,
            "seats": list(o.seats),
            "unit_price": fmt(o.unit_price),
            "service_fees": fmt(o.service_fees),
            "total": fmt(o.total),
            "paid_with": self.q.db.payment_methods[o.payment_method_id].label,
            "status": o.status,
            "exchanged_from": o.exchanged_from,
        }

    @tool("read")
    def get_merch_order(self, customer_id: str, order_id: str) -> dict[str, Any]:
        """One merchandise order of the customer, with its items.

        Args:
            customer_id: The authenticated customer's id.
            order_id: The merchandise order number, e.g. 'MO500042'.
        """
        o = self.q.own_merch(customer_id, order_id)
        return {
            "order_id": o.id,
            "status": o.status,
            "placed": o.placed,
            "delivered": o.delivered,
            "items": [
                {
                    "item_id": i.item_id,
                    "product": self.q.db.products[i.product_id].name,
                    "size": i.size,
                    "price": fmt(i.price),
                    "personalization": i.personalization,
                    "status": i.status,
                }
                for i in o.items
            ],
            "shipping": fmt(o.shipping),
            "total": fmt(o.total),
            "paid_with": self.q.db.payment_methods[o.payment_method_id].label,
        }

    @tool("read")
    def list_home_games(self) -> list[dict[str, Any]]:
        """The club's home schedule with status, and for games on sale the price and seats
        left per zone. No authentication needed."""
        rows = []
        for g in sorted(self.q.db.games.values(), key=lambda g: g.start):
            row: dict[str, Any] = {
                "game_id": g.id,
                "opponent": self.q.opponent(g),
                "start": g.start,
                "status": g.status,
                "premium": g.premium,
            }
            if g.rescheduled_to:
                row["rescheduled_to"] = g.rescheduled_to
            if g.status == "scheduled":
                row["zones"] = {
                    z: {
                        "price": fmt(single_price(z, g.premium)),
                        "seats_left": self.q.seats_left(g, z),
                    }
                    for z in ZONES
                }
            rows.append(row)
        return rows

    @tool("read")
    def get_team_roster(self) -> list[dict[str, Any]]:
        """The club's current players with jersey numbers and positions. No authentication
        needed."""
        home = next(t.id for t in self.q.db.teams.values() if t.is_home_club)
        return [
            {"name": f"{p.first_name} {p.last_name}", "number": p.number, "position": p.position}
            for p in sorted(self.q.db.players.values(), key=lambda p: p.number)
            if p.team_id == home
        ]

    @tool("read")
    def list_camps(self) -> list[dict[str, Any]]:
        """Youth camps with dates, ages, price and places left. No authentication needed."""
        return [
            {
                "camp_id": c.id,
                "name": c.name,
                "start": c.start,
                "end": c.end,
                "ages": f"{c.min_age}-{c.max_age}",
                "price": fmt(c.price),
                "places_left": self.q.camp_seats_left(c),
                "registration_open": c.start > TODAY.isoformat(),
            }
            for c in sorted(self.q.db.camps.values(), key=lambda c: c.start)
        ]
