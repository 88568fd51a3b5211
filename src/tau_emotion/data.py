"""The data model: everything tau-emotion writes to disk or passes between parts.

Every model here is pydantic so that files are validated on the way in, and every field
carries a description so that the JSON schema documents the file formats.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Split = Literal["train", "test"]
Role = Literal["system", "user", "assistant", "tool"]

STOP_TOKEN = "###STOP###"
"""The simulated user ends the conversation satisfied with this token."""
UNSATISFIED_TOKEN = "###UNSATISFIED###"
"""The simulated user walks away dissatisfied with this token."""


class Frozen(BaseModel):
    """Base for pure data: immutable and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Action(Frozen):
    """One tool call that the gold solution of a task makes."""

    name: str = Field(description="Tool name, as in the domain's tool schemas.")
    arguments: dict[str, Any] = Field(
        default_factory=dict, description="Keyword arguments of the call."
    )


class Intent(Frozen):
    """One thing the customer wants done; a task holds one to three of them, in order."""

    request: str = Field(description="How the customer asks for it, in their own words.")
    actions: list[Action] = Field(
        default_factory=list, description="Gold tool calls that fulfil this intent, in order."
    )
    outputs: list[str] = Field(
        default_factory=list,
        description="Values the agent must tell the customer for this intent (e.g. a refund).",
    )


class Challenge(Frozen):
    """A request the policy forbids for this customer and record, recorded as data.

    The challenged intent's `request` asks for the `forbidden` writes; its gold `actions` are
    what a correct agent does instead: nothing that writes when the customer settles for the
    refusal, or the alternative the policy offers when the customer settles for that. The
    customer presses before settling (how hard depends on the emotion condition), so a
    correct agent refuses more than once.
    """

    intent: int = Field(ge=0, description="Index of the intent that asks for the forbidden writes.")
    rule_id: str = Field(
        description="Id of the domain policy check the forbidden writes break, "
        "e.g. 'airline.one_certificate_per_conversation'."
    )
    forbidden: list[Action] = Field(
        min_length=1, description="The writes the customer asks for that the policy forbids."
    )
    settles_for: Literal["refusal", "alternative"] = Field(
        description="'refusal': once done pressing, the customer accepts the no; "
        "'alternative': they accept the alternative the policy offers (the intent's gold writes)."
    )
    alternative: str | None = Field(
        default=None,
        description="The alternative in the customer's words, when settles_for is 'alternative'.",
    )

    @model_validator(mode="after")
    def _alternative_named_iff_settled_for(self) -> Challenge:
        if (self.settles_for == "alternative") != (self.alternative is not None):
            raise ValueError(
                "a challenge names its alternative exactly when it settles for the alternative"
            )
        return self


# The values of an emotion condition's three dimensions, spelled once: `emotions.space` orders
# its 594 conditions by these types' arguments. They live here, not in the space, because the
# space builds `EmotionSpec`s (it imports this module, which imports nothing of ours).
Politeness = Literal["warm", "neutral", "cold"]
Urgency = Literal["low", "moderate", "high"]
Trust = Literal["trusting", "cautious", "skeptical"]


class EmotionSpec(Frozen):
    """The emotion condition a simulated customer carries (see `tau_emotion.emotions`)."""

    condition_id: str = Field(
        description="Stable id of the condition, e.g. 'anger.frustration.cold.high.skeptical'."
    )
    family: str = Field(description="Emotion family: anger, fear, disgust, sadness or enjoyment.")
    emotion: str = Field(description="One of the 22 emotions.")
    politeness: Politeness = Field(description="Register of speech.")
    urgency: Urgency = Field(description="How pressed for time.")
    trust: Trust = Field(description="Trust in the agent.")
    instruction: str = Field(
        description="Second-person text telling the simulator how to feel and act."
    )


