"""`MapperSettings` and `build_mapper`: the mapper a Python caller builds is the one the
`emotions` commands build, and the commands' options are the settings' fields."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from emotions_helpers import covering_anchor_set, write_covering_anchors
from typer.testing import CliRunner

from tau_emotion.emotions import cli, training
from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set, write_anchor_set
from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER, Mapper
from tau_emotion.emotions.settings import (
    EmbedderSettings,
    MapperSettings,
    MapperSetupError,
    build_mapper,
)
from tau_emotion.emotions.space import all_conditions

TEXTS = [
    "I've been waiting for weeks and nobody calls me back",
    "No rush at all, whenever you get a chance is fine.",
    "Honestly I'm thrilled, this is exactly what I hoped for!",
]


def test_the_default_settings_build_the_shipped_mapper(tmp_path: Path) -> None:
    built = build_mapper(MapperSettings(), cache_dir=tmp_path)
    assert built.map(TEXTS) == Mapper.default().map(TEXTS)
    assert not list(tmp_path.iterdir())  # the shipped classifier: nothing trained or cached


def test_the_settings_default_to_the_mappers_defaults() -> None:
    mapper = inspect.signature(Mapper).parameters
    settings = MapperSettings()
    assert settings.k == mapper["k"].default
    assert settings.lexical_weight == mapper["lexical_weight"].default
    assert settings.seed == mapper["seed"].default


def test_other_anchors_train_a_classifier_once_and_reuse_it(
    tmp_path: Path, quick_training: list[str]
) -> None:
    anchors = write_covering_anchors(tmp_path)
    settings = MapperSettings(anchors=anchors)
    heard: list[str] = []
    first = build_mapper(settings, cache_dir=tmp_path / "cache", on_training=heard.append)
    assert len(heard) == 1 and "training a classifier for static" in heard[0]
    cached = list((tmp_path / "cache").iterdir())
    assert len(cached) == 1 and cached[0].suffix == ".npz"

    again = build_mapper(settings, cache_dir=tmp_path / "cache", on_training=heard.append)
    assert len(heard) == 1 and len(quick_training) == 1  # the cached one, not a second training
    assert again.map(TEXTS) == first.map(TEXTS)
    covering = covering_anchor_set().anchors
    assert all(m.instruction in covering[m.condition_id] for m in first.map(TEXTS))


def test_a_classifier_of_other_anchors_is_refused(tmp_path: Path) -> None:
    anchors = write_covering_anchors(tmp_path)
    settings = MapperSettings(anchors=anchors, classifier=DEFAULT_CLASSIFIER)
    with pytest.raises(MapperSetupError, match="trained on other anchors"):
        build_mapper(settings, cache_dir=tmp_path)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (MapperSettings(embedder="nope"), "unknown embedder 'nope'"),
        (MapperSettings(embedder="openai"), "needs --embed-model"),
        (MapperSettings(anchors=Path("/no/such/anchors.json.gz")), "cannot use anchors"),
        (MapperSettings(classifier=Path("/no/such/classifier.npz")), "cannot use classifier"),
    ],
)
def test_unusable_settings_name_what_is_wrong(
    settings: MapperSettings, message: str, tmp_path: Path
) -> None:
    with pytest.raises(MapperSetupError, match=message):
        build_mapper(settings, cache_dir=tmp_path)


def test_settings_refuse_values_out_of_range() -> None:
    with pytest.raises(ValueError, match="k"):
        MapperSettings(k=0)
    with pytest.raises(ValueError, match="lexical_weight"):
        MapperSettings(lexical_weight=1.5)
    with pytest.raises(ValueError, match="embeder"):
        MapperSettings.model_validate({"embeder": "static"})  # a typo is not ignored


def _options(command: object) -> dict[str, object]:
    params = inspect.signature(command).parameters  # type: ignore[arg-type]
    return {name: p.default for name, p in params.items() if name != "ctx"}


def test_the_commands_options_are_the_settings_fields() -> None:
    """A field added to the settings is an option of every command that builds from them,
    with the settings' default; nothing restates it."""
    mapper_fields = {n: f.default for n, f in MapperSettings.model_fields.items()}
    embedder_fields = {n: f.default for n, f in EmbedderSettings.model_fields.items()}
    map_options = _options(cli.map_command)
    assert mapper_fields.items() <= map_options.items()
    assert set(map_options) - set(mapper_fields) == {"text", "input_path", "output"}
    eval_options = _options(cli.eval_command)
    assert {n: d for n, d in mapper_fields.items() if n != "seed"}.items() <= eval_options.items()
    assert "seed" not in eval_options  # eval samples no instruction
    train_options = _options(cli.train_command)
    assert embedder_fields.items() <= train_options.items()
    assert set(train_options) - set(embedder_fields) == {"anchors", "out"}


# --- a custom anchor set is checked when it is read (audit defect 1) ----------------------


def _anchor_file(folder: Path, anchors: dict[str, list[str]]) -> Path:
    path = folder / "custom.json"
    write_anchor_set(AnchorSet(source="test", anchors=anchors), path)
    return path


def _short_sets() -> list[tuple[dict[str, list[str]], str]]:
    full = default_anchor_set().anchors
    first = all_conditions()[0].id
    three = {cid: full[cid] for cid in list(full)[:3]}
    with_empty = {**full, first: []}
    unknown = {**full, "bogus.id.x.y.z": ["You wait."]}
    return [
        ({}, f"594 of the 594 conditions have no anchors (e.g. {first})"),
        (three, "591 of the 594 conditions have no anchors (e.g. "),
        (with_empty, f"1 of the 594 conditions have no anchors (e.g. {first})"),
        (unknown, "1 unknown condition id(s) (e.g. 'bogus.id.x.y.z')"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_anchor_sets_that_do_not_cover_every_condition_are_refused(
    tmp_path: Path, case: int
) -> None:
    anchors, needle = _short_sets()[case]
    path = _anchor_file(tmp_path, anchors)
    with pytest.raises(MapperSetupError, match=re.escape(f"cannot use anchors {path}: {needle}")):
        build_mapper(MapperSettings(anchors=path), cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()  # refused before any training
    out = tmp_path / "c.npz"
    runner = CliRunner()
    for args in (
        ["map", "--anchors", str(path), "Now. Don't waste my time."],
        ["train", "--anchors", str(path), "--out", str(out)],
    ):
        result = runner.invoke(cli.app, args)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)  # a clean exit, no traceback
        assert f"error: cannot use anchors {path}: {needle}" in result.stderr
    assert not out.exists()


def test_a_set_training_cannot_use_is_a_setup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise ValueError("the anchor set is empty")

    monkeypatch.setattr(training, "train_artifact", refuse)
    path = write_covering_anchors(tmp_path)
    with pytest.raises(MapperSetupError, match=f"cannot train on anchors {re.escape(str(path))}"):
        build_mapper(MapperSettings(anchors=path), cache_dir=tmp_path / "cache")
    out = tmp_path / "c.npz"
    result = CliRunner().invoke(cli.app, ["train", "--anchors", str(path), "--out", str(out)])
    assert result.exit_code == 2 and "the anchor set is empty" in result.stderr
    assert not out.exists()
