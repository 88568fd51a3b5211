"""Failure taxonomy: who is at fault for each failed episode, and what went wrong.

Deterministic pre-checks settle the clear cases, in this order (the first that applies wins):

1. the episode ended in an error that is not the agent's (`ERROR_TERMINATIONS`): its ending
   is the category, as the metrics count it: `infra_error` (an endpoint failed) and
   `framework_error` (the task's gold replay failed, so it could not be scored, or a tool or
   the framework broke) -> environment; `user_error` (the simulator broke) -> user;
2. a value the simulated user invented (`analysis.hallucination`) is the value of an argument
   of a tool call, compared by normal form (`analysis.values`: "$230.00" is 230, but 72 is not
   part of flight LK722) -> user, `user_hallucination`;
3. an emotional customer walked away and no agent turn acknowledged their feelings
   (`analysis.empathy`) -> agent, `ignored_emotion`;
4. the final database differs from the gold one: compare the successful write calls with the
   task's gold write actions. A gold write whose tool was called with other arguments ->
   `wrong_arguments`; a gold write never done -> `missing_action` (also when it was called
   with the gold arguments and refused: the evidence says so); a write the gold does not have
   -> `extra_action`; the same writes in another order -> `wrong_action_order` (fault: agent,
   in each case);
5. the database matches but required outputs were not said -> agent, `incomplete_resolution`.

What is left goes to the judge (any `ChatModel`), which may also pick `misread_intent` and
`policy_violation`. A category with a fixed owner (`FIXED_FAULT`) must come with that fault;
without a judge, or when its answer is unusable (endpoint down, no JSON, a value outside the
lists, a fault the category contradicts), the label is `unresolved`. Proportions are over the
failed episodes considered, stated with that count.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError, model_validator

from tau_emotion.analysis.empathy import EmpathyReport, episode_empathy
from tau_emotion.analysis.hallucination import HallucinationReport, false_failures
from tau_emotion.analysis.judge import (
    JudgedReport,
    ask_json,
    gather_limited,
    judge_use,
    transcript,
)
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
from tau_emotion.analysis.values import extract_values
from tau_emotion.analysis.writes import write_diff
from tau_emotion.data import Episode, ErrorKind, Task, TerminationReason
from tau_emotion.domains.tools import ToolKind
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
# The error categories are spelled as the endings in `ERROR_TERMINATIONS` they stand for, so
# a failure label and the metrics' error counts (`GroupMetrics.errors`) name an episode alike.
ErrorCategory = Literal["infra_error", "framework_error", "user_error"]
Category = Literal[JudgeCategory, ErrorCategory, "unresolved"]
CATEGORIES: tuple[str, ...] = get_args(Category)  # Literal flattens the nested literals
FAULTS: tuple[str, ...] = get_args(Fault)
EpisodeKey = tuple[str, str, int]
FIXED_FAULT: dict[str, Fault] = {
    "wrong_action_order": "agent",
    "wrong_arguments": "agent",
    "missing_action": "agent",
    "extra_action": "agent",
    "incomplete_resolution": "agent",
    "ignored_emotion": "agent",
    "user_hallucination": "user",
    "infra_error": "environment",
    "framework_error": "environment",
    "user_error": "user",
}
"""Categories whose fault follows from what they say; only `misread_intent` and
`policy_violation` may be the agent's or the user's (a customer who changed their goal)."""
_ERROR_FAULT: dict[TerminationReason, tuple[Fault, ErrorCategory]] = {
    TerminationReason.INFRA_ERROR: ("environment", "infra_error"),
    TerminationReason.FRAMEWORK_ERROR: ("environment", "framework_error"),
    TerminationReason.USER_ERROR: ("user", "user_error"),
}

JUDGE_SYSTEM = f"""\
You diagnose failed customer-service conversations between an AI agent and a simulated
customer. The task (what the customer wanted and the gold tool calls that achieve it), the
conversation and the automatic findings follow. Decide who is at fault and the single main
category.
fault: "agent", "user" (the simulated customer misbehaved, e.g. invented facts or changed
goal) or "environment" (tools or infrastructure failed).
category, one of: {", ".join(get_args(JudgeCategory))}.
Every category but misread_intent and policy_violation has a fixed fault: user_hallucination
is the user's, the others the agent's; an answer that pairs them otherwise is discarded.
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

    @model_validator(mode="after")
    def _fault_fits(self) -> _Verdict:
        # "ignored_emotion" blamed on the environment would make the fault and category
        # counts contradict each other: such an answer is as unusable as an unknown category.
        owner = FIXED_FAULT.get(self.category)
        if owner is not None and owner != self.fault:
            raise ValueError(f"{self.category} is the {owner}'s, not the {self.fault}'s")
        return self


class FailureReport(JudgedReport):
    """Failure categories and faults, as proportions of the failed episodes considered."""

    method: Literal["precheck", "precheck+judge"] = Field(
        description="What labelled them: '+judge' only when the judge settled a label."
    )
    episodes: int = Field(description="Episodes in the run (after any exclusion).")
    failed: int = Field(description="Failed episodes labelled: the denominator below.")
    excluded: int = Field(description="Failed episodes left out as user-hallucination cases.")
    by_category: dict[str, Rate] = Field(description="Category -> share of failed episodes.")
    by_fault: dict[str, Rate] = Field(description="Fault ('unresolved' too) -> share.")
    by_source: dict[str, int] = Field(description="precheck / judge / none -> count.")
    labels: list[FailureLabel] = Field(description="One per failed episode.")


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [] if value is None else [str(value)]


def _argument_values(episode: Episode) -> set[tuple[str, str]]:
    """(kind, normal form) of every value in a tool call argument. Each argument's text is
    read whole, so a value inside a longer token (72 in flight LK722) is not one of them."""
    return {
        (v.kind, v.norm)
        for m in episode.messages
        for c in m.tool_calls or []
        for leaf in _leaves(c.arguments)
        for v in extract_values(leaf)
    }


def _reaches(value: str, arguments: set[tuple[str, str]]) -> bool:
    return any((v.kind, v.norm) in arguments for v in extract_values(value))


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
    if any(e.kind == ErrorKind.ENVIRONMENT for e in episode.errors):
        term = TerminationReason.FRAMEWORK_ERROR  # a gold replay that failed: never scored
    if term in ERROR_TERMINATIONS:
        owner, ending = _ERROR_FAULT[term]
        return owner, ending, [f"ended with {episode.termination.value}", *errors]
    findings = list(errors)
    if hallucinated:
        args = _argument_values(episode)
        reached = [v for v in hallucinated if _reaches(v, args)]
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
        differs, diff = write_diff(episode, task, kinds)
        findings += diff
        if differs is not None:
            return "agent", differs, findings
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

    use = None
    if judge is not None:
        verdicts = await gather_limited(
            (_judge(judge, e, t, labels[i].evidence) for i, e, t in open_cases), concurrency
        )
        use = judge_use(verdicts)
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
        method="precheck+judge" if use is not None and use.answered else "precheck",
        judge=use,
        episodes=len(kept),
        failed=n,
        excluded=len(episodes) - len(kept),
        by_category={c: rate(categories[c], n) for c in CATEGORIES if categories[c]},
        by_fault={f: rate(faults[f], n) for f in (*FAULTS, "unresolved") if faults[f]},
        by_source=dict(Counter(label.source for label in labels)),
        labels=labels,
    )