class Task(Frozen):
    """One customer-service task: who the customer is, what they want, and the gold solution."""

    id: str = Field(description="Unique within its domain.")
    domain: str = Field(description="Domain folder name, e.g. 'airline'.")
    split: Split = Field(
        description="'test' tasks are the benchmark; 'train' tasks feed training data."
    )
    user_id: str = Field(description="The customer's id in the domain database.")
    instruction: str = Field(
        description="What the simulated customer is told: goal, background and preferences."
    )
    known_facts: dict[str, str] = Field(
        default_factory=dict,
        description="Facts the customer knows and gives when asked (key: what, e.g. 'email').",
    )
    intents: list[Intent] = Field(min_length=1, description="What the customer wants, in order.")
    emotion: EmotionSpec | None = Field(
        default=None, description="Emotion condition; None is neutral."
    )
    feeling: str | None = Field(
        default=None, description="Free-text description of how this customer plausibly feels."
    )
    neutral_twin_id: str | None = Field(
        default=None, description="Id of the identical task without emotion, if any."
    )
    provenance: str = Field(
        default="seed", description="Where the task came from: 'seed' or a Tracer run."
    )
    challenge: Challenge | None = Field(
        default=None,
        description="The policy challenge the task poses (a request the policy forbids for "
        "this customer that the agent must refuse); None when the task poses none.",
    )

    @model_validator(mode="after")
    def _challenge_names_an_intent(self) -> Task:
        if self.challenge is not None and self.challenge.intent >= len(self.intents):
            raise ValueError(
                f"challenge.intent {self.challenge.intent} is not one of the task's "
                f"{len(self.intents)} intents"
            )
        return self

    def challenge_at(self, intent: int) -> Challenge | None:
        """The challenge that intent `intent` poses, if any."""
        c = self.challenge
        return c if c is not None and c.intent == intent else None

    @property
    def gold_actions(self) -> list[Action]:
        """All gold tool calls of all intents, in order."""
        return [action for intent in self.intents for action in intent.actions]

    @property
    def required_outputs(self) -> list[str]:
        """All values the agent must communicate, over all intents."""
        return [output for intent in self.intents for output in intent.outputs]

    @property
    def key(self) -> str:
        """Globally unique reference, 'domain/id'."""
        return f"{self.domain}/{self.id}"


class ToolCall(Frozen):
    """A tool call made by an agent, possibly malformed."""

    id: str = Field(description="Call id that the tool result refers back to.")
    name: str = Field(description="Tool name the agent asked for.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Parsed arguments.")
    parse_error: str | None = Field(
        default=None, description="Why the raw arguments could not be parsed, if they could not."
    )
    raw_arguments: str | None = Field(
        default=None, description="The argument string as the model sent it, when unparseable."
    )


class Usage(Frozen):
    """Token usage and cost of one or more model calls."""

    prompt_tokens: int = Field(default=0, description="Input tokens.")
    completion_tokens: int = Field(default=0, description="Output tokens.")
    cost_usd: float = Field(default=0.0, description="Cost in US dollars, when prices are known.")
    calls: int = Field(default=0, description="Number of model calls.")

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            calls=self.calls + other.calls,
        )


class Message(Frozen):
    """One message in a conversation; the role says which optional fields apply."""

    role: Role = Field(description="system, user, assistant or tool.")
    content: str | None = Field(default=None, description="Text of the message.")
    tool_calls: list[ToolCall] | None = Field(
        default=None, description="Assistant only: tool calls requested in this turn."
    )
    reasoning: str | None = Field(
        default=None, description="Assistant only: reasoning content from a thinking model."
    )
    tool_call_id: str | None = Field(default=None, description="Tool only: the call answered.")
    name: str | None = Field(default=None, description="Tool only: the tool that ran.")
    error: bool = Field(default=False, description="Tool only: the call was refused or invalid.")
    latency_s: float | None = Field(
        default=None, description="Seconds the participant took to produce this message."
    )
    usage: Usage | None = Field(default=None, description="Model usage for this message.")
    repairs: list[str] | None = Field(
        default=None,
        description="What was replaced in the model's output before it was stored (e.g. "
        "unencodable characters replaced with U+FFFD); None when nothing was.",
    )


class TerminationReason(StrEnum):
    """Why an episode ended."""

    USER_STOP = "user_stop"
    USER_UNSATISFIED = "user_unsatisfied"
    TRANSFER = "transfer"
    MAX_STEPS = "max_steps"
    AGENT_ERROR = "agent_error"
    USER_ERROR = "user_error"
    INFRA_ERROR = "infra_error"
    FRAMEWORK_ERROR = "framework_error"


