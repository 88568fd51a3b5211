"""Movie domain: tools (success and every refusal), the judgement rules the tools leave to the
agent (`breaks` and `allows`), and policy checks."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from domain_testing import Conversation, Desk, fresh_state

from tau_emotion.domains.movie.db import Booking, Customer, MovieDB, Showtime
from tau_emotion.domains.movie.rules import age_on, hours_until

DESK = Desk("movie", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
DB: MovieDB = DESK.db
call, refuses, now = DESK.call, DESK.refuses, DESK.row
breaks, allows = DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


def show_of(b: Booking) -> Showtime:
    return DB.showtimes[b.showtime_id]


def owner(b: Booking) -> Customer:
    return DB.customers[b.customer_id]


def by_pass(b: Booking) -> bool:
    return b.payment_method_id.startswith("FP-")


def upcoming(b: Booking) -> bool:
    s = show_of(b)
    return b.status == "active" and s.status == "scheduled"


def premium_rows(s: Showtime) -> tuple[str, ...]:
    screens = DB.cinemas[s.cinema_id].screens
    return next(x.premium_rows for x in screens if x.screen_id == s.screen_id)


def find_booking(pred: Callable[[Booking], bool]) -> Booking:
    return next(b for b in DB.bookings.values() if pred(b))


def find_show(pred: Callable[[Showtime], bool]) -> Showtime:
    return next(s for s in DB.showtimes.values() if pred(s))


def free_seats(showtime_id: str, n: int, row: str | None = None) -> list[str]:
    seat_map = call("get_seat_map", showtime_id=showtime_id)
    for r, ranges in seat_map["free_seats_by_row"].items():
        if ranges == "sold out" or (row is not None and r != row):
            continue
        numbers: list[int] = []
        for part in ranges.split(", "):
            lo, _, hi = part.partition("-")
            numbers.extend(range(int(lo), int(hi or lo) + 1))
        if len(numbers) >= n:
            return [f"{r}{k}" for k in numbers[:n]]
    raise AssertionError(f"no {n} free seats in {showtime_id}")


def premium_free(showtime_id: str, n: int) -> list[str]:
    rows = call("get_seat_map", showtime_id=showtime_id)["premium_rows"]
    for row in rows:
        try:
            return free_seats(showtime_id, n, row)
        except AssertionError:
            continue
    raise AssertionError("no premium seats")


def started_active_booking() -> Booking:
    """A booking whose screening has begun but that nobody has checked in yet (the generator
    marks every past booking 'used', so make one active)."""
    used = find_booking(lambda x: x.status == "used" and not by_pass(x))
    active = used.model_copy(update={"status": "active"})
    ENV.state.table("bookings").put(used.booking_code, active)
    return active


def new_bookings() -> list[Booking]:
    return DESK.new_rows("bookings")  # type: ignore[no-any-return]


def card_of(c: Customer) -> str:
    return next(m.payment_method_id for m in c.payment_methods if m.kind == "card")


def new_customer_payments() -> list[Any]:
    return DESK.new_rows("payments")


def standard_show_for_sale(exclude: str = "") -> Showtime:
    return find_show(
        lambda s: (
            s.status == "scheduled"
            and s.format == "standard"
            and hours_until(s) > 24
            and s.showtime_id != exclude
            and DB.movies[s.movie_id].rating != "R"
        )
    )


# -- identity and reads ------------------------------------------------------------------


def test_identity_lookups() -> None:
    c = DB.customers["CU-60011"]
    assert call("find_customer_by_email", email=c.email.upper())["customer_id"] == c.customer_id
    assert call("find_customer_by_phone", phone=c.phone.replace("-", " "))["customer_id"] == (
        c.customer_id
    )
    found = call(
        "find_customer_by_name_and_zip", full_name=c.full_name.lower(), zip_code=c.zip_code
    )
    assert found["customer_id"] == c.customer_id
    refuses("no customer account", "find_customer_by_email", email="nobody@example.com")
    refuses("no customer account", "find_customer_by_phone", phone="000-000-0000")
    refuses(
        "no customer account",
        "find_customer_by_name_and_zip",
        full_name=c.full_name,
        zip_code="00000",
    )


def test_customer_details_and_bookings() -> None:
    b = find_booking(upcoming)
    details = call("get_customer_details", customer_id=b.customer_id)
    assert b.booking_code in {x["booking_code"] for x in details["bookings"]}
    refuses("no customer with id", "get_customer_details", customer_id="CU-00000")
    view = call("get_booking", customer_id=b.customer_id, booking_code=b.booking_code.lower())
    assert view["booking_code"] == b.booking_code
    other = find_booking(lambda x: x.customer_id != b.customer_id)
    refuses(
        "has no booking", "get_booking", customer_id=b.customer_id, booking_code=other.booking_code
    )


def test_showtimes_seat_map_and_menu() -> None:
    s = standard_show_for_sale()
    title = DB.movies[s.movie_id].title
    found = call("search_showtimes", date=s.starts_at[:10], movie_title=title.lower())
    assert s.showtime_id in {x["showtime_id"] for x in found}
    refuses("give a movie title", "search_showtimes", date="2025-06-15")
    refuses("no showtimes match", "search_showtimes", date="2030-01-01", cinema="Harbor")
    seat_map = call("get_seat_map", showtime_id=s.showtime_id)
    taken = set(s.sold_elsewhere)
    assert seat_map["free_seat_count"] + len(taken) <= sum(
        scr.rows * scr.seats_per_row
        for scr in DB.cinemas[s.cinema_id].screens
        if scr.screen_id == s.screen_id
    )
    refuses("no showtime", "get_seat_map", showtime_id="SH-0")
    menu = call("list_concessions")
    popcorn = next(m for m in menu if m["item_id"] == "popcorn_large")
    assert (popcorn["price"], popcorn["club_price"], popcorn["club_plus_price"]) == (
        "8.50",
        "7.65",
        "6.80",
    )


# -- booking -----------------------------------------------------------------------------


def test_book_tickets_with_card_charges_fee_and_records_payment() -> None:
    c = next(x for x in DB.customers.values() if x.membership == "none")
    s = standard_show_for_sale()
    seats = free_seats(s.showtime_id, 3)
    out = call(
        "book_tickets",
        customer_id=c.customer_id,
        showtime_id=s.showtime_id,
        seats=seats,
        payment_method_id=card_of(c),
        adult_tickets=1,
        child_tickets=1,
        senior_tickets=1,
    )
    expected = 3 * s.adult_price - Decimal("5.50") + Decimal("3.00")
    assert Decimal(out["total_paid"]) == expected
    assert [t["ticket_type"] for t in out["tickets"]] == ["adult", "child", "senior"]
    assert new_customer_payments()[0].amount == expected
    again = call("get_seat_map", showtime_id=s.showtime_id)["free_seat_count"]
    assert again == call("get_seat_map", showtime_id=s.showtime_id)["free_seat_count"]
    refuses(
        "already taken",
        "book_tickets",
        customer_id=c.customer_id,
        showtime_id=s.showtime_id,
        seats=seats[:1],
        payment_method_id=card_of(c),
        adult_tickets=1,
    )


def test_book_tickets_member_pays_no_fee_and_club_plus_no_surcharge() -> None:
    c = next(x for x in DB.customers.values() if x.membership == "club_plus")
    s = standard_show_for_sale()
    seats = premium_free(s.showtime_id, 2)
    out = call(
        "book_tickets",
        customer_id=c.customer_id,
        showtime_id=s.showtime_id,
        seats=seats,
        payment_method_id=card_of(c),
        adult_tickets=2,
    )
    assert Decimal(out["total_paid"]) == 2 * s.adult_price
    assert out["booking_fee"] == "0.00"


def test_book_tickets_refusals() -> None:
    c = next(x for x in DB.customers.values() if x.membership == "none")
    s = standard_show_for_sale()
    seats = free_seats(s.showtime_id, 2)
    base = {
        "customer_id": c.customer_id,
        "showtime_id": s.showtime_id,
        "payment_method_id": card_of(c),
    }
    refuses("1 to 10 tickets", "book_tickets", seats=[], **base)
    refuses("1 to 10 tickets", "book_tickets", seats=seats, adult_tickets=11, **base)
    refuses("exactly 2 seats", "book_tickets", seats=seats[:1], adult_tickets=2, **base)
    refuses("listed twice", "book_tickets", seats=[seats[0], seats[0]], adult_tickets=2, **base)
    refuses("does not exist", "book_tickets", seats=["A99"], adult_tickets=1, **base)
    refuses("not a seat label", "book_tickets", seats=["front row"], adult_tickets=1, **base)
    refuses(
        "no payment method",
        "book_tickets",
        seats=seats[:1],
        adult_tickets=1,
        **{**base, "payment_method_id": "PM-0"},
    )
    started = find_show(lambda x: x.status == "scheduled" and hours_until(x) <= 0)
    refuses(
        "not on sale",
        "book_tickets",
        **{**base, "showtime_id": started.showtime_id},
        seats=["A1"],
        adult_tickets=1,
    )
    cancelled = find_show(lambda x: x.status == "cancelled")
    refuses(
        "not on sale",
        "book_tickets",
        **{**base, "showtime_id": cancelled.showtime_id},
        seats=["A1"],
        adult_tickets=1,
    )
    r_show = find_show(
        lambda x: (
            x.status == "scheduled" and hours_until(x) > 3 and DB.movies[x.movie_id].rating == "R"
        )
    )
    r_base = {**base, "showtime_id": r_show.showtime_id}
    rule = "movie.no_child_tickets_for_r"
    allows(rule, "book_tickets", **r_base, seats=free_seats(r_show.showtime_id, 1), adult_tickets=1)
    breaks(rule, "book_tickets", **r_base, seats=free_seats(r_show.showtime_id, 1), child_tickets=1)
    assert new_bookings()[-1].tickets[0].ticket_type == "child", "sold as the tool was asked"


def test_book_tickets_balance_refusals() -> None:
    s = standard_show_for_sale()
    seats = free_seats(s.showtime_id, 10)
    gift = next(
        x
        for x in DB.customers.values()
        if x.payment_methods[-1].kind == "gift_card" and (x.payment_methods[-1].balance or 0) < 50
    )
    refuses(
        "not enough",
        "book_tickets",
        customer_id=gift.customer_id,
        showtime_id=s.showtime_id,
        seats=seats,
        adult_tickets=10,
        payment_method_id=gift.payment_methods[-1].payment_method_id,
    )
    broke = next(x for x in DB.customers.values() if x.account_credit == 0)
    refuses(
        "account credit is 0.00",
        "book_tickets",
        customer_id=broke.customer_id,
        showtime_id=s.showtime_id,
        seats=seats[:1],
        adult_tickets=1,
        payment_method_id="account_credit",
    )


def test_book_tickets_with_pass_and_its_refusals() -> None:
    fp = next(
        p for p in DB.passes.values() if p.admissions_left >= 2 and p.expires_on > "2025-06-14"
    )
    s = standard_show_for_sale()
    seats = free_seats(s.showtime_id, 2)
    args = {"customer_id": fp.customer_id, "payment_method_id": fp.pass_id}
    out = call("book_tickets", showtime_id=s.showtime_id, seats=seats, adult_tickets=2, **args)
    assert out["total_paid"] == "0.00"
    assert now("passes", fp.pass_id).admissions_left == fp.admissions_left - 2
    refuses(
        "admissions left",
        "book_tickets",
        showtime_id=s.showtime_id,
        seats=free_seats(s.showtime_id, 10),
        adult_tickets=10,
        **args,
    )
    premium = find_show(
        lambda x: (
            x.status == "scheduled"
            and x.format != "standard"
            and hours_until(x) > 3
            and DB.movies[x.movie_id].rating != "R"
        )
    )
    refuses(
        "standard-format",
        "book_tickets",
        showtime_id=premium.showtime_id,
        seats=free_seats(premium.showtime_id, 1),
        adult_tickets=1,
        **args,
    )
    expired = next(p for p in DB.passes.values() if p.expires_on < "2025-06-14")
    refuses(
        "expired",
        "book_tickets",
        customer_id=expired.customer_id,
        payment_method_id=expired.pass_id,
        showtime_id=s.showtime_id,
        seats=free_seats(s.showtime_id, 1),
        adult_tickets=1,
    )
    other = next(p for p in DB.passes.values() if p.customer_id != fp.customer_id)
    refuses(
        "has no film pass",
        "book_tickets",
        customer_id=fp.customer_id,
        payment_method_id=other.pass_id,
        showtime_id=s.showtime_id,
        seats=free_seats(s.showtime_id, 1),
        adult_tickets=1,
    )


# -- seat changes and exchanges ------------------------------------------------------------


def test_change_seats_charges_and_refunds_premium_difference() -> None:
    b = find_booking(
        lambda x: (
            upcoming(x)
            and not by_pass(x)
            and hours_until(show_of(x)) > 0
            and owner(x).membership == "none"
            and len(x.tickets) == 1
            and x.tickets[0].seat[0] not in premium_rows(show_of(x))
        )
    )
    seat = premium_free(b.showtime_id, 1)
    out = call("change_seats", customer_id=b.customer_id, booking_code=b.booking_code, seats=seat)
    assert (out["charged"], out["refunded"]) == ("3.00", "0.00")
    back = call(
        "change_seats",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        seats=[b.tickets[0].seat],
    )
    assert (back["charged"], back["refunded"]) == ("0.00", "3.00")
    refuses(
        "already has those seats",
        "change_seats",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        seats=[b.tickets[0].seat],
    )


def test_change_seats_refusals() -> None:
    started = started_active_booking()
    refuses(
        "has started",
        "change_seats",
        customer_id=started.customer_id,
        booking_code=started.booking_code,
        seats=["A1"],
    )
    used = find_booking(lambda x: x.status == "used" and x.booking_code != started.booking_code)
    refuses(
        "is used",
        "change_seats",
        customer_id=used.customer_id,
        booking_code=used.booking_code,
        seats=["A1"],
    )
    b = find_booking(lambda x: upcoming(x) and hours_until(show_of(x)) > 0 and len(x.tickets) == 1)
    taken = show_of(b).sold_elsewhere[0]
    refuses(
        "already taken",
        "change_seats",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        seats=[taken],
    )
    refuses(
        "exactly 1 seat,",
        "change_seats",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        seats=free_seats(b.showtime_id, 2),
    )


def _same_movie_target(b: Booking, standard: bool = False) -> Showtime:
    return find_show(
        lambda s: (
            s.movie_id == show_of(b).movie_id
            and s.showtime_id != b.showtime_id
            and s.status == "scheduled"
            and hours_until(s) > 24
            and (s.format == "standard" or not standard)
        )
    )


def test_exchange_charges_fee_to_non_members() -> None:
    b = find_booking(
        lambda x: (
            upcoming(x)
            and not by_pass(x)
            and not x.exchanged
            and hours_until(show_of(x)) >= 2
            and owner(x).membership == "none"
            and owner(x).payment_methods[0].payment_method_id == x.payment_method_id
        )
    )
    target = _same_movie_target(b)
    seats = free_seats(target.showtime_id, len(b.tickets), None)
    out = call(
        "exchange_booking",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        new_showtime_id=target.showtime_id,
        seats=seats,
    )
    assert out["exchange_fee"] == f"{2 * len(b.tickets)}.00"
    assert now("bookings", b.booking_code).exchanged
    back = {"new_showtime_id": b.showtime_id, "seats": [t.seat for t in b.tickets]}
    args = {"customer_id": b.customer_id, "booking_code": b.booking_code}
    breaks("movie.one_exchange", "exchange_booking", **args, **back)
    assert now("bookings", b.booking_code).showtime_id == b.showtime_id


def test_exchange_cutoff_is_the_agents_to_apply() -> None:
    late = find_booking(
        lambda x: (
            upcoming(x) and not by_pass(x) and not x.exchanged and 0 < hours_until(show_of(x)) < 2
        )
    )
    target = _same_movie_target(late)
    seats = free_seats(target.showtime_id, len(late.tickets))
    args = {**_codes(late), "new_showtime_id": target.showtime_id, "seats": seats}
    breaks("movie.exchange_cutoff", "exchange_booking", **args)
    assert now("bookings", late.booking_code).showtime_id == target.showtime_id
    b = find_booking(lambda x: upcoming(x) and not x.exchanged and hours_until(show_of(x)) > 24)
    target = _same_movie_target(b)
    seats = free_seats(target.showtime_id, len(b.tickets))
    args = {**_codes(b), "new_showtime_id": target.showtime_id, "seats": seats}
    allows("movie.exchange_cutoff", "exchange_booking", **args)
    allows("movie.one_exchange", "exchange_booking", **args)


def test_the_cutoff_judges_only_what_the_tool_would_carry_out() -> None:
    """A used booking or a screening under way is the tool's to refuse: the cutoff is not
    the reason, so the Tracer's hunt does not take such a booking for a challenge."""
    rule = next(c for c in DOMAIN.checks if c.rule_id == "movie.exchange_cutoff")
    used = find_booking(lambda x: x.status == "used")
    target = _same_movie_target(used)
    args = {**_codes(used), "new_showtime_id": target.showtime_id, "seats": ["A1"]}
    assert rule.forbids(ENV.tools, "exchange_booking", args) is None
    refuses("is used", "exchange_booking", **args)


