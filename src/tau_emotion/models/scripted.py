"""A deterministic scripted model for tests and benchmarks: no network, no randomness."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tau_emotion.data import Message, ToolCall, Usage
from tau_emotion.errors import ModelError

Script = Callable[[Sequence[Message], Sequence[dict[str, Any]] | None], Message | str]


class ScriptedModel:
    """Replies from a list (in order) or from a function of the conversation.

    A reply may be a `Message`, a plain string (an assistant text), or a `ModelError`
    instance, which is raised to simulate an endpoint failure.
    """

    def __init__(
        self, replies: Sequence[Message | str | ModelError] | Script, name: str = "scripted"
    ) -> None:
        self.name = name
        self._replies = replies
        self._index = 0
        self.requests: list[tuple[list[Message], list[dict[str, Any]] | None]] = []

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        self.requests.append((list(messages), list(tools) if tools is not None else None))
        if callable(self._replies):
            reply: Message | str | ModelError = self._replies(messages, tools)
        else:
            if self._index >= len(self._replies):
                raise ModelError(f"scripted model {self.name!r} ran out of replies")
            reply = self._replies[self._index]
            self._index += 1
        if isinstance(reply, ModelError):
            raise reply
        if isinstance(reply, str):
            reply = Message(role="assistant", content=reply)
        usage = Usage(prompt_tokens=sum(len(m.content or "") // 4 for m in messages), calls=1)
        return reply.model_copy(update={"usage": usage, "latency_s": 0.0})


def tool_call(name: str, call_id: str = "call_0", **arguments: Any) -> Message:
    """An assistant message with one tool call (a convenience for scripts)."""
    return Message(
        role="assistant", tool_calls=[ToolCall(id=call_id, name=name, arguments=arguments)]
    )
