"""Airline domain: every tool's success and refusal paths and the policy checks. Entities
are found by what they are (e.g. 'a basic fare booked weeks ago') rather than by id, so each
test names the situation it exercises."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from domain_testing import Conversation, Desk, fresh_state

from tau_emotion.domains.airline.calculator import calculate
from tau_emotion.domains.airline.db import AirlineDB, FlightDay, Reservation, Segment, User, day_key
from tau_emotion.domains.airline.itinerary import departure_at, has_flown
from tau_emotion.domains.airline.rules import NOW, Cabin
from tau_emotion.domains.airline.tools_base import dollars, shown
from tau_emotion.domains.tools import to_text
from tau_emotion.errors import ToolError

DESK = Desk("airline")
DOMAIN, ENV = DESK.domain, DESK.env
DB: AirlineDB = DESK.db
fresh = fresh_state(ENV)


def _on(r: Reservation | None, arguments: dict[str, Any]) -> dict[str, Any]:
    """With `r`, the call is on that reservation for its owner."""
    return (
        arguments if r is None else {"user_id": r.user_id, "reservation_code": r.code, **arguments}
    )


def act(name: str, r: Reservation | None = None, /, **arguments: Any) -> Any:
    return DESK.call(name, **_on(r, arguments))


def refuse(match: str, name: str, r: Reservation | None = None, /, **arguments: Any) -> None:
    DESK.refuses(match, name, **_on(r, arguments))


def breaks(rule: str, name: str, r: Reservation, /, **arguments: Any) -> None:
    """The judgement rule `airline.<rule>` forbids the write, and the tool carries it out."""
    DESK.breaks(f"airline.{rule}", name, **_on(r, arguments))


def allows(rule: str, name: str, r: Reservation, /, **arguments: Any) -> None:
    DESK.allows(f"airline.{rule}", name, **_on(r, arguments))


# -- finding situations -------------------------------------------------------------------


def _day(s: Segment) -> FlightDay:
    return DB.flight_days[day_key(s.flight_number, s.date)]


def _seats(s: Segment, cabin: Cabin) -> int:
    seats = _day(s).seats
    return seats.of(cabin) if seats else 0


def _upcoming(r: Reservation) -> bool:
    soon = NOW + timedelta(hours=3)
    return r.status == "active" and all(
        _day(s).status in ("scheduled", "delayed")
        and departure_at(DB.flights[s.flight_number], s.date) > soon
        for s in r.segments
    )


def res(
    test: Callable[[Reservation], bool] = lambda r: True,
    *,
    cabin: str | None = None,
    upcoming: bool = False,
    recent: bool | None = None,
    protection: bool | None = None,
    tier: str | None = None,
    one_leg: bool = False,
) -> Reservation:
    """The first reservation (by code) that fits every given condition."""
    for r in sorted(DB.reservations.values(), key=lambda r: r.code):
        booked = datetime.fromisoformat(r.created_at)
        if (
            (cabin is None or r.cabin == cabin)
            and (not upcoming or _upcoming(r))
            and (recent is None or (NOW - booked <= timedelta(hours=24)) == recent)
            and (protection is None or r.travel_protection == protection)
            and (tier is None or DB.users[r.user_id].tier == tier)
            and (not one_leg or (r.trip_type == "one_way" and len(r.segments) == 1))
            and test(r)
        ):
            return r
    raise LookupError("no reservation in that situation")


def cancelled_flight(r: Reservation) -> bool:
    return r.status == "active" and any(_day(s).status == "cancelled" for s in r.segments)


def flown(r: Reservation) -> bool:
    return any(has_flown(_day(s)) for s in r.segments)


def card(u: User | Reservation) -> str:
    user = DB.users[u.user_id]
    return next(m.id for m in user.payment_methods if m.kind == "credit_card")


def paid(r: Reservation) -> Decimal:
    return sum((p.amount for p in r.payments), Decimal(0))


def sellable(origin: str, destination: str, day: str, cabin: Cabin, seats: int = 1) -> str:
    for f in DB.flights.values():
        leg = Segment(flight_number=f.number, date=day, price=0)
        if (f.origin, f.destination) == (origin, destination) and _seats(leg, cabin) >= seats:
            return f.number
    raise LookupError("no sellable flight")


def next_day(r: Reservation) -> list[dict[str, str]]:
    day = (date.fromisoformat(r.segments[0].date) + timedelta(days=1)).isoformat()
    number = sellable(r.origin, r.destination, day, r.cabin, len(r.passengers))
    return [{"flight_number": number, "date": day}]


def me(u: User) -> dict[str, str]:
    return {"first_name": u.first_name, "last_name": u.last_name, "date_of_birth": u.date_of_birth}


# -- authentication and reads -------------------------------------------------------------

USER = DB.users[sorted(DB.users)[0]]


def test_authentication_lookups() -> None:
    name = {"first_name": USER.first_name.lower(), "last_name": USER.last_name}
    assert act("find_user_by_email", email=USER.email.upper()) == {"user_id": USER.user_id}
    dob = act("find_user_by_name_and_birth_date", **name, date_of_birth=USER.date_of_birth)
    zip_code = act("find_user_by_name_and_zip", **name, zip_code=USER.address.zip_code)
    assert dob == zip_code == {"user_id": USER.user_id}
    refuse("no customer", "find_user_by_email", email="nobody@example.com")
    refuse("YYYY-MM-DD", "find_user_by_name_and_birth_date", **name, date_of_birth="May 1")
    refuse("no customer", "find_user_by_name_and_birth_date", **name, date_of_birth="1900-01-01")
    refuse("no customer", "find_user_by_name_and_zip", **name, zip_code="00000")


def test_account_reads() -> None:
    assert act("get_user_details", user_id=USER.user_id)["email"] == USER.email
    refuse("no user", "get_user_details", user_id="nobody")
    code = USER.reservations[0]
    view = act("get_reservation_details", reservation_code=code.lower())
    assert view["reservation_code"] == code and view["user_id"] == USER.user_id
    assert view["total_paid"] == paid(DB.reservations[code])
    refuse("no reservation", "get_reservation_details", reservation_code="ZZZZZZ")


def test_flight_reads() -> None:
    assert len(act("list_airports")) == len(DB.airports)
    number = sorted(DB.flights)[0]
    status = act("get_flight_status", flight_number=number.lower(), date="2025-06-20")
    assert status["flight_number"] == number and "prices" in status
    past = act("get_flight_status", flight_number=number, date="2025-06-02")
    assert past["status"] in ("landed", "cancelled") and "prices" not in past
    refuse("no flight", "get_flight_status", flight_number="LK1", date="2025-06-20")
    refuse("outside the published", "get_flight_status", flight_number=number, date="2025-07-20")
    refuse("not a date", "get_flight_status", flight_number=number, date="June 20")
    direct = act("search_direct_flights", origin="bos", destination="DEN", date="2025-06-20")
    assert direct and all(f["origin"] == "BOS" and f["destination"] == "DEN" for f in direct)
    refuse(
        "no airport", "search_direct_flights", origin="XXX", destination="DEN", date="2025-06-20"
    )


def test_one_stop_search_lists_sellable_connections() -> None:
    options = act("search_one_stop_flights", origin="SAN", destination="BNA", date="2025-06-18")
    assert options
    for option in options:
        first, second = option["flights"]
        assert (first["origin"], first["destination"]) == ("SAN", second["origin"])
        assert second["destination"] == "BNA" and "prices" in first and "prices" in second


def test_calculator() -> None:
    assert act("calculate", expression="(312 + 289) * 2 - 150") == "1052"
    assert calculate("10 / 4") == "2.50" and calculate("-3 + +1") == "-2"
    for bad in ("__import__('os')", "2 ** 8", "abs(-1)", "True + 1", "x * 2", "'a' * 3"):
        with pytest.raises(ToolError, match="only"):
            calculate(bad)
    for bad, match in (("1 / (2 - 2)", "division by zero"), ("1 +", "not a valid")):
        with pytest.raises(ToolError, match=match):
            calculate(bad)
    with pytest.raises(ToolError, match="longer"):
        calculate("1+" * 150 + "1")


# -- booking ------------------------------------------------------------------------------

GOLD = next(
    u
    for u in sorted(DB.users.values(), key=lambda u: u.user_id)
    if u.tier == "gold"
    and any(m.kind == "gift_card" for m in u.payment_methods)
    and any(
        m.kind == "certificate" and (m.expires or "") >= "2025-06-12" for m in u.payment_methods
    )
)
GIFT = next(m for m in GOLD.payment_methods if m.kind == "gift_card")
CERT = next(
    m for m in GOLD.payment_methods if m.kind == "certificate" and (m.expires or "") >= "2025"
)
TRIP = [{"flight_number": sellable("BOS", "DEN", "2025-06-20", "economy", 2), "date": "2025-06-20"}]


def book(**changes: Any) -> Any:
    arguments: dict[str, Any] = {
        "user_id": GOLD.user_id,
        "origin": "BOS",
        "destination": "DEN",
        "trip_type": "one_way",
        "cabin": "economy",
        "flights": TRIP,
        "passengers": [me(GOLD)],
        "checked_bags": 3,
        "travel_protection": True,
        "payment_method_id": card(GOLD),
    }
    return ENV.call("book_reservation", {**arguments, **changes})


def test_book_reservation() -> None:
    key = day_key(TRIP[0]["flight_number"], TRIP[0]["date"])
    seats, fares = DB.flight_days[key].seats, DB.flight_days[key].prices
    assert seats is not None and fares is not None
    result = book()
    assert result["total_charged"] == fares.economy + 40 + 30  # gold economy: 2 free bags
    code = result["reservation_code"]
    assert code in ENV.state.table("users")[GOLD.user_id].reservations
    assert ENV.state.table("flight_days")[key].seats.economy == seats.economy - 1
    ENV.reset()
    assert book()["reservation_code"] == code, "booking codes are deterministic"


def test_book_with_certificate_then_gift_card() -> None:
    basic = sellable("BOS", "DEN", "2025-06-20", "basic")
    result = book(
        certificate_id=CERT.id,
        payment_method_id=GIFT.id,
        checked_bags=0,
        travel_protection=False,
        cabin="basic",
        flights=[{"flight_number": basic, "date": "2025-06-20"}],
    )
    applied = min(CERT.balance or 0, result["total_charged"])
    balances = {m.id: m.balance for m in ENV.state.table("users")[GOLD.user_id].payment_methods}
    assert balances[CERT.id] == (CERT.balance or 0) - applied
    assert balances[GIFT.id] == (GIFT.balance or 0) - (result["total_charged"] - applied)
    assert result["payments"][0] == {
        "payment_method_id": CERT.id,
        "amount": applied,
        "purpose": "booking",
    }


def test_records_keep_money_and_the_agent_reads_whole_dollars() -> None:
    result = book(certificate_id=CERT.id)
    stored = ENV.state.table("reservations")[result["reservation_code"]]
    assert stored.payments and all(isinstance(p.amount, Decimal) for p in stored.payments)
    assert result["payments"] == [
        {"payment_method_id": p.payment_method_id, "amount": int(p.amount), "purpose": p.purpose}
        for p in stored.payments
    ]
    assert isinstance(result["total_charged"], int)
    text = to_text(result)
    assert '"amount": "' not in text and '"price_per_passenger": "' not in text
    # A record as the tools show it is its JSON form with every amount a whole number.
    user = ENV.state.table("users")[GOLD.user_id]
    as_json = json.loads(user.model_dump_json())
    for method in as_json["payment_methods"]:
        if method["balance"] is not None:
            method["balance"] = int(Decimal(method["balance"]))
    assert shown(user) == as_json
    assert act("get_user_details", user_id=GOLD.user_id) == as_json


def test_dollars_refuses_a_fraction_of_a_dollar() -> None:
    assert dollars(Decimal("245.00")) == 245
    assert dollars(Decimal("-40")) == -40
    with pytest.raises(ValueError, match="not a whole number of dollars"):
        dollars(Decimal("245.50"))


@pytest.mark.parametrize(
    ("match", "changes"),
    [
        ("1 to 5 passengers", {"passengers": [me(GOLD)] * 6}),
        ("1 to 5 passengers", {"passengers": []}),
        ("past date of birth", {"passengers": [{**me(GOLD), "date_of_birth": "2030-01-01"}]}),
        ("first and last name", {"passengers": [{**me(GOLD), "last_name": " "}]}),
        ("must go from ATL to DEN", {"origin": "ATL"}),
        ("arrives at ATL", {"destination": "ATL"}),
        ("one-way trip cannot", {"flights": TRIP * 2}),
        ("return trip has no flights", {"trip_type": "round_trip"}),
        ("cannot be booked", {"flights": [{**TRIP[0], "date": "2025-06-02"}]}),
        ("0 to 4 per passenger", {"checked_bags": 5}),
        ("certificates can only be applied", {"payment_method_id": CERT.id}),
        ("no payment method", {"payment_method_id": "card-none"}),
        ("not a valid, unexpired", {"certificate_id": card(GOLD)}),
        (
            "gift card",
            {"payment_method_id": GIFT.id, "cabin": "business", "passengers": [me(GOLD)] * 2},
        ),
        ("no user", {"user_id": "nobody"}),
        ("invalid arguments", {"cabin": "first"}),
    ],
)
def test_book_refusals(match: str, changes: dict[str, Any]) -> None:
    with pytest.raises(ToolError, match=match):
        book(**changes)
    assert ENV.state.changes() == {}


def test_book_refuses_full_cabins_and_missed_connections() -> None:
    number = next(
        k.split("/")[0]
        for k, f in DB.flight_days.items()
        if k.endswith("2025-06-20") and f.seats is not None and f.seats.business == 0
    )
    f = DB.flights[number]
    with pytest.raises(ToolError, match="business seats left"):
        book(
            origin=f.origin,
            destination=f.destination,
            cabin="business",
            flights=[{"flight_number": number, "date": "2025-06-20"}],
        )
    legs = [
        {"flight_number": sellable("SAN", "DFW", "2025-06-18", "economy"), "date": "2025-06-18"},
        {"flight_number": sellable("DFW", "BNA", "2025-06-25", "economy"), "date": "2025-06-25"},
    ]
    with pytest.raises(ToolError, match="does not connect"):
        book(origin="SAN", destination="BNA", flights=legs)


# -- cancellation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "basis", "withheld"),
    [
        ({"recent": True, "cabin": "basic"}, "within_24_hours", 0),
        ({"recent": False, "cabin": "basic", "protection": True}, "travel_protection", 30),
        ({"recent": False, "cabin": "economy", "protection": False}, "fee", 100),
        ({"recent": False, "cabin": "premium", "protection": False}, "fee", 75),
        ({"recent": False, "cabin": "business", "protection": False}, "fee", 0),
        # Against the policy (airline.basic_fare_no_cancellation), but carried out: no fee.
        ({"recent": False, "cabin": "basic", "protection": False}, "basic_fare_no_fee", 0),
    ],
)
def test_cancel_refund_cases(situation: dict[str, Any], basis: str, withheld: int) -> None:
    r = res(upcoming=True, **situation)
    result = act("cancel_reservation", r)
    assert result["cancellation_basis"] == basis
    assert result["total_refund"] == paid(r) - withheld * len(r.passengers)
    stored = ENV.state.table("reservations")[r.code]
    assert stored.status == "cancelled" and paid(stored) == withheld * len(r.passengers)


def test_cancel_after_airline_cancellation_refunds_everything() -> None:
    r = res(lambda r: cancelled_flight(r) and not flown(r), cabin="basic", protection=False)
    result = act("cancel_reservation", r)
    assert (result["cancellation_basis"], result["total_refund"]) == (
        "airline_cancellation",
        paid(r),
    )


def test_cancel_refunds_gift_cards_and_releases_seats() -> None:
    r = res(
        lambda r: r.payments[0].payment_method_id.startswith("gift"),
        upcoming=True,
        cabin="business",
        protection=False,
    )
    gift = r.payments[0].payment_method_id
    balance = next(m.balance or 0 for m in DB.users[r.user_id].payment_methods if m.id == gift)
    seats = _seats(r.segments[0], "business")
    act("cancel_reservation", r)
    after = {m.id: m.balance for m in ENV.state.table("users")[r.user_id].payment_methods}
    assert after[gift] == balance + paid(r)
    key = day_key(r.segments[0].flight_number, r.segments[0].date)
    assert ENV.state.table("flight_days")[key].seats.business == seats + len(r.passengers)


def test_basic_fare_cancellation_is_the_agents_to_refuse() -> None:
    economy = res(upcoming=True, recent=False, cabin="economy", protection=False)
    allows("basic_fare_no_cancellation", "cancel_reservation", economy)
    protected = res(upcoming=True, recent=False, cabin="basic", protection=True)
    allows("basic_fare_no_cancellation", "cancel_reservation", protected)
    basic = res(upcoming=True, recent=False, cabin="basic", protection=False)
    breaks("basic_fare_no_cancellation", "cancel_reservation", basic)
    # Carried out, a basic fare has no fee to withhold: the breach refunds everything, and its
    # basis says so rather than report a fee of nothing.
    stored = ENV.state.table("reservations")[basic.code]
    assert stored.cancellation_basis == "basic_fare_no_fee" and paid(stored) == 0


def test_cancel_description_leaves_basic_fares_to_the_policy() -> None:
    """The agent reads that the policy decides, not that the tool refuses a basic fare."""
    description = ENV.tools.specs["cancel_reservation"].description
    assert "cannot be cancelled" not in description
    assert "does not judge" in description and "the policy does" in description


def test_cancel_refusals() -> None:
    refuse(
        "already departed", "cancel_reservation", res(lambda r: r.status == "active" and flown(r))
    )
    refuse("already cancelled", "cancel_reservation", res(lambda r: r.status == "cancelled"))
    other = res(lambda r: r.user_id != USER.user_id)
    refuse(
        "does not belong", "cancel_reservation", user_id=USER.user_id, reservation_code=other.code
    )


# -- changes ------------------------------------------------------------------------------


def movable(cabin: Cabin, cheaper: bool | None = None) -> Reservation:
    def fits(r: Reservation) -> bool:
        if r.segments[0].date >= "2025-06-27":
            return False
        try:
            new = next_day(r)[0]
        except LookupError:
            return False
        fare = DB.flight_days[day_key(new["flight_number"], new["date"])].prices
        return cheaper is None or (
            fare is not None and (fare.of(cabin) > r.segments[0].price) != cheaper
        )

    return res(fits, upcoming=True, cabin=cabin, one_leg=True)


def test_change_flights_charges_or_refunds_the_difference() -> None:
    for cheaper in (False, True):
        r = movable("economy", cheaper)
        new = next_day(r)
        fares = DB.flight_days[day_key(new[0]["flight_number"], new[0]["date"])].prices
        assert fares is not None
        difference = (fares.economy - r.segments[0].price) * len(r.passengers)
        result = act("change_flights", r, flights=new, payment_method_id=card(r))
        assert result["fare_difference"] == difference and (difference < 0) == cheaper
        assert result["total_paid"] == paid(r) + difference
        assert [f["flight_number"] for f in result["flights"]] == [new[0]["flight_number"]]


def test_basic_fare_flight_change_is_the_agents_to_refuse() -> None:
    basic = movable("basic")
    pay = {"payment_method_id": card(basic)}
    breaks("basic_fare_no_flight_change", "change_flights", basic, flights=next_day(basic), **pay)
    r = movable("economy")
    allows(
        "basic_fare_no_flight_change",
        "change_flights",
        r,
        flights=next_day(r),
        payment_method_id=card(r),
    )


def test_change_flights_refusals() -> None:
    r = movable("economy", cheaper=False)
    same = [{"flight_number": r.segments[0].flight_number, "date": r.segments[0].date}]
    refuse("already has", "change_flights", r, flights=same)
    refuse("payment method is needed", "change_flights", r, flights=next_day(r))
    back = sellable(r.destination, r.origin, "2025-06-27", r.cabin)
    refuse(
        "arrives at", "change_flights", r, flights=[{"flight_number": back, "date": "2025-06-27"}]
    )
    gone = res(lambda r: r.status == "active" and flown(r), cabin="economy")
    refuse("already departed", "change_flights", gone, flights=same)


def test_basic_fare_rebooks_off_an_airline_cancellation_for_free() -> None:
    def fits(r: Reservation) -> bool:
        return (
            len(r.segments) == 2
            and _day(r.segments[1]).status == "cancelled"
            and _day(r.segments[0]).status == "scheduled"
        )

    r = res(fits, cabin="basic")
    day = (date.fromisoformat(r.segments[1].date) + timedelta(days=1)).isoformat()
    flights = [
        {"flight_number": r.segments[0].flight_number, "date": r.segments[0].date},
        {"flight_number": sellable(r.destination, r.origin, day, "basic"), "date": day},
    ]
    result = act("change_flights", r, flights=flights)
    assert result["fare_difference"] == 0 and result["total_paid"] == paid(r)
    ENV.reset()
    out = (date.fromisoformat(r.segments[0].date) + timedelta(days=1)).isoformat()
    keep_cancelled = [
        {"flight_number": sellable(r.origin, r.destination, out, "basic"), "date": out},
        {"flight_number": r.segments[1].flight_number, "date": r.segments[1].date},
    ]
    refuse("replace it with a flight that operates", "change_flights", r, flights=keep_cancelled)


def test_change_cabin() -> None:
    def has_economy(r: Reservation) -> bool:
        return all(_seats(s, "economy") >= len(r.passengers) for s in r.segments)

    r = res(has_economy, upcoming=True, cabin="business", protection=False)
    result = act("change_cabin", r, cabin="economy")
    assert result["price_difference"] < 0 and result["cabin"] == "economy"
    assert result["total_paid"] == paid(r) + result["price_difference"]
    refuse("cannot move to basic", "change_cabin", r, cabin="basic")
    refuse("already in economy", "change_cabin", r, cabin="economy")
    full = res(
        lambda r: not all(_seats(s, "business") >= len(r.passengers) for s in r.segments),
        upcoming=True,
        cabin="economy",
    )
    refuse(
        "business seats left", "change_cabin", full, cabin="business", payment_method_id=card(full)
    )
    hit = res(lambda r: cancelled_flight(r) and not flown(r), cabin="economy")
    refuse("rebook that first", "change_cabin", hit, cabin="business", payment_method_id=card(hit))


def test_update_baggage() -> None:
    r = res(
        lambda r: len(r.passengers) == 1 and r.checked_bags == 0,
        upcoming=True,
        cabin="economy",
        tier="member",
    )
    result = act("update_baggage", r, checked_bags=1)
    assert (result["bag_fee"], result["paid_bags"]) == (0, 0)
    refuse("payment method is needed", "update_baggage", r, checked_bags=3)
    result = act("update_baggage", r, checked_bags=3, payment_method_id=card(r))
    assert (result["bag_fee"], result["paid_bags"]) == (80, 2)
    refuse("at most 4", "update_baggage", r, checked_bags=5, payment_method_id=card(r))
    allows("bags_added_only", "update_baggage", r, checked_bags=4, payment_method_id=card(r))
    breaks("bags_added_only", "update_baggage", r, checked_bags=2)
    assert ENV.state.table("reservations")[r.code].paid_bags == 2, "removing bags refunds none"


def test_update_passengers() -> None:
    r = res(lambda r: len(r.passengers) == 2, upcoming=True, cabin="economy")
    other = {"first_name": "Odette", "last_name": "Lachance", "date_of_birth": "1990-01-02"}
    new = [r.passengers[0].model_dump(), other]
    assert act("update_passengers", r, passengers=new)["passengers"] == new
    refuse("already has", "update_passengers", r, passengers=new)
    refuse("cannot change", "update_passengers", r, passengers=new[:1])
    b = res(upcoming=True, cabin="basic")
    travellers = [*(p.model_dump() for p in b.passengers[:-1]), other]
    breaks("basic_fare_no_passenger_change", "update_passengers", b, passengers=travellers)
    allows(
        "basic_fare_no_passenger_change",
        "update_passengers",
        r,
        passengers=[r.passengers[0].model_dump(), r.passengers[0].model_dump()],
    )


# -- compensation and transfer ------------------------------------------------------------


def disrupted(tier: str, kind: str) -> tuple[Reservation, Segment]:
    def hit(s: Segment) -> bool:
        d = _day(s)
        return d.status == "cancelled" if kind == "cancelled" else d.delay_minutes >= 180

    r = res(lambda r: r.status == "active" and any(map(hit, r.segments)), tier=tier)
    return r, next(s for s in r.segments if hit(s))


def flight_of(s: Segment) -> dict[str, str]:
    return {"flight_number": s.flight_number, "date": s.date}


@pytest.mark.parametrize(
    ("tier", "kind", "per_passenger"),
    [
        ("member", "cancelled", 50),
        ("silver", "cancelled", 100),
        ("gold", "delayed", 75),
        ("platinum", "delayed", 100),
    ],
)
def test_compensation(tier: str, kind: str, per_passenger: int) -> None:
    r, s = disrupted(tier, kind)
    result = act("issue_compensation_certificate", r, **flight_of(s))
    assert result["amount"] == per_passenger * len(r.passengers) and result["reason"] == kind
    methods = ENV.state.table("users")[r.user_id].payment_methods
    assert methods[-1].id == result["certificate"]["id"] and methods[-1].balance == result["amount"]
    refuse("already issued", "issue_compensation_certificate", r, **flight_of(s))


def test_compensation_eligibility_is_the_agents_to_judge() -> None:
    rule, tool = "compensation_eligibility", "issue_compensation_certificate"
    r, s = disrupted("gold", "delayed")
    allows(rule, tool, r, **flight_of(s))
    r, s = disrupted("member", "delayed")
    breaks(rule, tool, r, **flight_of(s))
    on_time = res(
        lambda r: (
            _day(r.segments[0]).status == "scheduled" and not _day(r.segments[0]).delay_minutes
        ),
        upcoming=True,
        recent=False,
        cabin="economy",
    )
    breaks(rule, tool, on_time, **flight_of(on_time.segments[0]))
    done = res(lambda r: r.status == "cancelled" and r.cancellation_basis != "airline_cancellation")
    breaks(rule, tool, done, **flight_of(done.segments[0]))


def test_compensation_refusals() -> None:
    r = res(upcoming=True, recent=False, cabin="economy")
    other = res(lambda o: o.code != r.code, upcoming=True).segments[0]
    refuse("not part of", "issue_compensation_certificate", r, **flight_of(other))


def test_transfer_records_a_hand_off_whatever_its_wording() -> None:
    assert "TR-0001" in act("transfer_to_human_agents", summary="wants a human")
    assert "TR-0002" in act("transfer_to_human_agents", summary="again")
    ENV.reset()
    act("transfer_to_human_agents", summary="any wording")
    one = ENV.hash()
    ENV.reset()
    act("transfer_to_human_agents", summary="different wording")
    assert ENV.hash() == one, "the summary must not change the graded state"


# -- policy checks ------------------------------------------------------------------------


A, B = "amara_a_1", "bruno_b_2"
CANCEL_A = {"user_id": A, "reservation_code": "AAAAAA"}
COMPENSATE_A = {**CANCEL_A, "flight_number": "LK1", "date": "2025-06-10"}


def signed_in(user_id: str = A) -> Conversation:
    return (
        Conversation(ENV)
        .user("hi")
        .call("find_user_by_email", {"user_id": user_id}, email="a@x.com")
    )


def test_clean_conversation_passes_every_check() -> None:
    talk = (
        signed_in()
        .call("get_reservation_details", {"user_id": A}, reservation_code="AAAAAA")
        .confirm()
        .call("cancel_reservation", **CANCEL_A)
        .confirm()
        .call("issue_compensation_certificate", **COMPENSATE_A)
        .call("transfer_to_human_agents", "ok", summary="x")
    )
    assert talk.rules() == set()


VIOLATIONS: list[tuple[str, Conversation]] = [
    ("authenticate_first", Conversation(ENV).call("get_user_details", {"user_id": A}, user_id=A)),
    (
        "authenticate_first",
        Conversation(ENV).confirm().call("update_baggage", **CANCEL_A, checked_bags=2),
    ),
    ("confirm_before_write", signed_in().call("cancel_reservation", **CANCEL_A)),
    (
        "confirm_before_write",
        signed_in().agent("Cancel?").user("No, wait.").call("cancel_reservation", **CANCEL_A),
    ),
    (
        "one_customer",
        signed_in()
        .confirm()
        .call("cancel_reservation", **CANCEL_A)
        .confirm()
        .call("cancel_reservation", user_id=B, reservation_code="B"),
    ),
    (
        "act_for_authenticated_user",
        signed_in().confirm().call("cancel_reservation", user_id=B, reservation_code="B"),
    ),
    (
        "single_identity",
        signed_in().call("find_user_by_email", {"user_id": B}, email="b@x.com"),
    ),
    (
        "own_reservations_only",
        signed_in().call("get_reservation_details", {"user_id": B}, reservation_code="B"),
    ),
    (
        "one_certificate_per_conversation",
        signed_in()
        .confirm()
        .call("issue_compensation_certificate", **COMPENSATE_A)
        .confirm()
        .call("issue_compensation_certificate", **{**COMPENSATE_A, "flight_number": "LK2"}),
    ),
    (
        "nothing_after_transfer",
        Conversation(ENV)
        .call("transfer_to_human_agents", "ok", summary="x")
        .call("list_airports", []),
    ),
]


@pytest.mark.parametrize(
    ("rule", "talk"), VIOLATIONS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(VIOLATIONS)]
)
def test_each_check_catches_its_violation(rule: str, talk: Conversation) -> None:
    assert f"airline.{rule}" in talk.rules()


def test_refused_calls_are_not_violations() -> None:
    talk = signed_in().fail("cancel_reservation", user_id=B, reservation_code="B")
    assert talk.rules() == set()
    ids = [c.rule_id for c in DOMAIN.checks]
    conversational = {c.rule_id for c in DOMAIN.checks if c.judgement is None}
    # The judgement rules are tested where their tools are (`breaks` and `allows`).
    assert len(ids) == len(set(ids)) and {f"airline.{r}" for r, _ in VIOLATIONS} == conversational


# -- the database ------------------------------------------------------------------------


def test_database_size() -> None:
    counts = DB.record_counts()
    assert counts["users"] >= 500 and counts["reservations"] >= 2000 and counts["flights"] >= 300
