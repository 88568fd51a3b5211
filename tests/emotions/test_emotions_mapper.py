"""The shipped mapper, training determinism, and the numpy-only runtime path."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set
from tau_emotion.emotions.classifier import Artifact, TrainConfig, artifact_diff
from tau_emotion.emotions.embedders import Embedder, default_embedder
from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER, Mapper, map_feeling
from tau_emotion.emotions.space import HEADS, all_conditions
from tau_emotion.emotions.tokenizer import WordPieceTokenizer
from tau_emotion.emotions.training import load_handwritten, train_artifact
from tau_emotion.emotions.written import augmented_anchor_set


def test_embedder_satisfies_protocol_and_normalises() -> None:
    embedder = default_embedder()
    assert isinstance(embedder, Embedder)
    vectors = embedder.embed(["You feel stuck.", "", "日本語 only"])
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[0]), 1.0, atol=1e-5)
    assert not vectors[1].any()  # nothing to embed stays zero rather than NaN


def test_wordpiece_splits_unknown_words_into_known_pieces() -> None:
    tok = WordPieceTokenizer(["un", "##believ", "##able", "you", ",", "cafe"])
    assert [tok.vocab[i] for i in tok.ids("You, UNBELIEVABLE café")] == [
        "you",
        ",",
        "un",
        "##believ",
        "##able",
        "cafe",
    ]
    assert tok.ids("xyz") == []


def test_map_returns_each_conditions_own_anchors_mostly() -> None:
    mapper = Mapper.default()
    anchors = default_anchor_set()
    # Three anchors per condition keeps this quick; all 594 conditions are covered.
    picked = [(t, cid) for cid, texts in anchors.anchors.items() for t in texts[:3]]
    predictions = mapper.predict([t for t, _ in picked])
    hits = [p.condition.id == cid for p, (_, cid) in zip(predictions, picked, strict=True)]
    assert np.mean(hits) > 0.9
    per_condition = Counter(cid for (_, cid), hit in zip(picked, hits, strict=True) if hit)
    assert len(per_condition) > 0.9 * 594


def test_map_output_is_a_real_condition_with_confidences_and_anchor() -> None:
    mapper = Mapper.default()
    result = mapper.map_one("I've been waiting for weeks and nobody calls me back")
    assert set(result.confidence) == set(HEADS)
    assert all(0.0 <= v <= 1.0 for v in result.confidence.values())
    assert result.instruction in default_anchor_set().anchors[result.condition_id]
    assert result.spec().condition_id == result.condition_id
    # The instruction depends on (seed, text) only, never on batch position.
    again = mapper.map(
        ["something else entirely", "I've been waiting for weeks and nobody calls me back"]
    )
    assert again[1] == result
    assert map_feeling("I've been waiting for weeks and nobody calls me back") == result.spec()


def test_shipped_artifact_matches_shipped_anchors_and_embedder() -> None:
    artifact = Artifact.load(DEFAULT_CLASSIFIER)
    assert artifact.meta["embedder"] == default_embedder().name
    assert artifact.meta["anchors_digest"] == default_anchor_set().digest()
    # The kNN rows are the training anchors: the written ones plus the phrase-bank augmentation.
    training = augmented_anchor_set(default_anchor_set(), artifact.classifier.config.augment)
    assert len(artifact.anchor_conditions) == sum(len(v) for v in training.anchors.values())


def _small_anchor_set() -> AnchorSet:
    full = default_anchor_set().anchors
    keep = [c.id for c in all_conditions() if c.emotion in ("dread", "relief")]
    return AnchorSet(source="test", anchors={cid: full[cid][:4] for cid in keep})


def test_training_is_deterministic_byte_for_byte(tmp_path: Path) -> None:
    config = TrainConfig(epochs=25, hidden=16)
    small = _small_anchor_set()
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    train_artifact(default_embedder(), small, config).save(a)
    train_artifact(default_embedder(), small, config).save(b)
    assert a.read_bytes() == b.read_bytes()
    assert artifact_diff(a, b) == 0.0


def test_handwritten_descriptions_are_kept_out_of_training() -> None:
    items = load_handwritten()
    assert len(items) >= 100
    assert len({i.condition_id.split(".")[1] for i in items}) == 22
    anchor_keys = {t for texts in default_anchor_set().anchors.values() for t in texts}
    assert not anchor_keys & {i.text for i in items}


@pytest.mark.parametrize("module", ["tau_emotion.emotions.cli", "tau_emotion.emotions"])
def test_runtime_path_never_imports_torch(module: str) -> None:
    code = (
        "import sys, importlib\n"
        f"importlib.import_module({module!r})\n"
        "from tau_emotion.emotions.mapper import Mapper\n"
        "Mapper.default().map(['I need this fixed now and I do not believe you'])\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers', 'openai',"
        " 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_import_does_not_load_data() -> None:
    code = (
        "import tau_emotion.emotions, tau_emotion.emotions.cli\n"
        "from tau_emotion.emotions import mapper, anchors, embedders\n"
        "assert not embedders.default_embedder.cache_info().currsize\n"
        "assert not anchors.default_anchor_set.cache_info().currsize\n"
        "assert not mapper.load_default_artifact.cache_info().currsize\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# The suite's 300 s limit guards against hangs; this one test does the full training run, which
# has measured 2 to 3 minutes on a quiet two-core machine and over 5 on a loaded CI runner. It is
# here for reproduction, not speed (benchmarks/ measure speed), so it gets a limit of its own.
@pytest.mark.timeout(1200)
def test_train_command_reproduces_the_shipped_artifact(tmp_path: Path) -> None:
    # The full training run (about two minutes on two cores): the shipped classifier must be
    # what `tau-emotion emotions train` produces. Byte-identical on the same numpy/BLAS build;
    # elsewhere within the documented tolerance, with the same predictions.
    from typer.testing import CliRunner

    from tau_emotion.emotions.cli import app

    out = tmp_path / "classifier.npz"
    result = CliRunner().invoke(app, ["train", "--out", str(out)])
    assert result.exit_code == 0, result.output
    if out.read_bytes() == DEFAULT_CLASSIFIER.read_bytes():
        return
    assert artifact_diff(out, DEFAULT_CLASSIFIER) <= 1e-3
    texts = [t for texts in default_anchor_set().anchors.values() for t in texts[:1]]
    shipped = Mapper.default().predict(texts)
    retrained = Mapper(default_embedder(), Artifact.load(out)).predict(texts)
    assert [p.condition for p in shipped] == [p.condition for p in retrained]


# --- the shipped classifier is tied to the shipped anchors (audit defect 3) ----------------


def test_a_default_classifier_of_other_anchors_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A classifier rewritten from other anchors once made `map_feeling` map every text
    wrongly without a word; now `Mapper.default` and `map_feeling` refuse it."""
    from emotions_helpers import covering_anchor_set

    from tau_emotion.emotions import mapper as mapper_module
    from tau_emotion.emotions.settings import MapperSetupError

    other = tmp_path / "classifier.npz"
    config = TrainConfig(epochs=5, hidden=8, augment=0, lexical=False)
    train_artifact(default_embedder(), covering_anchor_set(), config).save(other)
    monkeypatch.setattr(mapper_module, "DEFAULT_CLASSIFIER", other)
    mapper_module.load_default_artifact.cache_clear()
    mapper_module._default_mapper.cache_clear()
    try:
        with pytest.raises(MapperSetupError, match="trained on other anchors"):
            Mapper.default()
        with pytest.raises(MapperSetupError, match=re.escape(str(other))):
            map_feeling("I am so happy")
    finally:
        mapper_module.load_default_artifact.cache_clear()
        mapper_module._default_mapper.cache_clear()