def test_exchange_refusals() -> None:
    started = started_active_booking()
    refuses(
        "has started",
        "exchange_booking",
        customer_id=started.customer_id,
        booking_code=started.booking_code,
        new_showtime_id=_same_movie_target(started).showtime_id,
        seats=["A1"],
    )
    b = find_booking(lambda x: upcoming(x) and not x.exchanged and hours_until(show_of(x)) > 24)
    other_movie = find_show(lambda s: s.movie_id != show_of(b).movie_id)
    refuses(
        "same movie",
        "exchange_booking",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        new_showtime_id=other_movie.showtime_id,
        seats=["A1"],
    )
    gone = find_show(
        lambda s: (
            s.movie_id == show_of(b).movie_id
            and s.status == "cancelled"
            and s.showtime_id != b.showtime_id
        )
    )
    refuses(
        "not on sale",
        "exchange_booking",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        new_showtime_id=gone.showtime_id,
        seats=["A1"],
    )
    pb = find_booking(
        lambda x: (
            upcoming(x)
            and by_pass(x)
            and not x.exchanged
            and hours_until(show_of(x)) > 2
            and any(
                s.movie_id == show_of(x).movie_id
                and s.format != "standard"
                and s.status == "scheduled"
                and hours_until(s) > 0
                for s in DB.showtimes.values()
            )
        )
    )
    fancy = find_show(
        lambda s: (
            s.movie_id == show_of(pb).movie_id
            and s.format != "standard"
            and s.status == "scheduled"
            and hours_until(s) > 0
        )
    )
    refuses(
        "standard-format",
        "exchange_booking",
        customer_id=pb.customer_id,
        booking_code=pb.booking_code,
        new_showtime_id=fancy.showtime_id,
        seats=["A1"],
    )


