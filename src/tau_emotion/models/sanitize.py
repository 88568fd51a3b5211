"""Model output is data, whatever it holds: make it storable, and parse tool arguments safely.

Two things a model (or a broken endpoint) can send that would otherwise break us later:

- text that cannot be encoded: a JSON escape such as ``"\\ud800"`` decodes to a lone
  surrogate, which no UTF-8 writer accepts, so the results file, the cache or the terminal
  would fail on it long after the reply arrived. Each such character is replaced with U+FFFD
  here, and the caller notes the repair on the message;
- numbers JSON should not hold in tool arguments: ``NaN``, ``Infinity``, ``-Infinity`` (which
  Python's parser accepts) and literals like ``1e999`` that overflow to infinity. A tool
  never wants them, and a non-finite value would poison the database state and its hash, so
  such arguments are a malformed call: the agent sees the parse error as the tool result.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from tau_emotion.data import ToolCall

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> tuple[str, int]:
    """`text` with every lone surrogate replaced by U+FFFD, and how many were replaced."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # only surrogates fail: every other code point encodes
        return _SURROGATE.subn(REPLACEMENT, text)
    return text, 0


def clean_value(value: Any) -> tuple[Any, int]:
    """`clean_text` over every string (and dictionary key) inside a parsed JSON value."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        count = 0
        for k, v in value.items():
            key, n = clean_text(k)
            out[key], m = clean_value(v)
            count += n + m
        return out, count
    if isinstance(value, list):
        items = []
        count = 0
        for v in value:
            item, n = clean_value(v)
            items.append(item)
            count += n
        return items, count
    return value, 0


class NonFiniteNumber(ValueError):
    """A JSON number that is NaN, infinite, or too large for a float."""


def _reject_constant(name: str) -> Any:
    raise NonFiniteNumber(f"{name} is not a finite number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"{text} is not a finite number")
    return value


def loads_finite(text: str, strict: bool = True) -> Any:
    """`json.loads` that rejects NaN, Infinity and overflowing numbers (`NonFiniteNumber`).

    Like `json.loads` it raises `ValueError` (JSONDecodeError, or too many digits) or
    `RecursionError` (absurd nesting); callers treat all of them as malformed input.
    `strict=False` lets control characters into strings, as `json.loads` does.
    """
    return json.loads(
        text, parse_constant=_reject_constant, parse_float=_finite_float, strict=strict
    )


def repair_note(what: str, count: int) -> str:
    """The line `Message.repairs` holds for `count` characters replaced in `what`."""
    return f"{what}: {count} unencodable character(s) replaced with U+FFFD"


UNNAMED_CALL = "invalid_action"
"""The name of a malformed call that names no tool (no tool has it)."""
RAW_REPLY_MAX_CHARS = 500
"""How much of an unparseable reply a malformed call keeps: enough to see what went wrong,
not a runaway generation in every results line."""


def malformed_call(call_id: str, error: str, raw: str, name: str | None = None) -> ToolCall:
    """A reply that should have been one tool call and is not: the environment answers it
    with `error`, as a malformed native call, and the model gets another turn."""
    return ToolCall(
        id=call_id,
        name=UNNAMED_CALL if name is None else name,
        parse_error=error,
        raw_arguments=raw[:RAW_REPLY_MAX_CHARS],
    )


def parse_tool_call(call_id: str, name: str, raw: Any) -> tuple[ToolCall, int]:
    """A tool call from the model's argument string, and how many characters were repaired.

    Arguments that are not a JSON object of finite values keep their raw text and the reason
    as `ToolCall.parse_error`, so the environment answers them as the agent's malformed call.
    """
    name, repaired = clean_text(name)
    if isinstance(raw, dict):  # a few servers send the object itself, not its JSON text
        value, n = clean_value(raw)
        if _has_non_finite(value):
            text = json.dumps(value)
            return ToolCall(
                id=call_id,
                name=name,
                parse_error="arguments hold a number that is not finite",
                raw_arguments=text,
            ), repaired + n
        return ToolCall(id=call_id, name=name, arguments=value), repaired + n
    text, n = clean_text(raw if isinstance(raw, str) and raw.strip() else "{}")
    repaired += n
    try:
        value = loads_finite(text)
    except NonFiniteNumber as exc:
        error = f"arguments hold a number that is not finite ({exc})"
        return ToolCall(id=call_id, name=name, parse_error=error, raw_arguments=text), repaired
    except (ValueError, RecursionError) as exc:
        error = f"invalid JSON ({type(exc).__name__}: {str(exc)[:200]})"
        return ToolCall(id=call_id, name=name, parse_error=error, raw_arguments=text), repaired
    if not isinstance(value, dict):
        return ToolCall(
            id=call_id, name=name, parse_error="arguments are not a JSON object", raw_arguments=text
        ), repaired
    value, n = clean_value(value)
    return ToolCall(id=call_id, name=name, arguments=value), repaired + n


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False
