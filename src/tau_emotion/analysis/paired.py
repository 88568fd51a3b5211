"""Emotional vs neutral, paired by task: does emotion change success on the *same* task?

A pair is an emotional task and its neutral counterpart: the task named by its
`neutral_twin_id`, or the same task id run without emotion (a `--no-emotion` run). Per pair
the difference is (emotional success rate) - (neutral success rate), each averaged over the
task's trials. Means per domain and per emotion family come with paired bootstrap 95%
intervals: whole pairs are resampled, so task difficulty cancels out of the interval.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, Field

from tau_emotion.analysis.runs import Run, TaskKey, emotion_of, family_of
from tau_emotion.analysis.stats import bootstrap_mean, mean
from tau_emotion.data import Episode, Task
from tau_emotion.evaluation.metrics import Estimate, episodes_by_task, group_by


class TaskDelta(BaseModel):
    """One emotional task and its neutral counterpart."""

    domain: str = Field(description="Domain of both tasks.")
    task_id: str = Field(description="The emotional task.")
    neutral_task_id: str = Field(description="Its neutral counterpart (twin id or same id).")
    family: str = Field(description="Emotion family of the emotional task.")
    emotion: str = Field(description="Emotion of the emotional task.")
    emotional_trials: int = Field(description="Episodes of the emotional task.")
    neutral_trials: int = Field(description="Episodes of the neutral task.")
    emotional_success: float = Field(description="Success rate over the emotional trials.")
    neutral_success: float = Field(description="Success rate over the neutral trials.")
    delta: float = Field(description="emotional_success - neutral_success.")


class DeltaGroup(BaseModel):
    """Mean paired difference over a group of pairs."""

    pairs: int = Field(description="Pairs in the group.")
    emotional_success: float = Field(description="Mean emotional success rate.")
    neutral_success: float = Field(description="Mean neutral success rate.")
    delta: Estimate = Field(description="Mean difference with a paired bootstrap 95% CI.")


class PairedReport(BaseModel):
    """Paired emotional-vs-neutral differences for one set of emotional episodes."""

    pairs: list[TaskDelta] = Field(description="Every pair found.")
    overall: DeltaGroup | None = Field(description="All pairs; None when there are none.")
    by_domain: dict[str, DeltaGroup] = Field(description="Per domain.")
    by_family: dict[str, DeltaGroup] = Field(description="Per emotion family.")
    unpaired: list[str] = Field(description="Emotional tasks ('domain/id') with no neutral data.")


def twins_from_tasks(tasks: Iterable[Task]) -> dict[TaskKey, str]:
    """(domain, emotional task id) -> neutral twin id, for tasks that name one."""
    return {(t.domain, t.id): t.neutral_twin_id for t in tasks if t.neutral_twin_id}


def _success(episodes: Sequence[Episode]) -> float:
    return sum(e.success for e in episodes) / len(episodes)


def pair_tasks(
    emotional: Iterable[Episode],
    neutral: Iterable[Episode],
    twins: Mapping[TaskKey, str] | None = None,
) -> tuple[list[TaskDelta], list[str]]:
    """Pairs (emotional task, neutral counterpart) and the emotional tasks left unpaired.

    Only episodes with an emotion count as emotional and only those without as neutral, so
    the same list may be passed for both. The twin id is preferred; the same id is the
    fallback (the `--no-emotion` run of the same task).
    """
    emo = episodes_by_task(e for e in emotional if e.emotion is not None)
    neu = episodes_by_task(e for e in neutral if e.emotion is None)
    twins = twins or {}
    pairs: list[TaskDelta] = []
    unpaired: list[str] = []
    for (domain, task_id), eps in sorted(emo.items()):
        twin = twins.get((domain, task_id))
        candidates = [t for t in (twin, task_id) if t is not None]
        partner = next((t for t in candidates if (domain, t) in neu), None)
        if partner is None:
            unpaired.append(f"{domain}/{task_id}")
            continue
        neutral_eps = neu[(domain, partner)]
        e_rate, n_rate = _success(eps), _success(neutral_eps)
        pairs.append(
            TaskDelta(
                domain=domain,
                task_id=task_id,
                neutral_task_id=partner,
                family=family_of(eps[0]),
                emotion=emotion_of(eps[0]),
                emotional_trials=len(eps),
                neutral_trials=len(neutral_eps),
                emotional_success=e_rate,
                neutral_success=n_rate,
                delta=e_rate - n_rate,
            )
        )
    return pairs, unpaired


def _group(pairs: Sequence[TaskDelta], seed: int) -> DeltaGroup:
    return DeltaGroup(
        pairs=len(pairs),
        emotional_success=mean([p.emotional_success for p in pairs]),
        neutral_success=mean([p.neutral_success for p in pairs]),
        delta=bootstrap_mean([p.delta for p in pairs], seed=seed),
    )


def paired_analysis(
    emotional: Iterable[Episode],
    neutral: Iterable[Episode],
    twins: Mapping[TaskKey, str] | None = None,
    seed: int = 0,
) -> PairedReport:
    """Per-task differences and their means per domain and per family, with paired CIs."""
    pairs, unpaired = pair_tasks(emotional, neutral, twins)
    by_domain = group_by(pairs, lambda p: p.domain)
    by_family = group_by(pairs, lambda p: p.family)
    return PairedReport(
        pairs=pairs,
        overall=_group(pairs, seed) if pairs else None,
        by_domain={d: _group(ps, seed) for d, ps in sorted(by_domain.items())},
        by_family={f: _group(ps, seed) for f, ps in sorted(by_family.items())},
        unpaired=unpaired,
    )


def neutral_pool(run: Run, runs: Sequence[Run]) -> list[Episode]:
    """Neutral episodes comparable with `run`: its own, plus those of no-emotion runs of the
    same agent (strategy and model), so differences are not differences between agents."""
    pool = [e for e in run.episodes if e.emotion is None]
    for other in runs:
        if other is not run and other.no_emotion and other.agent == run.agent:
            pool.extend(other.episodes)
    return pool


def paired_for_runs(
    runs: Sequence[Run], twins: Mapping[TaskKey, str], seed: int = 0
) -> dict[str, PairedReport]:
    """One paired report per run that has emotional episodes, keyed by run label."""
    return {
        run.label: paired_analysis(run.episodes, neutral_pool(run, runs), twins, seed)
        for run in runs
        if any(e.emotion is not None for e in run.episodes)
    }
