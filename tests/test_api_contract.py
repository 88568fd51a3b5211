"""The Python API keeps the command line's promises: the same config for the same options,
the same files under `out`, the same account of how a run ended, and errors that name the
input instead of failing deep inside."""

from __future__ import annotations

import json
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
    with pytest.raises(ValidationError, match="has no scheme: did you mean 'http://notaurl'"):
        EmbedderSettings(embedder="openai", embed_model="m", embed_base_url="notaurl")


@pytest.mark.parametrize(
    "fields",
    [
        {"price_input_per_mtok": math.nan},
        {"price_output_per_mtok": math.inf},
        {"price_input_per_mtok": -1.0},
    ],
)
def test_prices_are_finite_and_not_negative(fields: dict[str, float]) -> None:
    """A NaN price made every cost null, and the run's own files unreadable."""
    with pytest.raises(ValidationError, match=next(iter(fields))):
        ModelConfig(model="m", **fields)  # type: ignore[arg-type]


def test_a_key_given_as_its_variable_name_is_refused_and_never_shown(tmp_path: Path) -> None:
    key = "sk-proj-SECRETSECRET1234"
    out = tmp_path / "run"
    with pytest.raises(tau_emotion.ConfigError, match="api_key_env") as refused:
        tau_emotion.evaluate(
            domains="airline", agent_model={"model": "m", "api_key_env": key}, out=out
        )
    assert "SECRET" not in str(refused.value) and not out.exists()
    with pytest.raises(ValidationError) as direct:  # a config built by hand: pydantic's own
        ModelConfig(model="m", api_key_env=key)
    assert "SECRET" not in str(direct.value)
    with pytest.raises(ValidationError, match="api_key_env") as in_file:  # a TOML [agent_model]
        RunConfig(domains="airline", agent_model={"model": "m", "api_key": key})
    assert "SECRET" not in str(in_file.value)
    with pytest.raises(ValidationError) as underscored:  # a key of letters, digits and '_'
        ModelConfig(model="m", api_key_env="gsk_SECRETabcdefGHIJ0123456789klmnopQRST")
    assert "SECRET" not in str(underscored.value)
    for name in ("MY_TOKEN_2", "my_key", "OPENAI_API_KEY"):
        assert ModelConfig(model="m", api_key_env=name).api_key_env == name


def test_a_cache_mode_without_a_cache_folder_is_refused() -> None:
    """A replay without --cache-dir called the live (paid) endpoint and exited 0."""
    from tau_emotion.models.factory import make_model

    for mode in ("replay", "record"):
        with pytest.raises(ValidationError, match=f"--cache-mode {mode} needs --cache-dir"):
            RunConfig(domains="airline", agent_model="m", cache_mode=mode)
        with pytest.raises(tau_emotion.ConfigError, match=f"cache_mode {mode} needs cache_dir"):
            tau_emotion.evaluate(domains="airline", agent_model="m", cache_mode=mode)
        with pytest.raises(ValueError, match="needs a cache file"):
            make_model(ModelConfig(model="m"), None, mode)  # type: ignore[arg-type]
    assert RunConfig(domains="airline", cache_mode="replay", cache_dir="c").cache_dir == Path("c")


def test_a_run_folder_from_before_the_cache_check_still_loads(tmp_path: Path) -> None:
    out = tmp_path / "run"
    tau_emotion.evaluate(domains="airline", num_tasks=1, agent="oracle", out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["config"]["cache_mode"] = "replay"  # as a run without --cache-dir stored it
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert tau_emotion.Results.load(out).config.cache_mode == "replay"


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"domains": "airlin"}, "domains: unknown domain 'airlin'"),
        ({"num_tasks": 0}, "num_tasks: Input should be greater than or equal to 1"),
        ({"tirals": 2}, "tirals: Extra inputs are not permitted"),
        ({"task_ids": ["nope"]}, "no task 'nope'"),
        ({"tasks": "missing.jsonl"}, "tasks missing.jsonl: no such file"),
        ({"agent": "few-shot", "agent_model": "m"}, "needs few_shot_file"),
        (
            {"agent": "tool-calling", "agent_model": {"model": "m", "base_url": "h:1/v1"}},
            "agent_model.base_url 'h:1/v1' has no scheme",
        ),
    ],
)
def test_every_bad_input_from_python_is_one_error_type_naming_the_keyword(
    tmp_path: Path, fields: dict[str, object], named: str
) -> None:
    """One ``except tau_emotion.TauEmotionError`` catches every bad input, and the message
    names what the caller wrote (``few_shot_file``), not a flag they never typed."""
    with pytest.raises(tau_emotion.TauEmotionError) as refused:
        tau_emotion.evaluate(out=tmp_path / "run", **{"agent": "oracle", **fields})
    message = str(refused.value)
    assert named in message and "--" not in message, message
    assert "\n" not in message
    if isinstance(refused.value, tau_emotion.ConfigError):
        assert isinstance(refused.value, ValueError)  # as the ValidationError it replaces


def test_an_existing_run_is_refused_in_python_terms(tmp_path: Path) -> None:
    out = tmp_path / "run"
    tau_emotion.evaluate(domains="airline", num_tasks=1, agent="oracle", out=out)
    with pytest.raises(tau_emotion.RunExistsError, match="pass resume=True") as refused:
        tau_emotion.evaluate(domains="airline", num_tasks=1, agent="oracle", out=out)
    assert "--" not in str(refused.value)


def test_the_errors_and_warnings_the_docs_name_are_exported() -> None:
    from tau_emotion.runner.run import RunWarning

    assert tau_emotion.RunWarning is RunWarning and "RunWarning" in tau_emotion.__all__
    assert tau_emotion.TauEmotionError is TauEmotionError
    assert tau_emotion.RunFolderError is RunFolderError
    for name in tau_emotion.__all__:
        assert getattr(tau_emotion, name) is not None
    for error in ("ConfigError", "InputError", "RunExistsError", "RunFolderError"):
        assert issubclass(getattr(tau_emotion, error), TauEmotionError)


def test_records_carry_policy_clean_success(tmp_path: Path) -> None:
    """The gaming baseline no-confirm succeeds by breaking the confirmation rule: a table of
    `success` alone shows it as perfect."""
    results = tau_emotion.evaluate(
        domains="airline", num_tasks=3, agent="no-confirm", out=tmp_path / "run"
    )
    rows = results.records()
    for row, episode in zip(rows, results.episodes(), strict=True):
        assert row["clean_success"] == episode.clean_success
        assert row["policy_violations"] == len(episode.breakdown.policy_violations)  # type: ignore[union-attr]
    assert any(r["success"] and not r["clean_success"] for r in rows)
    assert all(r["policy_violations"] > 0 for r in rows if r["success"] and not r["clean_success"])
