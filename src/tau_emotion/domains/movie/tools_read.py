"""Read tools of the movie domain: identity lookups, account views, showtimes, seats, menu."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.common import money_text
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, all_digits, zip_code
from tau_emotion.domains.movie.db import Customer
from tau_emotion.domains.movie.rules import (
    MENU,
    PREMIUM_SURCHARGE,
    TYPE_DISCOUNT,
    concession_unit_price,
    screen_rows,
)
from tau_emotion.domains.movie.tools_base import MovieOffice, seat_ranges
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

PEOPLE: Lookups[MovieOffice, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.customer_id, "full_name": c.full_name},
        missing="no customer account with that {what}",
        phone=PhoneRule(all_digits),
    ),
    people=lambda tools: tools.db.customers.values(),
)


class MovieReadTools(MovieOffice):
    """Lookups: nothing here changes the database."""

    find_customer_by_email = PEOPLE.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = PEOPLE.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_and_zip = PEOPLE.full_name_and(
        DOCS["find_customer_by_name_and_zip"],
        zip_code(lambda c: c.zip_code),
        refusal="no customer account matches that name and zip code",
    )

    @tool("read")
    def get_customer_details(self, customer_id: str) -> dict[str, Any]:
        """Show an authenticated customer's profile: membership, payment methods, account
        credit, film passes and bookings (newest first).

        Args:
            customer_id: The id returned by a find_customer tool, e.g. 'CU-60042'.
        """
        c = self.customer(customer_id)
        passes = [p for p in self.db.passes.values() if p.customer_id == customer_id]
        bookings = sorted(
            (b for b in self.db.bookings.values() if b.customer_id == customer_id),
            key=lambda b: self.db.showtimes[b.showtime_id].starts_at,
            reverse=True,
        )
        return {
            "customer_id": c.customer_id,
            "full_name": c.full_name,
            "email": c.email,
            "phone": c.phone,
            "date_of_birth": c.date_of_birth,
            "zip_code": c.zip_code,
            "membership": c.membership,
            "membership_renews_on": c.membership_renews_on,
            "account_credit": money_text(c.account_credit),
            "payment_methods": [
                {
                    "payment_method_id": m.payment_method_id,
                    "kind": m.kind,
                    "label": m.label,
                    **({"balance": money_text(m.balance)} if m.balance is not None else {}),
                }
                for m in c.payment_methods
            ],
            "film_passes": [
                {
                    "pass_id": p.pass_id,
                    "pass_type": p.pass_type,
                    "admissions_left": p.admissions_left,
                    "expires_on": p.expires_on,
                }
                for p in passes
            ],
            "bookings": [
                {
                    "booking_code": b.booking_code,
                    "movie": self.db.movies[self.db.showtimes[b.showtime_id].movie_id].title,
                    "starts_at": self.db.showtimes[b.showtime_id].starts_at,
                    "status": b.status,
                }
                for b in bookings
            ],
        }

    @tool("read")
    def get_booking(self, customer_id: str, booking_code: str) -> dict[str, Any]:
        """Show one of the customer's bookings: showtime, seats, tickets, concessions, what
        was paid and how.

        Args:
            customer_id: The authenticated customer's id.
            booking_code: The code printed on the receipt, e.g. 'LM612345'.
        """
        return self.booking_view(self.owned_booking(customer_id, booking_code))

    @tool("read")
    def search_showtimes(
        self, date: str, movie_title: str | None = None, cinema: str | None = None
    ) -> list[dict[str, Any]]:
        """List the showtimes on one date for a movie, a cinema, or both (public information).

        Args:
            date: The date, 'YYYY-MM-DD', e.g. '2025-06-15'.
            movie_title: Part of the movie title, any case, e.g. 'harbor lights'.
            cinema: Part of the cinema name or its city, any case, e.g. 'Riverside'.
        """
        if not movie_title and not cinema:
            raise ToolError("give a movie title, a cinema, or both")
        title = (movie_title or "").strip().lower()
        place = (cinema or "").strip().lower()
        found: list[dict[str, Any]] = []
        for show in self.db.showtimes.values():
            if not show.starts_at.startswith(date.strip()):
                continue
            movie = self.db.movies[show.movie_id]
            hall = self.db.cinemas[show.cinema_id]
            if title not in movie.title.lower():
                continue
            if place not in hall.name.lower() and place not in hall.city.lower():
                continue
            found.append(
                {
                    "showtime_id": show.showtime_id,
                    "movie": movie.title,
                    "rating": movie.rating,
                    "cinema": hall.name,
                    "screen": self.screen(show).name,
                    "format": show.format,
                    "starts_at": show.starts_at,
                    "adult_price": money_text(show.adult_price),
                    "status": show.status,
                }
            )
        if not found:
            raise ToolError(f"no showtimes match on {date}")
        return sorted(found, key=lambda s: (s["starts_at"], s["cinema"], s["showtime_id"]))

    @tool("read")
    def get_seat_map(self, showtime_id: str) -> dict[str, Any]:
        """Show which seats are still free for a showtime, and its ticket prices.

        Args:
            showtime_id: The showtime id from search_showtimes or a booking, e.g. 'SH-60412'.
        """
        show = self.showtime(showtime_id)
        screen = self.screen(show)
        taken = self.taken_seats(show)
        free: dict[str, str] = {}
        for row in screen_rows(screen):
            numbers = [n for n in range(1, screen.seats_per_row + 1) if f"{row}{n}" not in taken]
            free[row] = seat_ranges(numbers) if numbers else "sold out"
        movie = self.db.movies[show.movie_id]
        return {
            "showtime_id": show.showtime_id,
            "movie": movie.title,
            "rating": movie.rating,
            "cinema": self.db.cinemas[show.cinema_id].name,
            "screen": screen.name,
            "format": show.format,
            "starts_at": show.starts_at,
            "status": show.status,
            "screen_front_row": "A",
            "premium_rows": list(screen.premium_rows),
            "ticket_prices": {
                kind: money_text(show.adult_price - off) for kind, off in TYPE_DISCOUNT.items()
            },
            "premium_seat_surcharge": money_text(PREMIUM_SURCHARGE),
            "free_seats_by_row": free,
            "free_seat_count": sum(
                1
                for row in screen_rows(screen)
                for n in range(1, screen.seats_per_row + 1)
                if f"{row}{n}" not in taken
            ),
        }

    @tool("read")
    def list_concessions(self) -> list[dict[str, str]]:
        """The concession menu that can be pre-ordered onto a booking, with member prices."""
        return [
            {
                "item_id": item_id,
                "name": name,
                "price": money_text(price),
                "club_price": money_text(concession_unit_price(item_id, "club")),
                "club_plus_price": money_text(concession_unit_price(item_id, "club_plus")),
            }
            for item_id, (name, price) in MENU.items()
        ]
