"""Back-office helpers the movie tools share: lookups that refuse with a reason, seat
availability, the payment ledger, and deterministic ids for new records."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import money, money_text, next_id, require
from tau_emotion.domains.kit.ownership import owned_record
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.movie.db import (
    ACCOUNT_CREDIT,
    NOW,
    Booking,
    Customer,
    FilmPass,
    MovieDB,
    Screen,
    Showtime,
    payment,
)
from tau_emotion.errors import ToolError

NOW_TEXT = NOW.strftime("%Y-%m-%dT%H:%M")


def seat_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] -> '1-3, 7, 9-10': compact enough for an agent to read."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def _holder(record: Booking | FilmPass) -> str:
    return record.customer_id


class MovieOffice(DatabaseTools[MovieDB]):
    """Base of `MovieTools`: tables and helpers, no tools."""

    # -- lookups -------------------------------------------------------------------------

    def customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id}")

    def owned_booking(self, customer_id: str, booking_code: str) -> Booking:
        self.customer(customer_id)
        refusal = f"customer {customer_id} has no booking {booking_code}"
        code = booking_code.strip().upper()
        return owned_record(self.db.bookings, code, _holder, customer_id, refusal)

    def showtime(self, showtime_id: str) -> Showtime:
        return require(self.db.showtimes, showtime_id, f"no showtime with id {showtime_id}")

    def screen(self, showtime: Showtime) -> Screen:
        cinema = self.db.cinemas[showtime.cinema_id]
        return next(s for s in cinema.screens if s.screen_id == showtime.screen_id)

    def taken_seats(self, showtime: Showtime, ignore_booking: str | None = None) -> set[str]:
        taken = set(showtime.sold_elsewhere)
        for booking in self.db.bookings.values():
            if (
                booking.showtime_id == showtime.showtime_id
                and booking.status != "cancelled"
                and booking.booking_code != ignore_booking
            ):
                taken.update(t.seat for t in booking.tickets)
        return taken

    def film_pass(self, customer: Customer, pass_id: str) -> FilmPass:
        refusal = f"customer {customer.customer_id} has no film pass {pass_id}"
        return owned_record(self.db.passes, pass_id, _holder, customer.customer_id, refusal)

    def is_pass(self, payment_method_id: str) -> bool:
        return payment_method_id.startswith("FP-")

    # -- money ---------------------------------------------------------------------------

    def charge(
        self,
        customer: Customer,
        method_id: str,
        amount: Decimal,
        reference: str,
        description: str,
        *,
        cards_only: bool = False,
    ) -> Customer:
        """Take `amount` from a method on file; gift cards and credit must cover it."""
        customer = self._move(customer, method_id, -money(amount), cards_only=cards_only)
        self._ledger(customer, method_id, money(amount), reference, description)
        return customer

    def refund(
        self, customer: Customer, method_id: str, amount: Decimal, reference: str, description: str
    ) -> Customer:
        customer = self._move(customer, method_id, money(amount), cards_only=False)
        self._ledger(customer, method_id, -money(amount), reference, description)
        return customer

    def _move(
        self, customer: Customer, method_id: str, delta: Decimal, *, cards_only: bool
    ) -> Customer:
        """Apply a balance change to the method; a card has no balance to track."""
        if method_id == ACCOUNT_CREDIT:
            if cards_only:
                raise ToolError("this can only be paid with a card")
            if customer.account_credit + delta < 0:
                raise ToolError(
                    f"account credit is {money_text(customer.account_credit)}, "
                    f"not enough for {money_text(-delta)}"
                )
            updated = customer.model_copy(
                update={"account_credit": money(customer.account_credit + delta)}
            )
            self.db.customers[customer.customer_id] = updated
            return updated
        methods = list(customer.payment_methods)
        for i, method in enumerate(methods):
            if method.payment_method_id != method_id:
                continue
            if method.kind == "card":
                return customer
            if cards_only:
                raise ToolError("this can only be paid with a card")
            balance = method.balance or Decimal(0)
            if balance + delta < 0:
                raise ToolError(
                    f"gift card {method_id} has {money_text(balance)} left, not enough for "
                    f"{money_text(-delta)}"
                )
            methods[i] = method.model_copy(update={"balance": money(balance + delta)})
            updated = customer.model_copy(update={"payment_methods": tuple(methods)})
            self.db.customers[customer.customer_id] = updated
            return updated
        raise ToolError(f"customer {customer.customer_id} has no payment method {method_id}")

    def _ledger(
        self, customer: Customer, method_id: str, amount: Decimal, reference: str, text: str
    ) -> None:
        if amount == 0:
            return
        payment_id = next_id(self.db.payments, "PAY-")
        self.db.payments[payment_id] = payment(
            payment_id, customer.customer_id, method_id, amount, reference, text, NOW_TEXT
        )

    # -- views ---------------------------------------------------------------------------

    def booking_view(self, booking: Booking) -> dict[str, Any]:
        show = self.db.showtimes[booking.showtime_id]
        movie = self.db.movies[show.movie_id]
        tickets = sum((t.price for t in booking.tickets), Decimal(0))
        snacks = sum((c.unit_price * c.quantity for c in booking.concessions), Decimal(0))
        return {
            "booking_code": booking.booking_code,
            "status": booking.status,
            "movie": movie.title,
            "rating": movie.rating,
            "cinema": self.db.cinemas[show.cinema_id].name,
            "screen": self.screen(show).name,
            "showtime_id": show.showtime_id,
            "starts_at": show.starts_at,
            "format": show.format,
            "showtime_status": show.status,
            "incident": show.incident,
            "tickets": [
                {"seat": t.seat, "ticket_type": t.ticket_type, "price": money_text(t.price)}
                for t in booking.tickets
            ],
            "concessions": [
                {
                    "item_id": c.item_id,
                    "quantity": c.quantity,
                    "unit_price": money_text(c.unit_price),
                }
                for c in booking.concessions
            ],
            "tickets_total": money_text(tickets),
            "concessions_total": money_text(snacks),
            "booking_fee": money_text(booking.booking_fee),
            "total_paid": money_text(tickets + snacks + booking.booking_fee),
            "payment_method_id": booking.payment_method_id,
            "exchanged": booking.exchanged,
            "incident_credit_issued": booking.incident_credit_issued,
            "booked_at": booking.booked_at,
        }
