"""The request cache over a real endpoint: what is keyed, retried requests, old cache files."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from loopback import bypass_proxies
from tau_emotion.data import Message
from tau_emotion.errors import ModelError
from tau_emotion.models.cache import CachedModel, CacheEntry, request_key
from tau_emotion.models.factory import NOT_KEYED, cache_params, make_model
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.run import execute_run
from tau_emotion.storage import model_json

from loopback_server import chat_server, completion

MESSAGES = [
    Message(role="system", content="sys"),
    Message(role="user", content="hi"),
    Message(role="assistant", content="earlier", reasoning="private reasoning"),
    Message(role="user", content="again"),
]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    bypass_proxies(monkeypatch)


def ask(base_url: str, cache: Path, mode: str = "auto", **kw: Any) -> Message:
    config = ModelConfig(model="m", base_url=base_url, backoff_s=0.01, timeout_s=5, **kw)
    model = make_model(config, cache, mode)  # type: ignore[arg-type]
    return asyncio.run(model.complete(MESSAGES))


def test_seed_and_send_reasoning_are_keyed(tmp_path: Path) -> None:
    cache = tmp_path / "agent.jsonl"
    replies = [(200, completion(text), {}) for text in ("A", "B", "C")]
    with chat_server(replies) as server:  # type: ignore[arg-type]
        assert ask(server.base_url, cache, seed=1).content == "A"
        # another --agent-seed is another request, not seed 1's reply replayed
        assert ask(server.base_url, cache, seed=2).content == "B"
        assert ask(server.base_url, cache, seed=2, send_reasoning=True).content == "C"
        assert ask(server.base_url, cache, seed=1).content == "A"  # from the cache
    bodies = [r["body"] for r in server.requests]
    assert [b.get("seed") for b in bodies] == [1, 2, 2]
    assert "reasoning_content" in bodies[2]["messages"][2]
    assert all("reasoning_content" not in b["messages"][2] for b in bodies[:2])


CHANGED: dict[str, Any] = {
    "model": "other",
    "base_url": "http://127.0.0.1:9/v1",
    "temperature": 0.7,
    "top_p": 0.5,
    "max_tokens": 9,
    "seed": 3,
    "send_reasoning": True,
    "extra_body": {"chat_template_kwargs": {"enable_thinking": False}},
}
"""A new value for each `ModelConfig` field that reaches the request, hence the key."""


def test_every_config_field_is_keyed_or_left_out_on_purpose() -> None:
    # a new ModelConfig field must be sorted into one or the other
    assert set(ModelConfig.model_fields) == set(CHANGED) | NOT_KEYED
    assert not set(CHANGED) & NOT_KEYED
    base = ModelConfig(model="m")
    key = request_key("m", cache_params(base), MESSAGES, None)
    for field, value in CHANGED.items():
        changed = base.model_copy(update={field: value})
        assert request_key("m", cache_params(changed), MESSAGES, None) != key, field
    for field in NOT_KEYED:
        value = "OTHER_KEY" if field == "api_key_env" else 7
        same = base.model_copy(update={field: value})
        assert request_key("m", cache_params(same), MESSAGES, None) == key, field


def test_a_rejected_reply_asked_again_gets_the_next_reply_and_replays(tmp_path: Path) -> None:
    cache = tmp_path / "user.jsonl"
    config = ModelConfig(model="m", backoff_s=0.01, timeout_s=5)
    with chat_server([(200, completion(""), {}), (200, completion("hello"), {})]) as server:
        model = make_model(config.model_copy(update={"base_url": server.base_url}), cache)

        async def twice() -> list[str | None]:
            return [(await model.complete(MESSAGES)).content for _ in range(2)]

        # the caller rejects the empty reply and asks again: the endpoint is asked again
        assert asyncio.run(twice()) == ["", "hello"]
    assert len(server.requests) == 2

    replay = make_model(config.model_copy(update={"base_url": server.base_url}), cache, "replay")
    assert asyncio.run(replay.complete(MESSAGES)).content == ""
    assert asyncio.run(replay.complete(MESSAGES)).content == "hello"
    with pytest.raises(ModelError, match="not in the cache"):
        asyncio.run(replay.complete(MESSAGES))  # a third ask was never recorded


def test_identical_requests_in_flight_at_once_get_their_own_replies(tmp_path: Path) -> None:
    cache = tmp_path / "agent.jsonl"
    with chat_server([(200, completion("one"), {}), (200, completion("two"), {})]) as server:
        config = ModelConfig(model="m", base_url=server.base_url, timeout_s=5)
        model = make_model(config, cache)

        async def both() -> list[Message]:
            return list(await asyncio.gather(model.complete(MESSAGES), model.complete(MESSAGES)))

        assert sorted(m.content or "" for m in asyncio.run(both())) == ["one", "two"]
    assert len(server.requests) == 2
    assert len(CachedModel(None, cache, "replay", name="m")) == 2


def test_an_old_cache_file_misses_with_the_clear_error(tmp_path: Path) -> None:
    cache = tmp_path / "agent.jsonl"
    config = ModelConfig(model="m", base_url="http://127.0.0.1:9/v1")
    # a version-1 entry: the bare request hash, as the cache wrote before occurrences
    old_key = request_key("m", cache_params(config), MESSAGES, None)
    entry = CacheEntry(key=old_key, reply=Message(role="assistant", content="old"))
    cache.write_text(model_json(entry) + "\n")
    replay = make_model(config, cache, "replay")
    assert isinstance(replay, CachedModel) and len(replay) == 0 and replay.stale == 1
    with pytest.raises(ModelError, match=r"not in the cache .*older version.*record"):
        asyncio.run(replay.complete(MESSAGES))


def _user_run(out: Path, base_url: str, cache: Path, mode: str) -> RunConfig:
    return RunConfig(
        domains=["airline"],
        num_tasks=1,
        agent="oracle",
        user="llm",
        user_model=ModelConfig(model="u", base_url=base_url, backoff_s=0.01, timeout_s=5),
        max_steps=3,
        out=out,
        cache_dir=cache,
        cache_mode=mode,  # type: ignore[arg-type]
    )


def test_user_retry_of_an_empty_reply_recovers_with_a_cache_and_replays(tmp_path: Path) -> None:
    # the customer's first reply is empty; the simulator asks again and gets a real one
    replies = [(200, completion(text), {}) for text in ("", "I need help. ###STOP###")]
    cache = tmp_path / "cache"
    with chat_server(replies) as server:  # type: ignore[arg-type]
        (recorded,) = execute_run(_user_run(tmp_path / "a", server.base_url, cache, "auto"))
    assert len(server.requests) == 2
    assert not recorded.errors and recorded.termination == "user_stop"

    (replayed,) = execute_run(_user_run(tmp_path / "b", server.base_url, cache, "replay"))
    assert len(server.requests) == 2  # nothing reached the endpoint
    strip = {"duration_s": True, "messages": {"__all__": {"latency_s"}}}
    assert replayed.model_dump(mode="json", exclude=strip) == recorded.model_dump(
        mode="json", exclude=strip
    )
