"""`MapperSettings` and `build_mapper`: the mapper a Python caller builds is the one the
`emotions` commands build, and the commands' options are the settings' fields."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from tau_emotion.emotions import cli
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


def _two_emotion_anchors(folder: Path, per_condition: int = 3) -> Path:
    """A small anchor file (dread and relief only): a classifier trains on it in seconds."""
    full = default_anchor_set().anchors
    keep = [c.id for c in all_conditions() if c.emotion in ("dread", "relief")]
    path = folder / f"small-{per_condition}.json.gz"
    anchors = {c: full[c][:per_condition] for c in keep}
    write_anchor_set(AnchorSet(source="test", anchors=anchors), path)
    return path


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


def test_other_anchors_train_a_classifier_once_and_reuse_it(tmp_path: Path) -> None:
    anchors = _two_emotion_anchors(tmp_path)
    settings = MapperSettings(anchors=anchors)
    heard: list[str] = []
    first = build_mapper(settings, cache_dir=tmp_path / "cache", on_training=heard.append)
    assert len(heard) == 1 and "training a classifier for static" in heard[0]
    cached = list((tmp_path / "cache").iterdir())
    assert len(cached) == 1 and cached[0].suffix == ".npz"

    again = build_mapper(settings, cache_dir=tmp_path / "cache", on_training=heard.append)
    assert len(heard) == 1  # the cached classifier, not a second training
    assert again.map(TEXTS) == first.map(TEXTS)
    assert {m.emotion for m in first.map(TEXTS)} <= {"dread", "relief"}


def test_a_classifier_of_other_anchors_is_refused(tmp_path: Path) -> None:
    anchors = _two_emotion_anchors(tmp_path)
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
