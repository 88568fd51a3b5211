"""Anchors: shipped coverage, quality rules, the deterministic generator."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_emotion.emotions.anchors import (
    DEFAULT_ANCHORS,
    anchor_problem,
    coverage_problems,
    dedupe_key,
    default_anchor_set,
    keep_valid_unique,
    label_words,
    read_anchor_set,
    write_anchor_set,
)
from tau_emotion.emotions.generator import (
    HELDOUT_PLANS,
    PLANS,
    generate_for_condition,
)
from tau_emotion.emotions.space import all_conditions, condition_by_id
from tau_emotion.emotions.written import written_anchor_set


def test_shipped_anchors_cover_every_condition_with_ten_distinct_texts() -> None:
    anchors = default_anchor_set()
    assert coverage_problems(anchors, minimum=10) == []
    total = sum(len(v) for v in anchors.anchors.values())
    assert total >= 5940


def test_every_shipped_anchor_passes_the_quality_rules() -> None:
    anchors = default_anchor_set()
    seen: set[str] = set()
    for texts in anchors.anchors.values():
        for text in texts:
            assert anchor_problem(text) is None, text
            key = dedupe_key(text)
            assert key not in seen, f"duplicate anchor: {text}"
            seen.add(key)


def test_shipped_anchors_are_the_written_files() -> None:
    # `tau-emotion emotions anchors` (no --model) must reproduce the shipped file exactly.
    assert written_anchor_set() == default_anchor_set()
    assert default_anchor_set().source == "written"


def test_write_is_byte_stable(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    write_anchor_set(default_anchor_set(), a)
    write_anchor_set(default_anchor_set(), b)
    assert a.read_bytes() == b.read_bytes() == DEFAULT_ANCHORS.read_bytes()
    assert read_anchor_set(a) == default_anchor_set()


def test_generator_is_deterministic_and_splits_plans() -> None:
    condition = condition_by_id("sadness.sorrow.cold.high.skeptical")
    assert generate_for_condition(condition, 12) == generate_for_condition(condition, 12)
    assert generate_for_condition(condition, 12, seed=1) != generate_for_condition(condition, 12)
    train = set(generate_for_condition(condition, 12, split="train"))
    heldout = set(generate_for_condition(condition, 4, split="heldout"))
    assert not train & heldout
    assert 0 < len(HELDOUT_PLANS) < len(PLANS)


@pytest.mark.parametrize("index", [0, 100, 300, 593])
def test_openings_vary_within_a_condition(index: int) -> None:
    texts = default_anchor_set().anchors[all_conditions()[index].id]
    openings = {" ".join(t.split()[:2]) for t in texts}
    assert len(openings) >= 5


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "You feel frustrated by the delay and you want your refund processed today please.",
            "label",
        ),
        (
            "You tell the agent my refund is late, and you want it processed by the end of the week.",
            "first person",
        ),
        ("You want it.", "length"),
        (
            "You are in a hurry and your tone is cold; you want the agent to get on with it now.",
            "label",
        ),
        (
            "you want the parcel found, and you keep asking the agent where it is right now okay.",
            "capital",
        ),
    ],
)
def test_quality_rules_reject(text: str, problem: str) -> None:
    found = anchor_problem(text)
    assert found is not None and problem in found


def test_quoted_first_person_is_allowed() -> None:
    text = (
        "You sigh and mutter 'I give up, it's hopeless' under your breath, and you want a refund."
    )
    assert label_words(text) == ["hopeless"]
    ok = "You sigh and mutter 'I give up on this' under your breath, and you want your refund back today."
    assert anchor_problem(ok) is None


def test_keep_valid_unique_dedupes_across_calls() -> None:
    good = "You feel worn thin by the wait, and you want the parcel traced before the weekend."
    seen: set[str] = set()
    kept, rejected = keep_valid_unique([good, good.upper().replace("YOU", "You")], seen)
    assert kept == [good]
    assert [r for _, r in rejected] == ["duplicate"]
    kept, rejected = keep_valid_unique([good + " "], seen)
    assert kept == [] and rejected[0][1] == "duplicate"
