"""The condition space and its conversion to `EmotionSpec`."""

from __future__ import annotations

import pytest

from tau_emotion.data import EmotionSpec
from tau_emotion.emotions import (
    EMOTIONS,
    FAMILIES,
    all_conditions,
    condition_by_id,
    to_emotion_spec,
)
from tau_emotion.emotions.space import condition_index


def test_exactly_594_unique_conditions_with_stable_ids() -> None:
    conditions = all_conditions()
    ids = [c.id for c in conditions]
    assert len(conditions) == 594
    assert len(set(ids)) == 594
    assert len(EMOTIONS) == 22
    assert [len(v) for v in FAMILIES.values()] == [5, 4, 4, 5, 4]
    # Canonical order is part of the contract: indexes are stored in artifacts.
    assert ids[0] == "anger.annoyance.warm.low.trusting"
    assert ids[-1] == "enjoyment.excitement.cold.high.skeptical"
    assert "anger.frustration.cold.high.skeptical" in ids
    assert all(condition_index(c) == i for i, c in enumerate(conditions))


def test_dimensions_vary_independently_of_emotion() -> None:
    for emotion in EMOTIONS:
        combos = {
            (c.politeness, c.urgency, c.trust) for c in all_conditions() if c.emotion == emotion
        }
        assert len(combos) == 27


def test_spec_from_condition_and_id() -> None:
    spec = to_emotion_spec("fear.dread.warm.low.cautious", "You brace yourself for bad news.")
    assert isinstance(spec, EmotionSpec)
    assert spec.family == "fear" and spec.emotion == "dread"
    assert (spec.politeness, spec.urgency, spec.trust) == ("warm", "low", "cautious")
    same = condition_by_id("fear.dread.warm.low.cautious").to_spec(spec.instruction)
    assert same == spec


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ("anger.frustration.cold.high", "5 dot-separated"),
        ("rage.frustration.cold.high.skeptical", "unknown family"),
        ("anger.dread.cold.high.skeptical", "not an emotion of family"),
        ("anger.frustration.icy.high.skeptical", "unknown politeness"),
    ],
)
def test_bad_ids_are_explained(bad: str, needle: str) -> None:
    with pytest.raises(KeyError, match=needle):
        condition_by_id(bad)
