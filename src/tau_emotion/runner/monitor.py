"""Loud, not silent: notice an agent endpoint that quietly ignores the tools it is sent.

Some servers accept a ``tools`` field and drop it (``python -m llama_cpp.server`` without a
function-calling chat format, vLLM without ``--enable-auto-tool-choice``). The run then goes
on with zero tool calls and every episode fails for a reason no metric shows. `ToolUseMonitor`
wraps the agent's model and warns once per symptom:

- the first `TOOL_TURNS` turns that were sent tools returned no tool call at all;
- the reported prompt tokens are too few to hold the tool schemas and the messages, even at
  a generous `MAX_CHARS_PER_TOKEN` characters per token (real tokenizers average 3 to 5).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from tau_emotion.data import Message
from tau_emotion.models.base import ChatModel

TOOL_TURNS = 10
MAX_CHARS_PER_TOKEN = 6

TOOLS_IGNORED = (
    "agent model {name!r} was sent tools on its first {turns} turns and never returned a tool "
    "call: the endpoint may be ignoring `tools` (llama_cpp.server needs --chat_format "
    "chatml-function-calling; vLLM needs --enable-auto-tool-choice --tool-call-parser ...)"
)
PROMPT_TOO_SHORT = (
    "agent model {name!r} reported {tokens} prompt tokens for a request whose messages and "
    "tool schemas hold {chars} characters: the endpoint may be dropping `tools`"
)


class ToolUseMonitor:
    """A `ChatModel` that passes every call through and reports endpoints dropping tools."""

    def __init__(self, model: ChatModel, warn: Callable[[str], None]) -> None:
        self.model = model
        self.name = model.name
        self._warn = warn
        self._turns_with_tools = 0
        self._saw_tool_call = False
        self._warned: set[str] = set()

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        reply = await self.model.complete(messages, tools)
        if tools:
            self._observe(messages, tools, reply)
        return reply

    def _once(self, kind: str, message: str) -> None:
        if kind not in self._warned:
            self._warned.add(kind)
            self._warn(message)

    def _observe(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]], reply: Message
    ) -> None:
        self._turns_with_tools += 1
        self._saw_tool_call = self._saw_tool_call or bool(reply.tool_calls)
        if not self._saw_tool_call and self._turns_with_tools == TOOL_TURNS:
            self._once("ignored", TOOLS_IGNORED.format(name=self.name, turns=TOOL_TURNS))
        tokens = reply.usage.prompt_tokens if reply.usage else 0
        if tokens > 0 and "short" not in self._warned:
            chars = len(json.dumps(list(tools))) + sum(len(m.content or "") for m in messages)
            if tokens * MAX_CHARS_PER_TOKEN < chars:
                self._once(
                    "short", PROMPT_TOO_SHORT.format(name=self.name, tokens=tokens, chars=chars)
                )