def test_exchange_after_lumen_cancellation_is_free_of_fees() -> None:
    b = find_booking(
        lambda x: (
            x.status == "active"
            and show_of(x).status == "cancelled"
            and owner(x).membership == "none"
            and not x.exchanged
            and not by_pass(x)
        )
    )
    target = _same_movie_target(b)
    out = call(
        "exchange_booking",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        new_showtime_id=target.showtime_id,
        seats=free_seats(target.showtime_id, len(b.tickets)),
    )
    assert out["exchange_fee"] == "0.00"


# -- cancellations and refunds -------------------------------------------------------------


def _codes(b: Booking) -> dict[str, str]:
    return {"customer_id": b.customer_id, "booking_code": b.booking_code}


def _cancel(b: Booking) -> dict[str, Any]:
    return call("cancel_booking", customer_id=b.customer_id, booking_code=b.booking_code)  # type: ignore[no-any-return]


def _paid(b: Booking, fee: bool = False) -> str:
    total = sum(t.price for t in b.tickets) + sum(c.unit_price * c.quantity for c in b.concessions)
    return str(total + (b.booking_fee if fee else 0))


def test_cancel_a_day_ahead_refunds_original_method_without_fee() -> None:
    b = find_booking(
        lambda x: (
            upcoming(x) and not by_pass(x) and hours_until(show_of(x)) >= 24 and x.booking_fee > 0
        )
    )
    out = _cancel(b)
    assert (out["refund_amount"], out["refunded_to"]) == (_paid(b), b.payment_method_id)
    assert now("bookings", b.booking_code).status == "cancelled"
    refuses(
        "is cancelled", "cancel_booking", customer_id=b.customer_id, booking_code=b.booking_code
    )


