"""Runs against a loopback endpoint that misbehaves in every way we know of.

The endpoint answers Chat Completions, but some requests get a fault instead: 500, 429, 503,
a hang past the client's timeout, a body cut off mid-way, a reset connection, a tool call
with malformed arguments or an unknown name, an empty message, a lone surrogate, or a 401
whose body echoes the Authorization header. Whatever it sends, the run finishes, records
every (task, trial) exactly once with its reason, accounts for every request, keeps the API
key out of every file and line it writes, and exits with a status CI can trust.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loopback import bypass_proxies, loopback, serving
from tau_emotion.cli.main import app
from tau_emotion.runner.outcome import (
    EXIT_INFRA_ERRORS,
    EXIT_NO_RESPONSE,
    EXIT_OK,
    EXIT_STOPPED,
)
from tau_emotion.runner.results import load_episodes

KEY = "sk-tau-loopback-SECRET-5f3c9a1e77"
TIMEOUT_S = 1.0
# The client's timeout must be far above a good reply's time even on a loaded machine: at
# 0.4 s a slow good reply was once abandoned and retried, and the request count was one off.
RETRYABLE = ("500", "429", "503", "hang", "truncated", "reset")
AGENT_FAULTS = ("malformed_arguments", "unknown_tool", "empty_message", "surrogate")
ALL_FAULTS = RETRYABLE + AGENT_FAULTS

runner = CliRunner()
Schedule = Callable[[int], str | None]
"""Request number -> the fault to serve, or None for a good reply."""


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 9_000, "completion_tokens": 5, "total_tokens": 9_005},
    }


def _call(name: str, arguments: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}
        ],
    }


GOOD = {"role": "assistant", "content": "I am sorry about that. Could you give me your user id?"}
REPLIES = {
    "malformed_arguments": _call("get_user_details", '{"user_id": "x", NaN'),
    "unknown_tool": _call("no_such_tool", "{}"),
    "empty_message": {"role": "assistant", "content": None},
    # json.dumps writes the lone surrogate as the escape "\ud800", as a broken server would.
    "surrogate": {"role": "assistant", "content": "Sorry \ud800 for the wait."},
}


class FaultyEndpoint:
    """A Chat Completions server on 127.0.0.1 serving faults on the requests `schedule` picks."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.served: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._next = 0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                self.rfile.read(length)
                with endpoint._lock:
                    number = endpoint._next
                    endpoint._next += 1
                    fault = endpoint.schedule(number)
                    endpoint.served[fault or "good"] += 1
                endpoint.serve(self, fault)

        self.httpd = loopback(Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def serve(self, h: BaseHTTPRequestHandler, fault: str | None) -> None:
        if fault in ("500", "429", "503"):
            body = json.dumps({"error": {"message": f"fault {fault}"}}).encode()
            self._send(h, int(fault), body, {"retry-after": "0"} if fault == "429" else {})
        elif fault == "401":
            # Some proxies quote the request back; the key must not survive into any file.
            echo = {"error": {"message": f"bad key; you sent {h.headers.get('authorization')}"}}
            self._send(h, 401, json.dumps(echo).encode())
        elif fault == "hang":
            time.sleep(TIMEOUT_S * 3)
            h.close_connection = True
        elif fault == "truncated":
            body = json.dumps(_completion(GOOD)).encode()
            h.send_response(200)
            h.send_header("content-type", "application/json")
            h.send_header("content-length", str(len(body)))
            h.end_headers()
            h.wfile.write(body[: len(body) // 2])
            h.wfile.flush()
            h.close_connection = True
        elif fault == "reset":
            # SO_LINGER 0: close() sends RST, as a crashed proxy does.
            h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            h.close_connection = True
        else:
            message = REPLIES.get(fault or "", GOOD)
            self._send(h, 200, json.dumps(_completion(message)).encode())

    @staticmethod
    def _send(
        h: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str] | None = None
    ) -> None:
        h.send_response(status)
        h.send_header("content-type", "application/json")
        h.send_header("content-length", str(len(body)))
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(body)

    @property
    def requests(self) -> int:
        return sum(self.served.values())


@contextmanager
def faulty(schedule: Schedule) -> Iterator[FaultyEndpoint]:
    server = FaultyEndpoint(schedule)
    with serving(server.httpd):
        yield server


@pytest.fixture(autouse=True)
def _offline_key(monkeypatch: pytest.MonkeyPatch) -> None:
    bypass_proxies(monkeypatch)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def run(url: str, out: Path, *extra: str, tasks: int = 6, trials: int = 1) -> Any:
    args = [
        *["run", "--domain", "airline", "--num-tasks", str(tasks), "--trials", str(trials)],
        *["--agent-model", "m", "--agent-base-url", url, "--agent-timeout-s", str(TIMEOUT_S)],
        *["--agent-backoff-s", "0.01", "--max-steps", "6", "--concurrency", "4"],
        *["--out", str(out), *extra],
    ]
    return runner.invoke(app, args)


def episodes(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def assert_recorded_once(out: Path, expected: int) -> list[dict[str, Any]]:
    records = episodes(out)
    keys = [(e["domain"], e["task_id"], e["trial"]) for e in records]
    assert len(keys) == len(set(keys)) == expected, Counter(keys).most_common(3)
    for e in records:
        assert e["termination"], e
        if e["termination"] == "infra_error":
            assert e["errors"] and e["errors"][0]["kind"] == "infra", e["errors"]
    return records


def assert_no_key_anywhere(out: Path, *texts: str) -> None:
    for path in out.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), f"the key leaked into {path}"
    for text in texts:
        assert KEY not in text


def answered(records: list[dict[str, Any]]) -> int:
    return sum(e["usage_agent"]["calls"] for e in records)


@pytest.mark.parametrize("fault", ALL_FAULTS)
def test_one_kind_of_fault_on_every_third_request(fault: str, tmp_path: Path) -> None:
    out = tmp_path / fault
    with faulty(lambda n: fault if n % 3 == 1 else None) as server:
        # One episode at a time: with several in flight, a retry can land on the next fault
        # slot again and again and exhaust its retries, which depends on scheduling.
        result = run(server.base_url, out, "--concurrency", "1")
    assert "Traceback" not in result.output
    assert result.exit_code == EXIT_OK, result.output
    records = assert_recorded_once(out, 6)
    assert server.served[fault] > 0
    # Every request is accounted for: a retryable fault is retried, everything else answered.
    retried = server.served[fault] if fault in RETRYABLE else 0
    assert answered(records) == server.requests - retried
    if fault == "surrogate":
        text = (out / "results.jsonl").read_text(encoding="utf-8")
        assert "Sorry \ufffd for the wait." in text
        assert "\\ud800" not in text
    assert_no_key_anywhere(out, result.output)


def test_mixed_faults_at_20_percent(tmp_path: Path) -> None:
    out = tmp_path / "mixed"

    def schedule(n: int) -> str | None:
        # One request in five is a fault, cycling through every kind.
        return ALL_FAULTS[(n // 5) % len(ALL_FAULTS)] if n % 5 == 2 else None

    with faulty(schedule) as server:
        result = run(server.base_url, out, tasks=20, trials=2)
    assert "Traceback" not in result.output
    records = assert_recorded_once(out, 40)
    assert set(server.served) >= {*ALL_FAULTS, "good"}, server.served
    infra = sum(e["termination"] == "infra_error" for e in records)
    assert infra <= 0.05 * len(records), Counter(e["termination"] for e in records)
    assert result.exit_code == (EXIT_INFRA_ERRORS if infra else EXIT_OK), result.output
    retried = sum(server.served[f] for f in RETRYABLE)
    assert answered(records) == server.requests - retried
    print(f"\nmixed faults: {dict(server.served)}; infra_error {infra} of {len(records)}")
    assert_no_key_anywhere(out, result.output)


def test_an_echoed_key_never_reaches_a_file_or_the_terminal(tmp_path: Path) -> None:
    out = tmp_path / "echo"
    with faulty(lambda n: "401") as server:
        result = run(server.base_url, out, "--cache-dir", str(tmp_path / "cache"))
    assert server.served["401"] > 0
    records = assert_recorded_once(out, 6)
    assert {e["termination"] for e in records} == {"infra_error"}
    assert "[OPENAI_API_KEY redacted]" in records[0]["errors"][0]["message"]
    # Not one request succeeded: CI sees a distinct status and a line that says so.
    assert result.exit_code == EXIT_NO_RESPONSE, result.output
    assert "no model request succeeded" in result.output
    assert_no_key_anywhere(out, result.output)
    assert_no_key_anywhere(tmp_path / "cache")


def test_some_infra_errors_exit_3(tmp_path: Path) -> None:
    out = tmp_path / "some"
    # Requests 3.. fail for good: the first episodes get answers, the rest run out of retries.
    with faulty(lambda n: "500" if n >= 3 else None) as server:
        result = run(server.base_url, out, "--agent-max-retries", "1", "--concurrency", "1")
    assert server.served["good"] == 3
    records = assert_recorded_once(out, 6)
    assert 0 < sum(e["termination"] == "infra_error" for e in records) < 6
    assert result.exit_code == EXIT_INFRA_ERRORS, result.output
    assert "ended in an infra error" in result.output


def test_fail_on_error_stops_early_and_resume_finishes(tmp_path: Path) -> None:
    out = tmp_path / "stop"
    # The first request is answered (else the status would say no request ever succeeded).
    with faulty(lambda n: None if n == 0 else "503") as server:
        args = ("--agent-max-retries", "0", "--concurrency", "1", "--fail-on-error", "2")
        result = run(server.base_url, out, *args, tasks=10)
    assert result.exit_code == EXIT_STOPPED, result.output
    assert "stopped early by --fail-on-error" in result.output
    assert len(assert_recorded_once(out, 3)) == 3  # the third failure crossed the limit of 2
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["finished_at"] is None and manifest["episodes_done"] == 3
    with faulty(lambda n: None) as server:
        again = run(server.base_url, out, "--resume", "--retry-errors", tasks=10)
    assert again.exit_code == EXIT_OK, again.output
    # Re-run errors are appended; the later record of a key supersedes the earlier one.
    latest = load_episodes(out / "results.jsonl")
    assert len(latest) == 10 and len(episodes(out)) == 13
    assert all(e.termination != "infra_error" for e in latest.values())


def test_a_fraction_of_the_run_as_the_limit(tmp_path: Path) -> None:
    out = tmp_path / "fraction"
    with faulty(lambda n: None if n == 0 else "503") as server:
        args = ("--agent-max-retries", "0", "--concurrency", "1", "--fail-on-error", "0.25")
        result = run(server.base_url, out, *args, tasks=8)
    assert result.exit_code == EXIT_STOPPED, result.output
    assert len(episodes(out)) == 3  # 0.25 x 8 = 2 tolerated; the third stops the run


def test_replay_with_an_empty_cache_is_no_response(tmp_path: Path) -> None:
    out = tmp_path / "replay"
    args = ("--cache-dir", str(tmp_path / "empty"), "--cache-mode", "replay")
    result = run("http://127.0.0.1:9/v1", out, *args, tasks=2)
    assert result.exit_code == EXIT_NO_RESPONSE, result.output
    assert {e["termination"] for e in assert_recorded_once(out, 2)} == {"infra_error"}


def test_an_embeddings_endpoint_echoing_its_key_is_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("EMBED_KEY", KEY)
    with faulty(lambda n: "401") as server:
        result = runner.invoke(
            app,
            [
                *["emotions", "map", "I am so angry", "--embedder", "openai"],
                *["--embed-model", "e", "--embed-base-url", server.base_url],
                *["--api-key-env", "EMBED_KEY"],
            ],
        )
    assert server.served["401"] > 0
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "[EMBED_KEY redacted]" in result.output or "[OPENAI_API_KEY redacted]" in result.output
    assert_no_key_anywhere(tmp_path, result.output)
