"""What the episode browser shows: each conversation with the analyses' notes attached.

The system prompt (policy included) is the same for every episode of a domain and agent, so
it is stored once per distinct text and referenced by key; that keeps a report of hundreds of
episodes a few megabytes instead of tens.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from tau_emotion.analysis.empathy import EpisodeEmpathy
from tau_emotion.analysis.failures import FailureLabel
from tau_emotion.analysis.hallucination import HallucinationFlag
from tau_emotion.analysis.runs import ERROR_TERMINATIONS, TaskKey, family_of
from tau_emotion.analysis.tooluse import LookupableAsk, TrajectoryToolUse
from tau_emotion.data import (
    Episode,
    EpisodeError,
    Message,
    RewardBreakdown,
    Task,
    TerminationReason,
)
from tau_emotion.domains.checks import Violation
from tau_emotion.emotions.space import NEUTRAL

Outcome = Literal["success", "failed", "walked_away", "error"]
EpisodeKey = tuple[str, str, int]


class CallView(BaseModel):
    """One tool call as the browser shows it."""

    id: str = Field(description="Call id.")
    name: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(description="Parsed arguments.")
    parse_error: str | None = Field(default=None, description="Why arguments did not parse.")


class MessageView(BaseModel):
    """One message, without usage and timing."""

    role: str = Field(description="system (text left out: see `system`), user, assistant, tool.")
    content: str | None = Field(default=None, description="Text.")
    tool_calls: list[CallView] = Field(default_factory=list, description="Assistant tool calls.")
    name: str | None = Field(default=None, description="Tool: the tool that ran.")
    error: bool = Field(default=False, description="Tool: the call was refused.")
    reasoning: str | None = Field(default=None, description="Assistant reasoning, if any.")


class EpisodeView(BaseModel):
    """One episode in the browser, with every analysis note about it."""

    id: int = Field(description="Position in the report's episode list.")
    run: str = Field(description="Run label.")
    domain: str = Field(description="Domain.")
    task_id: str = Field(description="Task id.")
    trial: int = Field(description="Trial.")
    family: str = Field(description=f"Emotion family ({NEUTRAL!r} when neutral).")
    condition: str | None = Field(description="Emotion condition id.")
    outcome: Outcome = Field(description="success, failed, walked_away or error.")
    reward: float = Field(description="Reward.")
    termination: str = Field(description="Why it ended.")
    breakdown: RewardBreakdown | None = Field(description="Reward breakdown.")
    errors: list[EpisodeError] = Field(description="Recorded errors.")
    instruction: str | None = Field(description="The task's instruction, when the task is known.")
    system: str = Field(description="Key of the system prompt in ReportData.system_prompts.")
    messages: list[MessageView] = Field(
        description="The conversation; indices match the notes' message indices."
    )
    tool_calls: int = Field(description="Tool calls.")
    follow_ups: int = Field(description="Follow-up questions to the customer.")
    lookupable: list[LookupableAsk] = Field(description="Questions the agent could have avoided.")
    empathy_turns: list[int] = Field(description="Message indices acknowledging feelings.")
    violations: list[Violation] = Field(description="Policy violations.")
    failure: FailureLabel | None = Field(description="Failure label, for failed episodes.")
    hallucinations: list[HallucinationFlag] = Field(description="User hallucination flags.")


def outcome(episode: Episode) -> Outcome:
    if episode.success:
        return "success"
    if episode.termination == TerminationReason.USER_UNSATISFIED:
        return "walked_away"
    if episode.termination in ERROR_TERMINATIONS:
        return "error"
    return "failed"


def _message_view(message: Message) -> MessageView:
    return MessageView(
        role=message.role,
        content=None if message.role == "system" else message.content,
        tool_calls=[
            CallView(id=c.id, name=c.name, arguments=c.arguments, parse_error=c.parse_error)
            for c in message.tool_calls or []
        ],
        name=message.name,
        error=message.error,
        reasoning=message.reasoning,
    )


def prompt_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def episode_view(
    index: int,
    run: str,
    episode: Episode,
    task: Task | None,
    prompts: dict[str, str],
    tool_use: TrajectoryToolUse | None = None,
    empathy: EpisodeEmpathy | None = None,
    violations: Sequence[Violation] = (),
    failure: FailureLabel | None = None,
    hallucinations: Sequence[HallucinationFlag] = (),
) -> EpisodeView:
    """The browser's view of one episode; adds its system prompt to `prompts`."""
    system = next((m.content or "" for m in episode.messages if m.role == "system"), "")
    key = prompt_key(system)
    prompts.setdefault(key, system)
    # The system message stays as an empty placeholder so the analyses' message indices
    # point at the same messages in the view.
    return EpisodeView(
        id=index,
        run=run,
        domain=episode.domain,
        task_id=episode.task_id,
        trial=episode.trial,
        family=family_of(episode),
        condition=episode.emotion.condition_id if episode.emotion else None,
        outcome=outcome(episode),
        reward=episode.reward,
        termination=episode.termination.value,
        breakdown=episode.breakdown,
        errors=episode.errors,
        instruction=task.instruction if task else None,
        system=key,
        messages=[_message_view(m) for m in episode.messages],
        tool_calls=tool_use.tool_calls if tool_use else 0,
        follow_ups=tool_use.follow_ups if tool_use else 0,
        lookupable=tool_use.lookupable if tool_use else [],
        empathy_turns=empathy.turns if empathy else [],
        violations=list(violations),
        failure=failure,
        hallucinations=list(hallucinations),
    )


class _Keyed(Protocol):
    @property
    def domain(self) -> str: ...
    @property
    def task_id(self) -> str: ...
    @property
    def trial(self) -> int: ...


K = TypeVar("K", bound=_Keyed)


def index_by_key(rows: Sequence[K]) -> dict[EpisodeKey, K]:
    """Analysis rows (anything with domain, task_id, trial) by episode key."""
    return {(r.domain, r.task_id, r.trial): r for r in rows}


def task_for(tasks: Mapping[TaskKey, Task], episode: Episode) -> Task | None:
    return tasks.get((episode.domain, episode.task_id))