def test_cancel_same_day_goes_to_credit_except_club_plus() -> None:
    def window(plan: str) -> Callable[[Booking], bool]:
        return lambda x: (
            upcoming(x)
            and not by_pass(x)
            and 2 <= hours_until(show_of(x)) < 24
            and owner(x).membership == plan
        )

    b = find_booking(window("none"))
    out = _cancel(b)
    assert (out["refund_amount"], out["refunded_to"]) == (_paid(b), "account_credit")
    assert now("customers", b.customer_id).account_credit == owner(b).account_credit + Decimal(
        _paid(b)
    )
    plus = find_booking(window("club_plus"))
    assert _cancel(plus)["refunded_to"] == plus.payment_method_id


def test_cancel_lumen_cancelled_show_refunds_everything() -> None:
    b = find_booking(
        lambda x: x.status == "active" and show_of(x).status == "cancelled" and x.booking_fee > 0
    )
    out = _cancel(b)
    assert (out["refund_amount"], out["refunded_to"]) == (_paid(b, fee=True), b.payment_method_id)


def test_cancel_pass_booking_returns_admissions() -> None:
    b = find_booking(lambda x: upcoming(x) and by_pass(x) and hours_until(show_of(x)) >= 2)
    before = DB.passes[b.payment_method_id].admissions_left
    assert _cancel(b)["admissions_returned"] == len(b.tickets)
    assert now("passes", b.payment_method_id).admissions_left == before + len(b.tickets)


