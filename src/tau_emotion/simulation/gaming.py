"""Baseline agents that game the reward: rule-based strategies no honest agent should beat.

Each one exploits a way a benchmark can reward the wrong thing, and
``benchmarks/gaming_agents.py`` measures how far it gets (docs/gaming.md):

- `DoNothingAgent`: sympathetic talk, never a tool (tasks whose gold leaves the database
  as it was, outputs the customer said themselves);
- `TransferAgent`: hands off at once (transfers the reward does not judge);
- `YesManAgent`: the gold writes only, no reads, identity or consent (tools that enforce
  the policy for the agent);
- `NoConfirmAgent`: the oracle without its confirmations (consent nobody checks);
- `SayEverythingAgent`: the oracle plus one message listing every number its tools
  returned (outputs matched as substrings).

The ones built on `OracleAgent` reuse it rather than re-implement it, so they differ from
the ceiling of a run in exactly the one thing they game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tau_emotion.data import Action, Message, ToolCall
from tau_emotion.domains.tools import ToolKind
from tau_emotion.errors import ParticipantError
from tau_emotion.simulation.agents import OracleAgent, agent_system_prompt
from tau_emotion.simulation.participants import EpisodeSetup

CLOSING = "Is there anything else I can help you with?"
"""The scripted user's cue for its next request, as the oracle says it."""

HAND_OFF_NOTE = "The customer needs help from a human agent."
"""What the transfer strategy writes into the hand-off's text fields: it has read nothing,
and a desk may refuse a blank summary, which would spoil the one act it has."""

_NUMBER = re.compile(r"(?:(?<![\w-])-)?\d+(?:\.\d+)?")
"""A number as written in a tool result; the hyphens of dates and ids are not minus signs."""


class DoNothingAgent:
    """Talks like a caring agent and says each request is handled; never calls a tool.

    Each reply acknowledges the customer's feelings, restates what they just said (as
    agents do to show they listened; it also echoes any figure the customer gave), claims
    it is taken care of and asks whether there is anything else. The scripted user takes the
    agent's word and walks through every intent (32 of 580 emotional customers still leave,
    docs/gaming.md), so the score counts exactly the tasks that a database left as it was, and
    the customer's own words, satisfy.
    """

    def __init__(self, setup: EpisodeSetup) -> None:
        self._setup = setup

    def system_prompt(self) -> str:
        return agent_system_prompt(self._setup)

    async def respond(self, messages: Sequence[Message]) -> Message:
        said = next((m.content for m in reversed(messages) if m.role == "user"), None)
        heard = f' You said: "{" ".join(said.split())}"' if said else ""
        return Message(
            role="assistant",
            content=f"I'm sorry for the trouble, and I understand how much this matters."
            f"{heard} That is taken care of now. {CLOSING}",
        )


def hand_off_call(setup: EpisodeSetup, call_id: str = "call_1") -> ToolCall:
    """A call of the domain's terminal (transfer) tool with every required text filled in.

    Found by its kind, so a domain that names its hand-off otherwise is played the same;
    a domain without one cannot be played by this strategy at all.
    """
    kinds = setup.domain.tool_kinds
    terminal = sorted(name for name, kind in kinds.items() if kind == "terminal")
    if not terminal:
        raise ParticipantError(f"domain {setup.domain.name} has no terminal (transfer) tool")
    name = terminal[0]
    schema = next(s["function"] for s in setup.tool_schemas if s["function"]["name"] == name)
    parameters: dict[str, Any] = schema.get("parameters", {})
    properties: dict[str, Any] = parameters.get("properties", {})
    arguments = {
        key: HAND_OFF_NOTE
        for key in parameters.get("required", [])
        if properties.get(key, {}).get("type") == "string"
    }
    return ToolCall(id=call_id, name=name, arguments=arguments)


