from __future__ import annotations

import asyncio
import socket

import pytest

from tau_emotion.data import Message, ToolCall
from tau_emotion.errors import ModelError
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel

from loopback_server import chat_server, completion, function_call

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_credit",
            "description": "d",
            "parameters": {"type": "object", "properties": {"customer_id": {"type": "string"}}},
        },
    }
]


def make(base_url: str, **kw: object) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        ModelConfig(model="fake", base_url=base_url, backoff_s=0.01, timeout_s=5, **kw)
    )  # type: ignore[arg-type]


def ask(model: OpenAICompatibleModel, messages: list[Message] | None = None) -> Message:
    return asyncio.run(model.complete(messages or [Message(role="user", content="hi")], TOOLS))


def test_tool_call_text_reasoning_usage_and_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_KEY", "sk-test")
    reply = completion(
        None, [function_call("get_credit", '{"customer_id": "c1"}')], reasoning="think"
    )
    with chat_server([(200, reply, {})]) as server:
        model = make(
            server.base_url,
            api_key_env="TEST_KEY",
            price_input_per_mtok=1e6,
            price_output_per_mtok=2e6,
        )
        msg = ask(model)
    assert msg.tool_calls == [
        ToolCall(id="call_1", name="get_credit", arguments={"customer_id": "c1"})
    ]
    assert msg.reasoning == "think"
    assert (
        msg.usage is not None and msg.usage.prompt_tokens == 11 and msg.usage.completion_tokens == 7
    )
    assert msg.usage.cost_usd == pytest.approx(11 + 14)
    body = server.requests[0]["body"]
    assert server.requests[0]["path"] == "/v1/chat/completions"
    assert server.requests[0]["auth"] == "Bearer sk-test"
    assert body["tools"] == TOOLS and body["temperature"] == 0.0 and body["model"] == "fake"


def test_500_then_429_with_retry_after_then_success() -> None:
    replies = [
        (500, {"error": {"message": "boom"}}, {}),
        (429, {"error": {"message": "slow down"}}, {"retry-after": "0.05"}),
        (200, completion("hello"), {}),
    ]
    with chat_server(replies) as server:
        msg = ask(make(server.base_url))
    assert msg.content == "hello"
    assert len(server.requests) == 3


def test_malformed_tool_arguments_are_kept_with_a_parse_error() -> None:
    reply = completion(
        None,
        [
            function_call("get_credit", '{"customer_id": c1'),
            function_call("get_credit", "[1]", "call_2"),
        ],
    )
    with chat_server([(200, reply, {})]) as server:
        msg = ask(make(server.base_url))
    assert msg.tool_calls is not None
    first, second = msg.tool_calls
    assert first.parse_error is not None and first.raw_arguments == '{"customer_id": c1'
    assert second.parse_error == "arguments are not a JSON object"


def test_malformed_call_is_sent_back_verbatim_in_history() -> None:
    bad = ToolCall(id="call_9", name="get_credit", parse_error="x", raw_arguments="{oops")
    history = [
        Message(role="user", content="hi"),
        Message(role="assistant", tool_calls=[bad], reasoning="r"),
        Message(role="tool", tool_call_id="call_9", content="Error: could not parse", error=True),
    ]
    with chat_server([(200, completion("ok"), {})]) as server:
        ask(make(server.base_url, send_reasoning=True), history)
    sent = server.requests[0]["body"]["messages"]
    assert sent[1]["tool_calls"][0]["function"]["arguments"] == "{oops"
    assert sent[1]["reasoning_content"] == "r"
    assert sent[2] == {
        "role": "tool",
        "tool_call_id": "call_9",
        "content": "Error: could not parse",
    }


def test_gives_up_after_retries_with_model_error() -> None:
    with (
        chat_server([(503, {"error": "down"}, {})] * 3) as server,
        pytest.raises(ModelError, match="failed after 3 attempts"),
    ):
        ask(make(server.base_url, max_retries=2))
    assert len(server.requests) == 3


def test_client_errors_are_not_retried() -> None:
    with (
        chat_server([(400, {"error": {"message": "bad request"}}, {})]) as server,
        pytest.raises(ModelError, match="HTTP 400 Bad Request: bad request"),
    ):
        ask(make(server.base_url))
    assert len(server.requests) == 1


def test_unreachable_endpoint_is_a_model_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ModelError, match="connection failed"):
        ask(make(f"http://127.0.0.1:{port}/v1", max_retries=1))
