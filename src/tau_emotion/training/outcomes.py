"""Outcome classes of rollouts, and the summary a collection reports.

A rollout is exactly one of:

- **success**: the benchmark's reward is 1.0 (final DB equals the gold replay and every
  required output was communicated), the user did not walk away, the episode recorded no
  error, it ended before the step budget, and it broke no hard policy rule. An episode cut
  short by an endpoint failure or by ``max_steps`` can still match the gold state, but its
  conversation ends mid-way (often on a tool call whose result never came), so it is not
  training data and counts as failed.
- **violated**: everything a success needs, but the episode broke a hard policy rule
  (``breakdown.policy_violations``: no authentication, no confirmation before a write, ...).
  The job got done, not done correctly (`Episode.clean_success` is false); a model trained on
  it would learn to break the policy its own system prompt states, so it never enters a mix
  or an export.
- **dissatisfied**: the simulated user walked away (``###UNSATISFIED###``).
- **failed**: everything else (wrong final state, outputs not given, max steps, a transfer
  the task did not call for, errors). A transfer needs no rule of its own here: the hand-off
  tool writes a record, so a transfer outside the gold actions leaves a final state that
  differs from the gold replay (reward 0.0), while one the gold actions contain can succeed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.analysis.runs import family_of
from tau_emotion.analysis.stats import mean_or_none
from tau_emotion.data import Episode, Frozen, Task, TerminationReason
from tau_emotion.emotions.space import NEUTRAL


class Outcome(StrEnum):
    """The class of one rollout."""

    SUCCESS = "success"
    VIOLATED = "violated"
    FAILED = "failed"
    DISSATISFIED = "dissatisfied"


def classify(episode: Episode) -> Outcome:
    """The outcome class of a rollout (see the module docstring)."""
    if episode.termination == TerminationReason.USER_UNSATISFIED:
        return Outcome.DISSATISFIED
    # The reward judges only the final state, so a conversation the step budget cut off can
    # still score 1.0; its last turn is often a tool call that never got its result.
    if (
        episode.reward != 1.0
        or episode.errors
        or episode.termination == TerminationReason.MAX_STEPS
    ):
        return Outcome.FAILED
    # The reward leaves policy out on purpose (comparable with the paper); training data may not.
    if violations(episode):
        return Outcome.VIOLATED
    return Outcome.SUCCESS


def violations(episode: Episode) -> list[str]:
    """The hard policy rules the episode broke ([] when none, or when it was not scored)."""
    return list(episode.breakdown.policy_violations) if episode.breakdown is not None else []


def tool_call_count(episode: Episode) -> int:
    """Tool calls the agent made in a rollout, malformed ones included."""
    return sum(len(m.tool_calls or []) for m in episode.messages if m.role == "assistant")


class RolloutRecord(Frozen):
    """One line of ``outcomes.jsonl``: a rollout's class and the numbers the summary uses."""

    domain: str = Field(description="Domain name.")
    task_id: str = Field(description="Task id within its domain.")
    trial: int = Field(description="Trial number, 0-based.")
    outcome: Outcome = Field(description="success, violated, failed or dissatisfied.")
    reward: float = Field(description="The benchmark reward of the episode.")
    termination: TerminationReason = Field(description="Why the episode ended.")
    family: str = Field(description=f"Emotion family of the user, or {NEUTRAL!r}.")
    emotion: str | None = Field(default=None, description="The user's emotion, if any.")
    tool_calls: int = Field(description="Tool calls the agent made.")
    gold_actions: int | None = Field(
        default=None, description="Length of the task's reference trajectory (gold actions)."
    )
    has_reasoning: bool = Field(description="Some assistant turn carries reasoning content.")
    errors: int = Field(default=0, description="Errors recorded on the episode.")
    policy_violations: list[str] = Field(
        default_factory=list, description="Hard policy rules the episode broke, if any."
    )


