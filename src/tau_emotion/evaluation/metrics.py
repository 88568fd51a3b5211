"""Avg@k, Pass^k and pass@k per task, averaged per domain and per emotion group, with CIs.

Per task with n trials and c successes (reward == 1):
  Avg@k  = c / n                      (mean success over the n trials)
  Pass^k = C(c, k) / C(n, k)          (all of k random trials succeed)
  pass@k = 1 - C(n - c, k) / C(n, k)  (at least one of k random trials succeeds)
Tasks are averaged within a domain; across domains we give both the equal-weight mean of
the domain means and the task-weighted mean. Confidence intervals are seeded percentile
bootstrap intervals over the tasks of each figure's own cell. Resampling keeps the domain mix
fixed (stratifies by domain) only where every domain of the cell has `MIN_STRATUM_TASKS`
tasks; a stratum of one task never varies, so a cell drawn from small strata would otherwise
report an interval of zero width. Below that the cell's tasks are resampled as a whole, and
the equal-weight mean weighs each drawn task by one over its domain's task count (the
weighted mean of a resample, a ratio estimator).

Every episode counts, errors included: an episode that ended in an error (`ERROR_ENDINGS`:
an endpoint, the agent's protocol, the simulator or the framework broke, or the task's gold
replay failed) is a failure in every figure, as in tau-bench, so figures stay comparable with
earlier runs. Each group counts those endings by kind (`GroupMetrics.errors`) so that none
passes unseen. When tasks have different trial counts, k is the smallest and
`MetricsReport.warnings` says so.

Clean success (`Episode.clean_success`: success and no hard policy rule broken) gets the same
Avg@k and Pass^k, computed on the same bootstrap resamples as the plain figures so the two can
be compared cell by cell. A cell holding a success whose rules were never audited (results
written before policy violations were recorded) has no clean figures rather than wrong ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import TypeVar

import numpy as np
from pydantic import BaseModel, Field

from tau_emotion.data import ERROR_TERMINATION, Episode, TerminationReason
from tau_emotion.emotions.space import HEADS, NEUTRAL

BOOTSTRAP_SAMPLES = 1000
MIN_STRATUM_TASKS = 5
BREAKDOWNS: tuple[str, ...] = HEADS
"""The emotion dimensions every report is broken down by: the space's heads (each is also an
`EmotionSpec` field)."""

ERROR_ENDINGS: tuple[TerminationReason, ...] = tuple(
    t for t in TerminationReason if t in set(ERROR_TERMINATION.values())
)
"""Endings by error, each scored 0 (`evaluation.reward`): counted in `GroupMetrics.errors`."""

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def group_by(rows: Iterable[T], key: Callable[[T], K]) -> dict[K, list[T]]:
    """Rows under their key, in first-seen order (callers sort the keys where order shows).

    Here, below `analysis` and `report`, so that the metrics, the analyses and the report's
    cells cut stored episodes into groups the one same way.
    """
    grouped: dict[K, list[T]] = defaultdict(list)
    for row in rows:
        grouped[key(row)].append(row)
    return dict(grouped)


def episodes_by_task(episodes: Iterable[Episode]) -> dict[tuple[str, str], list[Episode]]:
    """(domain, task id) -> the task's trials: the unit Avg@k and the paired analysis average."""
    return group_by(episodes, lambda e: (e.domain, e.task_id))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Pass^k: probability that k trials drawn without replacement all succeed."""
    if not 0 < k <= n:
        raise ValueError(f"k must be in 1..{n}, got {k}")
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k: probability that at least one of k trials drawn without replacement succeeds."""
    if not 0 < k <= n:
        raise ValueError(f"k must be in 1..{n}, got {k}")
    return 1.0 - comb(n - c, k) / comb(n, k)


@dataclass(frozen=True)
class TaskOutcome:
    """All trials of one task."""

    domain: str
    task_id: str
    n: int
    c: int
    dissatisfied: int
    infra_errors: int
    clean: int | None
    """Clean successes; None when a success was never audited for policy violations."""
    groups: dict[str, str]
    """Breakdown labels, one per entry of `BREAKDOWNS` (`NEUTRAL` when neutral)."""
    errors: dict[str, int] = field(default_factory=dict)
    """Episodes per error ending (`ERROR_ENDINGS` values), only those that occurred."""


def clean_outcome(episode: Episode) -> bool | None:
    """Whether an episode is a clean success; None for a success never audited."""
    if not episode.success:
        return False
    if episode.breakdown is None or not episode.breakdown.policy_audited:
        return None
    return episode.clean_success


def _count_clean(episodes: Sequence[Episode]) -> int | None:
    outcomes = [clean_outcome(e) for e in episodes]
    return None if None in outcomes else sum(bool(o) for o in outcomes)


