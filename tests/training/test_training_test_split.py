"""The benchmark's test split never becomes training data: ``collect`` refuses the split, and
``mix`` and ``export`` refuse its runs and its rollouts, whichever folder or file holds them
(they once turned a plain benchmark run into an SFT dataset with exit status 0)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from training_helpers import episode, refused, run_folder
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import Episode
from tau_emotion.domains import load_domain
from tau_emotion.training.mixes import MixSpec, build_mix, write_mix

runner = CliRunner()
LEAK = "would leak it into the model"


def invoke(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def successes() -> list[Episode]:
    return [episode(d, f"t{i}") for d in ("movie", "school") for i in range(3)]


def test_mix_refuses_a_run_of_the_test_split(tmp_path: Path) -> None:
    train = run_folder(tmp_path / "train", "train", successes())
    bench = run_folder(tmp_path / "bench", "test", successes())
    out = tmp_path / "mixes"
    args = ("mix", "high", "--from", train, "--from", bench, "--out", out)
    refused(invoke(*args), f"--from {bench}: a run of the test split", LEAK, "--split train")
    assert not out.exists()
    assert invoke("mix", "high", "--from", train, "--out", out).exit_code == 0


def test_export_refuses_a_run_of_the_test_split(tmp_path: Path) -> None:
    bench = run_folder(tmp_path / "bench", "test", successes())
    before = sorted(p.name for p in bench.iterdir())
    refused(invoke("export", bench), f"export {bench}: a run of the test split", LEAK)
    refused(invoke("export", bench / "results.jsonl"), "a run of the test split")
    assert sorted(p.name for p in bench.iterdir()) == before
    train = run_folder(tmp_path / "train", "train", successes())
    assert invoke("export", train).exit_code == 0


def test_export_refuses_rollouts_of_the_shipped_test_tasks(tmp_path: Path) -> None:
    """A JSONL file or a mix folder carries no split; the task ids say where they came from."""
    test_task = load_domain("airline").tasks("test", "test")[0]
    leaked = episode("airline", test_task.id)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(leaked.model_dump_json() + "\n" + episode().model_dump_json() + "\n")
    refused(
        invoke("export", rows),
        str(rows),
        "1 of its 2 rollouts are of the benchmark's test tasks",
        LEAK,
    )
    selected, composition = build_mix(MixSpec(name="old"), [leaked])
    folder = write_mix(tmp_path / "mixes", selected, composition)  # a mix from before the check
    refused(invoke("export", folder), f"airline/{test_task.id}", LEAK)
    train_task = load_domain("airline").tasks("train")[0]
    rows.write_text(episode("airline", train_task.id).model_dump_json() + "\n")
    assert invoke("export", rows, "--out", tmp_path / "ok").exit_code == 0
