"""The text measures of benchmarks/task_stats.py on small hand-made inputs."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import task_stats as ts


def test_skeleton_replaces_particulars_so_only_the_wording_counts() -> None:
    a = ts.skeleton("You want to move order ORD-979754 to June 26 for $12.50, Anna Berg said.")
    b = ts.skeleton("You want to move order LK-1 to 3 July for €9, Bo said.")
    assert a == b == "You want to move order <CODE> to <DATE> for <MONEY>, <NAME> said."
    assert ts.skeleton("I'd like 2 bags on 2025-06-12 at 10:30 am.") == (
        "I'd like <NUM> bags on <DATE> at <TIME>."
    )
    assert ts.skeleton('Write "anything here" to me@x.org') == "Write <QUOTE> to <EMAIL>"
    assert ts.skeleton("Then call Dr. Ana Lee") != ts.skeleton("Then write to Dr. Ana Lee")


def test_sentences_split_on_end_marks_before_a_capital() -> None:
    assert ts.sentences("You are Bo. You want 2.5 kg! Why? ok.") == [
        "You are Bo.",
        "You want 2.5 kg!",
        "Why? ok.",
    ]


def test_reason_needs_a_motive_not_an_object() -> None:
    for text in (
        "Cancel it because I moved.",
        "Upgrade so that we sit together.",
        "Since the flight is late, rebook me.",
        "Move it, as I am ill.",
        "A room for my daughter's wedding.",
        "The bags won't fit, so you want two checked.",
        "It's the last game of the season, which is why you want seats.",
        "The old card is worn out so you'd like a new one.",
    ):
        assert ts.REASON.search(text), text
    for text in (
        "A refund for your order 12.",
        "Ask as soon as the agent does.",
        "Hi there.",
        "It was so good.",
        "Do so now.",
    ):
        assert not ts.REASON.search(text), text


def test_overlap_counts_each_text_against_its_nearest_other() -> None:
    base = "you want to cancel your order today and get a refund to the card"
    texts = [base, base + " please", "something entirely different said in other words here"]
    assert ts.overlapping(texts) == [True, True, False]
    assert ts.overlapping(["one two three four", "five six seven eight"]) == [False, False]
    assert ts.overlapping(["a b", "a b"]) == [False, False]  # no 3-grams, nothing shared
    assert ts.same_pairs(["x", "x", "x", "y"]) == 3


def test_appears_matches_values_on_token_boundaries() -> None:
    assert ts.appears(75, "flight LK175 costs 75 dollars")
    assert not ts.appears(75, "flight LK175 or $175 to 97232")
    assert not ts.appears(0.0, "a fee of $10.00")
    assert ts.appears(1000.0, "move $1,000 now") and ts.appears("one_way", "a One way trip")
    assert not ts.appears(3, "3.5 stars")
    assert ts.is_id("order_number") and ts.is_id("card_id") and not ts.is_id("city")


def test_the_customer_is_not_a_record_under_any_parameter_name() -> None:
    """A student calling about their own fees is named as the caller and as the student:
    under either name they are the customer, not a record a lookup is about."""
    codes = {"booking_code": "booking_code"}
    own = {"caller_id": "S1", "student_id": "S1"}
    assert ts._records(codes, "caller_id", own, "S1") == set()
    assert ts._records(codes, "caller_id", {"student_id": "S1"}, "S1") == set()
    other = {"caller_id": "S1", "student_id": "S2", "booking_code": "B7", "note": "x"}
    assert ts._records(codes, "caller_id", other, "S1") == {"S2", "B7"}
