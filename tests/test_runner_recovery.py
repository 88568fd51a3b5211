"""A run records every pair and loses none: a results file cut between a record and its
newline, a pair whose participants or environment cannot be built, a Ctrl-C that lands
right after a line is written, and a resume that names the default task file."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tau_emotion.data import Episode, ErrorKind, RunManifest, Task
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.runner.results import (
    MANIFEST_FILE,
    RESULTS_FILE,
    load_episodes,
    repair_tail,
)
from tau_emotion.runner.run import RunExistsError, execute_run
from tau_emotion.runner.tasks import select_tasks
from tau_emotion.simulation.participants import Agent, EpisodeSetup
from tau_emotion.storage import read_model


def _config(out: Path, **fields: object) -> RunConfig:
    given = {"domains": "airline", "num_tasks": 3, "agent": "oracle", "out": out, **fields}
    return RunConfig.model_validate(given)


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines()]


# 1. A whole last record without its newline


def test_a_whole_last_record_without_its_newline_is_kept_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    execute_run(_config(out, num_tasks=5))
    path = out / RESULTS_FILE
    records = path.read_bytes().split(b"\n")[:3]
    path.write_bytes(b"\n".join(records))  # three records, the last one unterminated
    assert len(load_episodes(path)) == 3  # loading counts it as done...
    execute_run(_config(out, num_tasks=5), resume=True)
    lines = _lines(out)  # ...so the writer must keep it too: nothing is lost or repeated
    assert len(lines) == 5 and len({(x["task_id"], x["trial"]) for x in lines}) == 5
    manifest = read_model(out / MANIFEST_FILE, RunManifest)
    assert manifest.episodes_done == 5 and manifest.finished_at


def test_repair_tail_keeps_a_whole_record_and_cuts_a_partial_one(tmp_path: Path) -> None:
    execute_run(_config(tmp_path / "run", num_tasks=2))
    path = tmp_path / "run" / RESULTS_FILE
    first, second = path.read_bytes().splitlines()
    path.write_bytes(first + b"\n" + second)
    repair_tail(path)
    assert path.read_bytes() == first + b"\n" + second + b"\n"
    path.write_bytes(first + b"\n" + second[:-10])
    repair_tail(path)
    assert path.read_bytes() == first + b"\n"
    assert len(load_episodes(path)) == 1


# 6. A pair that cannot be built is recorded, and the run goes on


class _NoAgentFor(Participants):
    """Participants whose agent cannot be built for one task."""

    broken: str = ""

    def agent(self, setup: EpisodeSetup) -> Agent:
        if setup.task.id == self.broken:
            raise RuntimeError("cannot build agent")
        return super().agent(setup)


def test_a_pair_whose_agent_cannot_be_built_is_a_recorded_bug(tmp_path: Path) -> None:
    cfg = _config(tmp_path / "run", concurrency=2)
    participants = _NoAgentFor(cfg)
    participants.broken = select_tasks(cfg)[1].id
    episodes = execute_run(cfg, participants=participants)
    assert len(episodes) == 3 and len(_lines(cfg.out)) == 3  # the other pairs still played
    broken = next(e for e in episodes if e.task_id == participants.broken)
    assert broken.termination == "framework_error"
    assert [(x.kind, x.message) for x in broken.errors] == [
        (ErrorKind.BUG, "agent: RuntimeError: cannot build agent")
    ]
    assert all(not e.errors for e in episodes if e is not broken)


def test_an_environment_that_cannot_be_built_is_a_recorded_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tau_emotion.runner.episodes as episodes_module

    def broken_environment(*args: object) -> None:
        raise OSError("database missing")

    monkeypatch.setattr(episodes_module, "Environment", broken_environment)
    episodes = execute_run(_config(tmp_path / "run"))
    assert len(episodes) == 3
    assert {e.errors[0].message for e in episodes} == {"environment: OSError: database missing"}
    assert all(e.errors[0].kind == ErrorKind.BUG for e in episodes)


def test_a_ray_worker_plays_an_unbuildable_pair_as_a_recorded_bug(tmp_path: Path) -> None:
    from tau_emotion.runner.ray_executor import EpisodeWorker

    cfg = _config(tmp_path / "run", num_tasks=1)
    participants = _NoAgentFor(cfg)
    task = select_tasks(cfg)[0]
    participants.broken = task.id
    worker = EpisodeWorker(cfg.model_dump_json(), participants)
    episode = Episode.model_validate_json(asyncio.run(worker.play(task.model_dump_json(), 0)))
    assert episode.termination == "framework_error" and episode.errors[0].kind == ErrorKind.BUG


def _fake_ray(failures: list[str]) -> types.ModuleType:
    """Just enough of Ray for `run_pairs_ray`'s driver loop: the n-th submitted episode's
    `ray.get` raises the Ray exception named `failures[n]`."""

    class RayError(Exception):
        pass

    class RayTaskError(RayError):  # the task's own code raised
        pass

    class RayActorError(RayError):  # the actor process died
        pass

    ray = types.ModuleType("ray")
    errors = {"RayTaskError": RayTaskError, "RayActorError": RayActorError}
    ray.exceptions = types.SimpleNamespace(RayError=RayError, **errors)  # type: ignore[attr-defined]
    submitted: list[int] = []

    class Play:
        def remote(self, task_json: str, trial: int) -> int:
            submitted.append(len(submitted))
            return submitted[-1]

    class Actor:
        play = Play()

    class ActorClass:
        def options(self, **kw: object) -> ActorClass:
            return self

        def remote(self, *args: object) -> Actor:
            return Actor()

    def get(ref: int) -> str:
        raise errors[failures[ref]]("failed")

    ray.is_initialized = lambda: True  # type: ignore[attr-defined]
    ray.cluster_resources = lambda: {"CPU": 1.0}  # type: ignore[attr-defined]
    ray.remote = lambda cls: ActorClass()  # type: ignore[attr-defined]
    ray.wait = lambda refs, num_returns: (refs[:num_returns], refs[num_returns:])  # type: ignore[attr-defined]
    ray.get = get  # type: ignore[attr-defined]
    ray.kill = lambda actor: None  # type: ignore[attr-defined]
    return ray


def test_ray_labels_a_raising_task_a_bug_and_a_dead_worker_infra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tau_emotion.runner.ray_executor import run_pairs_ray

    monkeypatch.setitem(sys.modules, "ray", _fake_ray(["RayTaskError", "RayActorError"]))
    cfg = _config(tmp_path / "run", num_tasks=2, executor="ray", concurrency=1)
    tasks: list[Task] = select_tasks(cfg)
    seen: list[Episode] = []
    run_pairs_ray(cfg, [(t, 0) for t in tasks], seen.append)
    assert [e.errors[0].kind for e in seen] == [ErrorKind.BUG, ErrorKind.INFRA]
    assert [e.termination for e in seen] == ["framework_error", "infra_error"]


# 7. The manifest counts what was written


def test_a_ctrl_c_right_after_a_line_is_written_is_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal most often lands in the fsync that ends an append: the line is in the
    file, so the manifest must count it."""
    out = tmp_path / "run"
    results = out / RESULTS_FILE
    real_fsync = os.fsync
    calls = [0]

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if results.exists() and os.path.samestat(os.fstat(fd), results.stat()):
            calls[0] += 1
            if calls[0] == 3:
                raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        execute_run(_config(out, num_tasks=5, concurrency=1))
    manifest = read_model(out / MANIFEST_FILE, RunManifest)
    assert len(_lines(out)) == 3
    assert manifest.episodes_done == 3 and manifest.finished_at is None


# 8. The default task file, named


def test_resume_with_the_task_file_the_split_reads_is_the_same_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    execute_run(_config(out, num_tasks=2))
    assert len(execute_run(_config(out, num_tasks=2, task_file="test"), resume=True)) == 2
    assert len(_lines(out)) == 2
    with pytest.raises(RunExistsError, match=r"task_file: 'test' -> 'dev'"):
        execute_run(_config(out, num_tasks=2, task_file="dev"), resume=True)
