"""Request bodies and cache keys are built from per-message parts computed once."""

from __future__ import annotations

import gc
import hashlib
import json
from typing import Any

from tau_emotion.data import Message, ToolCall
from tau_emotion.models import wire
from tau_emotion.models.cache import request_key
from tau_emotion.models.memo import MessageMemo, RecentByIdentity
from tau_emotion.models.wire import BodyBuilder, to_openai_messages

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_credit",
            "description": "d",
            "parameters": {"type": "object", "properties": {"customer_id": {"type": "string"}}},
        },
    }
]


def conversation() -> list[Message]:
    return [
        Message(role="system", content="policy"),
        Message(role="user", content="caf\u00e9 \u2603"),
        Message(
            role="assistant",
            reasoning="think",
            tool_calls=[
                ToolCall(id="a", name="get_credit", arguments={"customer_id": "c1"}),
                ToolCall(id="b", name="get_credit", parse_error="x", raw_arguments="{oops"),
            ],
        ),
        Message(role="tool", tool_call_id="a", name="get_credit", content="10.0"),
        Message(role="tool", tool_call_id="b", name="get_credit", content="Error", error=True),
        Message(role="assistant", content="You have 10.0."),
    ]


def test_the_body_is_the_plain_json_of_the_request() -> None:
    msgs = conversation()
    for send_reasoning in (False, True):
        builder = BodyBuilder({"model": "m", "temperature": 0.0}, send_reasoning)
        body = json.loads(builder.build(msgs, TOOLS))
        assert body == {
            "messages": to_openai_messages(msgs, send_reasoning),
            "tools": TOOLS,
            "model": "m",
            "temperature": 0.0,
        }
    assert "tools" not in json.loads(BodyBuilder({"model": "m"}, False).build(msgs, None))


def test_each_message_is_serialised_once_however_many_turns_resend_it() -> None:
    calls: list[int] = []

    def compute(m: Message) -> str:
        calls.append(id(m))
        return m.content or ""

    memo = MessageMemo(compute)
    msgs = conversation()
    for turn in range(1, len(msgs) + 1):
        [memo(m) for m in msgs[:turn]]
    assert len(calls) == len(msgs)


def test_memo_entries_go_with_their_messages() -> None:
    memo = MessageMemo(lambda m: m.content)
    msgs = conversation()
    for m in msgs:
        memo(m)
    assert len(memo) == len(msgs)
    del msgs, m
    gc.collect()
    assert len(memo) == 0


def test_recent_by_identity_matches_identity_not_equality() -> None:
    seen: list[object] = []
    cache: RecentByIdentity[list[int], int] = RecentByIdentity(
        lambda x: seen.append(x) or len(x), size=2
    )
    a, b = [1], [1]
    assert cache(a) == cache(a) == cache(b) == 1
    assert len(seen) == 2  # b equals a but is another object
    c = [1, 2]
    cache(c)  # evicts a (the oldest)
    cache(a)
    assert len(seen) == 4


def test_a_lone_surrogate_in_history_is_escaped_not_an_encode_error() -> None:
    # Messages built by hand (not through the transport) can still hold one.
    msgs = [Message(role="user", content="bad \ud800")]
    body = BodyBuilder({"model": "m"}, False).build(msgs, None)
    assert b"\\ud800" in body


def _old_request_key(
    model: str, params: dict[str, Any], messages: list[Message], tools: Any
) -> str:
    """The key as cache files were written before keys were built incrementally: one dump of
    the whole payload (`repairs` did not exist then, so it is left out here too)."""
    payload = {
        "model": model,
        "params": params,
        "messages": [
            m.model_dump(mode="json", exclude={"usage", "latency_s", "repairs"}) for m in messages
        ],
        "tools": list(tools) if tools else None,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def test_cache_keys_are_unchanged_for_existing_cache_files() -> None:
    msgs = conversation()
    params = {"temperature": 0.0, "top_p": None, "model": "m", "extra_body": {"b": 1, "a": 2}}
    for tools in (TOOLS, None, []):
        for n in (0, 1, len(msgs)):
            assert request_key("m", params, msgs[:n], tools) == _old_request_key(
                "m", params, msgs[:n], tools
            )
    assert request_key("m", params, msgs, TOOLS) != request_key("m", params, msgs[:-1], TOOLS)


def test_the_module_memo_is_shared_by_every_model() -> None:
    msgs = conversation()
    before = len(wire._plain)
    BodyBuilder({"model": "a"}, False).build(msgs, TOOLS)
    BodyBuilder({"model": "b"}, False).build(msgs, TOOLS)
    assert len(wire._plain) - before == len(msgs)
