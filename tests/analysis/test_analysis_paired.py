"""Emotional vs neutral pairing and paired bootstrap CIs on constructed episodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_emotion.analysis.paired import (
    neutral_pool,
    pair_tasks,
    paired_analysis,
    paired_for_runs,
    twins_from_tasks,
)
from tau_emotion.analysis.runs import Run
from tau_emotion.data import EmotionSpec, Episode, Intent, Message, Task, TerminationReason


def emotion(family: str) -> EmotionSpec:
    return EmotionSpec(
        condition_id=f"{family}.x.neutral.low.trusting",
        family=family,
        emotion="x",
        politeness="neutral",
        urgency="low",
        trust="trusting",
        instruction="feel it",
    )


def ep(
    task_id: str, trial: int, ok: bool, family: str | None = None, domain: str = "airline"
) -> Episode:
    return Episode(
        task_id=task_id,
        domain=domain,
        trial=trial,
        seed=trial,
        emotion=emotion(family) if family else None,
        messages=[Message(role="system", content="s")],
        termination=TerminationReason.USER_STOP,
        reward=1.0 if ok else 0.0,
    )


def test_pairs_by_twin_id_then_same_id_and_reports_unpaired() -> None:
    emotional = [
        ep("t1", 0, True, "anger"),
        ep("t1", 1, False, "anger"),  # 0.5
        ep("t2", 0, True, "fear"),
        ep("t2", 1, True, "fear"),  # 1.0
        ep("t3", 0, True, "fear"),  # no neutral data at all
    ]
    neutral = [
        ep("t1n", 0, True),
        ep("t1n", 1, True),  # twin of t1: 1.0
        ep("t2", 0, False),
        ep("t2", 1, True),  # same id, --no-emotion run: 0.5
        ep("t1", 0, False),  # same id as t1, but the twin wins
    ]
    pairs, unpaired = pair_tasks(emotional, neutral, {("airline", "t1"): "t1n"})
    assert [(p.task_id, p.neutral_task_id, p.delta) for p in pairs] == [
        ("t1", "t1n", -0.5),
        ("t2", "t2", 0.5),
    ]
    assert unpaired == ["airline/t3"]
    assert pairs[0].emotional_trials == 2 and pairs[0].neutral_trials == 2


def test_means_per_domain_and_family_with_paired_cis() -> None:
    emotional = [
        ep("a", 0, False, "anger"),
        ep("b", 0, True, "fear"),
        ep("c", 0, False, "anger", "retail"),
    ]
    neutral = [ep("a", 0, True), ep("b", 0, True), ep("c", 0, True, domain="retail")]
    report = paired_analysis(emotional, neutral)
    assert report.overall is not None
    assert report.overall.pairs == 3
    assert report.overall.delta.value == pytest.approx(-2 / 3)
    # Every anger pair lost the task: the paired interval is exactly -1.
    anger = report.by_family["anger"].delta
    assert (anger.value, anger.low, anger.high) == (-1.0, -1.0, -1.0)
    assert report.by_family["fear"].delta.value == 0.0
    assert report.by_domain["airline"].pairs == 2
    assert report.by_domain["airline"].delta.value == pytest.approx(-0.5)
    assert report.by_domain["airline"].emotional_success == 0.5
    assert report.by_domain["airline"].neutral_success == 1.0
    overall = report.overall.delta
    assert -1.0 <= overall.low <= overall.value <= overall.high <= 0.0


def test_paired_bootstrap_is_seeded_and_narrower_than_unpaired_spread() -> None:
    emotional = [ep(f"t{i}", 0, i % 3 != 0, "sadness") for i in range(30)]
    neutral = [ep(f"t{i}", 0, True) for i in range(30)]
    a = paired_analysis(emotional, neutral, seed=7).overall
    b = paired_analysis(emotional, neutral, seed=7).overall
    assert a is not None and b is not None
    assert a.delta == b.delta
    assert a.delta.value == pytest.approx(-1 / 3)
    assert a.delta.low < a.delta.value < a.delta.high < 0


def test_no_pairs_gives_no_overall() -> None:
    report = paired_analysis([ep("x", 0, True, "anger")], [])
    assert report.overall is None and report.pairs == [] and report.unpaired == ["airline/x"]


def test_twins_from_tasks() -> None:
    task = Task(
        id="e1",
        domain="airline",
        split="test",
        user_id="u",
        instruction="i",
        intents=[Intent(request="r")],
        emotion=emotion("fear"),
        neutral_twin_id="n1",
    )
    plain = task.model_copy(update={"id": "n1", "emotion": None, "neutral_twin_id": None})
    assert twins_from_tasks([task, plain]) == {("airline", "e1"): "n1"}


def test_runs_pair_only_with_no_emotion_runs_of_the_same_agent() -> None:
    def run(label: str, episodes: list[Episode], agent: str, no_emotion: bool) -> Run:
        config = {"agent": agent, "no_emotion": no_emotion}
        return Run(Path(label), label, config, "", episodes)

    emo = run("emo", [ep("t", 0, False, "anger")], "oracle", False)
    same = run("neutral", [ep("t", 0, True)], "oracle", True)
    other = run("other", [ep("t", 0, False)], "tool-calling", True)
    assert neutral_pool(emo, [emo, same, other]) == same.episodes
    reports = paired_for_runs([emo, same, other], {})
    assert list(reports) == ["emo"]  # neutral runs get no paired report of their own
    overall = reports["emo"].overall
    assert overall is not None and overall.delta.value == -1.0
