"""Runs against real HTTP servers on 127.0.0.1: every model knob reaches the request, and an
endpoint that ignores the tools it is sent is reported, loudly and in the manifest."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loopback import bypass_proxies, loopback, serving
from tau_emotion.cli.main import app

Responder = Callable[[dict[str, Any], int], tuple[int, dict[str, Any]]]
"""(request body, how many requests this model had before) -> (status, response body)."""

runner = CliRunner()


def completion(
    content: str | None, prompt_tokens: int = 20_000, reasoning: str | None = None
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning:
        message["reasoning_content"] = reasoning
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 5, "total_tokens": 1},
    }


@contextmanager
def endpoint(respond: Responder) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A Chat Completions server answering with `respond`; yields its URL and the bodies."""
    bodies: list[dict[str, Any]] = []
    counts: dict[str, int] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            bodies.append(body)
            seen = counts.get(body["model"], 0)
            counts[body["model"]] = seen + 1
            status, reply = respond(body, seen)
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = loopback(Handler)
    with serving(httpd):
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", bodies


def test_every_model_knob_reaches_the_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bypass_proxies(monkeypatch)

    def respond(body: dict[str, Any], seen: int) -> tuple[int, dict[str, Any]]:
        if body["model"] == "agent-m":
            if seen == 0:
                return 500, {"error": "warming up"}  # one retry allowed: the next one answers
            return 200, completion("Let me look into that.", reasoning="Think first.")
        if seen >= 2:
            return 200, completion("Thanks, that is all. ###STOP###")
        return 200, completion("I need to change my flight, please.")

    config = tmp_path / "run.toml"
    config.write_text(
        'domains = "airline"\nnum_tasks = 1\nmax_steps = 6\n'
        '[agent_model]\nmodel = "agent-m"\ntemperature = 0.3\nbackoff_s = 0.01\n'
        "[agent_model.extra_body.chat_template_kwargs]\nenable_thinking = false\n"
    )
    with endpoint(respond) as (url, bodies):
        args = ["run", "--config", str(config), "--out", str(tmp_path / "run")]
        args += ["--agent-base-url", url, "--agent-max-tokens", "77", "--agent-top-p", "0.5"]
        args += ["--agent-seed", "3", "--agent-max-retries", "1", "--agent-timeout-s", "9"]
        args += ["--agent-send-reasoning", "--agent-temperature", "0.7"]
        args += ["--user-model", "user-m", "--user-base-url", url, "--user-max-tokens", "55"]
        args += ["--user-top-p", "0.9", "--user-seed", "4", "--user-extra-body", '{"top_k": 5}']
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    agent = [b for b in bodies if b["model"] == "agent-m"]
    user = [b for b in bodies if b["model"] == "user-m"]
    assert len(agent) >= 3 and user
    for body in agent:
        assert (body["max_tokens"], body["top_p"], body["seed"]) == (77, 0.5, 3)
        assert body["temperature"] == 0.7  # the command line overrides the file
        assert body["chat_template_kwargs"] == {"enable_thinking": False}  # from the file
        assert body["tools"]
    # The reasoning of the answered turn goes back on the next request.
    later = [m for m in agent[-1]["messages"] if m["role"] == "assistant"]
    assert later and later[-1].get("reasoning_content") == "Think first."
    for body in user:
        assert (body["max_tokens"], body["top_p"], body["seed"], body["top_k"]) == (55, 0.9, 4, 5)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    model = manifest["config"]["agent_model"]
    assert (model["timeout_s"], model["max_retries"], model["send_reasoning"]) == (9.0, 1, True)
    assert manifest["config"]["user"] == "llm"


def test_an_endpoint_that_ignores_tools_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bypass_proxies(monkeypatch)

    def respond(body: dict[str, Any], seen: int) -> tuple[int, dict[str, Any]]:
        # Like llama_cpp.server without a function-calling chat format: tools are accepted,
        # never used, and not counted in the prompt.
        return 200, completion("Sure, I can help with that.", prompt_tokens=40)

    out = tmp_path / "run"
    with endpoint(respond) as (url, _):
        args = ["run", "--domain", "airline", "--num-tasks", "2", "--trials", "3"]
        args += ["--agent-model", "m", "--agent-base-url", url, "--out", str(out)]
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output.count("never returned a tool call") == 1
    assert result.output.count("may be dropping `tools`") == 1
    warnings = json.loads((out / "manifest.json").read_text())["warnings"]
    assert len(warnings) == 2 and "never returned a tool call" in " ".join(warnings)
