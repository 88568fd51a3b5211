"""The Ray executor gives the same results file as the local one, with resume and progress."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tau_emotion.errors import TauEmotionError
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.ray_executor import lost_episode, plan_actors, run_pairs_ray
from tau_emotion.runner.results import RESULTS_FILE
from tau_emotion.runner.run import execute_run
from tau_emotion.runner.tasks import select_tasks


def config(out: Path, **kw: Any) -> RunConfig:
    return RunConfig(  # type: ignore[arg-type]
        domains=["airline", "movie"],
        task_file="dev",
        agent="oracle",
        trials=2,
        concurrency=4,
        out=out,
        **kw,
    )


def records(run_dir: Path) -> dict[tuple[str, str, int], dict[str, Any]]:
    """Per-key records without the wall-clock fields (durations, latencies)."""
    out = {}
    for line in (run_dir / RESULTS_FILE).read_text().splitlines():
        record = json.loads(line)
        record.pop("duration_s")
        for message in record["messages"]:
            message.pop("latency_s", None)
        out[(record["domain"], record["task_id"], record["trial"])] = record
    return out


def test_plan_actors_spreads_concurrency_over_cpus() -> None:
    assert plan_actors(concurrency=8, pairs=100, cluster_cpus=2) == (2, 4)
    assert plan_actors(concurrency=8, pairs=3, cluster_cpus=16) == (3, 1)
    assert plan_actors(concurrency=1, pairs=10, cluster_cpus=0) == (1, 1)


def test_lost_episode_is_a_recorded_infra_error(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    task = select_tasks(cfg)[0]
    episode = lost_episode(cfg, task, 1, "actor died")
    assert episode.termination == "infra_error" and episode.errors[0].kind == "infra"
    assert episode.key == (task.domain, task.id, 1) and episode.reward == 0.0


def test_human_participants_cannot_run_on_ray(tmp_path: Path) -> None:
    cfg = RunConfig(domains=["airline"], agent="human", concurrency=1, out=tmp_path)
    with pytest.raises(TauEmotionError, match="human"):
        run_pairs_ray(cfg, [(select_tasks(cfg)[0], 0)], lambda e: None)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_run_matches_local_run_and_resumes(local_ray: None, tmp_path: Path) -> None:
    local = execute_run(config(tmp_path / "local", num_tasks=6))
    # A Ray run, cut back to its first 8 episodes as if it had been interrupted...
    execute_run(config(tmp_path / "ray", num_tasks=6, executor="ray"))
    results = tmp_path / "ray" / RESULTS_FILE
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:8]))
    assert len(records(tmp_path / "ray")) == 8
    # ...and --resume on Ray runs only the missing pairs, with progress as locally.
    seen: list[int] = []
    resumed = execute_run(
        config(tmp_path / "ray", num_tasks=6, executor="ray"),
        resume=True,
        progress=lambda e, done, total: seen.append(done),
    )
    assert seen == [9, 10, 11, 12]
    lines = (tmp_path / "ray" / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 12  # nothing repeated
    assert records(tmp_path / "ray") == records(tmp_path / "local")
    assert {e.key for e in resumed} == {e.key for e in local}
    assert all(e.reward == 1.0 for e in resumed)
    manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert manifest["config"]["executor"] == "ray" and manifest["episodes_done"] == 12
