"""The lean transport against real servers on 127.0.0.1: framing, keep-alive, failures."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from email.utils import formatdate
from typing import Any

import pytest

from loopback import bypass_proxies
from tau_emotion.data import Message
from tau_emotion.errors import ModelError
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel
from tau_emotion.models.retry import MAX_RETRY_AFTER_S, retry_after
from tau_emotion.models.transport import DirectTransport, HttpxTransport

from loopback_server import RawReply, chat_server, completion

HI = [Message(role="user", content="hi")]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    bypass_proxies(monkeypatch)


def make(base_url: str, **kw: Any) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        ModelConfig(model="fake", base_url=base_url, backoff_s=0.01, timeout_s=5, **kw)
    )


def ask(model: OpenAICompatibleModel, messages: list[Message] | None = None) -> Message:
    return asyncio.run(model.complete(messages or HI))


def http(status: str, body: bytes, *headers: str) -> bytes:
    head = "\r\n".join([f"HTTP/1.1 {status}", *headers])
    return head.encode() + b"\r\n\r\n" + body


def good_body(text: str = "hello") -> bytes:
    return json.dumps(completion(text)).encode()


def test_chunked_replies_share_one_keep_alive_connection() -> None:
    body = good_body("chunked")
    chunked = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, body[:10], len(body) - 10, body[10:])
    reply = RawReply(
        http("200 OK", chunked, "transfer-encoding: chunked", "content-type: application/json"),
        keep_open=True,
    )
    with chat_server([reply, (200, completion("second"), {})], keep_alive=True) as server:
        model = make(server.base_url)

        async def twice() -> list[Message]:
            return [await model.complete(HI), await model.complete(HI)]

        first, second = asyncio.run(twice())
    assert (first.content, second.content) == ("chunked", "second")
    assert len(server.requests) == 2 and len(server.connections) == 1


def test_a_body_delimited_by_closing_the_connection() -> None:
    reply = RawReply(http("200 OK", good_body("till close"), "content-type: application/json"))
    with chat_server([reply]) as server:
        assert ask(make(server.base_url)).content == "till close"


def test_an_idle_connection_the_server_closed_is_replaced_without_a_retry() -> None:
    # The first reply says keep-alive but the server closes the connection after it; the
    # client must notice on its next request and open a new connection, not fail or back off.
    first = RawReply(
        http("200 OK", good_body("one"), f"content-length: {len(good_body('one'))}"),
        keep_open=False,
    )
    with chat_server([first, (200, completion("two"), {})], keep_alive=True) as server:
        model = make(server.base_url, max_retries=0)

        async def twice() -> list[str | None]:
            a = await model.complete(HI)
            await asyncio.sleep(0.05)  # let the close arrive
            return [a.content, (await model.complete(HI)).content]

        assert asyncio.run(twice()) == ["one", "two"]
    assert len(server.requests) == 2


def test_a_truncated_200_is_retried_then_succeeds() -> None:
    cut = RawReply(http("200 OK", good_body()[:20], "content-length: 400"))
    with chat_server([cut, (200, completion("whole"), {})]) as server:
        assert ask(make(server.base_url)).content == "whole"
    assert len(server.requests) == 2


def test_a_truncated_200_after_the_retries_is_an_error_saying_what_came() -> None:
    cut = RawReply(http("200 OK", good_body()[:20], "content-length: 400"))
    with (
        chat_server([cut, cut]) as server,
        pytest.raises(
            ModelError,
            match=r"failed after 2 attempts: broken response: HTTP 200 OK: response body cut off: 20 of 400 bytes",
        ),
    ):
        ask(make(server.base_url, max_retries=1))
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("not json at all", "200 response is not JSON .*'not json at all'"),
        ('{"choices": [{"message": {"content": "x"', "200 response is not JSON"),
        ("[1, 2]", "200 response is not a JSON object"),
        ('{"object": "chat.completion"}', "200 response has no choices"),
        ('{"error": {"message": "overloaded"}}', "200 response holds an error: .*overloaded"),
    ],
)
def test_an_undecodable_200_is_retried_like_a_5xx(body: str, reason: str) -> None:
    with chat_server([(200, body, {}), (200, body, {})]) as server:
        model = make(server.base_url, max_retries=1)
        with pytest.raises(ModelError, match=f"failed after 2 attempts: {reason}"):
            ask(model)
    assert len(server.requests) == 2
    with chat_server([(200, body, {}), (200, completion("recovered"), {})]) as server:
        assert ask(make(server.base_url, max_retries=1)).content == "recovered"


def test_a_slow_endpoint_hits_the_timeout_with_a_clear_reason() -> None:
    slow = RawReply(http("200 OK", good_body(), "content-length: 999"), delay=2.0)
    with (
        chat_server([slow, slow]) as server,
        pytest.raises(ModelError, match=r"no complete reply within 0\.3 s \(timeout_s\)"),
    ):
        model = OpenAICompatibleModel(
            ModelConfig(model="fake", base_url=server.base_url, timeout_s=0.3, max_retries=1)
        )
        ask(model)
    assert len(server.requests) == 2


def test_the_default_timeout_is_well_under_two_minutes() -> None:
    assert ModelConfig(model="m").timeout_s == 60.0


def test_retryable_statuses_and_retry_after_forms() -> None:
    replies: list[Any] = [
        (408, {"error": {"message": "timeout"}}, {}),
        (503, {"error": {"message": "busy"}}, {"retry-after-ms": "20"}),
        (
            429,
            {"error": {"message": "slow"}},
            {"retry-after": formatdate(time.time(), usegmt=True)},
        ),
        (200, completion("done"), {}),
    ]
    with chat_server(replies) as server:
        assert ask(make(server.base_url)).content == "done"
    assert len(server.requests) == 4


def test_retry_after_parsing() -> None:
    assert retry_after({"retry-after": "1.5"}) == 1.5
    assert retry_after({"retry-after-ms": "250"}) == 0.25
    assert retry_after({"retry-after": str(MAX_RETRY_AFTER_S * 10)}) is None
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
    future = formatdate(time.time() + 30, usegmt=True)
    delay = retry_after({"retry-after": future})
    assert delay is not None and 25 < delay <= 30


def test_a_model_object_works_across_event_loops() -> None:
    with chat_server([(200, completion("a"), {}), (200, completion("b"), {})]) as server:
        model = make(server.base_url)
        assert ask(model).content == "a"
        assert ask(model).content == "b"


@pytest.mark.parametrize("limit", [None, 2])
def test_concurrent_requests_over_the_pool(limit: int | None) -> None:
    with chat_server([(200, completion(f"r{i}"), {}) for i in range(20)]) as server:
        model = make(server.base_url, max_concurrency=limit)

        async def many() -> list[Message]:
            return list(await asyncio.gather(*(model.complete(HI) for _ in range(20))))

        replies = asyncio.run(many())
    assert sorted(r.content or "" for r in replies) == sorted(f"r{i}" for i in range(20))


def test_the_body_is_what_the_config_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-1")
    with chat_server([(200, completion("ok"), {})]) as server:
        model = make(
            server.base_url,
            top_p=0.9,
            max_tokens=7,
            seed=3,
            extra_body={"chat_template_kwargs": {"enable_thinking": False}, "temperature": 0.5},
        )
        assert isinstance(model._transport, DirectTransport)
        ask(model)
    body = server.requests[0]["body"]
    assert body == {
        "messages": [{"role": "user", "content": "hi"}],
        "model": "fake",
        "temperature": 0.5,  # extra_body has the last word, as with the SDK
        "top_p": 0.9,
        "max_tokens": 7,
        "seed": 3,
        "chat_template_kwargs": {"enable_thinking": False},
    }
    assert server.requests[0]["auth"] == "Bearer EMPTY"


def test_a_configured_proxy_is_used_through_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    # The loopback server plays the proxy: a proxied request names the absolute URL.
    with chat_server([(200, completion("via proxy"), {})]) as proxy:
        port = proxy.httpd.server_address[1]
        monkeypatch.delenv("NO_PROXY")
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
        model = make("http://models.example.test/v1")
        assert isinstance(model._transport, HttpxTransport)
        assert ask(model).content == "via proxy"
    assert proxy.requests[0]["path"] == "http://models.example.test/v1/chat/completions"


def test_a_gzip_body_is_decoded_and_a_204_does_not_wait_for_a_body() -> None:
    packed = gzip.compress(good_body("zipped"))
    zipped = RawReply(
        http("200 OK", packed, f"content-length: {len(packed)}", "content-encoding: gzip")
    )
    empty = RawReply(http("204 No Content", b""), delay=0, keep_open=True)
    with chat_server([zipped, empty]) as server:
        model = make(server.base_url)
        assert ask(model).content == "zipped"
        with pytest.raises(ModelError, match="HTTP 204 No Content"):
            ask(model)
