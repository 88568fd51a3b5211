"""Free text -> emotion condition -> an anchor instruction for the simulated customer.

1. Embed the text and project it into the classifier's learned space.
2. Find its k nearest anchors there (cosine) and let them vote, weighted by similarity, on
   each head; the classifier's own head probabilities are blended in, which breaks ties and
   keeps confidence honest when the neighbours disagree.
3. Pick the family first and then the best emotion *within* it, so the answer is always a
   real condition; the three dimensions are decided independently.
4. Sample one of that condition's anchors as the instruction, with an RNG seeded by
   (seed, text): the same text always gets the same instruction, whatever batch it is in.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray
from pydantic import Field

from tau_emotion.data import EmotionSpec
from tau_emotion.emotions.anchors import ASSETS, AnchorSet, default_anchor_set
from tau_emotion.emotions.classifier import Artifact
from tau_emotion.emotions.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_K,
    DEFAULT_LEXICAL_WEIGHT,
    DEFAULT_SEED,
)
from tau_emotion.emotions.embedders import Embedder, StaticEmbedder, default_embedder
from tau_emotion.emotions.lexical import shipped_tokenizer
from tau_emotion.emotions.setup_error import MapperSetupError
from tau_emotion.emotions.space import (
    FAMILIES,
    HEAD_LABELS,
    HEADS,
    Condition,
    all_conditions,
    condition_by_id,
)

DEFAULT_CLASSIFIER: Final[Path] = ASSETS / "classifier.npz"
_BATCH: Final[int] = 512
_BLOCK: Final[int] = 16

# Per head, the label index of every condition (rows follow `all_conditions()`).
_CONDITION_LABELS: Final[dict[str, NDArray[np.intp]]] = {
    head: np.array(
        [HEAD_LABELS[head].index(c.label(head)) for c in all_conditions()], dtype=np.intp
    )
    for head in HEADS
}
_EMOTION_FAMILY: Final[NDArray[np.intp]] = np.array(
    [
        list(FAMILIES).index(next(f for f, es in FAMILIES.items() if e in es))
        for e in HEAD_LABELS["emotion"]
    ],
    dtype=np.intp,
)


def _block_max(blocks: NDArray[Any]) -> NDArray[Any]:
    """The maximum of each block (last axis), as `_BLOCK - 1` elementwise maxima of slices:
    numpy's reduction over a short last axis loops per row and was a third of `map`'s time;
    this is the same numbers about twice as fast."""
    best = blocks[:, :, 0].copy()
    for j in range(1, blocks.shape[2]):
        np.maximum(best, blocks[:, :, j], out=best)
    return best


class MappedCondition(EmotionSpec):
    """What `map` returns for one text (and writes as one JSONL line, merged with the input):
    the condition a simulated customer would carry, typed as one, and how sure the vote was."""

    confidence: dict[str, float] = Field(
        description="Per head, the share of the blended vote won by the chosen value (0-1)."
    )

    @property
    def condition(self) -> Condition:
        return condition_by_id(self.condition_id)

    def spec(self) -> EmotionSpec:
        """The plain `EmotionSpec`, without the mapper's confidence."""
        return self.condition.to_spec(self.instruction)


@dataclass(frozen=True)
class Prediction:
    condition: Condition
    confidence: dict[str, float]


