"""Agents: an LLM with native tool calling, and the oracle that plays the gold actions."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tau_emotion.data import Action, Challenge, Message, Task, ToolCall
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.errors import TaskFileError
from tau_emotion.models.base import ChatModel
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users.challenge import is_settling

AGENT_INSTRUCTIONS = """\
You are a customer-service agent for this business. Follow the policy below exactly.
Use the tools to look up and change records; never invent information a tool has not given you.
Make at most one tool call at a time when a later call depends on an earlier result.
Before any action that changes a record, describe it and get the customer's explicit yes.
If the request is outside what the policy and tools allow, say so or transfer to a human agent
as the policy says.
"""


def agent_system_prompt(setup: EpisodeSetup) -> str:
    return f"{AGENT_INSTRUCTIONS}\n# Policy\n\n{setup.domain.policy}"


class ToolCallingAgent:
    """An LLM agent using native function calling: system prompt = instructions + policy."""

    def __init__(self, setup: EpisodeSetup, model: ChatModel) -> None:
        self._system = agent_system_prompt(setup)
        self._tools = setup.tool_schemas
        self.model = model

    def system_prompt(self) -> str:
        return self._system

    async def respond(self, messages: Sequence[Message]) -> Message:
        return await self.model.complete(messages, self._tools)


def describe_action(action: Action) -> str:
    args = ", ".join(f"{k}={json.dumps(v)}" for k, v in action.arguments.items())
    return f"{action.name.replace('_', ' ')} ({args})"


class OracleAgent:
    """Carries out the task's gold actions as the policy requires.

    Reads and terminal calls run at once; before each write it describes the action and
    waits for an explicit yes. After each intent it states that intent's outputs and asks
    whether there is anything else, which is the scripted user's cue for its next request.
    On an intent that poses a policy challenge it makes the intent's lookups, then refuses
    the forbidden request, citing the rule, as often as the customer presses, and goes on
    with the rest of the intent (the alternative, if the policy offers one) only once the
    customer settles. It is the ceiling for a run and the validator of generated tasks.
    """

    holds_policy = True
    """Refuse a challenge's forbidden request (a subclass that gives in sets this False)."""

    def __init__(self, setup: EpisodeSetup) -> None:
        self._setup = setup
        self._kinds = setup.domain.tool_kinds
        self._intents = setup.task.intents
        self._intent = 0
        self._action = 0
        self._awaiting_request = False  # intent finished; next user turn asks for the next one
        self._asked_confirmation = False
        self._calls = 0
        self._refusals = 0  # refusals of the current intent's challenge so far
        self._settled_intent = -1  # the intent whose challenge the customer settled

    def system_prompt(self) -> str:
        return agent_system_prompt(self._setup)

    async def respond(self, messages: Sequence[Message]) -> Message:
        last = messages[-1] if messages else None
        if self._awaiting_request and last is not None and last.role == "user":
            self._awaiting_request = False
            self._intent += 1
            self._action = 0
            self._refusals = 0
        if self._intent >= len(self._intents):
            return Message(role="assistant", content="Is there anything else I can help you with?")
        intent = self._intents[self._intent]
        refusal = self._refusal(last)
        if refusal is not None:
            return refusal
        if self._action < len(intent.actions):
            action = intent.actions[self._action]
            if self._kinds.get(action.name) == "write":
                if not self._asked_confirmation or last is None or last.role != "user":
                    self._asked_confirmation = True
                    return Message(
                        role="assistant",
                        content=f"To confirm, I am about to {describe_action(action)}. "
                        "Shall I proceed?",
                    )
                if not is_affirmative(last.content):
                    return Message(
                        role="assistant",
                        content=f"I need your explicit yes before I {describe_action(action)}. "
                        "Shall I proceed?",
                    )
                self._asked_confirmation = False
            self._action += 1
            return self._call(action)
        self._awaiting_request = True
        outputs = intent.outputs
        told = f" For your records: {'; '.join(outputs)}." if outputs else ""
        wrote = any(self._setup.domain.tool_kinds.get(a.name) == "write" for a in intent.actions)
        opening = "That is done." if wrote or self._refusals == 0 else "I understand."
        return Message(
            role="assistant",
            content=f"{opening}{told} Is there anything else I can help you with?",
        )

    def _refusal(self, last: Message | None) -> Message | None:
        """The refusal of the current intent's challenge, while the customer still presses.

        It comes once the lookups before the intent's first write are made (the agent has to
        see the record to know the request is forbidden) and repeats until a customer turn
        settles; None when there is nothing (left) to refuse.
        """
        challenge = self._setup.task.challenge_at(self._intent) if self.holds_policy else None
        if challenge is None or self._settled_intent == self._intent:
            return None
        intent = self._intents[self._intent]
        # The domain's kinds, not self._kinds: a subclass may hide writes from the oracle's
        # confirmation logic, but what is a lookup does not change.
        kinds = self._setup.domain.tool_kinds
        if (
            self._action < len(intent.actions)
            and kinds.get(intent.actions[self._action].name) != "write"
        ):
            return None  # lookups first
        if (
            self._refusals
            and last is not None
            and last.role == "user"
            and is_settling(last.content)
        ):
            self._settled_intent = self._intent
            return None
        self._refusals += 1
        return Message(role="assistant", content=self._refusal_text(challenge, intent.actions))

    def _refusal_text(self, challenge: Challenge, actions: Sequence[Action]) -> str:
        rules = {check.rule_id: check.description for check in self._setup.domain.checks}
        rule = rules.get(challenge.rule_id, "our policy does not allow it").rstrip(".")
        policy = f"Our policy: {rule[0].lower()}{rule[1:]}."
        if self._refusals == 1:
            asked = describe_action(challenge.forbidden[0])
            text = (
                "I'm sorry, I know this is not what you were hoping for, but I can't "
                f"{asked}. {policy}"
            )
        else:
            text = (
                f"I do understand, and I'm sorry, but I'm not able to make an exception. {policy}"
            )
        kinds = self._setup.domain.tool_kinds
        offer = next((a for a in actions[self._action :] if kinds.get(a.name) == "write"), None)
        if offer is not None:
            text += f" What I can do instead is {describe_action(offer)}."
        return text

    def _call(self, action: Action) -> Message:
        self._calls += 1
        arguments: dict[str, Any] = dict(action.arguments)
        call = ToolCall(id=f"call_{self._calls}", name=action.name, arguments=arguments)
        return Message(role="assistant", tool_calls=[call])


