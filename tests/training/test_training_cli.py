"""The training commands, mounted on a fresh Typer app the way the main CLI mounts them."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tau_emotion.training.cli import _training_data, register
from tau_emotion.training.export import TRL_FILE
from tau_emotion.training.mixes import COMPOSITION_FILE, EPISODES_FILE, MixError

TRL_ROW = json.dumps({"id": "movie/t1/0/0123456789", "messages": [{"role": "user"}], "tools": "[]"})
"""One row of the shape `tau-emotion export` writes (train sft refuses any other)."""

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test root."""

    register(app)
    return app


def test_commands_are_registered() -> None:
    result = runner.invoke(make_app(), ["--help"])
    assert result.exit_code == 0
    for command in ("collect", "mix", "export", "train"):
        assert command in result.output
    sft = runner.invoke(make_app(), ["train", "sft", "--help"])
    assert sft.exit_code == 0 and "--base-model" in sft.output and "--lora" in sft.output


def test_collect_mix_export_pipeline(tmp_path: Path) -> None:
    app = make_app()
    collection = tmp_path / "collect"
    result = runner.invoke(
        app,
        [
            "collect",
            "--domain",
            "movie,school",
            "--num-tasks",
            "6",
            "--agent",
            "oracle",
            "--no-emotion",  # the oracle then keeps every customer: all six are successes
            "--out",
            str(collection),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "success" in result.output and "tool calls per successful rollout" in result.output
    summary = json.loads((collection / "collect_summary.json").read_text())
    assert summary["max_steps"] == 50 and summary["user_exit"] is True
    assert summary["overall"]["success"] == summary["overall"]["total"] > 0

    mixes = tmp_path / "mixes"
    # The collection covered movie and school only: `low` has nothing to draw, and an empty
    # mix is refused (exit 2) with neither mix written.
    result = runner.invoke(
        app,
        ["mix", "high", "low", "--from", str(collection), "--out", str(mixes), "--size", "5"],
    )
    assert result.exit_code == 2 and "mix low" in result.output, result.output
    assert not mixes.exists()
    result = runner.invoke(
        app, ["mix", "high", "--from", str(collection), "--out", str(mixes), "--size", "5"]
    )
    assert result.exit_code == 0, result.output
    high = json.loads((mixes / "high" / COMPOSITION_FILE).read_text())
    assert high["selected"] == 5 and high["spec"]["size"] == 5

    result = runner.invoke(app, ["export", str(mixes / "high"), "--no-reasoning"])
    assert result.exit_code == 0, result.output
    assert len((mixes / "high" / TRL_FILE).read_text().splitlines()) == 5
    info = json.loads((mixes / "high" / "dataset_info.json").read_text())
    assert "tau_emotion_high" in info


def test_collect_with_no_user_exit_is_recorded(tmp_path: Path) -> None:
    out = tmp_path / "c"
    result = runner.invoke(
        make_app(),
        [
            "collect",
            "--domain",
            "school",
            "--num-tasks",
            "2",
            "--agent",
            "oracle",
            "--no-user-exit",
            "--max-steps",
            "30",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "dissatisfied exit DISABLED" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["user_exit"] is False and manifest["config"]["max_steps"] == 30


def test_bad_input_fails_cleanly(tmp_path: Path) -> None:
    app = make_app()
    result = runner.invoke(
        app,
        [
            "collect",
            "--split",
            "test",
            "--agent",
            "oracle",
            "--domain",
            "movie",
            "--out",
            str(tmp_path / "x"),
        ],
    )
    assert result.exit_code == 2 and "train" in result.output
    result = runner.invoke(app, ["mix", "nope", "--from", str(tmp_path)])
    assert result.exit_code == 2
    result = runner.invoke(app, ["export", str(tmp_path / "missing")])
    assert result.exit_code == 2


def test_training_data_resolves_and_exports_a_mix_on_the_fly(tmp_path: Path) -> None:
    from training_helpers import episode

    folder = tmp_path / "mixes" / "m"
    folder.mkdir(parents=True)
    (folder / EPISODES_FILE).write_text(episode().model_dump_json() + "\n")
    path, kept = _training_data("m", tmp_path / "mixes", reasoning=True)
    assert path == folder / TRL_FILE and len(path.read_text().splitlines()) == 1 and kept
    assert _training_data(str(path), tmp_path, reasoning=True) == (path, True)
    with pytest.raises(MixError, match="run `tau-emotion mix`"):
        _training_data("absent", tmp_path / "mixes", reasoning=True)


def test_help_stays_fast_and_imports_nothing_heavy() -> None:
    code = (
        "import sys, typer; from tau_emotion.training.cli import register; "
        "register(typer.Typer()); "
        "heavy = [m for m in ('torch', 'transformers', 'trl', 'datasets', 'ray', 'peft') "
        "if m in sys.modules]; print(heavy)"
    )
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert time.perf_counter() - started < 5  # generous: the real bar is `--help` under 1 s


def _captured_sft(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace the trainer: the command's `SFTOptions` land in the returned list."""
    from tau_emotion.training import sft

    seen: list[Any] = []

    def fake_train(options: sft.SFTOptions, **_: Any) -> sft.SFTSummary:
        seen.append(options)
        return sft.SFTSummary(
            options=options, examples=1, steps=1, runtime_s=0.0, model_dir=str(options.out)
        )

    monkeypatch.setattr(sft, "train_sft", fake_train)
    return seen


def test_train_sft_has_an_option_for_every_sft_setting() -> None:
    from tau_emotion.training.cli import SFT_FLAGS
    from tau_emotion.training.sft import SFTOptions

    result = runner.invoke(make_app(), ["train", "sft", "--help"], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    for field in SFTOptions.model_fields:
        if field != "data":  # --mix names the data
            flag = "--" + SFT_FLAGS.get(field, field).replace("_", "-")
            assert flag in result.output, field
    # once missing from the command line although the config had them
    assert "--lr-scheduler" in result.output and "--weight-decay" in result.output


def test_train_sft_defaults_are_the_configs_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tau_emotion.training.sft import SFTOptions

    seen = _captured_sft(monkeypatch)
    rows = tmp_path / TRL_FILE
    rows.write_text(TRL_ROW + "\n")
    required = ["train", "sft", "--mix", str(rows), "--base-model", "m", "--out", str(tmp_path)]
    result = runner.invoke(make_app(), required)
    assert result.exit_code == 0, result.output
    assert seen == [SFTOptions(data=rows, base_model="m", out=tmp_path)]

    given = ["--batch-size", "2", "--grad-accum", "4", "--lr-scheduler", "linear"]
    given += ["--weight-decay", "0.1", "--no-gradient-checkpointing", "--bf16", "--lora"]
    result = runner.invoke(make_app(), [*required, *given])
    assert result.exit_code == 0, result.output
    expected = SFTOptions(
        data=rows,
        base_model="m",
        out=tmp_path,
        per_device_batch_size=2,
        gradient_accumulation_steps=4,
        lr_scheduler="linear",
        weight_decay=0.1,
        gradient_checkpointing=False,
        bf16=True,
        lora=True,
    )
    assert seen[-1] == expected and seen[-1].resolved_learning_rate == 1e-4


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--epochs", "0"], "--epochs: Input should be greater than 0"),
        (["--grad-accum", "0"], "--grad-accum: Input should be greater than or equal to 1"),
        (["--warmup-ratio", "1"], "--warmup-ratio:"),
    ],
)
def test_train_sft_names_the_option_of_a_bad_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], needle: str
) -> None:
    seen = _captured_sft(monkeypatch)
    rows = tmp_path / TRL_FILE
    rows.write_text(TRL_ROW + "\n")
    required = ["train", "sft", "--mix", str(rows), "--base-model", "m", "--out", str(tmp_path)]
    result = runner.invoke(make_app(), [*required, *args])
    assert result.exit_code == 2 and needle in result.output, result.output
    assert seen == []


def test_train_sft_insists_on_its_required_options(tmp_path: Path) -> None:
    result = runner.invoke(make_app(), ["train", "sft", "--mix", "x", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--base-model" in result.output