class Mapper:
    """Maps free-text feelings to conditions; stateless apart from its loaded arrays."""

    def __init__(
        self,
        embedder: Embedder,
        artifact: Artifact,
        anchors: AnchorSet | None = None,
        k: int = DEFAULT_K,
        alpha: float = DEFAULT_ALPHA,
        seed: int = DEFAULT_SEED,
        lexical_weight: float = DEFAULT_LEXICAL_WEIGHT,
    ) -> None:
        if artifact.meta.get("embedder") != embedder.name:
            raise ValueError(
                f"classifier was trained on {artifact.meta.get('embedder')!r} vectors, "
                f"not {embedder.name!r}; train one for this embedder first"
            )
        if k < 1:
            raise ValueError("k must be at least 1")
        if not 0.0 <= alpha <= 1.0 or not 0.0 <= lexical_weight <= 1.0:
            raise ValueError("alpha and lexical_weight are blend weights between 0 and 1")
        # Two embedders may share a name and still differ in width (one model name served by
        # two endpoints); a classifier applied to vectors of another width fails deep in a
        # matrix product. Checked here where the embedder knows its width, else on the first
        # vectors (`_check_width`), so building a mapper sends no request.
        clf = artifact.classifier
        # With a per-token layer the classifier reads the layer's output; the embedder's own
        # vectors are what the layer reads.
        self._input_dim = int(
            clf.token_layer[0].shape[0] if clf.token_layer is not None else clf.w.shape[0]
        )
        dim = getattr(embedder, "dim", None)
        if isinstance(dim, int):
            self._check_width(embedder.name, dim)
        # A classifier trained with adjusted token vectors must embed with the same ones.
        embedder = artifact.classifier.adapt(embedder)
        self.embedder: Embedder = embedder
        self.artifact = artifact
        self._anchors = anchors
        self.k = min(k, len(artifact.anchor_conditions))
        self.alpha = alpha
        # An artifact without an n-gram model (trained with lexical=False) uses embeddings only.
        self.lexical_weight = lexical_weight if artifact.lexical is not None else 0.0
        self.seed = seed
        # Tokenize once for both sides when the embedder is the static one (same vocabulary).
        self._tokenizer = (
            self.embedder.tokenizer
            if isinstance(self.embedder, StaticEmbedder)
            else shipped_tokenizer()
        )
        # Padded to whole blocks for `_nearest`; padding rows never win (their cosine is -inf).
        self._n_anchors = len(artifact.anchor_vectors)
        padding = -self._n_anchors % _BLOCK
        self._padded_anchors = np.vstack(
            [
                artifact.anchor_vectors,
                np.zeros((padding, artifact.anchor_vectors.shape[1]), np.float32),
            ]
        )
        self._anchor_labels = {
            head: labels[artifact.anchor_conditions.astype(np.intp)]
            for head, labels in _CONDITION_LABELS.items()
        }

    @classmethod
    def default(
        cls,
        k: int = DEFAULT_K,
        alpha: float = DEFAULT_ALPHA,
        seed: int = DEFAULT_SEED,
        lexical_weight: float = DEFAULT_LEXICAL_WEIGHT,
    ) -> Mapper:
        """The shipped static embedder, classifier and anchors."""
        return cls(
            default_embedder(),
            load_default_artifact(),
            None,
            k=k,
            alpha=alpha,
            seed=seed,
            lexical_weight=lexical_weight,
        )

    def _check_width(self, name: str, dim: int) -> None:
        if dim != self._input_dim:
            raise MapperSetupError(
                f"the classifier reads {self._input_dim}-dimensional vectors, but the embedder "
                f"{name!r} gives {dim}-dimensional ones; train one for this embedder first"
            )

    @property
    def anchors(self) -> AnchorSet:
        # Loaded lazily: predicting needs only the arrays, sampling needs the texts.
        if self._anchors is None:
            self._anchors = default_anchor_set()
        return self._anchors

    def _nearest(
        self, projected: NDArray[np.float32], k: int
    ) -> tuple[NDArray[np.intp], NDArray[np.float32]]:
        """Indices and cosines of the k nearest anchors of each row (order within k is free).

        A full argpartition over ~10k anchors per text would dominate mapping time. Anchors are
        cut into blocks of `_BLOCK`; the k nearest anchors always lie in the k blocks with the
        highest block maximum (any other block is beaten by k blocks that each hold a closer
        anchor), so only k * _BLOCK candidates need an exact selection.
        """
        sims = projected @ self._padded_anchors.T
        sims[:, self._n_anchors :] = -np.inf
        rows = len(projected)
        blocks = sims.reshape(rows, -1, _BLOCK)
        n_blocks = blocks.shape[1]
        kb = min(k, n_blocks)
        best_blocks = np.argpartition(_block_max(blocks), n_blocks - kb, axis=1)[:, -kb:]
        candidates = (best_blocks[:, :, None] * _BLOCK + np.arange(_BLOCK)).reshape(rows, -1)
        candidate_sims = np.take_along_axis(sims, candidates, axis=1)
        pick = np.argpartition(candidate_sims, candidate_sims.shape[1] - k, axis=1)[:, -k:]
        idx = np.take_along_axis(candidates, pick, axis=1)
        return idx, np.take_along_axis(candidate_sims, pick, axis=1)

    def text_scores(self, texts: Sequence[str]) -> dict[str, NDArray[np.float64]]:
        """Per head, the final blended scores (rows sum to 1) of raw texts."""
        parts: dict[str, list[NDArray[np.float64]]] = {head: [] for head in HEADS}
        # Batches bound the n-gram model's (occurrences x labels) temporaries to a few MB.
        for start in range(0, len(texts), _BATCH):
            for head, part in self._batch_scores(texts[start : start + _BATCH]).items():
                parts[head].append(part)
        return {
            head: np.concatenate(p) if p else np.zeros((0, len(HEAD_LABELS[head])))
            for head, p in parts.items()
        }

    def _batch_scores(self, texts: Sequence[str]) -> dict[str, NDArray[np.float64]]:
        token_ids = [self._tokenizer.ids(text) for text in texts]
        if isinstance(self.embedder, StaticEmbedder):
            vectors = self.embedder.embed_ids(token_ids)
        else:
            vectors = self.embedder.embed(texts)
            self._check_width(self.embedder.name, int(vectors.shape[1]))
        scores = self.scores(vectors)
        if self.lexical_weight > 0 and self.artifact.lexical is not None:
            lexical = self.artifact.lexical.probabilities(token_ids)
            w = self.lexical_weight
            scores = {head: (1.0 - w) * scores[head] + w * lexical[head] for head in HEADS}
        # The family is decided by where the emotion scores put their mass, not by the family
        # head: 22 fine-grained votes aggregate into a steadier family choice than 5 coarse
        # ones (held-out family accuracy 0.87 -> 0.90; docs/emotions.md). The family head
        # still shapes the shared layer during training.
        family = np.zeros_like(scores["family"])
        np.add.at(family.T, _EMOTION_FAMILY, scores["emotion"].T)
        scores["family"] = family
        return scores

    def scores(self, vectors: NDArray[Any]) -> dict[str, NDArray[np.float64]]:
        """Per head, the embedding side's scores (kNN vote + heads, rows sum to 1)."""
        clf = self.artifact.classifier
        out: dict[str, list[NDArray[np.float64]]] = {head: [] for head in HEADS}
        for start in range(0, len(vectors), _BATCH):
            x = vectors[start : start + _BATCH]
            projected, probs = clf.forward(x)
            k = self.k
            idx, sims = self._nearest(projected, k)
            weights = np.maximum(sims, 0.0).astype(np.float64)
            # An all-zero row (text with no known token) falls back to the classifier alone.
            weights += 1e-9
            rows = np.repeat(np.arange(len(x)), k)
            for head in HEADS:
                votes = np.zeros((len(x), len(HEAD_LABELS[head])))
                np.add.at(votes, (rows, self._anchor_labels[head][idx].ravel()), weights.ravel())
                votes /= votes.sum(axis=1, keepdims=True)
                out[head].append(self.alpha * votes + (1.0 - self.alpha) * probs[head])
        return {
            head: np.concatenate(parts) if parts else np.zeros((0, len(HEAD_LABELS[head])))
            for head, parts in out.items()
        }

    def predict(self, texts: Sequence[str]) -> list[Prediction]:
        scores = self.text_scores(texts)
        family_idx = scores["family"].argmax(axis=1)
        # Emotion within the chosen family: mask the other families' emotions out.
        allowed = _EMOTION_FAMILY[None, :] == family_idx[:, None]
        emotion_idx = np.where(allowed, scores["emotion"], -1.0).argmax(axis=1)
        chosen = {
            "family": family_idx,
            "emotion": emotion_idx,
            "politeness": scores["politeness"].argmax(axis=1),
            "urgency": scores["urgency"].argmax(axis=1),
            "trust": scores["trust"].argmax(axis=1),
        }
        predictions: list[Prediction] = []
        for row in range(len(texts)):
            labels = {head: HEAD_LABELS[head][int(chosen[head][row])] for head in HEADS}
            condition = condition_by_id(
                ".".join(labels[h] for h in ("family", "emotion", "politeness", "urgency", "trust"))
            )
            confidence = {
                head: round(float(scores[head][row, chosen[head][row]]), 4) for head in HEADS
            }
            predictions.append(Prediction(condition, confidence))
        return predictions

    def instruction_for(self, condition: Condition, text: str) -> str:
        """One anchor of `condition`, chosen by an RNG seeded with (seed, text)."""
        options = self.anchors.anchors.get(condition.id)
        if not options:
            raise KeyError(f"no anchors for {condition.id}")
        digest = hashlib.sha256(f"{self.seed}\0{text}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        return rng.choice(options)

    def unread(self, texts: Sequence[str]) -> list[int]:
        """Indices of the texts in which the shipped vocabulary recognises no token (empty,
        emoji, non-Latin script). With the static embedder such a text embeds as zeros and
        the n-gram half sees nothing, so it gets the classifier's prior: one fixed condition,
        with ordinary-looking confidences. `map` still maps them; a caller can warn."""
        return [i for i, text in enumerate(texts) if not self._tokenizer.ids(text)]

    def map(self, texts: Sequence[str]) -> list[MappedCondition]:
        """The condition of each text (`map_one` for a single one); ValueError for an empty or
        blank text, TypeError for anything but a list of strings."""
        _check_texts(texts)
        return [
            MappedCondition(
                **p.condition.to_spec(self.instruction_for(p.condition, text)).model_dump(),
                confidence=p.confidence,
            )
            for p, text in zip(self.predict(texts), texts, strict=True)
        ]

    def map_one(self, text: str) -> MappedCondition:
        return self.map([text])[0]


def _check_texts(texts: Sequence[str]) -> None:
    """A string is a sequence of one-letter texts, and anything but text fails deep inside the
    tokenizer: both are refused here, naming what was given."""
    if isinstance(texts, str):
        raise TypeError("Mapper.map takes a list of texts; use map_one for a single text")
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {i} is a {type(text).__name__}, not a string: {text!r:.60}")
        if not text.strip():  # as `map --input` refuses it: there is nothing to read
            raise ValueError(f"text {i} is empty or blank: there is no feeling to map")


@cache
def load_default_artifact() -> Artifact:
    """The shipped classifier (loaded once per process), checked against the shipped anchors:
    one trained on other anchors would vote with rows that are not the anchors the mapper
    hands out, and map every text wrongly without a word. MapperSetupError if it differs."""
    artifact = Artifact.load(DEFAULT_CLASSIFIER)
    trained_on = artifact.meta.get("anchors_digest")
    shipped = default_anchor_set().digest()
    if trained_on != shipped:
        raise MapperSetupError(
            f"cannot use classifier {DEFAULT_CLASSIFIER}: it was trained on other anchors "
            f"(digest {trained_on}, the shipped anchors' is {shipped}); rebuild it with "
            "`tau-emotion emotions train`"
        )
    return artifact


@cache
def _default_mapper(seed: int) -> Mapper:
    return Mapper.default(seed=seed)


def map_feeling(text: str, seed: int = DEFAULT_SEED) -> EmotionSpec:
    """Convenience: the `EmotionSpec` for one free-text feeling, with the shipped model."""
    return _default_mapper(seed).map_one(text).spec()
