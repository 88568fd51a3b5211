"""Wilson rates, bootstrap means, JSON parsing of judge replies, and value extraction."""

from __future__ import annotations

import pytest

from tau_emotion.analysis.judge import parse_json_object
from tau_emotion.analysis.stats import bootstrap_mean, rate
from tau_emotion.analysis.values import Corpus, extract_values


def test_wilson_rate_matches_known_values() -> None:
    r = rate(5, 10)
    assert (r.count, r.total, r.value) == (5, 10, 0.5)
    assert r.low == pytest.approx(0.2366, abs=1e-4)
    assert r.high == pytest.approx(0.7634, abs=1e-4)
    zero = rate(0, 10)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.2775, abs=1e-4)
    empty = rate(0, 0)
    assert (empty.total, empty.value, empty.low, empty.high) == (0, 0.0, 0.0, 0.0)
    # None of n and all of n reach the ends exactly, not within float noise of them.
    assert all(rate(0, n).low == 0.0 and rate(n, n).high == 1.0 for n in range(1, 300))


def test_bootstrap_mean() -> None:
    constant = bootstrap_mean([0.5, 0.5, 0.5])
    assert (constant.value, constant.low, constant.high) == (0.5, 0.5, 0.5)
    spread = bootstrap_mean([0.0, 1.0] * 20, seed=3)
    assert spread.value == 0.5 and 0.3 < spread.low < 0.5 < spread.high < 0.7
    assert bootstrap_mean([0.0, 1.0] * 20, seed=3) == spread
    with pytest.raises(ValueError):
        bootstrap_mean([])


def test_bootstrap_mean_says_how_many_values_it_is_over() -> None:
    # `Estimate.n` is what a reader of the report JSON takes the interval to be over.
    assert bootstrap_mean([0.0, 1.0, 0.5, 0.5, 1.0, 0.0]).n == 6
    assert bootstrap_mean([0.25]).n == 1


def test_parse_json_object_tolerates_fences_and_prose() -> None:
    assert parse_json_object('Sure! ```json\n{"a": 1}\n``` done') == {"a": 1}
    assert parse_json_object('verdict: {"fault": "agent"} end') == {"fault": "agent"}
    assert parse_json_object("no json here") is None
    assert parse_json_object("[1, 2]") is None
    assert parse_json_object(None) is None


def test_extract_values_normalises_each_kind() -> None:
    found = {
        (v.kind, v.norm)
        for v in extract_values(
            "Email Priya.W23@Example.net, code 8TQVHG, refund $1,250.00 on June 5th at 3pm, "
            "flight 2025-06-25T10:00, call 555-123-4567, id priya_whitfield_5459, 2 bags, the 25th"
        )
    }
    assert found == {
        ("email", "priya.w23@example.net"),
        ("code", "8tqvhg"),
        ("number", "1250"),
        ("date", "06-05"),
        ("time", "15:00"),
        ("date", "06-25"),
        ("phone", "5551234567"),
        ("code", "priya_whitfield_5459"),
    }


def test_corpus_supports_equal_values_in_other_forms() -> None:
    corpus = Corpus(["Booked 2025-06-05 for 1250 dollars, code 8tqvhg, flight LK784"])
    supported = [corpus.supports(v) for v in extract_values("June 5 $1,250.00 8TQVHG 784 999")]
    assert supported == [True, True, True, True, False]
