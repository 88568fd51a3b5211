"""A Chat Completions response body, as received, into an assistant `Message`.

A 200 whose body is cut off, not UTF-8, not JSON, or not a completion is `Undecodable`: the
caller retries it like a 5xx, and after the last retry the episode's ``infra_error`` says
what came back. Inside a good completion every string is made storable (`sanitize.py`) and
the repairs are noted on the message (`Message.repairs`).
"""

from __future__ import annotations

import json
from typing import Any

from tau_emotion.data import Message, ToolCall, Usage
from tau_emotion.models.sanitize import clean_text, parse_tool_call, repair_note


class Undecodable(Exception):
    """The body of a 200 response is not a usable chat completion."""


def _preview(body: bytes) -> str:
    text = body[:200].decode("utf-8", errors="replace")
    return f"{len(body)} bytes starting {text!r}" if body else "an empty body"


def decode_body(body: bytes) -> tuple[dict[str, Any], list[str]]:
    """The JSON object in a 200 body, and any repair made to its bytes."""
    repairs: list[str] = []
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = body.decode("utf-8", errors="replace")
        repairs.append(f"response body was not valid UTF-8 ({exc.reason}); bytes replaced")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Undecodable(
            f"200 response is not JSON ({type(exc).__name__}: {str(exc)[:120]}): {_preview(body)}"
        ) from None
    if not isinstance(data, dict):
        raise Undecodable(f"200 response is not a JSON object: {_preview(body)}")
    return data, repairs


def _message_of(data: dict[str, Any], body: bytes) -> dict[str, Any]:
    choices = data.get("choices")
    if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
        error = data.get("error")
        if error is not None:
            raise Undecodable(f"200 response holds an error: {json.dumps(error)[:300]}")
        raise Undecodable(f"200 response has no choices: {_preview(body)}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise Undecodable(f"200 response's first choice has no message: {_preview(body)}")
    return message


def _text(value: Any, what: str, repairs: list[str]) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):  # content as parts: keep the text parts
        value = "".join(p.get("text", "") for p in value if isinstance(p, dict))
    elif not isinstance(value, str):
        value = str(value)
    text, n = clean_text(value)
    if n:
        repairs.append(repair_note(what, n))
    return text


def _tokens(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and value >= 0 else 0


def to_message(
    body: bytes, latency_s: float, price_in_per_mtok: float = 0.0, price_out_per_mtok: float = 0.0
) -> Message:
    """The assistant message in a 200 body; raises `Undecodable` when there is none."""
    data, repairs = decode_body(body)
    return from_data(data, latency_s, price_in_per_mtok, price_out_per_mtok, repairs, body)


def from_data(
    data: dict[str, Any],
    latency_s: float,
    price_in_per_mtok: float = 0.0,
    price_out_per_mtok: float = 0.0,
    repairs: list[str] | None = None,
    body: bytes = b"",
) -> Message:
    """The assistant message in a decoded completion (litellm hands us objects, not bytes)."""
    repairs = list(repairs or [])
    message = _message_of(data, body or json.dumps(data, default=str).encode())
    content = _text(message.get("content"), "content", repairs)
    reasoning = _text(
        message.get("reasoning_content") or message.get("reasoning"), "reasoning", repairs
    )
    calls: list[ToolCall] = []
    for i, raw in enumerate(message.get("tool_calls") or []):
        if not isinstance(raw, dict):
            continue
        fn = raw.get("function")
        if not isinstance(fn, dict):
            fn = {}
        call_id = raw.get("id") if isinstance(raw.get("id"), str) and raw.get("id") else None
        call, n = parse_tool_call(
            clean_text(call_id)[0] if call_id else f"call_{i}",
            str(fn.get("name") or ""),
            fn.get("arguments"),
        )
        if n:
            repairs.append(repair_note(f"tool call {call.id}", n))
        calls.append(call)
    usage_data = data.get("usage")
    prompt, completion = (
        _tokens(usage_data, "prompt_tokens"),
        _tokens(usage_data, "completion_tokens"),
    )
    cost = (prompt * price_in_per_mtok + completion * price_out_per_mtok) / 1e6
    return Message(
        role="assistant",
        content=content,
        tool_calls=calls or None,
        reasoning=reasoning,
        usage=Usage(prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost, calls=1),
        latency_s=latency_s,
        repairs=repairs or None,
    )
