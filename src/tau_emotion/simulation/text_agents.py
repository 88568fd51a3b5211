"""Agents for models without native tool calling: `react` (thought + action) and `act`.

The model sees the tools described in its system prompt and answers with an action line:

    Thought: <reasoning>                       (react only)
    Action: {"name": "<tool>", "arguments": {...}}
    Action: {"name": "respond", "arguments": {"content": "<message to the customer>"}}

Tool calls become real `ToolCall`s (so the environment, policy checks and reward treat them
like native calls) and tool results go back as ``Observation:`` lines. A malformed action
line becomes a tool call with a parse error: the environment answers it with an error text
and the model gets another turn, as with a malformed native call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from tau_emotion.data import Message, ToolCall
from tau_emotion.models.base import ChatModel
from tau_emotion.models.sanitize import (
    NonFiniteNumber,
    clean_value,
    loads_finite,
    malformed_call,
    repair_note,
)
from tau_emotion.simulation.agents import agent_system_prompt
from tau_emotion.simulation.participants import EpisodeSetup

RESPOND = "respond"

FORMAT = """
# Tools
{tools}

# How to answer
Every reply {shape}. To use a tool:
Action: {{"name": "<tool name>", "arguments": {{<arguments as JSON>}}}}
To talk to the customer:
Action: {{"name": "respond", "arguments": {{"content": "<your message>"}}}}
Tool results come back as lines starting with "Observation:".
"""

_ACTION = re.compile(r"^\s*action\s*:\s*(.*)$", re.I | re.M | re.S)
_THOUGHT = re.compile(r"^\s*thought\s*:\s*(.*?)(?=^\s*action\s*:|\Z)", re.I | re.M | re.S)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')


def describe_tools(schemas: Sequence[dict[str, Any]]) -> str:
    lines = []
    for schema in schemas:
        fn = schema["function"]
        props = fn["parameters"].get("properties", {})
        required = set(fn["parameters"].get("required", []))
        args = ", ".join(
            f"{name}: {p.get('type', 'any')}{'' if name in required else '?'}"
            for name, p in props.items()
        )
        lines.append(f"- {fn['name']}({args}): {fn['description']}")
    return "\n".join(lines)


def parse_action(text: str, call_id: str) -> tuple[str | None, ToolCall | str]:
    """(thought, tool call or customer text) from a model reply."""
    thought, action, _ = parse_action_noted(text, call_id)
    return thought, action


def parse_action_noted(text: str, call_id: str) -> tuple[str | None, ToolCall | str, int]:
    """`parse_action`, plus how many unencodable characters its JSON spelled (now U+FFFD)."""
    thought_match = _THOUGHT.search(text)
    thought = thought_match.group(1).strip() if thought_match else None
    match = _ACTION.search(text)
    if match is None:
        return thought, malformed_call(call_id, "no 'Action:' line found", text), 0
    raw = match.group(1).strip()
    try:
        # NaN, Infinity and overflowing numbers are a malformed call, as in native calls
        action = loads_finite(raw)
    except (ValueError, RecursionError) as exc:
        name = _NAME.search(raw)
        problem = (
            "holds a number that is not finite"
            if isinstance(exc, NonFiniteNumber)
            else "is not valid JSON"
        )
        error = f"the Action line {problem} ({exc})"
        return thought, malformed_call(call_id, error, raw, name.group(1) if name else None), 0
    action, repaired = clean_value(action)  # JSON escapes can spell lone surrogates
    if not isinstance(action, dict) or not isinstance(action.get("name"), str):
        error = 'the Action must be a JSON object with a "name"'
        return thought, malformed_call(call_id, error, raw), repaired
    arguments = action.get("arguments", {})
    if not isinstance(arguments, dict):
        error = '"arguments" must be a JSON object'
        return thought, malformed_call(call_id, error, raw, action["name"]), repaired
    if action["name"] == RESPOND:
        return thought, str(arguments.get("content", "")), repaired
    return thought, ToolCall(id=call_id, name=action["name"], arguments=arguments), repaired


def render_history(messages: Sequence[Message], system: str) -> list[Message]:
    """Our conversation as plain text turns for a model without tool support."""
    out = [Message(role="system", content=system)]
    for m in messages:
        if m.role == "system":
            continue
        if m.role == "tool":
            out.append(Message(role="user", content=f"Observation: {m.content}"))
        elif m.role == "assistant":
            thought = f"Thought: {m.reasoning}\n" if m.reasoning else ""
            if m.tool_calls:
                c = m.tool_calls[0]
                args = c.raw_arguments if c.raw_arguments is not None else json.dumps(c.arguments)
                body = f'{{"name": "{c.name}", "arguments": {args}}}'
            else:
                body = json.dumps({"name": RESPOND, "arguments": {"content": m.content or ""}})
            out.append(Message(role="assistant", content=f"{thought}Action: {body}"))
        else:
            out.append(Message(role="user", content=m.content))
    return out


class TextProtocolAgent:
    """`react` (with_thought=True) or `act` agent over any chat model, tools in the prompt."""

    def __init__(self, setup: EpisodeSetup, model: ChatModel, with_thought: bool) -> None:
        self.model = model
        self._with_thought = with_thought
        shape = (
            'is one "Thought:" line with your reasoning, then one "Action:" line'
            if with_thought
            else 'is exactly one "Action:" line'
        )
        self._policy_prompt = agent_system_prompt(setup)
        self._system = self._policy_prompt + FORMAT.format(
            tools=describe_tools(setup.tool_schemas), shape=shape
        )
        self._calls = 0

    def system_prompt(self) -> str:
        return self._policy_prompt

    async def respond(self, messages: Sequence[Message]) -> Message:
        reply = await self.model.complete(render_history(messages, self._system))
        self._calls += 1
        thought, action, repaired = parse_action_noted(reply.content or "", f"call_{self._calls}")
        reasoning = thought if self._with_thought else None
        if reply.reasoning:
            reasoning = f"{reply.reasoning}\n{reasoning}" if reasoning else reply.reasoning
        repairs = [*(reply.repairs or []), *([repair_note("action", repaired)] if repaired else [])]
        if isinstance(action, str):
            return Message(
                role="assistant",
                content=action,
                reasoning=reasoning,
                usage=reply.usage,
                latency_s=reply.latency_s,
                repairs=repairs or None,
            )
        return Message(
            role="assistant",
            tool_calls=[action],
            reasoning=reasoning,
            usage=reply.usage,
            latency_s=reply.latency_s,
            repairs=repairs or None,
        )
