from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.results import RESULTS_FILE, load_episodes
from tau_emotion.runner.run import RunExistsError, execute_run


def config(out: Path, **kw: object) -> RunConfig:
    return RunConfig(domains=["airline"], out=out, agent="oracle", **kw)  # type: ignore[arg-type]


def test_oracle_run_writes_results_and_manifest(tmp_path: Path) -> None:
    seen: list[int] = []
    # Neutral, so the oracle solves every task (an emotional customer may walk away).
    episodes = execute_run(
        config(tmp_path, trials=2, num_tasks=3, concurrency=4, no_emotion=True),
        progress=lambda e, d, t: seen.append(d),
    )
    assert len(episodes) == 6 and all(e.reward == 1.0 for e in episodes)
    assert seen == [1, 2, 3, 4, 5, 6]
    lines = (tmp_path / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 6
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["episodes_total"] == 6 and manifest["finished_at"]
    assert manifest["config"]["trials"] == 2 and manifest["code_version"].startswith("tau-emotion")
    seeds = {(e.task_id, e.trial): e.seed for e in episodes}
    again = execute_run(config(tmp_path / "again", trials=2, num_tasks=3, concurrency=1))
    assert {(e.task_id, e.trial): e.seed for e in again} == seeds


def test_existing_results_need_resume(tmp_path: Path) -> None:
    execute_run(config(tmp_path, num_tasks=1))
    with pytest.raises(RunExistsError, match="--resume"):
        execute_run(config(tmp_path, num_tasks=1))
    # More trials of the same tasks grow the run (another sample would be another run).
    assert execute_run(config(tmp_path, num_tasks=1, trials=2), resume=True)
    assert len((tmp_path / RESULTS_FILE).read_text().splitlines()) == 2


def test_resume_repairs_a_partial_last_line(tmp_path: Path) -> None:
    # Neutral, so every episode succeeds whichever tasks the sample draws.
    execute_run(config(tmp_path, num_tasks=2, no_emotion=True))
    path = tmp_path / RESULTS_FILE
    first = path.read_text().splitlines()[0]
    path.write_text(first + "\n" + first[: len(first) // 2])  # killed mid-write
    assert len(load_episodes(path)) == 1
    execute_run(config(tmp_path, num_tasks=2, no_emotion=True), resume=True)
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["reward"] == 1.0 for line in lines)


def test_kill_9_then_resume_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "tau_emotion.cli.main",
        "run",
        "--domain",
        "airline",
        "--agent",
        "oracle",
        "--user",
        "scripted",
        "--trials",
        "60",
        "--concurrency",
        "4",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    path = out / RESULTS_FILE
    deadline = time.time() + 60
    while time.time() < deadline and (not path.exists() or path.stat().st_size < 20_000):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = len(load_episodes(path))
    subprocess.run([*cmd, "--resume"], check=True, stdout=subprocess.DEVNULL, timeout=600)
    lines = path.read_text().splitlines()
    keys = [(json.loads(x)["task_id"], json.loads(x)["trial"]) for x in lines]
    assert len(keys) == len(set(keys)), "an episode was repeated"
    from tau_emotion.domains import load_domain

    benchmark = load_domain("airline").tasks("test", "test")
    expected = {(t.id, trial) for t in benchmark for trial in range(60)}
    assert set(keys) == expected, "an episode was lost"
    assert 0 < before < len(expected), "the kill did not land mid-run"


def test_task_file_picks_one_task_set_per_domain(tmp_path: Path) -> None:
    from tau_emotion.domains import load_domain
    from tau_emotion.errors import TaskFileError
    from tau_emotion.runner.tasks import select_tasks

    airline = load_domain("airline")
    dev = airline.tasks("test", "dev")
    generated = airline.tasks("test", "test")
    assert dev and generated
    assert {t.id for t in dev}.isdisjoint({t.id for t in generated})
    assert len(airline.tasks("test")) == len(dev) + len(generated)
    config = RunConfig(
        domains=["airline", "retail"], task_file="test", agent="oracle", out=tmp_path
    )
    picked = select_tasks(config)
    assert len(picked) == 140
    assert all(t.id in {x.id for x in load_domain(t.domain).tasks("test", "test")} for t in picked)
    # The default is the benchmark: the same tasks without naming the file.
    default = select_tasks(RunConfig(domains=["airline", "retail"], agent="oracle"))
    assert [t.key for t in default] == [t.key for t in picked]
    assert all(t.emotion is not None for t in default)
    old_name = RunConfig(domains="airline", task_file="seed", agent="oracle")
    assert old_name.task_file == "dev" and select_tasks(old_name) == dev
    with pytest.raises(TaskFileError, match=r"no task file 'nope' \(tasks/\*\.jsonl: dev"):
        airline.tasks("test", "nope")


def test_ctrl_c_stops_the_run_says_how_to_go_on_and_keeps_the_manifest(tmp_path: Path) -> None:
    """Ctrl-C lands between episodes (rule-based ones never await, so it once waited for the
    whole run), the manifest says how far the run got, and the line says --resume goes on."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "tau_emotion.cli.main", "run", "--domain", "airline"]
    cmd += ["--agent", "oracle", "--trials", "60", "--concurrency", "4", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    path = out / RESULTS_FILE
    deadline = time.time() + 60
    while time.time() < deadline and (not path.exists() or path.stat().st_size < 20_000):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert b"--resume goes on" in stderr and b"Traceback" not in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    played = len(load_episodes(path))
    assert 0 < played < 70 * 60, "the interrupt did not land mid-run"
    assert manifest["episodes_done"] == played and manifest["finished_at"] is None
