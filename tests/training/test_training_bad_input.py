"""Bad input to ``mix`` and ``export``: one ``error:`` line naming the input, exit status 2,
and no output written or changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from training_helpers import episode, oracle_config, refused, scored
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import Episode, RunManifest
from tau_emotion.training.export import DATASET_INFO_FILE, SHAREGPT_FILE, TRL_FILE
from tau_emotion.training.mixes import (
    COMPOSITION_FILE,
    EPISODES_FILE,
    MixSpec,
    build_mix,
    write_mix,
)

runner = CliRunner()


def collection(folder: Path, rollouts: list[Episode] | None = None) -> Path:
    """A collection folder as `collect` leaves it: a manifest and `rollouts` (by default six
    successful ones)."""
    folder.mkdir(parents=True)
    manifest = RunManifest(
        config=oracle_config(folder).model_dump(mode="json"),
        code_version="test",
        started_at="2025-01-01T00:00:00Z",
    )
    (folder / "manifest.json").write_text(manifest.model_dump_json())
    if rollouts is None:
        rollouts = [episode(d, f"t{i}") for d in ("movie", "school") for i in range(3)]
    (folder / "results.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in rollouts))
    return folder


def mix_folder(tmp_path: Path) -> Path:
    """A written mix ``high`` of the collection, to export."""
    result = invoke("mix", "high", "--from", collection(tmp_path / "c"), "--out", tmp_path / "m")
    assert result.exit_code == 0, result.output
    return tmp_path / "m" / "high"


def invoke(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# --- 1. non-UTF-8 input names the file ------------------------------------------------------


def test_non_utf8_manifest_is_named(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    (source / "manifest.json").write_bytes(b'{"config": "\xff"}')
    line = refused(invoke("mix", "high", "--from", source, "--out", tmp_path / "m"))
    assert str(source / "manifest.json") in line and "not UTF-8" in line
    assert not (tmp_path / "m").exists()


def test_non_utf8_spec_file_is_named(tmp_path: Path) -> None:
    spec = tmp_path / "bad.bin"
    spec.write_bytes(b"\xff\xfe")
    args = ("mix", "high", "--from", collection(tmp_path / "c"), "--spec", spec)
    refused(invoke(*args, "--out", tmp_path / "m"), str(spec), "not UTF-8")
    assert not (tmp_path / "m").exists()


def test_non_utf8_export_source_is_named(tmp_path: Path) -> None:
    source = tmp_path / "bad.bin"
    source.write_bytes(b"\xff")
    refused(invoke("export", source, "--out", tmp_path / "x"), str(source), "not UTF-8")
    assert not (tmp_path / "x").exists()


# --- 2. no raw pydantic text ----------------------------------------------------------------


def test_malformed_manifest_names_the_file(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    (source / "manifest.json").write_text("{\n")
    refused(invoke("mix", "high", "--from", source), str(source / "manifest.json"), "damaged")


def test_manifest_without_a_valid_config_names_the_file(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    manifest = json.loads((source / "manifest.json").read_text())
    manifest["config"]["trials"] = "many"
    (source / "manifest.json").write_text(json.dumps(manifest))
    line = refused(invoke("mix", "high", "--from", source, "--out", tmp_path / "m"))
    assert str(source / "manifest.json") in line and "config.trials" in line


@pytest.mark.parametrize(("option", "value"), [("--size", "0"), ("--per-domain-cap", "-3")])
def test_bad_override_names_the_option(tmp_path: Path, option: str, value: str) -> None:
    source = collection(tmp_path / "c")
    result = invoke("mix", "high", "--from", source, "--out", tmp_path / "m", option, value)
    assert refused(result, f"{option}: ", "greater than or equal to 1")
    assert not (tmp_path / "m").exists()


# --- 3. export reads every input before it writes; mixes are written whole ------------------


def test_damaged_dataset_info_leaves_the_export_folder_as_it_was(tmp_path: Path) -> None:
    source = mix_folder(tmp_path)
    out = tmp_path / "x"
    out.mkdir()
    (out / TRL_FILE).write_text("old rows\n")
    (out / DATASET_INFO_FILE).write_text("{")
    before = snapshot(out)
    result = invoke("export", source, "--out", out)
    refused(result, str(out / DATASET_INFO_FILE), "not valid JSON")
    assert snapshot(out) == before and not (out / SHAREGPT_FILE).exists()


def test_dataset_info_must_be_an_object(tmp_path: Path) -> None:
    source = mix_folder(tmp_path)
    (source / DATASET_INFO_FILE).write_text("[1, 2]\n")
    before = snapshot(source)
    refused(invoke("export", source), str(source / DATASET_INFO_FILE), "JSON object")
    assert snapshot(source) == before


def test_write_mix_replaces_files_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rollouts = [episode("movie", f"t{i}") for i in range(3)]
    selected, composition = build_mix(MixSpec(name="small"), rollouts)
    folder = write_mix(tmp_path, selected, composition)
    before = snapshot(folder)
    dump = Episode.model_dump_json
    calls = 0

    def failing_dump(self: Episode, **kw: Any) -> str:
        nonlocal calls
        calls += 1
        if calls == 2:  # fails part-way through the episodes, as a kill or full disk would
            raise OSError("disk full")
        return dump(self, **kw)

    monkeypatch.setattr(Episode, "model_dump_json", failing_dump)
    with pytest.raises(OSError, match="disk full"):
        write_mix(tmp_path, selected, composition)
    assert snapshot(folder) == before  # no half-written episodes, no temp files left


def test_remix_removes_the_previous_mix_exports(tmp_path: Path) -> None:
    # D5: an old trl.jsonl left beside a new mix is what `train sft --mix` would train on.
    from tau_emotion.training.cli import _training_data

    folder = mix_folder(tmp_path)
    info = {"other": {"file_name": "other.json"}}
    (folder / DATASET_INFO_FILE).write_text(json.dumps(info))
    assert invoke("export", folder).exit_code == 0
    assert len((folder / TRL_FILE).read_text().splitlines()) == 6
    source = tmp_path / "c"
    result = invoke("mix", "high", "--from", source, "--out", tmp_path / "m", "--size", "2")
    assert result.exit_code == 0, result.output
    assert "removed the previous mix's exports" in result.output
    assert "tau_emotion_high" in result.output  # the dataset_info entry is named
    assert not (folder / TRL_FILE).exists() and not (folder / SHAREGPT_FILE).exists()
    assert json.loads((folder / DATASET_INFO_FILE).read_text()) == info  # others stay
    rows, _ = _training_data("high", tmp_path / "m", reasoning=True)  # exports the new mix
    assert len(rows.read_text().splitlines()) == 2
    # A dataset_info.json holding only this mix's entry goes with it.
    assert invoke("export", folder, "--name", "mine").exit_code == 0
    (folder / DATASET_INFO_FILE).write_text(json.dumps({"mine": {"file_name": SHAREGPT_FILE}}))
    assert invoke("mix", "high", "--from", source, "--out", tmp_path / "m").exit_code == 0
    assert {p.name for p in folder.iterdir()} == {EPISODES_FILE, COMPOSITION_FILE}


def test_remix_over_a_damaged_dataset_info_changes_nothing(tmp_path: Path) -> None:
    folder = mix_folder(tmp_path)
    (folder / DATASET_INFO_FILE).write_text("{")
    before = snapshot(folder)
    args = ("mix", "high", "--from", tmp_path / "c", "--out", tmp_path / "m", "--size", "2")
    refused(invoke(*args), str(folder / DATASET_INFO_FILE), "not valid JSON")
    assert snapshot(folder) == before


def test_export_of_dot_names_the_dataset_after_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # D7: `cd runs/mixes/high && tau-emotion export .`
    folder = mix_folder(tmp_path)
    monkeypatch.chdir(folder)
    result = invoke("export", ".")
    assert result.exit_code == 0, result.output
    assert set(json.loads((folder / DATASET_INFO_FILE).read_text())) == {"tau_emotion_high"}


# --- 4. every mix name is resolved before any mix is written --------------------------------


def test_unknown_mix_name_writes_no_mix(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    out = tmp_path / "m"
    refused(invoke("mix", "high", "nope", "--from", source, "--out", out), "unknown mix 'nope'")
    assert not out.exists()


# --- 5. nothing to draw from or export ------------------------------------------------------


def test_collection_without_results_is_refused(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    (source / "results.jsonl").unlink()
    result = invoke("mix", "high", "--from", source, "--out", tmp_path / "m")
    refused(result, str(source), "no results.jsonl")
    assert not (tmp_path / "m").exists()


def test_collection_with_no_rollouts_is_refused(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    (source / "results.jsonl").write_text("")
    result = invoke("mix", "high", "--from", source, "--out", tmp_path / "m")
    refused(result, "--from", str(source / "results.jsonl"), "no rollouts")
    assert not (tmp_path / "m").exists()


def test_mix_with_nothing_to_select_is_refused(tmp_path: Path) -> None:
    # D6: no success in any --from: refused, and the previous mix of that name stays.
    old = mix_folder(tmp_path)
    before = snapshot(old)
    lost = [episode("movie", "f", reward=0.0), scored(episode("movie", "v"), "movie.confirm")]
    empty = collection(tmp_path / "empty", lost)
    also = collection(tmp_path / "also", [episode("school", "g", reward=0.0)])
    args = ("mix", "high", "--from", empty, "--from", also, "--out", tmp_path / "m")
    line = refused(invoke(*args), f"--from {empty}", f"--from {also}", "mix high")
    assert "1 reached the goal but broke a policy rule" in line
    assert snapshot(old) == before
    # Several mixes: one with nothing to select stops them all before any is written.
    args = ("mix", "high", "low", "--from", tmp_path / "c", "--out", tmp_path / "new")
    refused(invoke(*args), "mix low")
    assert not (tmp_path / "new").exists()


def test_missing_collection_folder_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    refused(invoke("mix", "high", "--from", missing, "--out", tmp_path / "m"), str(missing))
    assert not (tmp_path / "m").exists()


def test_export_of_an_empty_file_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "empty.jsonl"
    source.write_text("")
    refused(invoke("export", source), f"no rollouts in {source}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl"]


def test_export_of_no_successes_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "failed.jsonl"
    source.write_text(episode(reward=0.0).model_dump_json() + "\n")
    refused(invoke("export", source), f"no successful rollouts in {source}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["failed.jsonl"]


def test_bad_episode_line_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    source = tmp_path / "rows.jsonl"
    source.write_text(episode().model_dump_json() + "\n" + '{"domain": 3}\n')
    refused(invoke("export", source), f"{source}:2: not an episode record")


# --- 6. an output folder that is a file -----------------------------------------------------


def test_export_out_that_is_a_file_is_named(tmp_path: Path) -> None:
    source = mix_folder(tmp_path)
    target = tmp_path / "bad.json"
    target.write_text("{}")
    refused(invoke("export", source, "--out", target), f"--out {target} is a file, not a folder")
    assert target.read_text() == "{}"


def test_mix_out_that_is_a_file_is_named(tmp_path: Path) -> None:
    source = collection(tmp_path / "c")
    target = tmp_path / "bad.json"
    target.write_text("{}")
    refused(invoke("mix", "high", "--from", source, "--out", target), f"--out {target} is a file")
    assert target.read_text() == "{}"


def test_a_good_export_still_merges_dataset_info(tmp_path: Path) -> None:
    source = mix_folder(tmp_path)
    (source / DATASET_INFO_FILE).write_text(json.dumps({"other": {"file_name": "o.json"}}))
    result = invoke("export", source)
    assert result.exit_code == 0, result.output
    assert set(json.loads((source / DATASET_INFO_FILE).read_text())) == {
        "other",
        "tau_emotion_high",
    }
    assert len((source / TRL_FILE).read_text().splitlines()) == 6
    assert {p.name for p in source.iterdir()} == {
        EPISODES_FILE,
        COMPOSITION_FILE,
        TRL_FILE,
        SHAREGPT_FILE,
        DATASET_INFO_FILE,
    }