class Demonstration(list[Message]):
    """One demonstration conversation, with the task it comes from when its record says.

    A list of messages (what the few-shot agent renders) that also remembers the record's
    `domain` and `task_id`, so the agent can leave out demonstrations of the task under test.
    """

    def __init__(
        self, messages: Iterable[Message], domain: str | None = None, task_id: str | None = None
    ) -> None:
        super().__init__(messages)
        self.domain = domain
        self.task_id = task_id


NEUTRAL_SUFFIX = "-neutral"
"""How a test task's neutral twin is named: ``<id>-neutral`` (see `Task.neutral_twin_id`)."""


def task_family(task_id: str) -> str:
    """The id shared by a task and its neutral twin: the task id without the twin suffix."""
    return task_id.removesuffix(NEUTRAL_SUFFIX)


def load_demonstrations(path: Path) -> list[list[Message]]:
    """Conversations from a JSONL file of episode records or ``{"messages": [...]}`` lines.

    Each is a `Demonstration`, carrying the record's ``domain`` and ``task_id`` when given.
    """
    demos: list[list[Message]] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                messages = [Message.model_validate(m) for m in record["messages"]]
            except (json.JSONDecodeError, KeyError, TypeError, ValidationError) as exc:
                raise TaskFileError(
                    f"{path}:{lineno}: not a demonstration (need a 'messages' list): {exc}"
                ) from None
            demos.append(
                Demonstration(
                    messages, _text_field(record, "domain"), _text_field(record, "task_id")
                )
            )
    if not demos:
        raise TaskFileError(f"{path} holds no demonstrations")
    return demos


def _text_field(record: Any, key: str) -> str | None:
    value = record.get(key) if isinstance(record, dict) else None
    return value if isinstance(value, str) else None


def shows_task(demo: Sequence[Message], task: Task) -> bool:
    """Whether `demo` is a conversation about `task` itself: the same task id in the same
    domain (any trial), or its neutral twin / emotional variant (the same gold actions).

    A demonstration whose record names no task id cannot be matched and counts as unrelated;
    one that names no domain is matched on the id alone.
    """
    if not isinstance(demo, Demonstration) or demo.task_id is None:
        return False
    if demo.domain is not None and demo.domain != task.domain:
        return False
    ids = {task.id, task_family(task.id)}
    if task.neutral_twin_id is not None:
        ids.add(task.neutral_twin_id)
    return demo.task_id in ids or task_family(demo.task_id) in ids


def render_demonstration(messages: Sequence[Message]) -> str:
    lines = []
    for m in messages:
        if m.role == "user":
            lines.append(f"Customer: {m.content}")
        elif m.role == "assistant" and m.tool_calls:
            lines += [f"Agent calls {c.name}({json.dumps(c.arguments)})" for c in m.tool_calls]
        elif m.role == "assistant":
            lines.append(f"Agent: {m.content}")
        elif m.role == "tool":
            lines.append(f"Result: {(m.content or '')[:300]}")
    return "\n".join(lines)


class FewShotAgent(ToolCallingAgent):
    """A tool-calling agent whose system prompt ends with k example conversations.

    Demonstrations of the task under test, in any trial, and of its neutral twin or
    emotional variant are never among them (`shows_task`); when that leaves fewer than k,
    the prompt holds the rest, and with none left it is the plain tool-calling prompt.
    """

    def __init__(
        self, setup: EpisodeSetup, model: ChatModel, demos: Sequence[Sequence[Message]], k: int = 3
    ) -> None:
        super().__init__(setup, model)
        # A demonstration of the task under test (or its twin) would hand the agent the gold
        # calls, ids and arguments: never show one. Fewer than k may remain; then all do.
        pool = [d for d in demos if not shows_task(d, setup.task)]
        self.excluded = len(demos) - len(pool)
        """How many demonstrations were left out as showing the task under test."""
        chosen = random.Random(setup.seed).sample(pool, min(k, len(pool)))
        self.shown = len(chosen)
        """How many demonstrations the prompt holds (fewer than k when the pool ran short)."""
        if chosen:
            examples = "\n\n".join(
                f"## Example {i}\n{render_demonstration(d)}" for i, d in enumerate(chosen, 1)
            )
            self._system += f"\n# Example conversations\n\n{examples}\n"