def test_cancellation_cutoff_is_the_agents_to_apply() -> None:
    allows("movie.cancellation_cutoff", "cancel_booking", **_codes(_cancellable()))
    gone = find_booking(lambda x: x.status == "active" and show_of(x).status == "cancelled")
    allows("movie.cancellation_cutoff", "cancel_booking", **_codes(gone))
    late = find_booking(
        lambda x: (
            upcoming(x)
            and not by_pass(x)
            and 0 < hours_until(show_of(x)) < 2
            and owner(x).membership != "club_plus"
        )
    )
    breaks("movie.cancellation_cutoff", "cancel_booking", **_codes(late))
    # Carried out, a late cancellation refunds as the same-day tier does: to account credit.
    assert now("customers", late.customer_id).account_credit == owner(
        late
    ).account_credit + Decimal(_paid(late))


def test_cancel_refusals() -> None:
    started = started_active_booking()
    refuses("has started", "cancel_booking", **_codes(started))
    used = find_booking(lambda x: x.status == "used" and x.booking_code != started.booking_code)
    refuses(
        "is used", "cancel_booking", customer_id=used.customer_id, booking_code=used.booking_code
    )


# -- concessions and incident credit --------------------------------------------------------


def test_add_concessions_uses_member_price_and_merges_lines() -> None:
    b = find_booking(
        lambda x: (
            upcoming(x)
            and not by_pass(x)
            and hours_until(show_of(x)) > 0
            and owner(x).membership == "club"
            and not x.concessions
        )
    )
    out = call(
        "add_concessions",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        items={"candy": 1, "popcorn_large": 2},
    )
    assert out["charged"] == "19.13"  # 3.83 + 2 x 7.65
    call(
        "add_concessions",
        customer_id=b.customer_id,
        booking_code=b.booking_code,
        items={"candy": 2},
    )
    lines = now("bookings", b.booking_code).concessions
    assert [(c.item_id, c.quantity) for c in lines] == [("candy", 3), ("popcorn_large", 2)]