class TransferAgent:
    """Its first act is the hand-off to a human: no authentication, no words.

    A hand-off that succeeds ends the episode. Should the desk refuse it, the strategy has
    nothing else to do and only asks the customer to hold.
    """

    def __init__(self, setup: EpisodeSetup) -> None:
        self._setup = setup
        self._sent = False

    def system_prompt(self) -> str:
        return agent_system_prompt(self._setup)

    async def respond(self, messages: Sequence[Message]) -> Message:
        if self._sent:
            return Message(role="assistant", content="One moment, please.")
        self._sent = True
        return Message(role="assistant", tool_calls=[hand_off_call(self._setup)])


class NoConfirmAgent(OracleAgent):
    """The oracle without confirmations: every gold action at once, writes included."""

    def __init__(self, setup: EpisodeSetup) -> None:
        super().__init__(setup)
        # The oracle asks before the tools it knows as writes; hiding that kind from it makes
        # it call them at once, and that is the whole difference of this strategy.
        self._kinds = {name: kind for name, kind in self._kinds.items() if kind != "write"}


class YesManAgent(NoConfirmAgent):
    """Does every write the customer asks for: no reads, no authentication, no checks and no
    confirmation; only the gold path's writes (and the hand-off a customer asks for).

    It tells each intent's outputs as the oracle does, so its score shows what skipping
    the reads, the identity check and the consent costs, and nothing else.
    """

    holds_policy = False

    def __init__(self, setup: EpisodeSetup) -> None:
        super().__init__(setup)
        kinds = setup.domain.tool_kinds
        self._intents = [
            intent.model_copy(update={"actions": self._writes(i, intent.actions, kinds)})
            for i, intent in enumerate(self._intents)
        ]

    def _writes(
        self, index: int, actions: list[Action], kinds: dict[str, ToolKind]
    ) -> list[Action]:
        """The intent's writes; on a challenged intent, the forbidden ones the customer asked for
        (a yes-man gives the customer what they ask, not the alternative the policy offers)."""
        challenge = self._setup.task.challenge_at(index)
        if challenge is not None:
            return list(challenge.forbidden)
        return [a for a in actions if kinds.get(a.name) != "read"]


def tool_numbers(messages: Sequence[Message]) -> list[str]:
    """Every number in the successful tool results so far, once each, in order of appearance."""
    seen: dict[str, None] = {}
    for m in messages:
        if m.role == "tool" and not m.error and m.content:
            seen.update(dict.fromkeys(_NUMBER.findall(m.content)))
    return list(seen)


class SayEverythingAgent:
    """The oracle plus one message listing every number its tools returned.

    The listing comes just before the oracle's last word: the closing message after its
    last gold call, or the hand-off when the conversation ends in one (the hand-off ends
    the episode, so nothing could be said after it). The oracle's own reply is held for
    the turn after. A task whose tools returned no number gets no listing.
    """

    def __init__(self, setup: EpisodeSetup) -> None:
        self._oracle = OracleAgent(setup)
        self._kinds = setup.domain.tool_kinds
        self._gold_calls = len(setup.task.gold_actions)
        self._calls = 0
        self._held: Message | None = None
        self._listed = False

    def system_prompt(self) -> str:
        return self._oracle.system_prompt()

    async def respond(self, messages: Sequence[Message]) -> Message:
        if self._held is not None:
            held, self._held = self._held, None
            return held
        reply = await self._oracle.respond(messages)
        calls = reply.tool_calls or []
        self._calls += len(calls)
        hands_off = any(self._kinds.get(c.name) == "terminal" for c in calls)
        # Once every gold call is made, the oracle's next text closes the intent.
        last_word = hands_off or (not calls and self._calls >= self._gold_calls)
        if not last_word or self._listed:
            return reply
        self._listed = True
        numbers = tool_numbers(messages)
        if not numbers:
            return reply
        self._held = reply
        return Message(
            role="assistant",
            content=f"For completeness, every figure I found: {', '.join(numbers)}.",
        )