class RewardBreakdown(Frozen):
    """How the reward was reached."""

    db_match: bool = Field(
        description="Final DB hash equals the hash after replaying the gold actions."
    )
    final_hash: str = Field(description="Hash of the DB at the end of the episode.")
    gold_hash: str = Field(description="Hash of the DB after replaying the gold actions.")
    outputs_missing: list[str] = Field(
        default_factory=list, description="Required outputs the agent never communicated."
    )
    dissatisfied: bool = Field(description="The user walked away dissatisfied.")
    reason: str = Field(description="One line explaining the reward.")
    policy_violations: list[str] = Field(
        default_factory=list,
        description="Ids of the domain's hard policy rules the trajectory broke, in order of "
        "first violation (they do not change the reward; see Episode.clean_success). Results "
        "written before this field load with it empty.",
    )

    @property
    def policy_audited(self) -> bool:
        """Whether the hard rules were checked: false for results written before
        `policy_violations` existed, whose empty list means "not looked at", not "clean"."""
        return "policy_violations" in self.model_fields_set


class ErrorKind(StrEnum):
    """What failed, as an `EpisodeError` records it (the episode loop's error model)."""

    AGENT = "agent"
    """The agent broke the protocol (`ParticipantError`): ends the episode as agent_error."""
    USER = "user"
    """The user simulator gave no usable reply (`ParticipantError`): user_error."""
    ENVIRONMENT = "environment"
    """The task's gold actions did not replay on its database: the task cannot be scored."""
    INFRA = "infra"
    """A model endpoint failed after its retries, or a Ray worker died: infra_error."""
    BUG = "bug"
    """An unexpected exception in a domain tool or the framework: framework_error."""


ERROR_TERMINATION: dict[ErrorKind, TerminationReason] = {
    ErrorKind.AGENT: TerminationReason.AGENT_ERROR,
    ErrorKind.USER: TerminationReason.USER_ERROR,
    ErrorKind.ENVIRONMENT: TerminationReason.FRAMEWORK_ERROR,
    ErrorKind.INFRA: TerminationReason.INFRA_ERROR,
    ErrorKind.BUG: TerminationReason.FRAMEWORK_ERROR,
}
"""How an episode that records each kind of error ends (a test checks every kind is here)."""


class EpisodeError(Frozen):
    """An error recorded on an episode (never raised out of the runner)."""

    kind: ErrorKind = Field(description="agent, user, environment, infra or bug.")
    message: str = Field(description="What went wrong.")


class Episode(Frozen):
    """One finished (task, trial): the whole conversation and its outcome."""

    task_id: str = Field(description="Task id within its domain.")
    domain: str = Field(description="Domain name.")
    trial: int = Field(description="Trial number, 0-based.")
    seed: int = Field(description="Seed of this episode.")
    emotion: EmotionSpec | None = Field(default=None, description="The user's emotion condition.")
    messages: list[Message] = Field(description="The conversation, system prompt first.")
    termination: TerminationReason = Field(description="Why the episode ended.")
    reward: float = Field(description="1.0 success, 0.0 failure, -1.0 dissatisfied exit.")
    breakdown: RewardBreakdown | None = Field(
        default=None, description="Reward details; None when the episode could not be scored."
    )
    errors: list[EpisodeError] = Field(default_factory=list, description="Errors along the way.")
    usage_agent: Usage = Field(default_factory=Usage, description="Agent model usage.")
    usage_user: Usage = Field(default_factory=Usage, description="User model usage.")
    duration_s: float = Field(default=0.0, description="Wall-clock seconds of the episode.")

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.domain, self.task_id, self.trial)

    @property
    def success(self) -> bool:
        return self.reward == 1.0

    @property
    def clean_success(self) -> bool:
        """Success with no hard policy rule broken (authentication, verification,
        confirmation before writes): the job done correctly, not just done."""
        return self.success and self.breakdown is not None and not self.breakdown.policy_violations


class RunManifest(BaseModel):
    """Saved beside a run's results: what was run, with which code, and when."""

    model_config = ConfigDict(extra="forbid")

    config: dict[str, Any] = Field(description="The resolved run configuration.")
    code_version: str = Field(description="Package version and git commit, when known.")
    started_at: str = Field(description="ISO-8601 UTC start time.")
    finished_at: str | None = Field(default=None, description="ISO-8601 UTC end time.")
    episodes_total: int = Field(default=0, description="(task, trial) pairs in the run.")
    episodes_done: int = Field(default=0, description="Episodes recorded so far.")
    warnings: list[str] = Field(
        default_factory=list,
        description="Problems the run noticed but did not stop for (e.g. an endpoint that "
        "never returns tool calls).",
    )