def test_add_concessions_refusals() -> None:
    b = find_booking(lambda x: upcoming(x) and not by_pass(x) and hours_until(show_of(x)) > 0)
    args = {"customer_id": b.customer_id, "booking_code": b.booking_code}
    refuses("not on the menu", "add_concessions", items={"caviar": 1}, **args)
    refuses("1 to 10", "add_concessions", items={"candy": 11}, **args)
    refuses("at least one", "add_concessions", items={}, **args)
    pb = find_booking(lambda x: upcoming(x) and by_pass(x) and hours_until(show_of(x)) > 0)
    refuses(
        "pass bookings",
        "add_concessions",
        customer_id=pb.customer_id,
        booking_code=pb.booking_code,
        items={"candy": 1},
    )
    started = started_active_booking()
    refuses(
        "before the showtime",
        "add_concessions",
        customer_id=started.customer_id,
        booking_code=started.booking_code,
        items={"candy": 1},
    )


def test_incident_credit_and_refusals() -> None:
    b = find_booking(
        lambda x: (
            x.status == "used"
            and show_of(x).incident is not None
            and not x.incident_credit_issued
            and not by_pass(x)
        )
    )
    args = {"customer_id": b.customer_id, "booking_code": b.booking_code}
    rule = "movie.incident_credit_eligibility"
    allows(rule, "issue_incident_credit", **args)
    out = call("issue_incident_credit", **args)
    assert out["credit_amount"] == str(sum(t.price for t in b.tickets))
    refuses("already issued", "issue_incident_credit", **args)
    quiet = find_booking(lambda x: x.status == "used" and show_of(x).incident is None)
    assert "no technical incident" in breaks(rule, "issue_incident_credit", **_codes(quiet))
    future = find_booking(upcoming)
    assert "not an attended" in breaks(rule, "issue_incident_credit", **_codes(future))
    assert now("bookings", future.booking_code).incident_credit_issued


