"""The Python API keeps the command line's promises: the same config for the same options,
the same files under `out`, the same account of how a run ended, and errors that name the
input instead of failing deep inside."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pydantic import ValidationError

import tau_emotion
from tau_emotion.errors import TauEmotionError
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.report.write import REPORT_FILE
from tau_emotion.runner.config import RunConfig, timestamped_dir
from tau_emotion.runner.outcome import EXIT_NO_RESPONSE, EXIT_OK
from tau_emotion.runner.results import METRICS_FILE, RESULTS_FILE, RunFolderError

DEAD_URL = "http://127.0.0.1:9/v1"  # the discard port: nothing listens


def test_changing_a_field_works_the_automatic_values_out_again() -> None:
    """An embedded agent gets 40 steps and one episode at a time; the same config with the
    oracle must get what `--agent oracle` gets (200 and 8), not keep the embedded's."""
    embedded = RunConfig(domains="airline")
    assert (embedded.max_steps, embedded.concurrency) == (40, 1)
    oracle = embedded.updated(agent="oracle")
    assert oracle == RunConfig(domains="airline", agent="oracle", out=embedded.out)
    assert (oracle.max_steps, oracle.concurrency) == (200, 8)
    llm_user = RunConfig(domains="airline", agent="oracle").updated(user_model="u")
    assert llm_user.user == "llm"
    # What was given stays given: an explicit value is not worked out again.
    pinned = RunConfig(domains="airline", max_steps=60).updated(agent="oracle")
    assert pinned.max_steps == 60


def test_evaluate_with_a_config_and_fields_matches_the_command_line(tmp_path: Path) -> None:
    base = RunConfig(domains="airline", num_tasks=1, out=tmp_path / "run")
    results = tau_emotion.evaluate(base, agent="oracle")
    assert results.config == RunConfig(
        domains="airline", num_tasks=1, agent="oracle", out=tmp_path / "run"
    )
    as_dict = tau_emotion.evaluate(
        {"domains": "airline", "num_tasks": 1, "agent": "oracle"}, out=tmp_path / "d"
    )
    assert [e.key for e in as_dict.episodes()] == [e.key for e in results.episodes()]
    with pytest.raises(TypeError, match="RunConfig or a dict"):
        tau_emotion.evaluate(["airline"])  # type: ignore[arg-type]


def test_evaluate_leaves_the_files_a_run_command_leaves(tmp_path: Path) -> None:
    out = tmp_path / "run"
    results = tau_emotion.evaluate(domains="airline", num_tasks=2, agent="oracle", out=out)
    assert (out / METRICS_FILE).is_file() and (out / REPORT_FILE).is_file()
    assert results.outcome is not None and results.outcome.code == EXIT_OK
    assert results.warnings == []


def test_evaluate_says_how_a_run_ended(tmp_path: Path) -> None:
    """What the command line's exit status 5 says: an endpoint that never answered."""
    with pytest.warns(UserWarning, match="no model request succeeded"):
        results = tau_emotion.evaluate(
            domains="airline",
            num_tasks=3,
            agent_model={"model": "m", "base_url": DEAD_URL, "max_retries": 0},
            fail_on_error=0,
            concurrency=1,
            out=tmp_path / "run",
        )
    assert results.outcome is not None and results.outcome.code == EXIT_NO_RESPONSE
    assert len(results.episodes()) == 1  # --fail-on-error 0 stopped it after the first
    assert any("no model request succeeded" in w for w in results.warnings)


def test_results_load_names_what_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError, match="no such folder"):
        tau_emotion.Results.load(tmp_path / "none")
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunFolderError, match="is a file, not a folder"):
        tau_emotion.Results.load(tmp_path / "file")
    with pytest.raises(RunFolderError, match=r"no manifest\.json"):
        tau_emotion.Results.load(tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    (run / RESULTS_FILE).write_text("")
    with pytest.raises(RunFolderError, match=r"manifest\.json is damaged"):
        tau_emotion.Results.load(run)


def test_a_loaded_run_lives_where_it_was_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    results = tau_emotion.evaluate(domains="airline", num_tasks=1, agent="oracle")
    moved = tmp_path / "elsewhere"
    results.out.rename(moved)
    loaded = tau_emotion.Results.load(moved)
    assert loaded.out == moved and loaded.records() == results.records()
    assert loaded.outcome is not None and loaded.outcome.code == EXIT_OK


def test_two_default_run_folders_of_one_second_differ(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = timestamped_dir("run")
    first.mkdir(parents=True)
    second = timestamped_dir("run")
    assert second != first and not second.exists()


def test_task_ids_name_tasks_that_exist() -> None:
    from tau_emotion.runner.tasks import select_tasks

    one = select_tasks(RunConfig(domains="airline", agent="oracle"))[0].id
    with pytest.raises(TauEmotionError, match="no task 'zzz'"):
        select_tasks(RunConfig(domains="airline", agent="oracle", task_ids=[one, "zzz"]))
    with pytest.raises(ValidationError, match="task_ids"):
        RunConfig(domains="airline", agent="oracle", task_ids=[])


@pytest.mark.parametrize(
    "fields",
    [{"top_p": 5.0}, {"top_p": 0.0}, {"temperature": -1.0}, {"temperature": math.nan}],
)
def test_model_settings_that_make_no_sense_are_refused(fields: dict[str, float]) -> None:
    with pytest.raises(ValidationError, match=next(iter(fields))):
        ModelConfig(model="m", **fields)  # type: ignore[arg-type]


def test_the_mapper_refuses_what_is_not_text() -> None:
    from tau_emotion.emotions.mapper import Mapper, map_feeling
    from tau_emotion.emotions.settings import EmbedderSettings

    with pytest.raises(TypeError, match="not a string"):
        map_feeling(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="use map_one"):
        Mapper.default().map("hello")
    with pytest.raises(ValidationError, match="must be an http"):
        EmbedderSettings(embedder="openai", embed_model="m", embed_base_url="notaurl")
