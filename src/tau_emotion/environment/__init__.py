"""The environment: a fresh database state per episode, tool dispatch, and state hashing."""

from __future__ import annotations

import json
from typing import Any

from tau_emotion.data import Action, Message, Task, ToolCall
from tau_emotion.domains import Domain, load_domain
from tau_emotion.domains.state import State
from tau_emotion.domains.tools import ToolKind, ToolSet, to_text
from tau_emotion.errors import DomainError, ToolError


class Environment:
    """One domain database as an episode sees it. `reset` is O(rows written last episode)."""

    def __init__(self, domain: Domain | str, variant: str) -> None:
        self.domain = load_domain(domain) if isinstance(domain, str) else domain
        self.variant = variant
        db, digest = self.domain.load_db(variant)
        self.state = State(db, digest)
        self.tools = self.domain.toolset(self.state)
        self._kinds = self.domain.tool_kinds

    @classmethod
    def for_task(cls, task: Task) -> Environment:
        domain = load_domain(task.domain)
        return cls(domain, domain.variant_for(task.split))

    def reset(self) -> None:
        self.state.reset()

    def fresh_tools(self) -> ToolSet:
        """The tools over another fresh copy of this environment's starting database, apart
        from the episode's own state (judged policy checks replay writes on it)."""
        return self.domain.fresh_tools(self.variant)

    def kind(self, tool_name: str) -> ToolKind | None:
        return self._kinds.get(tool_name)

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """Run one tool; raises `ToolError` on refusal, unknown tools and invalid arguments."""
        return self.tools.invoke(name, arguments)

    def execute(self, call: ToolCall) -> Message:
        """Run an agent's tool call and return the tool message; refusals become error text."""
        try:
            if call.parse_error is not None:
                raise ToolError(
                    f"could not parse the arguments of {call.name}: {call.parse_error}; "
                    "send a JSON object"
                )
            content = to_text(self.call(call.name, call.arguments))
            error = False
        except ToolError as exc:
            content, error = f"Error: {exc}", True
        return Message(
            role="tool", content=content, tool_call_id=call.id, name=call.name, error=error
        )

    def hash(self) -> str:
        return self.state.digest()

    def replay(self, actions: list[Action]) -> str:
        """Reset, run the actions in order, and return the resulting hash.

        A gold action that a tool refuses means the task itself is broken: raise `DomainError`.
        """
        self.reset()
        for i, action in enumerate(actions):
            try:
                self.call(action.name, dict(action.arguments))
            except ToolError as exc:
                raise DomainError(
                    f"gold action {i} ({action.name} {json.dumps(action.arguments)}) failed: {exc}"
                ) from None
        digest = self.hash()
        self.reset()
        return digest


_GOLD_CACHE: dict[tuple[str, str, str, str], str] = {}


def gold_hash(task: Task, env: Environment | None = None) -> str:
    """Hash after replaying the task's gold actions on a fresh DB; computed once per task."""
    actions_key = json.dumps([a.model_dump() for a in task.gold_actions], sort_keys=True)
    env = env or Environment.for_task(task)
    key = (task.domain, env.variant, task.id, actions_key)
    if key not in _GOLD_CACHE:
        _GOLD_CACHE[key] = env.replay(task.gold_actions)
    return _GOLD_CACHE[key]