# -- passes, memberships, transfers ---------------------------------------------------------


def _no_pass(c: Customer) -> bool:
    return all(p.customer_id != c.customer_id for p in DB.passes.values())


def test_buy_film_pass_and_refusals() -> None:
    c = next(x for x in DB.customers.values() if _no_pass(x))
    out = call(
        "buy_film_pass",
        customer_id=c.customer_id,
        pass_type="ten_film",
        payment_method_id=card_of(c),
    )
    assert (out["charged"], out["admissions_left"], out["expires_on"]) == (
        "100.00",
        10,
        "2026-06-14",
    )
    buy = {"pass_type": "five_film", "payment_method_id": card_of(c)}
    breaks("movie.one_live_pass", "buy_film_pass", customer_id=c.customer_id, **buy)
    assert sum(p.customer_id == c.customer_id for p in DESK.new_rows("passes")) == 2
    d = next(x for x in DB.customers.values() if _no_pass(x) and x.customer_id != c.customer_id)
    allows(
        "movie.one_live_pass",
        "buy_film_pass",
        customer_id=d.customer_id,
        pass_type="five_film",
        payment_method_id=card_of(d),
    )
    refuses(
        "cannot pay for another",
        "buy_film_pass",
        customer_id=d.customer_id,
        pass_type="five_film",
        payment_method_id=out["pass_id"],
    )


def test_change_membership_join_cancel_and_refusals() -> None:
    c = next(
        x
        for x in DB.customers.values()
        if x.membership == "none"
        and age_on(x.date_of_birth) >= 18
        and x.payment_methods[-1].kind == "gift_card"
    )
    card = {"payment_method_id": card_of(c)}
    out = call("change_membership", customer_id=c.customer_id, plan="club", **card)
    assert (out["charged"], out["membership_renews_on"]) == ("9.99", "2025-07-14")
    refuses(
        "already club",
        "change_membership",
        customer_id=c.customer_id,
        plan="club",
        payment_method_id=card_of(c),
    )
    refuses(
        "only be paid with a card",
        "change_membership",
        customer_id=c.customer_id,
        plan="club_plus",
        payment_method_id=c.payment_methods[-1].payment_method_id,
    )
    refuses("give the card", "change_membership", customer_id=c.customer_id, plan="club_plus")
    assert call("change_membership", customer_id=c.customer_id, plan="none")["charged"] == "0.00"
    assert now("customers", c.customer_id).membership_renews_on is None
    rule = "movie.member_age"
    allows(rule, "change_membership", customer_id=c.customer_id, plan="club_plus", **card)
    young = next(x for x in DB.customers.values() if age_on(x.date_of_birth) < 18)
    young_card = {"payment_method_id": card_of(young)}
    breaks(rule, "change_membership", customer_id=young.customer_id, plan="club", **young_card)
    assert now("customers", young.customer_id).membership == "club"


