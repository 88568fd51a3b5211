"""What a resumed or interrupted run may and may not do: it finishes the same run, never two
runs in one folder; every task is played once; the error budget is the whole run's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from tau_emotion.data import Episode, RunManifest
from tau_emotion.domains import resolve_domains
from tau_emotion.errors import TaskFileError
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, load_episodes
from tau_emotion.runner.run import RunExistsError, execute_run
from tau_emotion.storage import read_model

DEAD_URL = "http://127.0.0.1:9/v1"  # the discard port: nothing listens


def _config(out: Path, **fields: object) -> RunConfig:
    given = {"domains": "airline", "num_tasks": 4, "agent": "oracle", "out": out, **fields}
    return RunConfig.model_validate(given)


def test_resuming_with_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    execute_run(_config(out, num_tasks=2))
    before = (out / RESULTS_FILE).read_bytes()
    for changed in ({"agent": "do-nothing"}, {"no_emotion": True}, {"num_tasks": 3}):
        with pytest.raises(RunExistsError, match="was run with other settings"):
            execute_run(_config(out, **{"num_tasks": 2, **changed}), resume=True)
    assert (out / RESULTS_FILE).read_bytes() == before  # nothing played, nothing appended
    # How the run is carried out may change: more in flight, a cache, an error budget.
    resumed = execute_run(_config(out, num_tasks=2, concurrency=1, fail_on_error=0), resume=True)
    assert len(resumed) == 2
    # More trials of the same tasks grow it; fewer would leave trials the run no longer has.
    assert len(execute_run(_config(out, num_tasks=2, trials=2), resume=True)) == 4
    with pytest.raises(RunExistsError, match="trials: 2 -> 1"):
        execute_run(_config(out, num_tasks=2, trials=1), resume=True)


def test_the_refusal_names_what_changed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    execute_run(_config(out, num_tasks=1))
    with pytest.raises(RunExistsError, match=r"agent: 'oracle' -> 'do-nothing'"):
        execute_run(_config(out, num_tasks=1, agent="do-nothing"), resume=True)


def test_an_interrupted_run_says_how_far_it_got(tmp_path: Path) -> None:
    out = tmp_path / "run"
    seen: list[Episode] = []

    def interrupt_after_two(episode: Episode, done: int, total: int) -> None:
        seen.append(episode)
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute_run(_config(out, concurrency=1), progress=interrupt_after_two)
    manifest = read_model(out / MANIFEST_FILE, RunManifest)
    assert manifest.episodes_done == 2 and manifest.finished_at is None
    assert len(load_episodes(out / RESULTS_FILE)) == 2
    finished = execute_run(_config(out, concurrency=1), resume=True)
    assert len(finished) == 4 and len(load_episodes(out / RESULTS_FILE)) == 4


def test_a_domain_named_twice_is_played_once(tmp_path: Path) -> None:
    assert resolve_domains("airline,airline,retail") == ["airline", "retail"]
    episodes = execute_run(_config(tmp_path / "run", domains="airline,airline", num_tasks=None))
    assert len(episodes) == len({e.key for e in episodes})


def _task_file(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _one_task() -> dict[str, object]:
    from tau_emotion.runner.tasks import select_tasks

    task = select_tasks(RunConfig(domains="airline", agent="oracle", num_tasks=1))[0]
    return task.model_dump(mode="json")


def test_a_task_file_holding_a_task_twice_is_refused(tmp_path: Path) -> None:
    task = _one_task()
    path = _task_file(tmp_path, [task, task])
    with pytest.raises(TaskFileError, match=r"holds task airline/\S+ twice"):
        execute_run(_config(tmp_path / "run", tasks=path, num_tasks=None))


def test_a_task_file_of_an_unknown_domain_names_it(tmp_path: Path) -> None:
    path = _task_file(tmp_path, [{**_one_task(), "domain": "nosuch"}])
    with pytest.raises(TaskFileError, match="unknown domain 'nosuch'"):
        execute_run(_config(tmp_path / "run", tasks=path, num_tasks=None))


@pytest.mark.parametrize("value", ["inf", "nan"])
def test_fail_on_error_is_a_finite_number(value: str) -> None:
    with pytest.raises(ValidationError, match="finite number"):
        RunConfig(agent="oracle", fail_on_error=float(value))


def test_the_error_budget_is_the_whole_runs(tmp_path: Path) -> None:
    """0.2 of a 10-episode run tolerates 2 failures; a plain resume after the run stopped at
    the third may not play on as if the run had started over with a fresh budget."""
    out = tmp_path / "run"
    dead = {"agent": "tool-calling", "num_tasks": 10, "concurrency": 1, "fail_on_error": 0.2}
    dead["agent_model"] = {"model": "m", "base_url": DEAD_URL, "max_retries": 0}
    first = execute_run(_config(out, **dead))
    assert len(first) == 3  # the third failure is more than 2
    again = execute_run(_config(out, **dead), resume=True)
    assert len(again) == 3  # still over budget: nothing more is played


def test_one_run_at_a_time_writes_a_folder(tmp_path: Path) -> None:
    """A `--resume` in another terminal (or a second `evaluate_async` on one `out`) while a
    run writes the folder would play its episodes twice: it is refused instead."""
    from tau_emotion.storage import file_lock

    out = tmp_path / "run"
    held = file_lock(out / RESULTS_FILE, wait=False)  # as the first run holds it
    with held, pytest.raises(RunExistsError, match="being written by another run"):
        execute_run(_config(out, num_tasks=1))
    assert len(execute_run(_config(out, num_tasks=1))) == 1  # free again once it ended
