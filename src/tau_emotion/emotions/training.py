"""Turn an anchor set into a classifier artifact, and evaluate artifacts honestly.

`train_artifact` is what `tau-emotion emotions train` runs; `independent_evaluation` is what
`tau-emotion emotions eval` runs: the shipped mapper on the independent evaluation set
(`evalset.py`), which nothing trains or tunes on. `anchor_cross_validation` is how the
mapper's settings are chosen, on the anchors alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.emotions.anchors import ASSETS, AnchorSet
from tau_emotion.emotions.classifier import (
    Artifact,
    TokenInputs,
    TrainConfig,
    build_meta,
    condition_labels,
    train_classifier,
)
from tau_emotion.emotions.defaults import DEFAULT_K, DEFAULT_LEXICAL_WEIGHT
from tau_emotion.emotions.embedders import Embedder, StaticEmbedder
from tau_emotion.emotions.evalset import EvalSet
from tau_emotion.emotions.lexical import shipped_tokenizer, train_lexical
from tau_emotion.emotions.mapper import Mapper, Prediction
from tau_emotion.emotions.space import FAMILIES, HEADS, all_conditions, condition_index
from tau_emotion.emotions.written import augmented_anchor_set

HANDWRITTEN: Final[Path] = ASSETS / "handwritten.jsonl"


def train_artifact(
    embedder: Embedder, anchor_set: AnchorSet, config: TrainConfig = TrainConfig()
) -> Artifact:
    """Embed every anchor, fit the classifier, and keep the anchors' projections for kNN.

    With `config.augment`, phrase-bank anchors join the training texts (and the kNN rows);
    the artifact stays tied to `anchor_set`, whose texts the mapper hands out.
    """
    training_set = (
        augmented_anchor_set(anchor_set, config.augment, config.seed)
        if config.augment
        else anchor_set
    )
    texts, ids = training_set.texts_and_conditions()
    if not texts:
        raise ValueError("the anchor set is empty")
    x = embedder.embed(texts)
    tokens = None
    if config.tune_tokens and isinstance(embedder, StaticEmbedder):
        rows, token_ids = embedder.token_occurrences(texts)
        tokens = TokenInputs.build(rows, token_ids, embedder.vectors, len(texts))
    classifier = train_classifier(x, condition_labels(ids), config, tokens)
    if tokens is not None:
        x = classifier.adapt(embedder).embed(texts)
    lexical = None
    if config.lexical:
        tokenizer = shipped_tokenizer()
        lexical = train_lexical(
            [tokenizer.ids(t) for t in texts],
            condition_labels(ids),
            epochs=config.lexical_epochs,
            learning_rate=config.lexical_learning_rate,
            weight_decay=config.lexical_weight_decay,
        )
    index = {c.id: condition_index(c) for c in all_conditions()}
    return Artifact(
        classifier=classifier,
        anchor_vectors=classifier.project(x),
        anchor_conditions=np.array([index[i] for i in ids], dtype=np.int16),
        meta=build_meta(embedder.name, anchor_set.digest(), anchor_set.source, config),
        lexical=lexical,
    )


class LabelledText(BaseModel):
    """One line of the hand-written evaluation file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(description="A free-text description of how a customer feels.")
    condition_id: str = Field(description="The condition its author meant.")


def load_handwritten(path: Path = HANDWRITTEN) -> list[LabelledText]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [LabelledText.model_validate_json(line) for line in lines if line.strip()]


@dataclass
class HeadReport:
    """Accuracy per head, plus the within-family emotion confusion."""

    n: int
    accuracy: dict[str, float]
    exact: float
    """All five heads right."""
    confusion: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    """family -> true emotion -> predicted emotion -> count (same-family predictions only)."""
    cross_family_emotion_errors: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "accuracy": self.accuracy,
            "exact": self.exact,
            "within_family_confusion": self.confusion,
            "cross_family_emotion_errors": self.cross_family_emotion_errors,
        }


def score(mapper: Mapper, texts: Sequence[str], condition_ids: Sequence[str]) -> HeadReport:
    """Map `texts` and compare with the intended conditions."""
    return score_predictions(mapper.predict(texts), condition_ids)