def rollout_record(episode: Episode, task: Task | None) -> RolloutRecord:
    return RolloutRecord(
        domain=episode.domain,
        task_id=episode.task_id,
        trial=episode.trial,
        outcome=classify(episode),
        reward=episode.reward,
        termination=episode.termination,
        family=family_of(episode),
        emotion=episode.emotion.emotion if episode.emotion is not None else None,
        tool_calls=tool_call_count(episode),
        gold_actions=len(task.gold_actions) if task is not None else None,
        has_reasoning=any(m.reasoning for m in episode.messages if m.role == "assistant"),
        errors=len(episode.errors),
        policy_violations=violations(episode),
    )


class ClassCounts(BaseModel):
    """Rollouts per outcome class in one group."""

    model_config = ConfigDict(extra="forbid")

    success: int = 0
    violated: int = 0
    failed: int = 0
    dissatisfied: int = 0
    total: int = 0

    @property
    def success_rate(self) -> float:
        return self.success / self.total if self.total else 0.0

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.value, getattr(self, outcome.value) + 1)
        self.total += 1


class CollectSummary(BaseModel):
    """``collect_summary.json``: what a collection produced, by class, domain and family."""

    model_config = ConfigDict(extra="forbid")

    run_dir: str = Field(description="The collection's run directory.")
    user_exit: bool = Field(description="Whether the user could walk away dissatisfied.")
    agent: str = Field(description="Agent strategy.")
    agent_model: str | None = Field(default=None, description="Agent model name, if any.")
    user: str = Field(description="User simulator.")
    user_model: str | None = Field(default=None, description="User model name, if any.")
    max_steps: int = Field(description="Message budget per episode.")
    trials: int = Field(description="Rollouts per task.")
    tasks: int = Field(description="Distinct tasks in the collection.")
    overall: ClassCounts = Field(description="Counts over all rollouts.")
    by_domain: dict[str, ClassCounts] = Field(description="Counts per domain.")
    by_family: dict[str, ClassCounts] = Field(description="Counts per emotion family.")
    with_errors: int = Field(description="Rollouts that recorded an error (counted as failed).")
    mean_tool_calls_success: float | None = Field(
        default=None, description="Mean tool calls per successful rollout."
    )
    mean_gold_actions_success: float | None = Field(
        default=None, description="Mean reference length (gold actions) of the same rollouts."
    )
    mean_gold_actions_all: float | None = Field(
        default=None, description="Mean reference length over all tasks of the collection."
    )


def summarize(
    records: list[RolloutRecord],
    tasks: Mapping[tuple[str, str], Task],
    *,
    run_dir: str,
    user_exit: bool,
    agent: str,
    agent_model: str | None,
    user: str,
    user_model: str | None,
    max_steps: int,
    trials: int,
) -> CollectSummary:
    """Counts per class overall, per domain and per family; tool calls against gold length."""
    overall = ClassCounts()
    by_domain: dict[str, ClassCounts] = defaultdict(ClassCounts)
    by_family: dict[str, ClassCounts] = defaultdict(ClassCounts)
    for r in records:
        overall.add(r.outcome)
        by_domain[r.domain].add(r.outcome)
        by_family[r.family].add(r.outcome)
    wins = [r for r in records if r.outcome == Outcome.SUCCESS]
    return CollectSummary(
        run_dir=run_dir,
        user_exit=user_exit,
        agent=agent,
        agent_model=agent_model,
        user=user,
        user_model=user_model,
        max_steps=max_steps,
        trials=trials,
        tasks=len({(r.domain, r.task_id) for r in records}),
        overall=overall,
        by_domain=dict(sorted(by_domain.items())),
        by_family=dict(sorted(by_family.items())),
        with_errors=sum(r.errors > 0 for r in records),
        mean_tool_calls_success=mean_or_none(r.tool_calls for r in wins),
        mean_gold_actions_success=mean_or_none(
            r.gold_actions for r in wins if r.gold_actions is not None
        ),
        mean_gold_actions_all=mean_or_none(len(t.gold_actions) for t in tasks.values()),
    )