def _count_errors(episodes: Iterable[Episode]) -> dict[str, int]:
    endings = Counter(e.termination for e in episodes)
    return {t.value: endings[t] for t in ERROR_ENDINGS if endings[t]}


def task_outcomes(episodes: Iterable[Episode]) -> list[TaskOutcome]:
    out: list[TaskOutcome] = []
    for (domain, task_id), eps in sorted(episodes_by_task(episodes).items()):
        emotion = eps[0].emotion
        groups = {h: str(getattr(emotion, h)) if emotion else NEUTRAL for h in BREAKDOWNS}
        out.append(
            TaskOutcome(
                domain=domain,
                task_id=task_id,
                n=len(eps),
                c=sum(e.success for e in eps),
                dissatisfied=sum(e.termination == TerminationReason.USER_UNSATISFIED for e in eps),
                infra_errors=sum(e.termination == TerminationReason.INFRA_ERROR for e in eps),
                clean=_count_clean(eps),
                groups=groups,
                errors=_count_errors(eps),
            )
        )
    return out


class Estimate(BaseModel):
    """A point estimate with its 95% bootstrap confidence interval."""

    value: float = Field(description="Point estimate.")
    low: float = Field(description="2.5th percentile of the bootstrap distribution.")
    high: float = Field(description="97.5th percentile of the bootstrap distribution.")
    n: int = Field(default=0, description="Tasks the estimate (and its interval) is over.")


class GroupMetrics(BaseModel):
    """Metrics of one group of tasks (a domain, an emotion family, ...)."""

    tasks: int = Field(description="Tasks in the group.")
    episodes: int = Field(description="Episodes in the group.")
    avg: Estimate = Field(description="Avg@k: mean success rate.")
    pass_hat: dict[int, Estimate] = Field(description="Pass^k for k = 1..n.")
    pass_at: dict[int, Estimate] = Field(description="pass@k for k = 1..n.")
    dissatisfied_rate: float = Field(description="Share of episodes ending in a walk-away.")
    infra_errors: int = Field(description="Episodes that ended in an endpoint failure.")
    errors: dict[str, int] = Field(
        default_factory=dict,
        description="Episodes per error ending (infra_error, framework_error, user_error, "
        "agent_error), only those that occurred. Each is a failure in every figure above; "
        "empty in files written before it was counted.",
    )
    clean_avg: Estimate | None = Field(
        default=None,
        description="Avg@k of clean success (success with no hard policy rule broken); None "
        "when some success of the group was never audited.",
    )
    clean_pass_hat: dict[int, Estimate] | None = Field(
        default=None, description="Pass^k of clean success for k = 1..n; None as clean_avg."
    )

    @property
    def error_count(self) -> int:
        """Episodes that ended in any error (`errors` summed)."""
        return sum(self.errors.values())


class MetricsReport(BaseModel):
    """Everything `tau-emotion metrics` prints, as JSON."""

    k: int = Field(description="Trials per task used (the minimum over tasks).")
    overall_equal: GroupMetrics = Field(description="Equal-weight mean of the domain means.")
    overall_tasks: GroupMetrics = Field(description="Task-weighted mean over all tasks.")
    domains: dict[str, GroupMetrics] = Field(description="Per domain.")
    breakdowns: dict[str, dict[str, GroupMetrics]] = Field(
        description="Per family, emotion, politeness, urgency and trust (task-weighted)."
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="What makes these figures less than they seem: tasks with fewer trials "
        "than others (k is then the smallest), a run that did not finish.",
    )


def _per_task_scores(tasks: Sequence[TaskOutcome], k: int) -> dict[str, np.ndarray]:
    scores: dict[str, np.ndarray] = {"avg": np.array([t.c / t.n for t in tasks], dtype=float)}
    for j in range(1, k + 1):
        scores[f"hat{j}"] = np.array([pass_hat_k(t.n, t.c, j) for t in tasks], dtype=float)
        scores[f"at{j}"] = np.array([pass_at_k(t.n, t.c, j) for t in tasks], dtype=float)
    clean = [t.clean for t in tasks]
    if all(c is not None for c in clean):
        counts = [int(c or 0) for c in clean]
        scores["clean_avg"] = np.array(
            [c / t.n for c, t in zip(counts, tasks, strict=True)], dtype=float
        )
        for j in range(1, k + 1):
            scores[f"clean_hat{j}"] = np.array(
                [pass_hat_k(t.n, c, j) for c, t in zip(counts, tasks, strict=True)], dtype=float
            )
    return scores


