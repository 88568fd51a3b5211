"""The n-gram half of the classifier, the per-token layer, and how the mapper blends them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set
from tau_emotion.emotions.classifier import Artifact, TrainConfig, condition_labels
from tau_emotion.emotions.embedders import StaticEmbedder, default_embedder
from tau_emotion.emotions.lexical import (
    BIGRAM_BASE,
    LexicalModel,
    ngram_keys,
    shipped_tokenizer,
    train_lexical,
)
from tau_emotion.emotions.mapper import Mapper
from tau_emotion.emotions.space import FAMILIES, HEAD_LABELS, all_conditions
from tau_emotion.emotions.training import train_artifact

# Two conditions that differ only in urgency; the cue is a two-word phrase whose second word
# also appears, alone, on the other side. A bag of single words cannot separate them.
HIGH = "anger.annoyance.neutral.high.cautious"
LOW = "anger.annoyance.neutral.low.cautious"
TEXTS = [
    ("You want it sorted, and it is a rush.", HIGH),
    ("It is a rush for you, so you want it sorted.", HIGH),
    ("You say it is a rush job.", HIGH),
    ("You want it sorted, and it is no rush.", LOW),
    ("It is no rush for you, so you want it sorted.", LOW),
    ("You say it is no rush job.", LOW),
]


def _ids(texts: list[str]) -> list[list[int]]:
    tokenizer = shipped_tokenizer()
    return [tokenizer.ids(t) for t in texts]


def test_ngram_keys_hold_unigrams_then_bigrams() -> None:
    keys = ngram_keys([5, 7, 9])
    assert keys[:3].tolist() == [5, 7, 9]
    assert len(keys) == 5 and all(k >= BIGRAM_BASE for k in keys[3:])
    assert ngram_keys([4]).tolist() == [4] and ngram_keys([]).size == 0


def test_lexical_model_learns_a_two_word_cue() -> None:
    texts = [t for t, _ in TEXTS]
    model = train_lexical(_ids(texts), condition_labels([c for _, c in TEXTS]), epochs=60)
    probs = model.probabilities(_ids(["It is no rush.", "It is a rush."]))
    urgency = HEAD_LABELS["urgency"]
    assert urgency[int(probs["urgency"][0].argmax())] == "low"
    assert urgency[int(probs["urgency"][1].argmax())] == "high"
    for head in probs.values():
        assert np.allclose(head.sum(axis=1), 1.0)


def test_unknown_ngrams_contribute_nothing() -> None:
    texts = [t for t, _ in TEXTS]
    model = train_lexical(_ids(texts), condition_labels([c for _, c in TEXTS]), epochs=5)
    features = model.features(_ids(["zebra quantum xylophone", "no rush"]))
    assert 0 not in features.rows.tolist()
    # An all-unknown text gets the bias alone: the same distribution as an empty text.
    probs = model.probabilities(_ids(["zebra quantum xylophone", ""]))
    assert np.allclose(probs["urgency"][0], probs["urgency"][1])


def test_lexical_training_is_deterministic_and_round_trips() -> None:
    texts = [t for t, _ in TEXTS]
    labels = condition_labels([c for _, c in TEXTS])
    a = train_lexical(_ids(texts), labels, epochs=10)
    b = train_lexical(_ids(texts), labels, epochs=10)
    for name, array in a.arrays().items():
        assert np.array_equal(array, b.arrays()[name])
    again = LexicalModel.from_arrays(a.arrays())
    assert again is not None
    assert np.allclose(
        again.probabilities(_ids(texts))["urgency"], a.probabilities(_ids(texts))["urgency"]
    )
    assert LexicalModel.from_arrays({}) is None


def test_lexical_training_needs_texts() -> None:
    with pytest.raises(ValueError, match="no texts"):
        train_lexical([], condition_labels([]))


def test_embed_ids_equals_embed() -> None:
    embedder = default_embedder()
    texts = ["You feel let down and want a refund.", "", "zzzz"]
    assert np.array_equal(embedder.embed(texts), embedder.embed_ids(_ids(texts)))


def _small() -> AnchorSet:
    full = default_anchor_set().anchors
    keep = [c.id for c in all_conditions() if c.emotion in ("dread", "relief", "pride")]
    return AnchorSet(source="test", anchors={cid: full[cid][:3] for cid in keep})


def test_token_layer_trains_saves_and_maps(tmp_path: Path) -> None:
    small = _small()
    config = TrainConfig(epochs=15, hidden=16, token_layer=24, lexical_epochs=5)
    artifact = train_artifact(default_embedder(), small, config)
    assert artifact.classifier.token_layer is not None
    adapted = artifact.classifier.adapt(default_embedder())
    assert isinstance(adapted, StaticEmbedder) and adapted.dim == 24
    path = tmp_path / "c.npz"
    artifact.save(path)
    loaded = Artifact.load(path)
    assert loaded.classifier.token_layer is not None and loaded.lexical is not None
    texts, _ = small.texts_and_conditions()
    a = Mapper(default_embedder(), artifact, small).predict(texts[:20])
    b = Mapper(default_embedder(), loaded, small).predict(texts[:20])
    # float32 storage may move a near-tie; the conditions must agree almost everywhere.
    assert sum(x.condition == y.condition for x, y in zip(a, b, strict=True)) >= 18


def test_mapper_family_is_where_the_emotion_scores_put_their_mass() -> None:
    mapper = Mapper.default()
    texts = ["You are over the moon about the trip.", "You dread the answer and fear the worst."]
    scores = mapper.text_scores(texts)
    emotions = HEAD_LABELS["emotion"]
    for row in range(len(texts)):
        for f, family in enumerate(HEAD_LABELS["family"]):
            mass = sum(scores["emotion"][row, emotions.index(e)] for e in FAMILIES[family])
            assert scores["family"][row, f] == pytest.approx(mass)
    for prediction in mapper.predict(texts):
        assert prediction.condition.emotion in FAMILIES[prediction.condition.family]


def test_lexical_weight_zero_and_artifacts_without_lexical_use_embeddings_only() -> None:
    small = _small()
    config = TrainConfig(epochs=10, hidden=16, lexical=False)
    artifact = train_artifact(default_embedder(), small, config)
    assert artifact.lexical is None
    mapper = Mapper(default_embedder(), artifact, small, lexical_weight=0.9)
    assert mapper.lexical_weight == 0.0
    texts, _ = small.texts_and_conditions()
    assert len(mapper.predict(texts[:5])) == 5


@pytest.mark.parametrize("kwargs", [{"alpha": 1.5}, {"lexical_weight": -0.1}])
def test_blend_weights_are_checked(kwargs: dict[str, float]) -> None:
    artifact = train_artifact(default_embedder(), _small(), TrainConfig(epochs=2, hidden=8))
    with pytest.raises(ValueError, match="between 0 and 1"):
        Mapper(default_embedder(), artifact, **kwargs)  # type: ignore[arg-type]


def test_cli_defaults_match_the_mapper_default() -> None:
    import inspect

    from tau_emotion.emotions import cli
    from tau_emotion.emotions.defaults import DEFAULT_LEXICAL_WEIGHT
    from tau_emotion.emotions.mapper import Mapper
    from tau_emotion.emotions.settings import MapperSettings

    mapper_default = inspect.signature(Mapper).parameters["lexical_weight"].default
    assert mapper_default == DEFAULT_LEXICAL_WEIGHT

    for command in (cli.map_command, cli.eval_command):
        default = inspect.signature(command).parameters["lexical_weight"].default
        assert default == DEFAULT_LEXICAL_WEIGHT
    assert MapperSettings().lexical_weight == DEFAULT_LEXICAL_WEIGHT  # what both build from
