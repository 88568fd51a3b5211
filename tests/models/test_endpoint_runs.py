"""Whole runs through the lean transport against the scripted endpoint process: the same
seed gives the same episodes, and a resumed run ends where an uninterrupted one does."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loopback import bypass_proxies
from tau_emotion.data import Episode
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.results import RESULTS_FILE
from tau_emotion.runner.run import execute_run

ENDPOINT = Path(__file__).resolve().parents[2] / "benchmarks" / "scripted_endpoint.py"


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    bypass_proxies(monkeypatch)
    proc = subprocess.Popen(
        [sys.executable, str(ENDPOINT), "--latency", "0.005"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline().split()[1])
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def config(out: Path, base_url: str) -> RunConfig:
    return RunConfig(
        domains=["airline"],
        num_tasks=4,
        trials=2,
        agent="tool-calling",
        agent_model=ModelConfig(model="scripted", base_url=base_url),
        user="scripted",
        concurrency=4,
        max_steps=16,
        out=out,
    )


def outcome(episodes: list[Episode]) -> list[Any]:
    """Everything but timings, in a fixed order."""
    rows = []
    for e in sorted(episodes, key=lambda e: e.key):
        data = e.model_dump(mode="json", exclude={"duration_s"})
        for m in data["messages"]:
            m.pop("latency_s")
        rows.append(data)
    return rows


def test_same_seed_same_episodes_and_resume_matches(tmp_path: Path, endpoint: str) -> None:
    first = execute_run(config(tmp_path / "a", endpoint))
    second = execute_run(config(tmp_path / "b", endpoint))
    assert len(first) == 8 and not any(e.errors for e in first)
    assert any(m.tool_calls for e in first for m in e.messages)
    assert outcome(first) == outcome(second)

    # an interrupted run: keep three finished episodes, then resume
    results = tmp_path / "b" / RESULTS_FILE
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:3]))
    resumed = execute_run(config(tmp_path / "b", endpoint), resume=True)
    assert outcome(resumed) == outcome(first)
    assert len(results.read_text().splitlines()) == 8


def test_replay_of_a_recorded_run_reproduces_it_without_the_endpoint(
    tmp_path: Path, endpoint: str
) -> None:
    # two trials per task in flight at once: identical requests, told apart by occurrence
    cache = tmp_path / "cache"
    recorded = execute_run(config(tmp_path / "a", endpoint).model_copy(update={"cache_dir": cache}))
    replay = config(tmp_path / "b", endpoint).model_copy(
        update={"cache_dir": cache, "cache_mode": "replay"}
    )
    replayed = execute_run(replay)
    assert not any(e.errors for e in replayed)
    assert outcome(replayed) == outcome(recorded)
