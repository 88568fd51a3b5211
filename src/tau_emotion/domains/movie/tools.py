"""Write and terminal tools of the movie domain.

The tools refuse only what cannot happen (unknown records, a booking not in a state that
allows the change, seats that are taken or do not exist, a payment that does not cover);
every refusal says which. The policy's judgement rules (cutoffs, one exchange, who gets
incident credit, ...) are the agent's to apply and are audited by the judged checks.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import money, money_text, next_id
from tau_emotion.domains.kit.handoff import CUSTOMER_CARE, CUSTOMER_CARE_DOC
from tau_emotion.domains.movie.db import (
    ACCOUNT_CREDIT,
    NOW,
    Booking,
    ConcessionLine,
    Customer,
    FilmPass,
    PassType,
    Plan,
    Showtime,
    Ticket,
    TicketType,
)
from tau_emotion.domains.movie.rules import (
    BOOKING_FEE,
    EXCHANGE_FEE,
    FULL_REFUND_HOURS,
    MAX_TICKETS,
    MENU,
    PASS_ADMISSIONS,
    PASS_PRICES,
    PLAN_FEES,
    check_seat,
    concession_unit_price,
    hours_until,
    is_member,
    split_seat,
    ticket_price,
)
from tau_emotion.domains.movie.tools_base import NOW_TEXT
from tau_emotion.domains.movie.tools_read import MovieReadTools
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

TODAY = NOW.date().isoformat()


def _total(tickets: tuple[Ticket, ...]) -> Decimal:
    return sum((t.price for t in tickets), Decimal(0))


def _settlement(diff: Decimal) -> dict[str, str]:
    # Two non-negative amounts read more plainly to an agent than one signed difference.
    return {
        "charged": money_text(max(diff, Decimal(0))),
        "refunded": money_text(max(-diff, Decimal(0))),
    }


class MovieTools(MovieReadTools):
    """All tools of Lumen Cinemas customer service."""

    # -- shared steps --------------------------------------------------------------------

    def _free_seats(
        self, show: Showtime, seats: list[str], count: int, ignore: str | None = None
    ) -> list[str]:
        """Validated, de-duplicated seats in seat order, or a refusal naming the problem."""
        screen = self.screen(show)
        labels = sorted({check_seat(screen, s) for s in seats}, key=split_seat)
        if len(labels) != len(seats):
            raise ToolError("the same seat is listed twice")
        if len(labels) != count:
            plural = "" if count == 1 else "s"
            raise ToolError(f"give exactly {count} seat{plural}, one per ticket")
        taken = sorted(set(labels) & self.taken_seats(show, ignore), key=split_seat)
        if taken:
            raise ToolError(f"seats already taken: {', '.join(taken)}")
        return labels

    def _priced(
        self, show: Showtime, seats: list[str], types: list[TicketType], plan: Plan, by_pass: bool
    ) -> tuple[Ticket, ...]:
        # Types go to seats in seat order, so the result depends only on which seats and
        # how many of each type, never on the order the agent listed them in.
        screen = self.screen(show)
        return tuple(
            Ticket(
                seat=seat,
                ticket_type=kind,
                price=money(0) if by_pass else ticket_price(show, screen, seat, kind, plan),
            )
            for seat, kind in zip(seats, types, strict=True)
        )

    def _usable_pass(self, customer: Customer, pass_id: str, show: Showtime, n: int) -> FilmPass:
        film_pass = self.film_pass(customer, pass_id)
        if film_pass.expires_on < TODAY:
            raise ToolError(f"film pass {pass_id} expired on {film_pass.expires_on}")
        if show.format != "standard":
            raise ToolError("film passes are valid for standard-format showtimes only")
        if film_pass.admissions_left < n:
            raise ToolError(f"film pass {pass_id} has {film_pass.admissions_left} admissions left")
        return film_pass

    def _settle(self, customer: Customer, booking: Booking, diff: Decimal, why: str) -> Customer:
        """Charge a positive difference to, or refund a negative one to, the original method."""
        if self.is_pass(booking.payment_method_id) or diff == 0:
            return customer
        if diff > 0:
            return self.charge(customer, booking.payment_method_id, diff, booking.booking_code, why)
        return self.refund(customer, booking.payment_method_id, -diff, booking.booking_code, why)

    def _active(self, booking: Booking) -> Showtime:
        if booking.status != "active":
            raise ToolError(f"booking {booking.booking_code} is {booking.status}")
        return self.db.showtimes[booking.showtime_id]

    def _return_admissions(self, pass_id: str, n: int) -> None:
        film_pass = self.db.passes[pass_id]
        self.db.passes[pass_id] = film_pass.model_copy(
            update={"admissions_left": film_pass.admissions_left + n}
        )

    # -- tickets -------------------------------------------------------------------------

    @tool("write")
    def book_tickets(
        self,
        customer_id: str,
        showtime_id: str,
        seats: list[str],
        payment_method_id: str,
        adult_tickets: int = 0,
        child_tickets: int = 0,
        senior_tickets: int = 0,
    ) -> dict[str, Any]:
        """Book seats for a showtime and pay for them.

        Args:
            customer_id: The authenticated customer's id.
            showtime_id: The showtime to book, from search_showtimes.
            seats: Free seats from get_seat_map, one per ticket, e.g. ['F7', 'F8'].
            payment_method_id: A card or gift card id on file, 'account_credit', or a film
                pass id.
            adult_tickets: Number of adult tickets.
            child_tickets: Number of child tickets (ages 3-12).
            senior_tickets: Number of senior tickets (ages 65 and over).
        """
        customer = self.customer(customer_id)
        show = self.showtime(showtime_id)
        if show.status != "scheduled" or hours_until(show) <= 0:
            raise ToolError("this showtime is not on sale: it was cancelled or has started")
        counts = {"adult": adult_tickets, "child": child_tickets, "senior": senior_tickets}
        if min(counts.values()) < 0 or not 1 <= sum(counts.values()) <= MAX_TICKETS:
            raise ToolError(f"a booking holds 1 to {MAX_TICKETS} tickets")
        n = sum(counts.values())
        labels = self._free_seats(show, seats, n)
        types: list[TicketType] = [
            k for k in ("adult", "child", "senior") for _ in range(counts[k])
        ]
        by_pass = self.is_pass(payment_method_id)
        tickets = self._priced(show, labels, types, customer.membership, by_pass)
        fee = money(0) if by_pass or is_member(customer.membership) else money(BOOKING_FEE * n)
        code = next_id(self.db.bookings, "LM", 6)
        if by_pass:
            film_pass = self._usable_pass(customer, payment_method_id, show, n)
            self._return_admissions(film_pass.pass_id, -n)
        else:
            self.charge(customer, payment_method_id, _total(tickets) + fee, code, "tickets")
        booking = Booking(
            booking_code=code,
            customer_id=customer_id,
            showtime_id=showtime_id,
            tickets=tickets,
            concessions=(),
            booking_fee=fee,
            payment_method_id=payment_method_id,
            status="active",
            exchanged=False,
            incident_credit_issued=False,
            booked_at=NOW_TEXT,
        )
        self.db.bookings[code] = booking
        return self.booking_view(booking)

    @tool("write")
    def change_seats(self, customer_id: str, booking_code: str, seats: list[str]) -> dict[str, Any]:
        """Move a booking to other free seats in the same showtime; a premium-seat price
        difference is charged to, or refunded to, the booking's payment method.

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The booking to change.
            seats: The new seats, one per ticket, e.g. ['J4', 'J5'].
        """
        customer = self.customer(customer_id)
        booking = self.owned_booking(customer_id, booking_code)
        show = self._active(booking)
        if show.status != "scheduled" or hours_until(show) <= 0:
            raise ToolError("seats cannot change once the showtime has started or was cancelled")
        labels = self._free_seats(show, seats, len(booking.tickets), booking.booking_code)
        if labels == [t.seat for t in booking.tickets]:
            raise ToolError("the booking already has those seats")
        by_pass = self.is_pass(booking.payment_method_id)
        types = [t.ticket_type for t in booking.tickets]
        tickets = self._priced(show, labels, types, customer.membership, by_pass)
        diff = _total(tickets) - _total(booking.tickets)
        self._settle(customer, booking, diff, "seat change")
        changed = booking.model_copy(update={"tickets": tickets})
        self.db.bookings[changed.booking_code] = changed
        return {**self.booking_view(changed), **_settlement(diff)}

    @tool("write")
    def exchange_booking(
        self, customer_id: str, booking_code: str, new_showtime_id: str, seats: list[str]
    ) -> dict[str, Any]:
        """Move a booking to another showtime of the same movie, keeping its ticket types;
        the exchange fee and any price difference are settled with the booking's payment
        method.

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The booking to exchange.
            new_showtime_id: The showtime to move to (same movie).
            seats: Free seats in the new showtime, one per ticket.
        """
        customer = self.customer(customer_id)
        booking = self.owned_booking(customer_id, booking_code)
        old = self._active(booking)
        cancelled_by_us = old.status == "cancelled"
        # The 2-hour cutoff and the one exchange per booking are the policy's
        # (movie.exchange_cutoff, movie.one_exchange); a screening under way cannot move.
        if not cancelled_by_us and hours_until(old) <= 0:
            raise ToolError(f"showtime {old.showtime_id} has started; the booking cannot move")
        new = self.showtime(new_showtime_id)
        if new.showtime_id == old.showtime_id or new.movie_id != old.movie_id:
            raise ToolError("an exchange must be to a different showtime of the same movie")
        if new.status != "scheduled" or hours_until(new) <= 0:
            raise ToolError("the new showtime is not on sale: it was cancelled or has started")
        by_pass = self.is_pass(booking.payment_method_id)
        if by_pass and new.format != "standard":
            raise ToolError("film passes are valid for standard-format showtimes only")
        labels = self._free_seats(new, seats, len(booking.tickets))
        types = [t.ticket_type for t in booking.tickets]
        tickets = self._priced(new, labels, types, customer.membership, by_pass)
        waived = by_pass or cancelled_by_us or is_member(customer.membership)
        fee = money(0) if waived else money(EXCHANGE_FEE * len(tickets))
        diff = _total(tickets) - _total(booking.tickets) + fee
        self._settle(customer, booking, diff, "exchange")
        changed = booking.model_copy(
            update={"showtime_id": new.showtime_id, "tickets": tickets, "exchanged": True}
        )
        self.db.bookings[changed.booking_code] = changed
        return {**self.booking_view(changed), "exchange_fee": money_text(fee), **_settlement(diff)}

    @tool("write")
    def cancel_booking(self, customer_id: str, booking_code: str) -> dict[str, Any]:
        """Cancel a booking and refund it as the refund rules say (the tool works out the
        amount and where it goes).

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The booking to cancel.
        """
        customer = self.customer(customer_id)
        booking = self.owned_booking(customer_id, booking_code)
        show = self._active(booking)
        hours = hours_until(show)
        snacks = sum((c.unit_price * c.quantity for c in booking.concessions), Decimal(0))
        amount = _total(booking.tickets) + snacks
        to = booking.payment_method_id
        if show.status == "cancelled":
            amount += booking.booking_fee
        elif hours <= 0:
            raise ToolError(f"showtime {show.showtime_id} has started; the booking cannot cancel")
        # Under 2 hours the policy allows no cancellation (movie.cancellation_cutoff); the
        # tool does not judge, and a late one refunds as the same-day tier does.
        elif hours < FULL_REFUND_HOURS and customer.membership != "club_plus":
            to = ACCOUNT_CREDIT
        returned = 0
        if self.is_pass(booking.payment_method_id):
            returned = len(booking.tickets)
            self._return_admissions(booking.payment_method_id, returned)
        else:
            self.refund(customer, to, amount, booking.booking_code, "cancellation")
        self.db.bookings[booking.booking_code] = booking.model_copy(update={"status": "cancelled"})
        return {
            "booking_code": booking.booking_code,
            "status": "cancelled",
            "refund_amount": money_text(amount),
            "refunded_to": to,
            "admissions_returned": returned,
        }

    @tool("write")
    def add_concessions(
        self, customer_id: str, booking_code: str, items: dict[str, int]
    ) -> dict[str, Any]:
        """Pre-order concession items onto an upcoming booking, charged to the booking's
        payment method at the customer's member price.

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The booking to add the items to.
            items: Menu item id -> quantity, e.g. {'popcorn_large': 1, 'soda_large': 2}.
        """
        customer = self.customer(customer_id)
        booking = self.owned_booking(customer_id, booking_code)
        show = self._active(booking)
        if show.status != "scheduled" or hours_until(show) <= 0:
            raise ToolError("concessions can be pre-ordered only before the showtime starts")
        if self.is_pass(booking.payment_method_id):
            raise ToolError("pass bookings cannot pre-order concessions; buy them at the counter")
        if not items:
            raise ToolError("name at least one menu item")
        lines = {(c.item_id, c.unit_price): c.quantity for c in booking.concessions}
        charge = Decimal(0)
        for item_id, quantity in items.items():
            if item_id not in MENU:
                raise ToolError(f"{item_id!r} is not on the menu; see list_concessions")
            if not 1 <= quantity <= 10:
                raise ToolError("order 1 to 10 of each item")
            unit = concession_unit_price(item_id, customer.membership)
            lines[(item_id, unit)] = lines.get((item_id, unit), 0) + quantity
            charge += unit * quantity
        self.charge(customer, booking.payment_method_id, charge, booking_code, "concessions")
        concessions = tuple(
            ConcessionLine(item_id=item, quantity=q, unit_price=unit)
            for (item, unit), q in sorted(lines.items())
        )
        changed = booking.model_copy(update={"concessions": concessions})
        self.db.bookings[changed.booking_code] = changed
        return {**self.booking_view(changed), "charged": money_text(charge)}

    @tool("write")
    def issue_incident_credit(self, customer_id: str, booking_code: str) -> dict[str, Any]:
        """Compensate a booking for a technical incident at its screening: the ticket price
        goes to account credit (pass admissions go back to the pass), once per booking. The
        policy says which bookings qualify.

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The attended booking.
        """
        customer = self.customer(customer_id)
        booking = self.owned_booking(customer_id, booking_code)
        # Who qualifies (attended, incident logged) is the policy's
        # (movie.incident_credit_eligibility); the credit is the ticket price whatever it is.
        if booking.incident_credit_issued:
            raise ToolError("incident credit was already issued for this booking")
        amount = _total(booking.tickets)
        returned = 0
        if self.is_pass(booking.payment_method_id):
            returned = len(booking.tickets)
            self._return_admissions(booking.payment_method_id, returned)
        else:
            self.refund(customer, ACCOUNT_CREDIT, amount, booking_code, "incident credit")
        self.db.bookings[booking_code] = booking.model_copy(update={"incident_credit_issued": True})
        return {
            "booking_code": booking.booking_code,
            "credit_amount": money_text(amount),
            "admissions_returned": returned,
        }

    # -- passes and memberships ----------------------------------------------------------

    @tool("write")
    def buy_film_pass(
        self, customer_id: str, pass_type: PassType, payment_method_id: str
    ) -> dict[str, Any]:
        """Sell a prepaid film pass (five_film or ten_film admissions, valid one year).

        Args:
            customer_id: The authenticated customer's id.
            pass_type: 'five_film' or 'ten_film'.
            payment_method_id: A card or gift card id on file, or 'account_credit'.
        """
        customer = self.customer(customer_id)
        # One live pass per customer is the policy's (movie.one_live_pass), not the till's.
        if self.is_pass(payment_method_id):
            raise ToolError("a film pass cannot pay for another film pass")
        pass_id = next_id(self.db.passes, "FP-", 5)
        price = PASS_PRICES[pass_type]
        self.charge(customer, payment_method_id, price, pass_id, f"{pass_type} film pass")
        new = FilmPass(
            pass_id=pass_id,
            customer_id=customer_id,
            pass_type=pass_type,
            admissions_left=PASS_ADMISSIONS[pass_type],
            purchased_on=TODAY,
            expires_on=(NOW + timedelta(days=365)).date().isoformat(),
        )
        self.db.passes[pass_id] = new
        return {**new.model_dump(mode="json"), "charged": money_text(price)}

    @tool("write")
    def change_membership(
        self, customer_id: str, plan: Plan, payment_method_id: str | None = None
    ) -> dict[str, Any]:
        """Join, switch or cancel the Lumen Club membership. Joining or switching charges the
        new plan's monthly fee today; 'none' cancels at once with no refund.

        Args:
            customer_id: The authenticated customer's id.
            plan: 'club', 'club_plus', or 'none' to cancel.
            payment_method_id: A card id on file; required unless cancelling.
        """
        customer = self.customer(customer_id)
        if plan == customer.membership:
            raise ToolError(f"the customer's plan is already {plan}")
        charged = money(0)
        renews: str | None = None
        if plan != "none":
            # The minimum age is the policy's (movie.member_age).
            if payment_method_id is None:
                raise ToolError("give the card to bill the membership to")
            charged = PLAN_FEES[plan]
            customer = self.charge(
                customer,
                payment_method_id,
                charged,
                "membership",
                f"{plan} monthly fee",
                cards_only=True,
            )
            renews = (NOW + timedelta(days=30)).date().isoformat()
        updated = customer.model_copy(update={"membership": plan, "membership_renews_on": renews})
        self.db.customers[customer_id] = updated
        return {"membership": plan, "membership_renews_on": renews, "charged": money_text(charged)}

    transfer_to_human_agents = CUSTOMER_CARE.tool(
        CUSTOMER_CARE_DOC, MovieReadTools, lambda tools: tools.db.transfers
    )
