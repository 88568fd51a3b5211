"""What a run leaves when it is stopped or refused: a manifest that says how far a run killed
by SIGTERM got, no empty folder for a run refused before its first episode, and a warning
when fewer tasks exist than ``--num-tasks`` asked for."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import RunManifest
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE
from tau_emotion.runner.run import RunWarning, execute_run
from tau_emotion.storage import read_model

runner = CliRunner()

# A run that stops for good after its third episode, so that the signal lands between
# episodes at a known count: the progress hook runs once an episode is on disk.
STALLED_RUN = """
import sys, time
from pathlib import Path
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.run import execute_run

out, marker = Path(sys.argv[1]), Path(sys.argv[2])

def progress(episode, done, total):
    if done == 3:
        marker.write_text("3")
        time.sleep(120)

config = RunConfig(domains="airline", num_tasks=6, agent="oracle", concurrency=1, out=out)
execute_run(config, progress=progress)
"""


def test_a_run_killed_by_sigterm_says_how_far_it_got(tmp_path: Path) -> None:
    """SIGTERM (a job scheduler's stop, `timeout`, `docker stop`) runs no `finally`: the
    manifest once still said 0 episodes done with 3 on disk."""
    out, marker = tmp_path / "run", tmp_path / "marker"
    proc = subprocess.Popen(
        [sys.executable, "-c", STALLED_RUN, str(out), str(marker)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 120
        while not marker.exists() and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        assert marker.exists(), proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGTERM
    lines = (out / RESULTS_FILE).read_text().splitlines()
    manifest = json.loads((out / MANIFEST_FILE).read_text())
    assert len(lines) == 3
    assert manifest["episodes_done"] == 3 and manifest["episodes_total"] == 6
    assert manifest["finished_at"] is None


def test_a_refused_run_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    typo = runner.invoke(app, ["run", "--agent", "oracle", "--domain", "airline", "--task-id", "x"])
    assert typo.exit_code == 2 and "no task 'x'" in typo.output
    missing = runner.invoke(app, ["run", "--agent", "oracle", "--tasks", "missing.jsonl"])
    assert missing.exit_code == 2 and "--tasks missing.jsonl" in missing.output
    assert not (tmp_path / "runs").exists()
    # Nor a folder it created for --out and --cache-dir, however deep.
    out, cache = tmp_path / "a" / "b" / "out", tmp_path / "c" / "cache"
    with pytest.raises(Exception, match="no task 'x'"):
        execute_run(
            RunConfig(domains="airline", agent="oracle", task_ids=["x"], out=out, cache_dir=cache)
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_refused_run_never_removes_what_was_there(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(Exception, match="no task 'x'"):
        execute_run(RunConfig(domains="airline", agent="oracle", task_ids=["x"], out=out))
    assert out.is_dir() and (tmp_path / "keep.txt").read_text() == "mine"
    # A run refused after its first episodes keeps them (a resume with other settings).
    run = tmp_path / "run"
    execute_run(RunConfig(domains="airline", agent="oracle", num_tasks=1, out=run))
    with pytest.raises(Exception, match="other settings"):
        execute_run(
            RunConfig(domains="airline", agent="oracle", num_tasks=1, seed=5, out=run),
            resume=True,
        )
    assert len((run / RESULTS_FILE).read_text().splitlines()) == 1


def test_more_tasks_asked_than_exist_is_said_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = RunConfig(domains="airline", agent="oracle", num_tasks=1000, out=out)
    with pytest.warns(RunWarning) as caught:
        episodes = execute_run(config)
    assert len(episodes) == 70  # every task there is still runs
    messages = [str(w.message) for w in caught]
    expected = "--num-tasks 1000: only 70 tasks in domains airline, split test"
    assert len(messages) == 1 and expected in messages[0]
    with pytest.warns(RunWarning):
        execute_run(config, resume=True)
    assert read_model(out / MANIFEST_FILE, RunManifest).warnings == messages
    # A sample that fits says nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        execute_run(config.updated(num_tasks=70, out=tmp_path / "fits"))
