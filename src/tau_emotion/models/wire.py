"""Chat Completions request bodies as plain JSON, each part serialised once.

A request is the whole conversation so far, so building it from scratch on every turn makes
an episode's cost quadratic in its length (the OpenAI SDK's typed transform walked every
message and tool schema on every request: 15 ms for 62 messages). Here each message's wire
JSON is computed once per message object (`MessageMemo`), the tool schemas once per episode
(the agent passes the same list every turn), and the sampling fields once per model; a request
is then one string join.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tau_emotion.data import Message
from tau_emotion.models.memo import MessageMemo, RecentByIdentity


def wire_dict(m: Message, send_reasoning: bool) -> dict[str, Any]:
    """One message in the OpenAI Chat Completions shape."""
    if m.role == "tool":
        return {"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content or ""}
    entry: dict[str, Any] = {"role": m.role, "content": m.content}
    if m.tool_calls:
        entry["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    # a malformed call goes back as the model sent it, so it sees its mistake
                    "arguments": c.raw_arguments
                    if c.raw_arguments is not None
                    else json.dumps(c.arguments),
                },
            }
            for c in m.tool_calls
        ]
    if send_reasoning and m.reasoning:
        entry["reasoning_content"] = m.reasoning
    if entry["content"] is None and m.role != "assistant":
        entry["content"] = ""
    return entry


def _dumps(value: Any) -> str:
    # ASCII-only output: a lone surrogate in old history is escaped, never an encode error
    return json.dumps(value, separators=(",", ":"))


_plain = MessageMemo(lambda m: _dumps(wire_dict(m, send_reasoning=False)))
_with_reasoning = MessageMemo(lambda m: _dumps(wire_dict(m, send_reasoning=True)))


def _tools_json(tools: Sequence[dict[str, Any]]) -> str:
    return _dumps(list(tools))


_tools: RecentByIdentity[Sequence[dict[str, Any]], str] = RecentByIdentity(_tools_json)


def message_json(m: Message, send_reasoning: bool) -> str:
    """The wire JSON of one message, computed once per message object."""
    return _with_reasoning(m) if send_reasoning and m.reasoning else _plain(m)


def to_openai_messages(messages: Sequence[Message], send_reasoning: bool) -> list[dict[str, Any]]:
    """The conversation as wire dictionaries (for clients that want objects, e.g. litellm)."""
    return [wire_dict(m, send_reasoning) for m in messages]


class BodyBuilder:
    """Request bodies for one model configuration: the fixed fields are serialised here once."""

    def __init__(self, fields: dict[str, Any], send_reasoning: bool) -> None:
        # fields: model, sampling parameters and any extra body keys, in the order sent
        self._fixed = _dumps(fields)[1:-1]
        self._send_reasoning = send_reasoning

    def build(self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> bytes:
        reasoning = self._send_reasoning
        parts = ['{"messages":[', ",".join([message_json(m, reasoning) for m in messages]), "]"]
        if tools:
            parts += [',"tools":', _tools(tools)]
        parts += [",", self._fixed, "}"]
        return "".join(parts).encode()
