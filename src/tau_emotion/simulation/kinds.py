"""The kinds of agent and simulated user a run can field: the one place they are spelled.

The values are what ``--agent`` / ``--user`` accept and what a run's manifest stores (a
`StrEnum` member is its string, so files and command lines keep the plain names). Each kind
has exactly one builder, in `tau_emotion.runner.participants` (`AGENT_BUILDERS`,
`USER_BUILDERS`; a test checks both maps cover their enum), so adding a kind is one member
here and one entry there. The kinds live in `simulation` rather than `runner` because the
LLM user itself branches on its kind, and the simulation must not import the runner.
"""

from __future__ import annotations

from enum import StrEnum


class AgentKind(StrEnum):
    """How the agent plays: a model under one protocol, the gold solution, or a person."""

    TOOL_CALLING = "tool-calling"
    """Native function calling."""
    REACT = "react"
    """Text protocol: a thought, then an action line."""
    ACT = "act"
    """Text protocol: the action line only."""
    FEW_SHOT = "few-shot"
    """Native function calling with demonstration conversations in the system prompt."""
    ORACLE = "oracle"
    """Replays the gold actions: a ceiling and a validator; calls no model."""
    HUMAN = "human"
    """A person at the terminal."""
    DO_NOTHING = "do-nothing"
    """Gaming baseline: sympathetic talk, never a tool (docs/gaming.md)."""
    TRANSFER = "transfer"
    """Gaming baseline: hands off to a human at once, no authentication, no words."""
    YES_MAN = "yes-man"
    """Gaming baseline: the gold writes only, no reads, identity check or confirmation."""
    NO_CONFIRM = "no-confirm"
    """Gaming baseline: the oracle without its confirmations."""
    SAY_EVERYTHING = "say-everything"
    """Gaming baseline: the oracle plus one message listing every number its tools returned."""

    @property
    def needs_model(self) -> bool:
        """Whether this agent calls the agent model (the others get none)."""
        return self not in _MODEL_FREE_AGENTS


class UserKind(StrEnum):
    """How the customer is simulated: scripted, by an LLM under a strategy, or a person."""

    SCRIPTED = "scripted"
    """Deterministic emotional customer, offline."""
    LLM = "llm"
    """One model call per turn."""
    REACT = "react"
    """The model thinks privately (``Thought:``), then speaks (``Customer:``)."""
    VERIFY = "verify"
    """A supervisor call checks each reply; a failed reply is sampled again."""
    REFLECTION = "reflection"
    """A supervisor call checks each reply; a failed reply is reflected on and rewritten."""
    HUMAN = "human"
    """A person at the terminal."""

    @property
    def needs_model(self) -> bool:
        """Whether this user calls the user model (needs ``--user-model``)."""
        return self not in _MODEL_FREE_USERS

    @property
    def checks_replies(self) -> bool:
        """Whether a supervisor call checks every reply (verify and reflection)."""
        return self in (UserKind.VERIFY, UserKind.REFLECTION)


# Listed by what they lack, so that a new model-driven kind needs no entry here.
_MODEL_FREE_AGENTS = frozenset(
    {
        AgentKind.ORACLE,
        AgentKind.HUMAN,
        AgentKind.DO_NOTHING,
        AgentKind.TRANSFER,
        AgentKind.YES_MAN,
        AgentKind.NO_CONFIRM,
        AgentKind.SAY_EVERYTHING,
    }
)
_MODEL_FREE_USERS = frozenset({UserKind.SCRIPTED, UserKind.HUMAN})
