"""Travel domain: every tool's success and refusal paths, the policy checks, and the size and
separation of the generated databases."""

from __future__ import annotations

from typing import Any

import pytest
from domain_testing import Desk, conversation, fresh_state

from tau_emotion.domains.travel import rules

DESK = Desk("travel", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
call, refuses, patch = DESK.call_json, DESK.refuses, DESK.patch
breaks, allows = DESK.breaks, DESK.allows
fresh = fresh_state(ENV)


def test_rules_helpers() -> None:
    assert rules.edit_distance("Yusuf Ulloa", "Youssef Ulloa") == 3
    assert rules.clean_name("  greta   IBSEN ") == "Greta Ibsen"
    assert rules.clean_name("Ian McDonald") == "Ian McDonald"
    assert rules.age_on("2014-09-03", "2025-09-02") == 10
    assert rules.refund_share("saver", 59) == 0.0 and rules.refund_share("flexible", 1) == 0.5


# ---------------------------------------------------------------- identity and profile


def test_lookups_authenticate() -> None:
    email = ENV.state.table("customers")["C50013"].email
    assert call("find_customer_by_email", email=f" {email.upper()} ") == {"customer_id": "C50013"}
    phone = ENV.state.table("customers")["C50013"].phone
    assert call("find_customer_by_phone", phone=f"+1 ({phone})") == {"customer_id": "C50013"}
    found = call(
        "find_customer_by_name_and_dob", full_name="alvaro ibsen", date_of_birth="1960-10-07"
    )
    assert found == {"customer_id": "C50013"}


def test_lookup_refusals() -> None:
    refuses("no customer account has that email", "find_customer_by_email", email="a@b.c")
    refuses("10 digits", "find_customer_by_phone", phone="5-0192")
    refuses("no customer account has that phone", "find_customer_by_phone", phone="312-000-0000")
    refuses(
        "name and date of birth",
        "find_customer_by_name_and_dob",
        full_name="Alvaro Ibsen",
        date_of_birth="1960-10-08",
    )
    refuses(
        "YYYY-MM-DD",
        "find_customer_by_name_and_dob",
        full_name="Alvaro Ibsen",
        date_of_birth="07/10/1960",
    )


def test_customer_details_and_transfer() -> None:
    details = call("get_customer_details", customer_id="C50198")
    assert details["customer_id"] == "C50198"
    assert "B50380" in {b["code"] for b in details["bookings"]}
    refuses("no customer with id", "get_customer_details", customer_id="C10001")
    assert "TR0001" in call("transfer_to_human_agents", summary="group of twelve")
    refuses("summary", "transfer_to_human_agents", summary=" ")


# ---------------------------------------------------------------- catalogue


def test_catalogue() -> None:
    greek = call("search_packages", destination="greece")
    assert [p["id"] for p in greek] == ["P507", "P508"]
    assert (
        greek[0]["adults_only"]
        and greek[0]["hotel"]["room_types"][2]["supplement_per_night"] == "128.00"
    )
    assert len(call("search_packages")) == 10
    refuses("no package goes to 'Lisbon'", "search_packages", destination="Lisbon")
    departures = call("get_departures", package_id="p505")
    assert all(d["start_date"] > "2025-05-20" for d in departures)
    first = departures[0]
    assert (first["departure_id"], first["seats_left"], first["bookable"]) == ("D5044", 0, False)
    assert first["adult_price"] == {
        "saver": "2241.00",
        "standard": "2490.00",
        "flexible": "2863.50",
    }
    refuses("no package with id", "get_departures", package_id="P101")
    assert [t["id"] for t in call("list_tours", destination="cape town")] == [
        "T507",
        "T508",
        "T509",
    ]
    refuses("no tours", "list_tours", destination="Atlantis")


# ---------------------------------------------------------------- bookings


def test_get_booking() -> None:
    saver = call("get_booking", booking_code="b50209")
    assert (saver["date_change_fee_per_traveller"], saver["refund_if_cancelled_now"]) == (
        "not allowed",
        "110.00",
    )
    insured = call("get_booking", booking_code="B50380")
    assert insured["insurance"]["plan"] == "premium"
    cancelled = call("get_booking", booking_code="B50143")
    assert cancelled["status"] == "cancelled" and "package_amount_not_refunded" in cancelled
    assert "refund_if_cancelled_now" not in call("get_booking", booking_code="B50282")
    refuses("no booking", "get_booking", booking_code="B10001")


PAIR = [
    {"full_name": "Alvaro Ibsen", "date_of_birth": "1960-10-07"},
    {"full_name": "greta ibsen", "date_of_birth": "1962-03-18"},
]
TRIP = {
    "customer_id": "C50013",
    "fare": "standard",
    "room_type": "superior_double",
    "payment_method_id": "PM500037",
}


def test_book_trip() -> None:
    booked = call("book_trip", departure_id="D5058", travellers=list(reversed(PAIR)), **TRIP)
    assert (booked["code"], booked["package_price"], booked["rooms"]) == ("B50642", "4160.00", 1)
    assert [t["full_name"] for t in booked["travellers"]] == ["Alvaro Ibsen", "Greta Ibsen"]
    family = call(
        "book_trip",
        customer_id="C50027",
        departure_id="D5057",
        fare="flexible",
        room_type="classic_double",
        payment_method_id="PM500079",
        travellers=[
            {"full_name": "Bruno Ibsen", "date_of_birth": "1958-09-24"},
            {"full_name": "Milo Ibsen", "date_of_birth": "2014-09-03"},
            {"full_name": "Dalia Ibsen", "date_of_birth": "1961-02-02"},
        ],
    )
    # Three people need two doubles; the grandson pays 75% of the flexible price.
    assert family["rooms"] == 2 and family["travellers"][2]["price"] == "2070.00"
    assert family["code"] == "B50643"


def test_booking_window_is_the_agents_to_judge() -> None:
    rule = "travel.booking_window"
    allows(rule, "book_trip", departure_id="D5058", travellers=PAIR, **TRIP)
    patch("departures", "D5112", start_date="2026-06-01", end_date="2026-06-06")
    breaks(rule, "book_trip", departure_id="D5112", travellers=PAIR, **TRIP)
    # No departure 1 to 6 days away has seats left; D5058 is moved to 4 days away.
    patch("departures", "D5058", start_date="2025-05-24", end_date="2025-05-29")
    breaks(rule, "book_trip", departure_id="D5058", travellers=PAIR, **TRIP)
    patch("departures", "D5058", start_date="2025-05-20")
    refuses("already departed", "book_trip", departure_id="D5058", travellers=PAIR, **TRIP)


def test_book_trip_refusals() -> None:
    refuses("no departure", "book_trip", departure_id="D1054", travellers=PAIR, **TRIP)
    refuses("1 to 9 travellers", "book_trip", departure_id="D5058", travellers=[], **TRIP)
    ten = [{"full_name": f"Person {chr(65 + i)}", "date_of_birth": "1980-01-01"} for i in range(10)]
    refuses("groups desk", "book_trip", departure_id="D5058", travellers=ten, **TRIP)
    refuses(
        "listed twice", "book_trip", departure_id="D5058", travellers=[PAIR[0], PAIR[0]], **TRIP
    )
    bad = [{"full_name": "Al Ibsen", "date_of_birth": "1960/10/07"}]
    refuses("must be YYYY-MM-DD", "book_trip", departure_id="D5058", travellers=bad, **TRIP)
    unborn = [{"full_name": "Baby Ibsen", "date_of_birth": "2025-09-01"}]
    refuses("not born", "book_trip", departure_id="D5058", travellers=unborn, **TRIP)
    teen = [*PAIR, {"full_name": "Milo Ibsen", "date_of_birth": "2010-01-01"}]
    refuses("adults only", "book_trip", departure_id="D5056", travellers=teen, **TRIP)
    refuses("0 seats left", "book_trip", departure_id="D5063", travellers=PAIR, **TRIP)
    refuses(
        "no room type 'penthouse'",
        "book_trip",
        departure_id="D5058",
        travellers=PAIR,
        **{**TRIP, "room_type": "penthouse"},
    )
    refuses(
        "not on this customer's profile",
        "book_trip",
        departure_id="D5058",
        travellers=PAIR,
        **{**TRIP, "payment_method_id": "PM500001"},
    )
    refuses(
        "travel credit has 100.00 left",
        "book_trip",
        departure_id="D5058",
        travellers=PAIR,
        **{**TRIP, "customer_id": "C50021", "payment_method_id": "PM500063"},
    )


def test_book_trip_stores_birth_dates_as_yyyy_mm_dd() -> None:
    """The same birthday typed in another ISO form books the same state as YYYY-MM-DD."""
    call("book_trip", departure_id="D5058", travellers=PAIR, **TRIP)
    canonical = ENV.hash()
    ENV.reset()
    other_forms = [
        {**PAIR[0], "date_of_birth": "19601007"},
        {**PAIR[1], "date_of_birth": " 1962-W11-7 "},
    ]
    booked = call("book_trip", departure_id="D5058", travellers=other_forms, **TRIP)
    assert [t["date_of_birth"] for t in booked["travellers"]] == ["1960-10-07", "1962-03-18"]
    assert ENV.hash() == canonical


def test_book_trip_refuses_blank_names_and_unborn_travellers() -> None:
    blank = [PAIR[0], {**PAIR[1], "full_name": "   "}]
    refuses("full name", "book_trip", departure_id="D5058", travellers=blank, **TRIP)
    # Born after today (2025-05-20) but before the departure: still no one to book.
    unborn = [PAIR[0], {"full_name": "Baby Ibsen", "date_of_birth": "2025-05-23"}]
    refuses("after today", "book_trip", departure_id="D5058", travellers=unborn, **TRIP)
    refuses(
        "full name",
        "correct_traveller_name",
        booking_code="B50549",
        traveller_id="B50549-2",
        full_name="   ",
    )


def test_change_departure() -> None:
    moved = call("change_departure", booking_code="B50262", new_departure_id="D5082")
    assert (moved["change_fee"], moved["refunded"], moved["charged"]) == (
        "150.00",
        "350.00",
        "0.00",
    )
    assert moved["fees"] == "150.00" and moved["amount_refunded"] == "350.00"
    flexible = call("change_departure", booking_code="B50464", new_departure_id="D5083")
    # Flexible: no fee; cheaper October prices and the dropped tour come back.
    assert flexible["change_fee"] == "0.00" and flexible["tours"] == []
    assert flexible["refunded"] == "1500.12"


def test_change_rules_are_the_agents_to_judge() -> None:
    window, saver = "travel.change_window", "travel.saver_no_date_change"
    allows(window, "change_departure", booking_code="B50262", new_departure_id="D5082")
    allows(saver, "change_departure", booking_code="B50262", new_departure_id="D5082")
    allows(window, "change_room_type", booking_code="B50549", room_type="classic_double")
    breaks(window, "change_room_type", booking_code="B50115", room_type="single")
    breaks(window, "change_departure", booking_code="B50115", new_departure_id="D5073")
    breaks(saver, "change_departure", booking_code="B50209", new_departure_id="D5065")
    # Carried out, a saver fare has no change fee to charge.
    assert DESK.row("bookings", "B50209").fees == 0
    allows(
        "travel.booking_window", "change_departure", booking_code="B50262", new_departure_id="D5082"
    )


def test_change_departure_refusals() -> None:
    refuses("is completed", "change_departure", booking_code="B50282", new_departure_id="D5060")
    refuses(
        "different departure of the same package",
        "change_departure",
        booking_code="B50262",
        new_departure_id="D5050",
    )
    refuses(
        "different departure of the same package",
        "change_departure",
        booking_code="B50262",
        new_departure_id="D5065",
    )
    refuses("0 seats left", "change_departure", booking_code="B50221", new_departure_id="D5063")
    patch("departures", "D5082", start_date="2025-05-20", end_date="2025-05-27")
    refuses(
        "D5082 has already departed",
        "change_departure",
        booking_code="B50262",
        new_departure_id="D5082",
    )
    patch("departures", "D5082", start_date="2025-05-24", end_date="2025-05-31")
    breaks(
        "travel.booking_window", "change_departure", booking_code="B50262", new_departure_id="D5082"
    )


def test_change_room_type() -> None:
    down = call("change_room_type", booking_code="B50549", room_type="classic_double")
    assert (down["refunded"], down["package_price"]) == ("240.00", "3420.00")
    up = call("change_room_type", booking_code="B50604", room_type="family_suite")
    # Four travellers: two classic doubles become one family suite at 85.00 a night for 6 nights.
    assert (up["rooms"], up["charged"]) == (1, "510.00")
    refuses(
        "already has classic_double",
        "change_room_type",
        booking_code="B50549",
        room_type="classic_double",
    )
    refuses("no room type", "change_room_type", booking_code="B50549", room_type="loft")


def test_correct_traveller_name() -> None:
    fixed = call(
        "correct_traveller_name",
        booking_code="B50549",
        traveller_id="B50549-2",
        full_name="youssef ulloa",
    )
    assert fixed["travellers"][1]["full_name"] == "Youssef Ulloa"
    refuses(
        "no traveller",
        "correct_traveller_name",
        booking_code="B50549",
        traveller_id="B50549-9",
        full_name="X Y",
    )
    refuses(
        "same as the current",
        "correct_traveller_name",
        booking_code="B50549",
        traveller_id="B50549-1",
        full_name="Oren Stavros",
    )
    rule = "travel.name_correction_only"
    allows(
        rule,
        "correct_traveller_name",
        booking_code="B50549",
        traveller_id="B50549-1",
        full_name="Oren Stavross",
    )
    breaks(
        rule,
        "correct_traveller_name",
        booking_code="B50535",
        traveller_id="B50535-2",
        full_name="Talia Greaves",
    )
    refuses(
        "only before departure",
        "correct_traveller_name",
        booking_code="B50342",
        traveller_id="B50342-1",
        full_name="Anton Abramovv",
    )


def test_cancel_booking() -> None:
    standard = call("cancel_booking", booking_code="B50291", reason="work")
    assert (standard["refund"], standard["status"]) == ("3384.00", "cancelled")
    flexible = call("cancel_booking", booking_code="B50380", reason="illness")
    assert (flexible["refund"], flexible["package_amount_not_refunded"]) == ("1351.75", "1201.75")
    saver = call("cancel_booking", booking_code="B50209", reason="other")
    assert saver["refund"] == "110.00"  # only the tour comes back
    refuses("is cancelled", "cancel_booking", booking_code="B50291", reason="work")
    refuses("already departed", "cancel_booking", booking_code="B50342", reason="illness")


# ---------------------------------------------------------------- tours, insurance, claims


def test_add_tour() -> None:
    added = call(
        "add_tour",
        booking_code="B50604",
        tour_id="t501",
        date="2025-07-07",
        traveller_ids=["B50604-4", "B50604-1", "B50604-2", "B50604-3"],
    )
    assert added["charged"] == "180.00" and added["amount_paid"] == "7020.00"
    assert added["tours"][0]["traveller_ids"] == ["B50604-1", "B50604-2", "B50604-3", "B50604-4"]


def test_add_tour_refusals() -> None:
    base = {"booking_code": "B50464", "traveller_ids": ["B50464-1"]}
    refuses("no tour", "add_tour", tour_id="T999", date="2025-07-08", **base)
    refuses("is in Dubrovnik, not Cape Town", "add_tour", tour_id="T501", date="2025-07-08", **base)
    refuses("YYYY-MM-DD", "add_tour", tour_id="T508", date="8 July", **base)
    refuses("from 2025-07-06 to 2025-07-11", "add_tour", tour_id="T508", date="2025-07-05", **base)
    refuses("not monday", "add_tour", tour_id="T508", date="2025-07-07", **base)
    refuses(
        "name each joining traveller once",
        "add_tour",
        booking_code="B50464",
        tour_id="T508",
        date="2025-07-08",
        traveller_ids=[],
    )
    refuses(
        "no traveller",
        "add_tour",
        booking_code="B50464",
        tour_id="T508",
        date="2025-07-08",
        traveller_ids=["B50464-7"],
    )
    refuses(
        "under the minimum age of 18",
        "add_tour",
        booking_code="B50464",
        tour_id="T508",
        date="2025-07-08",
        traveller_ids=["B50464-2"],
    )
    refuses(
        "already booked on this tour",
        "add_tour",
        booking_code="B50464",
        tour_id="T509",
        date="2025-07-11",
        traveller_ids=["B50464-1"],
    )
    tomorrow = {"booking_code": "B50342", "tour_id": "T509", "traveller_ids": ["B50342-1"]}
    allows("travel.tour_booking_lead", "add_tour", tour_id="T508", date="2025-07-08", **base)
    breaks("travel.tour_booking_lead", "add_tour", date="2025-05-21", **tomorrow)
    ENV.reset()
    refuses("2025-05-19 has passed", "add_tour", date="2025-05-19", **tomorrow)
    patch("tours", "T508", capacity=1)
    refuses(
        "has 0 places left",
        "add_tour",
        booking_code="B50464",
        tour_id="T508",
        date="2025-07-08",
        traveller_ids=["B50464-1", "B50464-3"],
    )


def test_buy_insurance() -> None:
    allows("travel.insurance_window", "buy_insurance", booking_code="B50605", plan="premium")
    policy = call("buy_insurance", booking_code="B50605", plan="premium")
    assert (policy["id"], policy["premium"], policy["customer_id"]) == (
        "IP50224",
        "400.40",
        "C50080",
    )
    refuses("already insured", "buy_insurance", booking_code="B50605", plan="basic")
    rule = "travel.insurance_window"
    breaks(rule, "buy_insurance", booking_code="B50133", plan="basic")
    refuses("is completed", "buy_insurance", booking_code="B50282", plan="basic")


def test_file_insurance_claim() -> None:
    basic = call(
        "file_insurance_claim",
        booking_code="B50282",
        claim_type="medical",
        incident_date="2025-05-13",
        amount=850,
    )
    assert (basic["id"], basic["payout"], basic["status"]) == ("CL5051", "750.00", "submitted")
    capped = call(
        "file_insurance_claim",
        booking_code="B50487",
        claim_type="baggage",
        incident_date="2025-05-12",
        amount=3100,
    )
    assert capped["payout"] == "2500.00"
    during = call(
        "file_insurance_claim",
        booking_code="B50342",
        claim_type="medical",
        incident_date="2025-05-19",
        amount=300,
    )
    assert during["payout"] == "200.00"


def test_trip_cancellation_claim() -> None:
    call("cancel_booking", booking_code="B50380", reason="illness")
    claim = call(
        "file_insurance_claim",
        booking_code="B50380",
        claim_type="trip_cancellation",
        incident_date="2025-05-20",
        amount=5000,
    )
    assert claim["payout"] == "1201.75"  # capped at the package money lost


def test_file_insurance_claim_refusals() -> None:
    refuses(
        "no travel insurance",
        "file_insurance_claim",
        booking_code="B50262",
        claim_type="medical",
        incident_date="2025-05-13",
        amount=100,
    )
    refuses(
        "does not cover trip_delay",
        "file_insurance_claim",
        booking_code="B50282",
        claim_type="trip_delay",
        incident_date="2025-05-13",
        amount=100,
    )
    refuses(
        "must be positive",
        "file_insurance_claim",
        booking_code="B50282",
        claim_type="medical",
        incident_date="2025-05-13",
        amount=0,
    )
    refuses(
        "within the trip",
        "file_insurance_claim",
        booking_code="B50282",
        claim_type="medical",
        incident_date="2025-05-20",
        amount=500,
    )
    refuses(
        "in the future",
        "file_insurance_claim",
        booking_code="B50342",
        claim_type="medical",
        incident_date="2025-05-25",
        amount=500,
    )
    refuses(
        "100.00 deductible",
        "file_insurance_claim",
        booking_code="B50282",
        claim_type="medical",
        incident_date="2025-05-13",
        amount=80,
    )
    refuses(
        "only to a booking cancelled for illness",
        "file_insurance_claim",
        booking_code="B50487",
        claim_type="trip_cancellation",
        incident_date="2025-05-20",
        amount=500,
    )
    refuses(
        "only to a booking cancelled for illness",
        "file_insurance_claim",
        booking_code="B50419",
        claim_type="trip_cancellation",
        incident_date="2025-04-04",
        amount=500,
    )
    refuses(
        "the trip did not take place",
        "file_insurance_claim",
        booking_code="B50143",
        claim_type="medical",
        incident_date="2025-01-27",
        amount=500,
    )
    call("cancel_booking", booking_code="B50380", reason="illness")
    refuses(
        "incident date is the cancellation date",
        "file_insurance_claim",
        booking_code="B50380",
        claim_type="trip_cancellation",
        incident_date="2025-05-19",
        amount=500,
    )


def test_claim_eligibility_is_the_agents_to_judge() -> None:
    rule, tool = "travel.claim_eligibility", "file_insurance_claim"
    medical = {"claim_type": "medical", "amount": 850}
    allows(rule, tool, booking_code="B50282", incident_date="2025-05-13", **medical)
    breaks(rule, tool, booking_code="B50017", incident_date="2025-03-03", **medical)
    again = {"claim_type": "trip_cancellation", "incident_date": "2025-05-03", "amount": 500}
    breaks(rule, tool, booking_code="B50275", **again)


# ---------------------------------------------------------------- policy checks


def violated(*steps: tuple[Any, ...]) -> set[str]:
    """Rules broken by these steps, run on a fresh eval state."""
    return conversation(ENV, *steps).rules()


AUTH = (
    "call",
    "find_customer_by_name_and_dob",
    {"full_name": "Joaquin Jankowski", "date_of_birth": "1996-03-30"},
)
READ = ("call", "get_booking", {"booking_code": "B50291"})
ASK = ("agent", "I will cancel B50291 and refund 3384.00. Shall I go ahead?")
YES = ("user", "Yes please.")
CANCEL = ("call", "cancel_booking", {"booking_code": "B50291", "reason": "work"})


def test_clean_trajectory_passes_every_check() -> None:
    assert violated(("user", "cancel my trip"), AUTH, READ, ASK, YES, CANCEL) == set()


def test_check_confirmation() -> None:
    assert "travel.confirm_before_write" in violated(AUTH, READ, CANCEL)
    no = ("user", "No, hold on.")
    assert "travel.confirm_before_write" in violated(AUTH, READ, ASK, no, CANCEL)


def test_check_authentication() -> None:
    assert "travel.authenticate_first" in violated(READ)
    assert "travel.authenticate_first" in violated(READ, AUTH, ASK, YES, CANCEL)


def test_check_one_customer_and_own_records() -> None:
    own = ("call", "get_customer_details", {"customer_id": "C50118"})
    other = ("call", "get_customer_details", {"customer_id": "C50013"})
    assert violated(AUTH, own, other) >= {"travel.one_customer"}
    foreign = ("call", "get_booking", {"booking_code": "B50262"})
    assert violated(AUTH, foreign) == {"travel.own_records_only"}


def test_check_read_before_change() -> None:
    assert violated(AUTH, ASK, YES, CANCEL) == {"travel.read_before_change"}


def test_check_quote_departure_first() -> None:
    auth = (
        "call",
        "find_customer_by_email",
        {"email": ENV.state.table("customers")["C50013"].email},
    )
    book = ("call", "book_trip", {**TRIP, "departure_id": "D5058", "travellers": PAIR})
    ask = ("agent", "I will book departure D5058 for the two of you. Shall I go ahead?")
    assert violated(auth, ask, YES, book) == {"travel.quote_departure_first"}
    quote = ("call", "get_departures", {"package_id": "P503"})
    assert violated(auth, quote, ask, YES, book) == set()


def test_check_transfer_ends_conversation() -> None:
    transfer = ("call", "transfer_to_human_agents", {"summary": "emergency"})
    assert violated(AUTH, transfer) == set()
    assert violated(AUTH, transfer, READ) == {"travel.transfer_ends_conversation"}


# ---------------------------------------------------------------- the databases


@pytest.mark.parametrize("variant", ["train", "eval"])
def test_database_size(variant: str) -> None:
    counts = DOMAIN.load_db(variant)[0].record_counts()
    assert counts["customers"] == 300 and counts["bookings"] > 600