def score_predictions(
    predictions: Sequence[Prediction], condition_ids: Sequence[str]
) -> HeadReport:
    """Compare predictions with the intended conditions, head by head."""
    by_id = {c.id: c for c in all_conditions()}
    truth = [by_id[cid] for cid in condition_ids]
    accuracy = {
        head: round(
            float(
                np.mean(
                    [
                        p.condition.label(head) == t.label(head)
                        for p, t in zip(predictions, truth, strict=True)
                    ]
                )
            ),
            4,
        )
        for head in HEADS
    }
    exact = float(np.mean([p.condition == t for p, t in zip(predictions, truth, strict=True)]))
    confusion: dict[str, dict[str, dict[str, int]]] = {
        fam: {e: dict.fromkeys(emotions, 0) for e in emotions} for fam, emotions in FAMILIES.items()
    }
    cross = 0
    for p, t in zip(predictions, truth, strict=True):
        if p.condition.family == t.family:
            confusion[t.family][t.emotion][p.condition.emotion] += 1
        else:
            cross += 1
    return HeadReport(len(predictions), accuracy, round(exact, 4), confusion, cross)


def independent_evaluation(mapper: Mapper, eval_set: EvalSet) -> dict[str, HeadReport]:
    """The mapper on each part of the independent evaluation set (see `evalset.py`)."""
    return {
        name: score(mapper, [t.text for t in part], [t.condition_id for t in part])
        for name, part in eval_set.parts().items()
        if part
    }


def anchor_folds(anchor_set: AnchorSet, folds: int, fold: int) -> tuple[AnchorSet, AnchorSet]:
    """(train, held-out) anchors: every `folds`-th anchor of each condition is held out.

    This is how the mapper's settings are chosen: on the anchors alone, so the independent
    evaluation set stays a measurement and never becomes a tuning target.
    """
    if not 0 <= fold < folds:
        raise ValueError(f"fold {fold} is not in [0, {folds})")
    train: dict[str, list[str]] = {}
    heldout: dict[str, list[str]] = {}
    for cid, texts in anchor_set.anchors.items():
        train[cid] = [t for i, t in enumerate(texts) if i % folds != fold]
        heldout[cid] = [t for i, t in enumerate(texts) if i % folds == fold]
    source = f"{anchor_set.source}:fold{fold}of{folds}"
    return AnchorSet(source=source, anchors=train), AnchorSet(source=source, anchors=heldout)


def anchor_cross_validation(
    embedder: Embedder,
    anchor_set: AnchorSet,
    config: TrainConfig = TrainConfig(),
    folds: int = 5,
    use_folds: int | None = None,
    k: int = DEFAULT_K,
    lexical_weight: float = DEFAULT_LEXICAL_WEIGHT,
) -> HeadReport:
    """Train on all but one fold of the anchors, score the held-out fold; pooled over folds."""
    texts: list[str] = []
    truth: list[str] = []
    predicted: list[Prediction] = []
    for fold in range(use_folds or folds):
        train_set, test_set = anchor_folds(anchor_set, folds, fold)
        artifact = train_artifact(embedder, train_set, config)
        mapper = Mapper(embedder, artifact, train_set, k=k, lexical_weight=lexical_weight)
        fold_texts, fold_ids = test_set.texts_and_conditions()
        texts += fold_texts
        truth += fold_ids
        predicted += mapper.predict(fold_texts)
    return score_predictions(predicted, truth)


def report_text(title: str, report: HeadReport) -> str:
    lines = [f"{title} (n={report.n})"]
    lines += [f"  {head:<11} {report.accuracy[head]:.3f}" for head in HEADS]
    lines.append(f"  {'exact':<11} {report.exact:.3f}")
    return "\n".join(lines)


def confusion_text(report: HeadReport) -> str:
    """Within-family confusion tables, rows = intended emotion, columns = predicted."""
    out: list[str] = []
    for family, rows in report.confusion.items():
        names = list(rows)
        width = max(len(n) for n in names) + 1
        out.append(f"{family}:")
        out.append(" " * (width + 2) + " ".join(f"{n[:6]:>6}" for n in names))
        for name in names:
            counts = " ".join(f"{rows[name][col]:>6}" for col in names)
            out.append(f"  {name:<{width}}{counts}")
    out.append(f"emotion errors that crossed families: {report.cross_family_emotion_errors}")
    return "\n".join(out)


def dump_json(reports: dict[str, HeadReport], path: Path) -> None:
    path.write_text(
        json.dumps({name: r.to_json() for name, r in reports.items()}, indent=1) + "\n",
        encoding="utf-8",
    )
