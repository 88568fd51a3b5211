"""Seeded generator of a Lumen Cinemas back office: four cinemas, two weeks of showtimes
around the fixed 'now', a few hundred customers with passes, bookings and a payment ledger.

Only `random.Random(seed)` drives it; everything it iterates is a list, a tuple or an
insertion-ordered dict, so the same seed always yields the same snapshot. Bookings are
priced with the same rules the tools apply.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import partial

from tau_emotion.domains.common import money, unique
from tau_emotion.domains.kit.generation import empty_database
from tau_emotion.domains.kit.split import SeriesRun, SplitGenerator
from tau_emotion.domains.movie.db import (
    NOW,
    Booking,
    BookingStatus,
    Cinema,
    ConcessionLine,
    Customer,
    FilmPass,
    Format,
    Movie,
    MovieDB,
    PassType,
    PaymentMethod,
    Plan,
    Rating,
    Screen,
    Showtime,
    Ticket,
    TicketType,
    parse_time,
    payment,
)
from tau_emotion.domains.movie.pools import (
    EMAIL_DOMAINS,
    EVAL,
    FIRST_NAMES,
    INCIDENTS,
    TRAIN,
    Series,
)
from tau_emotion.domains.movie.rules import (
    BOOKING_FEE,
    MENU,
    PASS_ADMISSIONS,
    PASS_PRICES,
    PLAN_FEES,
    age_on,
    concession_unit_price,
    screen_rows,
    ticket_price,
)

FIRST_DAY = date(2025, 6, 7)
DAYS = 15
CUSTOMERS = 300
BASE_PRICE: dict[Format, Decimal] = {
    "standard": money("12.50"),
    "dolby": money("15.50"),
    "imax": money("17.50"),
}
MATINEE_DISCOUNT = money("2.00")
SLOTS = ("11:00", "13:30", "16:00", "18:45", "21:30")
CARD_BRANDS = ("Visa", "Mastercard", "Amex", "Discover")
STREETS = ("Main St", "Oak Ave", "Harbor Rd", "Mill Lane", "Station Blvd", "Elm St")


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M")


class _Gen(SeriesRun[Series]):
    """One generation run: the rng, the database being filled, and seats taken so far."""

    def __init__(self, series: Series) -> None:
        super().__init__(series)
        self.db = empty_database(MovieDB)
        self.taken: dict[str, set[str]] = {}

    def ledger(
        self, customer_id: str, method: str, amount: Decimal, ref: str, text: str, when: datetime
    ) -> None:
        pid = self.ident("PAY-", len(self.db.payments) + 1, 5)
        self.db.payments[pid] = payment(
            pid, customer_id, method, money(amount), ref, text, _stamp(when)
        )

    # -- catalogue -----------------------------------------------------------------------

    def cinemas(self) -> None:
        for i, (site, city) in enumerate(self.s.sites, start=1):
            screens: list[Screen] = []
            for k in range(1, self.rng.randint(4, 5) + 1):
                fmt: Format = "imax" if k == 1 and i % 2 else "dolby" if k == 2 else "standard"
                rows = self.rng.randint(8, 12)
                screens.append(
                    Screen(
                        screen_id=f"S{k}",
                        name=f"Screen {k}",
                        format=fmt,
                        rows=rows,
                        seats_per_row=self.rng.randint(10, 16),
                        premium_rows=tuple("ABCDEFGHIJKL"[rows - 2 : rows]),
                    )
                )
            cid = self.ident("CIN-", i, 2)
            address = f"{self.rng.randint(10, 999)} {self.rng.choice(STREETS)}, {city}"
            self.db.cinemas[cid] = Cinema(
                cinema_id=cid,
                name=f"Lumen {site}",
                city=city,
                address=address,
                screens=tuple(screens),
            )

    def movies(self) -> None:
        ratings: dict[str, Rating] = {"G": "G", "PG": "PG", "PG-13": "PG-13", "R": "R"}
        for i, (title, rating, genre) in enumerate(self.s.titles, start=1):
            mid = self.ident("MOV-", i, 2)
            self.db.movies[mid] = Movie(
                movie_id=mid,
                title=title,
                rating=ratings[rating],
                runtime_min=self.rng.randint(85, 165),
                genre=genre,
            )

    def showtimes(self) -> None:
        movie_ids = list(self.db.movies)
        n = 0
        for day in range(DAYS):
            when = FIRST_DAY + timedelta(days=day)
            for cinema in self.db.cinemas.values():
                for screen in cinema.screens:
                    # A screen plays one film all day, as small multiplexes do.
                    movie_id = self.rng.choice(movie_ids)
                    for slot in sorted(self.rng.sample(SLOTS, self.rng.randint(2, 4))):
                        n += 1
                        starts = f"{when.isoformat()}T{slot}"
                        self.showtime(self.ident("SH-", n, 4), cinema, screen, movie_id, starts)

    def showtime(
        self, sid: str, cinema: Cinema, screen: Screen, movie_id: str, starts_at: str
    ) -> None:
        price = BASE_PRICE[screen.format]
        if starts_at[11:] < "17:00":
            price -= MATINEE_DISCOUNT
        past = parse_time(starts_at) < NOW
        cancelled = not past and self.rng.random() < 0.03
        incident = self.rng.choice(INCIDENTS) if past and self.rng.random() < 0.05 else None
        seats = [f"{r}{k}" for r in screen_rows(screen) for k in range(1, screen.seats_per_row + 1)]
        sold: list[str] = []
        if not cancelled:
            sold = self.rng.sample(seats, int(len(seats) * self.rng.uniform(0.05, 0.5)))
            sold.sort(key=lambda seat: (seat[0], int(seat[1:])))
        self.taken[sid] = set(sold)
        self.db.showtimes[sid] = Showtime(
            showtime_id=sid,
            movie_id=movie_id,
            cinema_id=cinema.cinema_id,
            screen_id=screen.screen_id,
            starts_at=starts_at,
            format=screen.format,
            adult_price=money(price),
            status="cancelled" if cancelled else "scheduled",
            incident=incident,
            sold_elsewhere=tuple(sold),
        )

    # -- customers -----------------------------------------------------------------------

    def customers(self) -> None:
        names: set[tuple[str, str]] = set()
        phones: set[str] = set()
        for n in range(1, CUSTOMERS + 1):
            first, last = unique(names, partial(self.name, FIRST_NAMES))
            _, zip_prefix, area = self.rng.choice(self.s.cities)
            phone = unique(phones, partial(self.phone, area))
            born = date(
                self.rng.randint(1948, 2009), self.rng.randint(1, 12), self.rng.randint(1, 28)
            )
            plan: Plan = self.rng.choices(("none", "club", "club_plus"), (60, 25, 15))[0]
            if age_on(born.isoformat()) < 18:
                plan = "none"
            cid = self.ident("CU-", n, 4)
            methods = self.payment_methods()
            renews = None
            if plan != "none":
                renewal = NOW + timedelta(days=self.rng.randint(1, 29))
                renews = renewal.date().isoformat()
                self.ledger(
                    cid,
                    methods[0].payment_method_id,
                    PLAN_FEES[plan],
                    "membership",
                    f"{plan} monthly fee",
                    renewal - timedelta(days=30),
                )
            email = f"{first}.{last}{self.rng.randint(1, 99)}@{self.rng.choice(EMAIL_DOMAINS)}"
            self.db.customers[cid] = Customer(
                customer_id=cid,
                full_name=f"{first} {last}",
                email=email.lower(),
                phone=phone,
                date_of_birth=born.isoformat(),
                zip_code=f"{zip_prefix}{self.rng.randint(10, 99)}",
                payment_methods=methods,
                account_credit=money(self.rng.choice((0, 0, 0, 0, 0, 0, 0, 5, 12, 25))),
                membership=plan,
                membership_renews_on=renews,
            )

    def payment_methods(self) -> tuple[PaymentMethod, ...]:
        methods: list[PaymentMethod] = []
        count = sum(len(c.payment_methods) for c in self.db.customers.values())
        for _ in range(self.rng.choice((1, 1, 2))):
            count += 1
            last4 = self.rng.randint(*self.s.card_last4)
            methods.append(
                PaymentMethod(
                    payment_method_id=self.ident("PM-", count, 4),
                    kind="card",
                    label=f"{self.rng.choice(CARD_BRANDS)} ending {last4}",
                    balance=None,
                )
            )
        if self.rng.random() < 0.3:
            count += 1
            methods.append(
                PaymentMethod(
                    payment_method_id=self.ident("PM-", count, 4),
                    kind="gift_card",
                    label="Lumen gift card",
                    balance=money(self.rng.choice((5, 10, 20, 25, 40, 60))),
                )
            )
        return tuple(methods)

    def passes(self) -> None:
        for customer in self.db.customers.values():
            if self.rng.random() >= 0.2:
                continue
            kind: PassType = self.rng.choice(("five_film", "ten_film"))
            bought = NOW - timedelta(days=self.rng.randint(10, 420), hours=self.rng.randint(1, 9))
            pid = self.ident("FP-", len(self.db.passes) + 1, 4)
            self.db.passes[pid] = FilmPass(
                pass_id=pid,
                customer_id=customer.customer_id,
                pass_type=kind,
                admissions_left=self.rng.randint(0, PASS_ADMISSIONS[kind]),
                purchased_on=bought.date().isoformat(),
                expires_on=(bought + timedelta(days=365)).date().isoformat(),
            )
            method = customer.payment_methods[0].payment_method_id
            self.ledger(
                customer.customer_id, method, PASS_PRICES[kind], pid, f"{kind} film pass", bought
            )

    # -- bookings ------------------------------------------------------------------------

    def bookings(self) -> None:
        shows = list(self.db.showtimes.values())
        for customer in self.db.customers.values():
            for _ in range(self.rng.choice((0, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6))):
                self.booking(customer, self.rng.choice(shows))

    def seats_for(self, show: Showtime, n: int) -> list[str] | None:
        """A block of n free seats side by side, as people book them, if one is found."""
        screen = next(
            s for s in self.db.cinemas[show.cinema_id].screens if s.screen_id == show.screen_id
        )
        taken = self.taken[show.showtime_id]
        for _ in range(25):
            row = self.rng.choice(screen_rows(screen))
            start = self.rng.randint(1, screen.seats_per_row - n + 1)
            block = [f"{row}{k}" for k in range(start, start + n)]
            if not taken & set(block):
                return block
        return None

    def ticket_types(self, customer: Customer, show: Showtime, n: int) -> list[TicketType]:
        # Canonical order (adult, child, senior), as the tools store tickets.
        adults, children, seniors = n, 0, 0
        if age_on(customer.date_of_birth) >= 65:
            adults, seniors = n - min(n, 2), min(n, 2)
        elif n >= 3 and self.db.movies[show.movie_id].rating != "R" and self.rng.random() < 0.6:
            adults, children = 2, n - 2
        adult: list[TicketType] = ["adult"]
        child: list[TicketType] = ["child"]
        senior: list[TicketType] = ["senior"]
        return adult * adults + child * children + senior * seniors

    def pay_with(self, customer: Customer, show: Showtime, n: int) -> str:
        for held in self.db.passes.values():
            if (
                held.customer_id == customer.customer_id
                and show.format == "standard"
                and held.admissions_left >= n
                and held.expires_on >= NOW.date().isoformat()
                and self.rng.random() < 0.6
            ):
                return held.pass_id
        methods = customer.payment_methods
        if methods[-1].kind == "gift_card" and self.rng.random() < 0.3:
            return methods[-1].payment_method_id
        return self.rng.choice([m for m in methods if m.kind == "card"]).payment_method_id

    def booking(self, customer: Customer, show: Showtime) -> None:
        n = self.rng.choice((1, 1, 2, 2, 2, 2, 3, 4))
        seats = self.seats_for(show, n)
        if seats is None:
            return
        screen = next(
            s for s in self.db.cinemas[show.cinema_id].screens if s.screen_id == show.screen_id
        )
        method = self.pay_with(customer, show, n)
        by_pass = method.startswith("FP-")
        plan = customer.membership
        tickets = tuple(
            Ticket(
                seat=seat,
                ticket_type=kind,
                price=money(0) if by_pass else ticket_price(show, screen, seat, kind, plan),
            )
            for seat, kind in zip(seats, self.ticket_types(customer, show, n), strict=True)
        )
        fee = money(0) if by_pass or plan != "none" else money(BOOKING_FEE * n)
        snacks: tuple[ConcessionLine, ...] = ()
        if not by_pass and self.rng.random() < 0.3:
            items = sorted(self.rng.sample(list(MENU), self.rng.randint(1, 2)))
            snacks = tuple(
                ConcessionLine(
                    item_id=item,
                    quantity=self.rng.randint(1, 2),
                    unit_price=concession_unit_price(item, plan),
                )
                for item in items
            )
        start = parse_time(show.starts_at)
        booked = min(
            start - timedelta(days=self.rng.randint(0, 9), hours=self.rng.randint(1, 30)),
            NOW - timedelta(hours=self.rng.randint(1, 48)),
        )
        status: BookingStatus = "used" if start < NOW else "active"
        if self.rng.random() < 0.08 and not (
            show.status == "cancelled" and self.rng.random() < 0.5
        ):
            status = "cancelled"
        code = f"LM{self.s.digit}{self.rng.randint(0, 99999):05d}"
        while code in self.db.bookings:
            code = f"LM{self.s.digit}{self.rng.randint(0, 99999):05d}"
        paid = sum((t.price for t in tickets), Decimal(0)) + fee
        paid += sum((c.unit_price * c.quantity for c in snacks), Decimal(0))
        credited = status == "used" and show.incident is not None and self.rng.random() < 0.3
        cid = customer.customer_id
        if not by_pass:
            self.ledger(cid, method, paid, code, "tickets", booked)
            if status == "cancelled":
                self.ledger(
                    cid, method, -(paid - fee), code, "cancellation", booked + timedelta(hours=5)
                )
            if credited:
                refund = sum((t.price for t in tickets), Decimal(0))
                self.ledger(
                    cid,
                    "account_credit",
                    -refund,
                    code,
                    "incident credit",
                    start + timedelta(days=1),
                )
        if status != "cancelled":
            self.taken[show.showtime_id].update(seats)
        self.db.bookings[code] = Booking(
            booking_code=code,
            customer_id=cid,
            showtime_id=show.showtime_id,
            tickets=tickets,
            concessions=snacks,
            booking_fee=fee,
            payment_method_id=method,
            status=status,
            exchanged=status != "cancelled" and self.rng.random() < 0.05,
            incident_credit_issued=credited,
            booked_at=_stamp(booked),
        )


def generate(series: Series) -> MovieDB:
    gen = _Gen(series)
    gen.cinemas()
    gen.movies()
    gen.showtimes()
    gen.customers()
    gen.passes()
    gen.bookings()
    return gen.db


SPLIT = SplitGenerator(generate, TRAIN, EVAL)
"""The train and eval databases of the domain."""
