"""Agents for models without native tool calling: `react` (thought + action) and `act`.

The model sees the tools described in its system prompt and answers with an action line:

    Thought: <reasoning>                       (react only)
    Action: {"name": "<tool>", "arguments": {...}}
    Action: {"name": "respond", "arguments": {"content": "<message to the customer>"}}

Tool calls become real `ToolCall`s (so the environment, policy checks and reward treat them
like native calls) and tool results go back as ``Observation:`` lines. A malformed action
line becomes a tool call with a parse error: the environment answers it with an error text
and the model gets another turn, as with a malformed native call.

Parsing is lenient about presentation and strict about content. The label may be bold
(``**Action:**``); the JSON may sit in a code fence or backticks; the first complete JSON
object after the label is the action and anything after it (a closing fence, a hallucinated
``Observation:`` line, a sign-off) is ignored. A `respond` takes its text from
``arguments.content``, or else from the obvious misplacements ``content`` (top level) and
``arguments.message`` / ``message``; a `respond` with no non-empty text under any of them is
a malformed call, never an empty message to the customer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
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


def _label(word: str) -> str:
    """A line-initial ``Word:`` label, also in markdown bold (``**Word:**``, ``**Word**:``),
    which instruction-tuned models write unasked."""
    return rf"^[ \t]*(?:\*\*|__)?[ \t]*{word}[ \t]*(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?"


_ACTION = re.compile(_label("action") + r"\s*(.*)$", re.I | re.M | re.S)
_THOUGHT = re.compile(
    _label("thought") + r"\s*(.*?)(?=" + _label("action") + r"|\Z)", re.I | re.M | re.S
)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')
# An opening code fence (with or without a language tag) or inline backticks before the JSON.
_OPENING_QUOTE = re.compile(r"\A(?:```[A-Za-z0-9_-]*[ \t]*\n?|`+)\s*")
NO_ACTION_LINE = "no 'Action:' line found"
# Where a `respond` may carry its text, in order: the documented field, then the misplacements
# that models make (seen in the audit: a top-level "content", "arguments.message"). Their
# meaning is unambiguous, and taking them sends the customer what the model meant to say.
_RESPOND_TEXT = (
    ("arguments", "content"),
    (None, "content"),
    ("arguments", "message"),
    (None, "message"),
)


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
        return thought, malformed_call(call_id, NO_ACTION_LINE, text), 0
    raw = match.group(1).strip()
    body = _OPENING_QUOTE.sub("", raw, count=1)
    try:
        # The first complete JSON value; what follows it (a closing fence, a made-up
        # observation, more prose) is not part of the action.
        _, end = json.JSONDecoder().raw_decode(body)
        # NaN, Infinity and overflowing numbers are a malformed call, as in native calls
        action = loads_finite(body[:end])
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
        said = _respond_text(action, arguments)
        if said is None:
            # An empty message would reach nobody (the customer sees only non-empty text)
            # and the model would never learn why; an error gets it to try again.
            error = 'respond needs the message as {"arguments": {"content": "<your message>"}}'
            return thought, malformed_call(call_id, error, raw, RESPOND), repaired
        return thought, said, repaired
    return thought, ToolCall(id=call_id, name=action["name"], arguments=arguments), repaired


def _respond_text(action: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """The customer-facing text of a `respond`, from the first `_RESPOND_TEXT` place that
    holds a non-blank string; None when none does."""
    for scope, key in _RESPOND_TEXT:
        value = (arguments if scope == "arguments" else action).get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def render_history(
    messages: Sequence[Message], system: str, raw_replies: Mapping[str, str] | None = None
) -> list[Message]:
    """Our conversation as plain text turns for a model without tool support.

    A malformed call goes back as the model wrote it: its whole reply from `raw_replies`
    (call id -> reply text), else the unparsed text it put after the Action label. Wrapping
    that text in a canonical action would show the model nested actions it never produced.
    """
    raw_replies = raw_replies or {}
    out = [Message(role="system", content=system)]
    for m in messages:
        if m.role == "system":
            continue
        if m.role == "tool":
            out.append(Message(role="user", content=f"Observation: {m.content}"))
        elif m.role == "assistant":
            out.append(Message(role="assistant", content=_rendered_reply(m, raw_replies)))
        else:
            out.append(Message(role="user", content=m.content))
    return out


def _rendered_reply(m: Message, raw_replies: Mapping[str, str]) -> str:
    thought = f"Thought: {m.reasoning}\n" if m.reasoning else ""
    if not m.tool_calls:
        body = json.dumps({"name": RESPOND, "arguments": {"content": m.content or ""}})
        return f"{thought}Action: {body}"
    c = m.tool_calls[0]
    if c.parse_error is not None:
        if c.id in raw_replies:
            return raw_replies[c.id]
        raw = c.raw_arguments or ""
        return raw if c.parse_error == NO_ACTION_LINE else f"{thought}Action: {raw}"
    return f"{thought}Action: {json.dumps({'name': c.name, 'arguments': c.arguments})}"


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
        # The full text of each reply that parsed to a malformed call, by call id, so the
        # history shows it verbatim (the recorded call keeps at most RAW_REPLY_MAX_CHARS).
        self._raw_replies: dict[str, str] = {}

    def system_prompt(self) -> str:
        return self._policy_prompt

    async def respond(self, messages: Sequence[Message]) -> Message:
        reply = await self.model.complete(render_history(messages, self._system, self._raw_replies))
        self._calls += 1
        text = reply.content or ""
        thought, action, repaired = parse_action_noted(text, f"call_{self._calls}")
        if not isinstance(action, str) and action.parse_error is not None:
            self._raw_replies[action.id] = text
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