def test_transfer_records_deterministic_ids() -> None:
    assert "TR-0001" in call("transfer_to_human_agents", summary="lost scarf")
    assert "TR-0002" in call("transfer_to_human_agents", summary="anything else")
    assert now("transfers", "TR-0001").queue == "customer_care"


# -- policy checks -------------------------------------------------------------------------

RULES = [c.rule_id for c in DOMAIN.checks]


def _clean_cancel(b: Booking) -> Conversation:
    c = owner(b)
    return (
        Conversation(ENV)
        .user("cancel please")
        .run("find_customer_by_email", email=c.email)
        .run("get_booking", customer_id=c.customer_id, booking_code=b.booking_code)
        .confirm()
        .run("cancel_booking", customer_id=c.customer_id, booking_code=b.booking_code)
    )


def _cancellable() -> Booking:
    return find_booking(lambda x: upcoming(x) and hours_until(show_of(x)) >= 24)


def test_clean_trajectory_passes_every_check() -> None:
    script = _clean_cancel(_cancellable())
    assert all(not script.details(rule) for rule in RULES)


def test_confirmation_and_authentication_checks_catch_violations() -> None:
    b = _cancellable()
    s = Conversation(ENV).run(
        "cancel_booking", customer_id=b.customer_id, booking_code=b.booking_code
    )
    assert s.details("movie.confirm_before_write")
    assert s.details("movie.authenticate_first")
    assert s.details("movie.authenticated_customer_only")
    assert s.details("movie.read_booking_first")
    peek = Conversation(ENV).run("get_customer_details", customer_id=b.customer_id)
    assert peek.details("movie.authenticate_first")


def test_one_customer_and_authenticated_customer_checks() -> None:
    b = _cancellable()
    other = find_booking(lambda x: x.customer_id != b.customer_id and upcoming(x))
    s = _clean_cancel(b).run("get_customer_details", customer_id=other.customer_id)
    assert s.details("movie.one_customer")
    assert s.details("movie.authenticated_customer_only")


def test_seat_map_check() -> None:
    b = find_booking(lambda x: upcoming(x) and hours_until(show_of(x)) > 0 and len(x.tickets) == 1)
    c = owner(b)
    seat = free_seats(b.showtime_id, 1)
    ENV.reset()
    base = (
        Conversation(ENV)
        .run("find_customer_by_phone", phone=c.phone)
        .run("get_booking", customer_id=c.customer_id, booking_code=b.booking_code)
    )
    blind = base.confirm().run(
        "change_seats", customer_id=c.customer_id, booking_code=b.booking_code, seats=seat
    )
    assert blind.details("movie.seat_map_first")
    ENV.reset()
    looked = (
        Conversation(ENV)
        .run("find_customer_by_phone", phone=c.phone)
        .run("get_booking", customer_id=c.customer_id, booking_code=b.booking_code)
        .run("get_seat_map", showtime_id=b.showtime_id)
        .confirm()
        .run("change_seats", customer_id=c.customer_id, booking_code=b.booking_code, seats=seat)
    )
    assert not looked.details("movie.seat_map_first")
    s = standard_show_for_sale()
    ENV.reset()
    booking = (
        Conversation(ENV)
        .run("find_customer_by_phone", phone=c.phone)
        .confirm()
        .run(
            "book_tickets",
            customer_id=c.customer_id,
            showtime_id=s.showtime_id,
            seats=free_seats(s.showtime_id, 1),
            payment_method_id=card_of(c),
            adult_tickets=1,
        )
    )
    assert booking.details("movie.seat_map_first")


# -- the split ---------------------------------------------------------------------------


def test_train_and_eval_have_their_own_films_and_cinemas() -> None:
    """Beyond the ids and personal facts the contract test compares for every domain."""

    def names(db: MovieDB) -> set[str]:
        return {m.title for m in db.movies.values()} | {c.name for c in db.cinemas.values()}

    assert not names(DESK.domain.load_db("train")[0]) & names(DB)  # type: ignore[arg-type]
