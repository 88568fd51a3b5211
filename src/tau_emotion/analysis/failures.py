"""Failure taxonomy: who is at fault for each failed episode, and what went wrong.

Deterministic pre-checks settle the clear cases, in this order (the first that applies wins):

1. the episode ended in an infrastructure, framework or simulator error -> environment (or
   user, for a simulator that broke), category `infra_error`;
2. a value the simulated user invented (`analysis.hallucination`) reached a tool call's
   arguments -> user, `user_hallucination`;
3. an emotional customer walked away and no agent turn acknowledged their feelings
   (`analysis.empathy`) -> agent, `ignored_emotion`;
4. the final database differs from the gold one: compare the successful write calls with the
   task's gold write actions. A gold write whose tool was called with other arguments ->
   `wrong_arguments`; a gold write never called -> `missing_action`; a write the gold does
   not have -> `extra_action`; the same writes in another order -> `wrong_action_order`
   (fault: agent, in each case);
5. the database matches but required outputs were not said -> agent, `incomplete_resolution`.

What is left goes to the judge (any `ChatModel`), which may also pick `misread_intent` and
`policy_violation`; without a judge, or when its answer is unusable, the label is
`unresolved`. Proportions are over the failed episodes considered, stated with that count.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError

from tau_emotion.analysis.empathy import EmpathyReport, episode_empathy
from tau_emotion.analysis.hallucination import HallucinationReport, false_failures
from tau_emotion.analysis.judge import ask_json, gather_limited, transcript
from tau_emotion.analysis.policy import PolicyReport
from tau_emotion.analysis.runs import (
    ERROR_TERMINATIONS,
    EpisodeRow,
    TaskKey,
    episode_fields,
    tool_kinds,
)
from tau_emotion.analysis.stats import Rate, rate
from tau_emotion.analysis.tooluse import KindsFor
from tau_emotion.data import Episode, ErrorKind, Task, TerminationReason
from tau_emotion.domains.tools import ToolKind
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.models.base import ChatModel

Fault = Literal["agent", "user", "environment"]
JudgeCategory = Literal[
    "misread_intent",
    "wrong_action_order",
    "wrong_arguments",
    "missing_action",
    "extra_action",
    "incomplete_resolution",
    "ignored_emotion",
    "user_hallucination",
    "policy_violation",
]
# `infra_error` is a failure category, not a `TerminationReason` although it shares a value
# with one: it covers every ending in `ERROR_TERMINATIONS` (infra, framework and simulator
# errors) and a gold replay that broke, so it cannot be the enum member without mislabelling
# the other endings. Labels already written carry it, so its spelling stays.
Category = Literal[JudgeCategory, "infra_error", "unresolved"]
CATEGORIES: tuple[str, ...] = get_args(Category)  # Literal flattens the nested judge categories
FAULTS: tuple[str, ...] = get_args(Fault)
EpisodeKey = tuple[str, str, int]

JUDGE_SYSTEM = f"""\
You diagnose failed customer-service conversations between an AI agent and a simulated
customer. The task (what the customer wanted and the gold tool calls that achieve it), the
conversation and the automatic findings follow. Decide who is at fault and the single main
category.
fault: "agent", "user" (the simulated customer misbehaved, e.g. invented facts or changed
goal) or "environment" (tools or infrastructure failed).
category, one of: {", ".join(get_args(JudgeCategory))}.
Answer with one JSON object: {{"fault": ..., "category": ..., "explanation": "<one sentence>"}}"""


class FailureLabel(EpisodeRow):
    """Fault and category of one failed episode."""

    termination: str = Field(description="Why the episode ended.")
    fault: Fault | None = Field(description="agent, user or environment; None if unresolved.")
    category: Category = Field(description="Main failure category.")
    source: Literal["precheck", "judge", "none"] = Field(description="What decided the label.")
    evidence: list[str] = Field(description="Deterministic findings, settled or not.")
    explanation: str = Field(default="", description="The judge's one-line reason, if judged.")


class _Verdict(BaseModel):
    """The judge's answer, validated; extra keys are ignored."""

    fault: Fault
    category: JudgeCategory
    explanation: str = ""


class FailureReport(BaseModel):
    """Failure categories and faults, as proportions of the failed episodes considered."""

    method: Literal["precheck", "precheck+judge"] = Field(description="What labelled them.")
    episodes: int = Field(description="Episodes in the run (after any exclusion).")
    failed: int = Field(description="Failed episodes labelled: the denominator below.")
    excluded: int = Field(description="Failed episodes left out as user-hallucination cases.")
    by_category: dict[str, Rate] = Field(description="Category -> share of failed episodes.")
    by_fault: dict[str, Rate] = Field(description="Fault ('unresolved' too) -> share.")
    by_source: dict[str, int] = Field(description="precheck / judge / none -> count.")
    labels: list[FailureLabel] = Field(description="One per failed episode.")