def _group(
    tasks: Sequence[TaskOutcome], k: int, rng: np.random.Generator, equal_domains: bool = False
) -> GroupMetrics:
    scores = _per_task_scores(tasks, k)
    domains = np.array([t.domain for t in tasks])
    names = sorted(set(domains.tolist()))
    index_by_domain = [np.flatnonzero(domains == d) for d in names]

    sizes = np.array([len(i) for i in index_by_domain], dtype=float)
    # Each task's weight in the figure: 1 / tasks of its domain for the equal-weight mean of
    # the domain means, 1 for the task-weighted mean.
    task_weight = np.ones(len(tasks))
    if equal_domains:
        for i in index_by_domain:
            task_weight[i] = 1 / len(i)
    if sizes.min() < MIN_STRATUM_TASKS:
        # Small strata barely vary when resampled on their own (one task never does):
        # resample the cell as a whole, each drawn task keeping its weight.
        samples = [rng.choice(len(tasks), size=(BOOTSTRAP_SAMPLES, len(tasks)), replace=True)]
        drawn_weight = task_weight[samples[0]]

        def resampled(values: np.ndarray) -> np.ndarray:
            drawn = values[samples[0]]
            return np.asarray((drawn_weight * drawn).sum(axis=1) / drawn_weight.sum(axis=1))

    else:
        # Resample tasks within each stratum so the domain mix stays fixed across resamples.
        weights = np.full(len(sizes), 1 / len(sizes)) if equal_domains else sizes / sizes.sum()
        samples = [
            rng.choice(i, size=(BOOTSTRAP_SAMPLES, len(i)), replace=True) for i in index_by_domain
        ]

        def resampled(values: np.ndarray) -> np.ndarray:
            return np.asarray(
                sum(w * values[s].mean(axis=1) for w, s in zip(weights, samples, strict=True))
            )

    def estimate(values: np.ndarray) -> Estimate:
        value = float((task_weight * values).sum() / task_weight.sum())
        boot = resampled(values)
        return Estimate(
            value=value,
            low=float(np.percentile(boot, 2.5)),
            high=float(np.percentile(boot, 97.5)),
            n=len(tasks),
        )

    episodes = sum(t.n for t in tasks)
    audited = "clean_avg" in scores
    return GroupMetrics(
        tasks=len(tasks),
        episodes=episodes,
        avg=estimate(scores["avg"]),
        pass_hat={j: estimate(scores[f"hat{j}"]) for j in range(1, k + 1)},
        pass_at={j: estimate(scores[f"at{j}"]) for j in range(1, k + 1)},
        dissatisfied_rate=sum(t.dissatisfied for t in tasks) / episodes,
        infra_errors=sum(t.infra_errors for t in tasks),
        errors=_sum_errors(tasks),
        clean_avg=estimate(scores["clean_avg"]) if audited else None,
        clean_pass_hat=(
            {j: estimate(scores[f"clean_hat{j}"]) for j in range(1, k + 1)} if audited else None
        ),
    )


def _sum_errors(tasks: Sequence[TaskOutcome]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for t in tasks:
        total.update(t.errors)
    return {t.value: total[t.value] for t in ERROR_ENDINGS if total[t.value]}


def uneven_trials_warning(tasks: Sequence[TaskOutcome]) -> str | None:
    """Why k is lower than most tasks' trial count, or None when every task has as many."""
    counts = Counter(t.n for t in tasks)
    if len(counts) < 2:
        return None
    k, most = min(counts), max(counts)
    few = sorted(f"{t.domain}/{t.task_id}" for t in tasks if t.n == k)
    named = ", ".join(few[:3]) + (f" and {len(few) - 3} more" if len(few) > 3 else "")
    trials = "trial" if k == 1 else "trials"
    return (
        f"trial counts differ between tasks: {counts[k]} of {len(tasks)} tasks ran only {k} "
        f"{trials} (e.g. {named}), others up to {most}; every Pass^k and pass@k here is at "
        f"k = {k}, the smallest"
    )


def compute_metrics(episodes: Iterable[Episode], seed: int = 0) -> MetricsReport:
    """Metrics over stored episodes; tasks with fewer trials limit k to their count (and a
    warning says so)."""
    tasks = task_outcomes(episodes)
    if not tasks:
        raise ValueError("no episodes to compute metrics from")
    k = min(t.n for t in tasks)
    uneven = uneven_trials_warning(tasks)
    rng = np.random.default_rng(seed)
    by_domain = group_by(tasks, lambda t: t.domain)
    breakdowns: dict[str, dict[str, GroupMetrics]] = {}
    for dim in BREAKDOWNS:
        # group_by calls the key before the loop moves on: the late binding B023 warns of
        # cannot bite here.
        groups = group_by(tasks, lambda t: t.groups[dim])  # noqa: B023
        breakdowns[dim] = {name: _group(g, k, rng) for name, g in sorted(groups.items())}
    return MetricsReport(
        k=k,
        overall_equal=_group(tasks, k, rng, equal_domains=True),
        overall_tasks=_group(tasks, k, rng),
        domains={d: _group(ts, k, rng) for d, ts in sorted(by_domain.items())},
        breakdowns=breakdowns,
        warnings=[uneven] if uneven else [],
    )
