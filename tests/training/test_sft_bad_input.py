"""Bad input to ``train sft``: one ``error:`` line naming the input, exit status 2, before
torch is imported or a model is loaded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from training_helpers import refused
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.training.sft import (
    UNSUPPORTED_SAVE_STRATEGIES,
    UNSUPPORTED_SCHEDULERS,
    LrScheduler,
    SaveStrategy,
    SFTOptions,
)

runner = CliRunner()

ROW = {
    "id": "movie/t1/0/0123456789",
    "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}],
    "tools": "[]",
}
"""The shape of a `tau-emotion export` row (an id naming a non-test task, a tools string)."""


def trl(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def model_folder(folder: Path, *files: str) -> Path:
    folder.mkdir(parents=True)
    for name in files:
        (folder / name).write_text("{}\n")
    return folder


def sft(tmp_path: Path, data: Path, model: Path | str, *extra: str) -> Any:
    args = ["train", "sft", "--mix", str(data), "--base-model", str(model)]
    return runner.invoke(app, [*args, "--out", str(tmp_path / "out"), *extra])


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return trl(tmp_path / "ok.jsonl", json.dumps(ROW))


# --- 1. a TRL file that is not JSON lines of {"messages": [...]} ----------------------------


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"text": "hi"}', "no `messages` list"),
        ('{"messages": []}', "no `messages` list"),
    ],
)
def test_a_bad_trl_line_is_named_by_file_and_line(tmp_path: Path, line: str, why: str) -> None:
    data = trl(tmp_path / "bad_trl.jsonl", json.dumps(ROW), "", line, json.dumps(ROW))
    model = model_folder(tmp_path / "model", "config.json", "tokenizer.json")
    refused(sft(tmp_path, data, model), str(data), "line 3", why)
    assert not (tmp_path / "out").exists()


def test_a_non_utf8_trl_file_is_named(tmp_path: Path) -> None:
    data = tmp_path / "trl.jsonl"
    data.write_bytes(b'{"messages": "\xff"}\n')
    refused(sft(tmp_path, data, "m"), str(data), "not UTF-8")


# --- 2. an empty TRL file --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_an_empty_trl_file_is_refused(tmp_path: Path, text: str) -> None:
    data = tmp_path / "empty_trl.jsonl"
    data.write_text(text)
    refused(sft(tmp_path, data, "m"), str(data), "holds no rows")


# --- 3. a --base-model that is no model -------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "why"),
    [
        ((), "config.json is missing"),
        (("tokenizer.json",), "config.json is missing"),
        (("config.json",), "holds no tokenizer"),
    ],
)
def test_a_model_folder_without_model_files_is_named(
    tmp_path: Path, good: Path, files: tuple[str, ...], why: str
) -> None:
    model = model_folder(tmp_path / "EMPTYFOLDER", *files)
    refused(sft(tmp_path, good, model), "--base-model", str(model), why)


def test_a_missing_model_path_is_named(tmp_path: Path, good: Path) -> None:
    for model in ("/nonexistent/model", str(tmp_path / "absent"), "./absent"):
        refused(sft(tmp_path, good, model), "--base-model", model, "no such folder")
    afile = trl(tmp_path / "model.bin", "x")
    refused(sft(tmp_path, good, afile), "--base-model", str(afile), "not a model folder")


def test_a_tokenizer_that_fails_to_load_names_the_base_model(
    tmp_path: Path, good: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("trl")
    pytest.importorskip("datasets")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = model_folder(tmp_path / "model", "config.json")
    (model / "tokenizer.json").write_text("not a tokenizer")
    refused(sft(tmp_path, good, model), "--base-model", str(model), "cannot load its tokenizer")


def test_a_bad_chat_template_file_is_named(tmp_path: Path, good: Path) -> None:
    model = model_folder(tmp_path / "model", "config.json", "tokenizer.json")
    missing = tmp_path / "nope.jinja"
    refused(sft(tmp_path, good, model, "--chat-template", str(missing)), str(missing))


# --- 4. --lr-scheduler and --save-strategy are choices ---------------------------------------


@pytest.mark.parametrize(
    ("option", "choices"),
    [("--lr-scheduler", get_args(LrScheduler)), ("--save-strategy", get_args(SaveStrategy))],
)
def test_an_unknown_choice_is_refused_before_the_data_is_read(
    tmp_path: Path, option: str, choices: tuple[str, ...]
) -> None:
    # --mix names nothing: the option is refused first, with the valid choices.
    result = sft(tmp_path, tmp_path / "no-such-mix", "m", option, "bogus")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    output = " ".join(result.output.replace("│", " ").split())
    assert option in output and "'bogus' is not one of" in output, output
    for choice in choices:
        assert f"'{choice}'" in output, choice


def test_the_defaults_are_choices() -> None:
    fields = SFTOptions.model_fields
    assert fields["lr_scheduler"].default == "cosine" in get_args(LrScheduler)
    assert fields["save_strategy"].default == "epoch" in get_args(SaveStrategy)


def test_the_choices_are_transformers_own() -> None:
    """Every transformers scheduler / save strategy is either offered or left out with a
    reason, so a transformers upgrade that adds or drops one fails here."""
    pytest.importorskip("torch")
    trainer_utils = pytest.importorskip("transformers.trainer_utils")

    schedulers = {s.value for s in trainer_utils.SchedulerType}
    assert set(get_args(LrScheduler)) | set(UNSUPPORTED_SCHEDULERS) == schedulers
    assert not set(get_args(LrScheduler)) & set(UNSUPPORTED_SCHEDULERS)
    strategies = {s.value for s in trainer_utils.SaveStrategy}
    assert set(get_args(SaveStrategy)) | set(UNSUPPORTED_SAVE_STRATEGIES) == strategies
    assert not set(get_args(SaveStrategy)) & set(UNSUPPORTED_SAVE_STRATEGIES)


def test_the_attention_choices_are_transformers_own() -> None:
    """Every --attn-implementation offered is one transformers registers (or eager)."""
    pytest.importorskip("torch")
    from transformers import AttentionInterface

    from tau_emotion.training.sft_checks import ATTENTION

    assert set(ATTENTION) <= {"eager", *AttentionInterface._global_mapping}