def _normal(value: Any) -> Any:
    """JSON-equal argument values compare equal (1 == 1.0, key order ignored)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _canon(name: str, arguments: Mapping[str, Any]) -> str:
    return name + json.dumps(_normal(dict(arguments)), sort_keys=True, default=str)


def _differing(gold: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    keys = sorted(k for k in {*gold, *got} if _normal(gold.get(k)) != _normal(got.get(k)))
    return ", ".join(f"{k}: gold {gold.get(k)!r}, got {got.get(k)!r}" for k in keys)


Call = tuple[str, Mapping[str, Any]]


def _minus(calls: Sequence[Call], other: Sequence[str]) -> list[Call]:
    """Multiset difference in order: the calls not matched one-for-one by `other`."""
    left = Counter(other)
    out: list[Call] = []
    for call in calls:
        key = _canon(*call)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(call)
    return out


def write_diff(
    episode: Episode, task: Task, kinds: Mapping[str, ToolKind]
) -> tuple[Category | None, list[str]]:
    """Compare successful writes with the gold writes: (main category or None, findings)."""
    trajectory = Trajectory(episode.messages, dict(kinds))
    gold = [(a.name, a.arguments) for a in task.gold_actions if kinds.get(a.name) == "write"]
    done = [(c.call.name, c.call.arguments) for c in trajectory.successful("write")]
    tried = [
        (c.call.name, c.call.arguments) for c in trajectory.calls if c.kind == "write" and not c.ok
    ]
    gold_keys = [_canon(*g) for g in gold]
    done_keys = [_canon(*d) for d in done]
    missing = _minus(gold, done_keys)
    extra = _minus(done, gold_keys)
    findings: list[str] = []
    wrong = 0
    for name, args in list(missing):
        # The right tool with other arguments: a successful extra write or a refused attempt.
        twin = next((d for d in extra if d[0] == name), None) or next(
            (t for t in tried if t[0] == name), None
        )
        if twin is None:
            continue
        wrong += 1
        missing.remove((name, args))
        if twin in extra:
            extra.remove(twin)
        findings.append(f"wrong arguments for {name} ({_differing(args, twin[1])})")
    findings += [
        f"missing write {name}({json.dumps(args, sort_keys=True)})" for name, args in missing
    ]
    findings += [f"extra write {name}({json.dumps(args, sort_keys=True)})" for name, args in extra]
    if wrong:
        return "wrong_arguments", findings
    if missing:
        return "missing_action", findings
    if extra:
        return "extra_action", findings
    if done_keys != gold_keys:
        findings.append("the gold writes ran in another order: " + ", ".join(n for n, _ in done))
        return "wrong_action_order", findings
    return None, findings


def _tool_argument_text(episode: Episode) -> str:
    return " ".join(
        json.dumps(c.arguments, default=str).lower()
        for m in episode.messages
        for c in m.tool_calls or []
    )


def precheck(
    episode: Episode,
    task: Task | None,
    kinds: Mapping[str, ToolKind],
    empathetic: bool,
    hallucinated: Sequence[str] = (),
) -> tuple[Fault | None, Category | None, list[str]]:
    """The deterministic pre-checks: (fault, category, findings); category None if unsettled."""
    term = episode.termination
    errors = [f"{e.kind}: {e.message}" for e in episode.errors]
    if term in ERROR_TERMINATIONS or any(e.kind == ErrorKind.ENVIRONMENT for e in episode.errors):
        fault: Fault = "user" if term == TerminationReason.USER_ERROR else "environment"
        return fault, "infra_error", [f"ended with {term.value}", *errors]
    findings = list(errors)
    if hallucinated:
        args = _tool_argument_text(episode)
        reached = [v for v in hallucinated if v.lower() in args]
        if reached:
            return (
                "user",
                "user_hallucination",
                [f"invented by the user and used in a tool call: {', '.join(reached)}"],
            )
        findings.append(f"user stated unsupported values: {', '.join(hallucinated)}")
    if (
        term == TerminationReason.USER_UNSATISFIED
        and episode.emotion is not None
        and not empathetic
    ):
        return (
            "agent",
            "ignored_emotion",
            [f"{episode.emotion.family} customer walked away; no agent turn acknowledged feelings"],
        )
    breakdown = episode.breakdown
    if task is not None and breakdown is not None and not breakdown.db_match:
        category, diff = write_diff(episode, task, kinds)
        findings += diff
        if category is not None:
            return "agent", category, findings
    if breakdown is not None and breakdown.db_match and breakdown.outputs_missing:
        return (
            "agent",
            "incomplete_resolution",
            [
                *findings,
                f"outputs never said: {', '.join(breakdown.outputs_missing)}",
            ],
        )
    return None, None, findings


async def _judge(
    judge: ChatModel, episode: Episode, task: Task | None, findings: Sequence[str]
) -> tuple[Fault, JudgeCategory, str] | None:
    gold = (
        "\n".join(
            f"- {i.request} -> "
            + ", ".join(f"{a.name}({json.dumps(a.arguments, sort_keys=True)})" for a in i.actions)
            for i in task.intents
        )
        if task
        else "(task not available)"
    )
    reason = episode.breakdown.reason if episode.breakdown else "not scored"
    prompt = (
        f"# Task\n{task.instruction if task else ''}\n\n# Gold\n{gold}\n\n"
        f"# Conversation\n{transcript(episode)}\n\n# Outcome\nended: {episode.termination.value}; "
        f"reward {episode.reward}: {reason}\n\n# Automatic findings\n"
        + ("\n".join(f"- {f}" for f in findings) or "- none")
    )
    answer = await ask_json(judge, JUDGE_SYSTEM, prompt)
    if not answer:
        return None
    try:
        verdict = _Verdict.model_validate(answer)
    except ValidationError:
        return None  # a fault or category outside the lists: not usable
    return verdict.fault, verdict.category, verdict.explanation


async def failure_analysis(
    episodes: Sequence[Episode],
    tasks: Mapping[TaskKey, Task],
    kinds_for: KindsFor = tool_kinds,
    judge: ChatModel | None = None,
    hallucinations: HallucinationReport | None = None,
    empathy: EmpathyReport | None = None,
    policy: PolicyReport | None = None,
    exclude_hallucinated: bool = False,
    concurrency: int = 8,
) -> FailureReport:
    """Label every failed episode; judge only what the pre-checks leave open."""
    invented: dict[EpisodeKey, list[str]] = {}
    for row in hallucinations.episodes if hallucinations else []:
        invented[(row.domain, row.task_id, row.trial)] = [
            f.value for f in row.flags if f.source == "rule"
        ]
    empathetic = {
        (r.domain, r.task_id, r.trial): r.empathetic for r in (empathy.episodes if empathy else [])
    }
    rules = {
        (r.domain, r.task_id, r.trial): sorted({v.rule_id for v in r.violations})
        for r in (policy.episodes if policy else [])
    }
    drop = false_failures(hallucinations) if hallucinations and exclude_hallucinated else set()
    kept = [e for e in episodes if e.key not in drop]
    failed = [e for e in kept if not e.success]

    labels: list[FailureLabel] = []
    open_cases: list[tuple[int, Episode, Task | None]] = []
    for e in failed:
        task = tasks.get((e.domain, e.task_id))
        warm = empathetic.get(e.key)
        fault, category, findings = precheck(
            e,
            task,
            kinds_for(e.domain),
            episode_empathy(e).empathetic if warm is None else warm,
            invented.get(e.key, ()),
        )
        if rules.get(e.key):
            findings.append("policy checks broken: " + ", ".join(rules[e.key]))
        labels.append(
            FailureLabel(
                **episode_fields(e),
                termination=e.termination.value,
                fault=fault,
                category=category or "unresolved",
                source="precheck" if category else "none",
                evidence=findings,
            )
        )
        if category is None:
            open_cases.append((len(labels) - 1, e, task))

    if judge is not None and open_cases:
        verdicts = await gather_limited(
            (_judge(judge, e, t, labels[i].evidence) for i, e, t in open_cases), concurrency
        )
        for (i, _, _), verdict in zip(open_cases, verdicts, strict=True):
            if verdict is not None:
                fault, category, why = verdict
                labels[i] = labels[i].model_copy(
                    update={
                        "fault": fault,
                        "category": category,
                        "source": "judge",
                        "explanation": why,
                    }
                )

    n = len(labels)
    categories = Counter[str](label.category for label in labels)
    faults = Counter[str](label.fault or "unresolved" for label in labels)
    return FailureReport(
        method="precheck+judge" if judge is not None else "precheck",
        episodes=len(kept),
        failed=n,
        excluded=len(episodes) - len(kept),
        by_category={c: rate(categories[c], n) for c in CATEGORIES if categories[c]},
        by_fault={f: rate(faults[f], n) for f in (*FAULTS, "unresolved") if faults[f]},
        by_source=dict(Counter(label.source for label in labels)),
        labels=labels,
    )
