"""The required-output matcher: numbers as values on token boundaries, text as whole phrases."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tau_emotion.evaluation.outputs import numbers_in, output_communicated


@pytest.mark.parametrize(
    ("output", "said", "expected"),
    [
        # the same number, however it is dressed
        ("75", "That is 75.", True),
        ("75", "That is $75 in all.", True),
        ("75", "That is 75.00.", True),
        ("75", "That is USD 75.", True),
        ("75", "That is 75 USD.", True),
        ("75", "A 75% share.", True),
        ("75", "(75)", True),
        ("75.00", "It costs $75.", True),
        ("$75", "It costs 75 dollars.", True),
        ("15.0", "Your balance is $15.00 now.", True),
        ("1,250", "It is 1250.", True),
        ("1,250", "It is $1,250.00.", True),
        ("1250.00", "It is $1,250.", True),
        ("1,250.50", "That is 1250.5 dollars.", True),
        ("-75", "Your balance is -$75.00.", True),
        ("0.00", "The fee is $0.", True),
        # digits inside a code, a zip, a larger number, a date, a time or a score
        ("75", "Your flight is LK175.", False),
        ("75", "It costs $175.", False),
        ("75", "It costs $1,275.", False),
        ("232", "The zip code is 97232.", False),
        ("75", "The score was 75-2.", False),
        ("75", "A 75-minute session.", False),
        ("26", "Due on 2025-06-26.", False),
        ("10", "Booked for 10:30.", False),
        ("6", "Due 06/26.", False),
        ("75", "Values 75,5 and 7.", False),
        ("75", "Version 1.75.", False),
        ("0.00", "The fee is $10.00.", False),
        ("75", "A refund of -75.", False),
        ("15.0", "Your balance is 16 dollars.", False),
        # leading zeros make a number an identifier: digits compared, not values
        ("0953", "the account ending 0953", True),
        ("953", "the account ending 0953", False),
        ("0953", "the account ending 953", False),
        # text: whole words or phrases, case and whitespace ignored
        ("LK175", "Your flight is LK175", True),
        ("LK175", "your flight is lk175.", True),
        ("LK175", "Flight (lk175), gate 4", True),
        ("LK175", "Your flight is LK1750.", False),
        ("LK175", "Your flight is XLK175.", False),
        ("LK175", "Your flight is LK175-2.", False),
        ("ABC123", "code abc124", False),
        ("Seat 12A", "You are in seat 12a.", True),
        ("2025-06-26", "It is due on 2025-06-26.", True),
        ("2025-06-26", "It is due on 2025-06-261.", False),
        ("B7X2Q", "Your code: b7x2q!", True),
        ("B7X2Q", "Your code: AB7X2Q", False),
        ("DSP-6039", "Dispute DSP-6039 is open.", True),
        ("DSP-6039", "Dispute DSP-60391 is open.", False),
        ("Diana Odum", "Dr.  diana\nodum's office", True),
        ("major", "a majority of it", False),
        (
            "1220 Alder St Apt 4, Boulder, CO 80302",
            "Shipping to 1220 Alder St\n Apt 4, Boulder, CO 80302.",
            True,
        ),
        ("", "anything", False),
    ],
)
def test_output_matcher_cases(output: str, said: str, expected: bool) -> None:
    assert output_communicated(output, [said]) is expected


def test_any_agent_text_may_say_it() -> None:
    assert output_communicated("75", ["Let me check.", "It is $75."])
    assert not output_communicated("75", [])


def test_numbers_in_reads_only_free_standing_numbers() -> None:
    text = "Pay $1,250.00 by 2025-06-26 (ref LK175, 10:30, score 75-2) or -3.5 now."
    assert numbers_in(text) == [Decimal("1250.00"), Decimal("-3.5")]


cents = st.integers(min_value=0, max_value=10**9)
"""An amount in cents, so that values are exact."""


def _formats(amount: Decimal) -> list[str]:
    whole = amount == amount.to_integral_value()
    forms = [f"{amount:.2f}", f"${amount:.2f}", f"${amount:,.2f}", f"USD {amount:,.2f}"]
    if whole:
        forms += [f"{int(amount)}", f"${int(amount):,}", f"{int(amount)} dollars"]
    return forms


@given(cents, st.data())
def test_an_amount_is_said_in_any_currency_format(value: int, data: st.DataObject) -> None:
    amount = Decimal(value) / 100
    said = data.draw(st.sampled_from(_formats(amount)))
    output = data.draw(st.sampled_from(_formats(amount)))
    assert output_communicated(output, [f"The total is {said}."])


@given(cents, cents)
def test_a_different_amount_is_not_said(a: int, b: int) -> None:
    if a == b:
        return
    first, second = Decimal(a) / 100, Decimal(b) / 100
    assert not output_communicated(f"{first:.2f}", [f"The total is ${second:,.2f}."])


@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(["LK", "$1", "9", "A-", "7-", "1,"]),
    st.sampled_from(["", "-2", "0", "X", ".5", ":30"]),
)
def test_a_number_glued_into_a_larger_token_is_not_said(
    value: int, prefix: str, suffix: str
) -> None:
    # every prefix makes the token another number or a code: "$1" + "75" is 175, "7-75" a score
    token = f"{prefix}{value}{suffix}"
    assert not output_communicated(str(value), [f"Ref {token} today."])


@given(st.from_regex(r"[A-Z]{1,3}[0-9]{2,6}[A-Z0-9]{0,3}", fullmatch=True), st.data())
def test_a_code_is_said_in_any_case_but_not_extended(code: str, data: st.DataObject) -> None:
    case = data.draw(st.sampled_from([str.lower, str.upper, str.title]))
    end = data.draw(st.sampled_from([".", "!", ",", ")", ""]))
    assert output_communicated(code, [f"Your code is {case(code)}{end}"])
    extra = data.draw(st.sampled_from(["0", "A", "-7", ".3"]))
    assert not output_communicated(code, [f"Your code is {code}{extra} today"])
    assert not output_communicated(code, [f"Your code is Z{code} today"])
