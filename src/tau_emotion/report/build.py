"""From run directories to `ReportData`: every analysis, per run, over stored episodes only.

Numbers that `evaluation` already defines (Avg@k, Pass^k, CIs) come from
`evaluation.metrics`; everything else comes from `tau_emotion.analysis`. With
`exclude_user_hallucinations`, failed episodes where the simulated user invented a fact are
left out of every figure (and counted) before anything else is computed. Each run's tasks are
those it played (`analysis.runs.run_tasks`: its own `--tasks` source first). What makes a
run's figures less than they seem (an unfinished run, uneven trial counts, a k lowered by the
exclusion, a task source not found, a judge that did not answer) is in `RunSection.warnings`.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from tau_emotion.analysis.empathy import EmpathyReport, empathy_analysis, judge_empathy
from tau_emotion.analysis.failures import FailureReport, failure_analysis
from tau_emotion.analysis.hallucination import (
    HallucinationReport,
    exclude_false_failures,
    hallucination_analysis,
)
from tau_emotion.analysis.judge import JudgeUse
from tau_emotion.analysis.paired import PairedReport, paired_for_runs, twins_from_tasks
from tau_emotion.analysis.policy import PolicyReport, policy_analysis
from tau_emotion.analysis.runs import (
    Run,
    RunDirError,
    TaskKey,
    load_runs,
    run_tasks,
    with_unfinished_warning,
)
from tau_emotion.analysis.tooluse import ToolUseReport, tool_use_analysis
from tau_emotion.data import Episode, Task
from tau_emotion.evaluation.metrics import (
    MetricsReport,
    compute_metrics,
    group_by,
    task_outcomes,
)
from tau_emotion.models.base import ChatModel
from tau_emotion.report.episodes import EpisodeView, episode_view, index_by_key, task_for


class HeatCell(BaseModel):
    """Mean task success (Avg@k) in one domain x emotion family cell."""

    value: float = Field(description="Mean over tasks of the per-task success rate.")
    tasks: int = Field(description="Tasks in the cell.")
    episodes: int = Field(description="Episodes in the cell.")


class RunSection(BaseModel):
    """Everything the report shows about one run."""

    label: str = Field(description="Run label (folder name).")
    path: str = Field(description="Run directory.")
    agent: str = Field(description="Agent strategy / model.")
    user: str = Field(description="User simulator / model.")
    split: str | None = Field(description="Task split.")
    code_version: str = Field(description="Code version the run recorded.")
    no_emotion: bool = Field(description="All episodes neutral (e.g. a --no-emotion run).")
    task_set: str = Field(
        default="",
        description="Digest of the run's sorted domain/task ids: runs ranked side by side are "
        "comparable only when it is the same.",
    )
    metrics: MetricsReport = Field(description="Avg@k, Pass^k, pass@k with CIs.")
    warnings: list[str] = Field(
        default_factory=list,
        description="What makes this run's figures less than they seem: the metrics' "
        "warnings, then the report's own (exclusion lowering k, tasks not found, a judge "
        "that did not answer).",
    )
    cells: dict[str, dict[str, HeatCell]] = Field(description="Domain -> family -> success.")
    paired: PairedReport | None = Field(description="Emotional vs neutral, when emotional.")
    tool_use: ToolUseReport = Field(description="Tool use vs follow-ups.")
    empathy: EmpathyReport = Field(description="Success with / without empathy.")
    policy: PolicyReport = Field(description="Policy violations.")
    failures: FailureReport = Field(description="Failure taxonomy.")
    hallucinations: HallucinationReport = Field(description="User hallucination check.")


class ReportData(BaseModel):
    """The whole report; `tau-emotion report --json` writes it, the HTML renders it."""

    title: str = Field(description="Report title.")
    generated_at: str = Field(description="ISO-8601 UTC time of the build.")
    judge: str | None = Field(description="Judge model name, when one was used.")
    excluded_user_hallucinations: bool = Field(
        description="Failed episodes with user hallucination flags were left out."
    )
    runs: list[RunSection] = Field(description="One section per run, in the order given.")
    episodes: list[EpisodeView] = Field(description="Every episode, for the browser.")
    system_prompts: dict[str, str] = Field(description="System prompt texts by key.")


def task_set_digest(episodes: Sequence[Episode]) -> str:
    keys = sorted({f"{e.domain}/{e.task_id}" for e in episodes})
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]


def heat_cells(run: Run) -> dict[str, dict[str, HeatCell]]:
    """Per-task success from `evaluation.metrics.task_outcomes`, averaged per cell."""
    grouped = group_by(task_outcomes(run.episodes), lambda t: (t.domain, t.groups["family"]))
    cells: dict[str, dict[str, HeatCell]] = defaultdict(dict)
    for (domain, family), tasks in sorted(grouped.items()):
        cells[domain][family] = HeatCell(
            value=sum(t.c / t.n for t in tasks) / len(tasks),
            tasks=len(tasks),
            episodes=sum(t.n for t in tasks),
        )
    return dict(cells)


def _trials_k(episodes: Sequence[Episode]) -> int:
    return min(Counter((e.domain, e.task_id) for e in episodes).values())


def judge_warning(uses: dict[str, JudgeUse | None]) -> str | None:
    """A warning when the judge gave no usable answer for some cases, per analysis."""
    used = {name: u for name, u in uses.items() if u is not None and u.asked}
    failed = sum(u.failed for u in used.values())
    if not failed:
        return None
    asked = sum(u.asked for u in used.values())
    parts = ", ".join(f"{name} {u.failed} of {u.asked}" for name, u in used.items() if u.failed)
    return (
        f"the judge gave no usable answer for {failed} of the {asked} cases it was asked "
        f"about ({parts}: endpoint failed or reply unusable); those rest on the deterministic "
        "checks alone"
    )


async def build_report(
    paths: Sequence[Path],
    judge: ChatModel | None = None,
    exclude_user_hallucinations: bool = False,
    title: str | None = None,
    seed: int = 0,
) -> ReportData:
    """Load the runs, run every analysis per run, and collect the episode views."""
    runs = load_runs(paths)
    for run in runs:
        if not run.episodes:
            raise RunDirError(f"{run.path} holds no episodes")
    # Per run: two runs may hold one task id with different content (a --tasks file that
    # edits shipped tasks), and each must be checked against what it played.
    tasks_of: dict[str, dict[TaskKey, Task]] = {}
    warnings_of: dict[str, list[str]] = {}
    for run in runs:
        tasks_of[run.label], problem = run_tasks(run)
        warnings_of[run.label] = [problem] if problem else []
    halluc = {
        r.label: await hallucination_analysis(r.episodes, tasks_of[r.label], judge) for r in runs
    }
    originals = runs
    if exclude_user_hallucinations:
        runs = [
            dataclasses.replace(r, episodes=exclude_false_failures(r.episodes, halluc[r.label]))
            for r in runs
        ]
        for run in runs:
            if not run.episodes:
                raise RunDirError(f"{run.label}: every episode was excluded as a hallucination")
    twins: dict[TaskKey, str] = {}
    for index in tasks_of.values():
        twins.update(twins_from_tasks(index.values()))
    paired = paired_for_runs(runs, twins, seed)

    sections: list[RunSection] = []
    views: list[EpisodeView] = []
    prompts: dict[str, str] = {}
    for run, original in zip(runs, originals, strict=True):
        episodes = run.episodes
        tasks = tasks_of[run.label]
        judged = await judge_empathy(episodes, judge) if judge is not None else None
        empathy = empathy_analysis(episodes, judged)
        policy = policy_analysis(episodes)
        tool_use = tool_use_analysis(episodes)
        failures = await failure_analysis(
            original.episodes,
            tasks,
            judge=judge,
            hallucinations=halluc[run.label],
            empathy=empathy,
            policy=policy,
            exclude_hallucinated=exclude_user_hallucinations,
        )
        # Completion is judged on the episodes the run recorded, before any exclusion.
        metrics = with_unfinished_warning(
            compute_metrics(episodes, seed), run.progress, len(original.episodes)
        )
        warnings = [*metrics.warnings, *warnings_of[run.label]]
        k_before = _trials_k(original.episodes)
        if metrics.k < k_before:
            warnings.append(
                f"--exclude-user-hallucinations left some tasks with fewer trials: k fell "
                f"from {k_before} to {metrics.k}, so every Pass^k and pass@k here is at "
                f"k = {metrics.k}"
            )
        uses = {
            "empathy": empathy.judge,
            "user hallucinations": halluc[run.label].judge,
            "failures": failures.judge,
        }
        if (judged_badly := judge_warning(uses)) is not None:
            warnings.append(judged_badly)
        sections.append(
            RunSection(
                label=run.label,
                path=str(run.path),
                agent=run.agent,
                user=run.user,
                split=run.split,
                code_version=run.code_version,
                no_emotion=run.no_emotion,
                task_set=task_set_digest(episodes),
                metrics=metrics,
                warnings=warnings,
                cells=heat_cells(run),
                paired=paired.get(run.label),
                tool_use=tool_use,
                empathy=empathy,
                policy=policy,
                failures=failures,
                hallucinations=halluc[run.label],
            )
        )
        notes_tool = index_by_key(tool_use.trajectories)
        notes_empathy = index_by_key(empathy.episodes)
        notes_policy = index_by_key(policy.episodes)
        notes_failure = index_by_key(failures.labels)
        notes_halluc = index_by_key(halluc[run.label].episodes)
        for e in episodes:
            violations = notes_policy.get(e.key)
            flags = notes_halluc.get(e.key)
            views.append(
                episode_view(
                    len(views),
                    run.label,
                    e,
                    task_for(tasks, e),
                    prompts,
                    tool_use=notes_tool.get(e.key),
                    empathy=notes_empathy.get(e.key),
                    violations=violations.violations if violations else (),
                    failure=notes_failure.get(e.key),
                    hallucinations=flags.flags if flags else (),
                )
            )
    return ReportData(
        title=title or "tau-emotion report: " + ", ".join(r.label for r in runs),
        generated_at=datetime.now(UTC).isoformat(timespec="seconds"),
        judge=judge.name if judge is not None else None,
        excluded_user_hallucinations=exclude_user_hallucinations,
        runs=sections,
        episodes=views,
        system_prompts=prompts,
    )