def test_train_with_other_anchors_never_rewrites_the_shipped_classifier(tmp_path: Path) -> None:
    from emotions_helpers import write_covering_anchors
    from typer.testing import CliRunner

    from tau_emotion.emotions.cli import app

    before = DEFAULT_CLASSIFIER.read_bytes()
    anchors = write_covering_anchors(tmp_path)
    result = CliRunner().invoke(app, ["train", "--anchors", str(anchors)])
    assert result.exit_code == 2
    assert "--out is required with --anchors" in result.stderr
    assert DEFAULT_CLASSIFIER.read_bytes() == before


# --- empty texts and texts the vocabulary cannot read (audit defect 4) --------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_or_blank_text_is_refused_by_the_python_api(text: str) -> None:
    mapper = Mapper.default()
    with pytest.raises(ValueError, match="text 1 is empty or blank"):
        mapper.map(["I need this fixed now.", text])
    with pytest.raises(ValueError, match="empty or blank"):
        mapper.map_one(text)
    with pytest.raises(ValueError, match="empty or blank"):
        map_feeling(text)


def test_texts_without_a_known_token_are_listed_and_still_mapped() -> None:
    mapper = Mapper.default()
    texts = ["I need this fixed now.", "🙏😊", "これは本当にひどいサービスです"]
    assert mapper.unread(texts) == [1, 2]
    mapped = mapper.map(texts)
    assert mapped[1].condition_id == mapped[2].condition_id  # the classifier's prior


# --- a measured limitation: label words in a message (audit defect 5) --------------------


def test_the_documented_label_word_reversal_is_what_the_mapper_does() -> None:
    """docs/emotions.md gives "I trust you." as a message read backwards (its anchors may not
    say "trust"); the note must keep matching what the shipped mapper does."""
    docs = (Path(__file__).parents[2] / "docs" / "emotions.md").read_text(encoding="utf-8")
    result = Mapper.default().map_one("I trust you.")
    assert result.trust == "skeptical"
    assert f'"I trust you." -> `{result.condition_id}`' in docs
    assert f"trust confidence {result.confidence['trust']:.2f}" in docs
