"""`train sft` refuses what it cannot train on, before torch or a model is loaded: data that is
not a TRL export (a run's results.jsonl, test-split rollouts), an --out that is a file or
holds an earlier run, a mistyped local --base-model, and a trl.jsonl exported with the other
--reasoning setting (each once trained, crashed late, or was silently ignored)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from training_helpers import episode, refused, run_folder
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import Episode
from tau_emotion.domains import load_domain
from tau_emotion.errors import TauEmotionError
from tau_emotion.training.cli import _training_data
from tau_emotion.training.export import TRL_FILE, export_trl
from tau_emotion.training.mixes import EPISODES_FILE

runner = CliRunner()
LEAK = "would leak it into the model"


def sft(data: Path | str, out: Path, *extra: str, model: Path | str = "m") -> Any:
    args = ["train", "sft", "--mix", str(data), "--base-model", str(model), "--out", str(out)]
    return runner.invoke(app, [*args, *extra])


def trl_file(path: Path, rollouts: list[Episode], reasoning: bool = True) -> Path:
    export_trl(rollouts, path, reasoning)
    return path


# --- 1. --mix FILE is a TRL export of train rollouts -----------------------------------------


def test_mix_refuses_a_test_runs_results(tmp_path: Path) -> None:
    bench = run_folder(tmp_path / "bench", "test", [episode("movie", f"t{i}") for i in range(2)])
    refused(
        sft(bench / "results.jsonl", tmp_path / "out"),
        f"--mix {bench}: a run of the test split",
        LEAK,
    )
    assert not (tmp_path / "out").exists()


def test_mix_refuses_rollout_records_of_a_train_run(tmp_path: Path) -> None:
    train = run_folder(tmp_path / "train", "train", [episode("movie", "t1")])
    refused(sft(train / "results.jsonl", tmp_path / "out"), "holds rollout records", "export")


def test_mix_refuses_trl_rows_of_the_shipped_test_tasks(tmp_path: Path) -> None:
    test_task = load_domain("airline").tasks("test", "test")[0]
    rows = trl_file(tmp_path / "rows.jsonl", [episode("airline", test_task.id), episode()])
    refused(sft(rows, tmp_path / "out"), str(rows), "test tasks", LEAK)


def test_mix_refuses_jsonl_that_is_no_export(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}) + "\n")
    refused(sft(rows, tmp_path / "out"), str(rows), "not a row of `tau-emotion export`")


# --- 4. --reasoning is applied, or the export made the other way is refused ------------------


def mix_with_reasoning(tmp_path: Path) -> Path:
    folder = tmp_path / "mixes" / "m"
    folder.mkdir(parents=True)
    rollouts = [episode("movie", "t1", reasoning="I should check.")]
    (folder / EPISODES_FILE).write_text("".join(e.model_dump_json() + "\n" for e in rollouts))
    return folder


def test_an_export_made_the_other_way_is_refused_not_trained(tmp_path: Path) -> None:
    folder = mix_with_reasoning(tmp_path)
    mixes = tmp_path / "mixes"
    path, kept = _training_data("m", mixes, reasoning=False)  # on the fly, without reasoning
    assert kept is False and "reasoning_content" not in path.read_text()
    with pytest.raises(TauEmotionError, match="exported with --no-reasoning"):
        _training_data("m", mixes, reasoning=True)  # once reused it silently
    assert _training_data("m", mixes, reasoning=None) == (path, False)  # no flag: as exported
    refused(sft("m", tmp_path / "out", "--mixes-dir", str(mixes), "--reasoning"), "--reasoning")
    export_trl(json_episodes(folder), folder / TRL_FILE, True)
    with pytest.raises(TauEmotionError, match="exported with --reasoning"):
        _training_data("m", mixes, reasoning=False)
    assert _training_data(str(folder), mixes, reasoning=True)[1] is True


def json_episodes(folder: Path) -> list[Episode]:
    text = (folder / EPISODES_FILE).read_text()
    return [Episode.model_validate_json(line) for line in text.splitlines()]


def test_no_reasoning_refuses_a_trl_file_that_keeps_it(tmp_path: Path) -> None:
    rows = trl_file(tmp_path / "trl.jsonl", [episode(reasoning="think")])
    refused(sft(rows, tmp_path / "out", "--no-reasoning"), "--no-reasoning", str(rows))


# --- 5. and 8. --out --------------------------------------------------------------------------


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    return trl_file(tmp_path / "trl.jsonl", [episode()])


def test_out_that_is_a_file_is_named_before_anything_loads(tmp_path: Path, rows: Path) -> None:
    afile = tmp_path / "outfile"
    afile.write_text("hi")
    refused(sft(rows, afile), f"--out {afile} is a file")


def test_the_module_entry_point_has_the_same_error_handler(tmp_path: Path, rows: Path) -> None:
    afile = tmp_path / "outfile"
    afile.write_text("hi")
    args = ["train", "sft", "--mix", str(rows), "--base-model", "m", "--out", str(afile)]
    done = subprocess.run(
        [sys.executable, "-m", "tau_emotion.training", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"error: --out {afile} is a file, not a folder"


@pytest.mark.parametrize("left", ["sft_summary.json", "checkpoint-2"])
def test_out_holding_an_earlier_run_is_refused(tmp_path: Path, rows: Path, left: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / left).mkdir() if left.startswith("checkpoint") else (out / left).write_text("{}")
    refused(sft(rows, out), f"--out {out} already holds", "--overwrite")
    assert (out / left).exists()


# --- 9. a mistyped local --base-model ----------------------------------------------------------


def test_a_missing_model_under_an_existing_folder_is_no_hub_id(
    tmp_path: Path, rows: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "models").mkdir()
    monkeypatch.chdir(tmp_path)
    refused(sft(rows, tmp_path / "out", model="models/nope"), "--base-model models/nope", "no such")
