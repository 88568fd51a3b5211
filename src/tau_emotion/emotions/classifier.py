"""The multi-head classifier: a shared projection learned from anchor embeddings, numpy only.

Architecture: ``h = tanh(x @ W + b)`` shared by five softmax heads (family, emotion, politeness,
urgency, trust), trained jointly with full-batch Adam on the sum of the heads' cross-entropies.
The shared layer is the point: it turns a general-purpose sentence embedding into a space where
distance means "same feeling, same register, same time pressure, same trust", and the mapper
votes among nearest anchors in that space.

Training is deterministic: float64 throughout, a seeded initialisation, full batches (no
shuffling), fixed epoch count. On one numpy/BLAS build the artifact is byte-identical run to
run; across builds, float summation order may move weights by ~1e-6 (see `artifact_diff`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from tau_emotion.emotions.embedders import Embedder, StaticEmbedder
from tau_emotion.emotions.lexical import LexicalModel
from tau_emotion.emotions.npzio import load_npz, save_npz
from tau_emotion.emotions.numerics import softmax
from tau_emotion.emotions.space import HEAD_LABELS, HEADS, all_conditions

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
I64 = NDArray[np.int64]

FORMAT: Final[int] = 1


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters; stored in the artifact so `train` can reproduce it."""

    hidden: int = 96
    epochs: int = 200
    learning_rate: float = 0.01
    weight_decay: float = 1e-4
    token_learning_rate: float = 0.03
    token_decay: float = 1e-4
    """L2 pull of fine-tuned token vectors back toward the distilled ones."""
    tune_tokens: bool = True
    """Fine-tune the static embedder's vectors of tokens seen in the anchors (static only)."""
    token_dropout: float = 0.5
    """Share of token occurrences dropped at each step (static only): forces the classifier
    to read every cue of an anchor instead of the single most telling word."""
    token_layer: int = 0
    """Static only: width of a per-token layer tanh(v @ A + c) applied before pooling (0 = none).
    Learnt from the base vectors, so it carries over to tokens the anchors never used: a cue
    word unseen in training still lands near the cue words it resembles, while the many
    content words of other slots fall near zero instead of adding noise to every head."""
    lexical: bool = True
    """Also fit the sparse n-gram model of `lexical.py`, which the mapper blends in."""
    lexical_epochs: int = 80
    lexical_learning_rate: float = 0.1
    lexical_weight_decay: float = 1e-5
    dimension_weight: float = 1.0
    """Loss weight of the politeness, urgency and trust heads relative to family and emotion:
    without it the 22-way emotion head dominates the shared layer."""
    augment: int = 16
    """Phrase-bank (template) anchors per condition added to the training data only; the
    mapper still hands the simulator a written anchor. Trained on the written anchors alone
    (0), the family head reaches 0.79 on the independent set; with 16 it reaches 0.91
    (docs/emotions.md): the templates add each emotion's core vocabulary, which the written
    texts, carrying behaviour in many words, spread thin."""
    seed: int = 0


def condition_labels(condition_ids: list[str]) -> dict[str, I64]:
    """Per head, the integer label of each condition id."""
    index = {c.id: c for c in all_conditions()}
    out: dict[str, I64] = {}
    for head in HEADS:
        lookup = {label: i for i, label in enumerate(HEAD_LABELS[head])}
        out[head] = np.array([lookup[index[cid].label(head)] for cid in condition_ids], np.int64)
    return out


@dataclass
class Classifier:
    """Weights of the shared layer and the heads (float64 in memory)."""

    w: F64
    b: F64
    heads: dict[str, tuple[F64, F64]]
    config: TrainConfig
    token_ids: NDArray[np.int64] | None = None
    """Static embedder only: vocabulary ids whose vectors were fine-tuned."""
    token_deltas: F64 | None = None
    """Static embedder only: what training added to those vectors."""
    token_layer: tuple[F64, F64] | None = None
    """Static embedder only: (A, c) of the per-token layer, when `config.token_layer` > 0."""

    def hidden(self, x: NDArray[Any]) -> F64:
        out: F64 = np.tanh(np.asarray(x, dtype=np.float64) @ self.w + self.b)
        return out

    def project(self, x: NDArray[Any]) -> F32:
        """The learned representation, L2-normalised (cosine = dot product)."""
        h = self.hidden(x)
        h /= np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12)
        return h.astype(np.float32)

    def probabilities(self, x: NDArray[Any]) -> dict[str, F64]:
        return self.forward(x)[1]

    def forward(self, x: NDArray[Any]) -> tuple[F32, dict[str, F64]]:
        """Projection and head probabilities from one pass through the shared layer."""
        h = self.hidden(x)
        probs = {head: softmax(h @ wk + bk) for head, (wk, bk) in self.heads.items()}
        h /= np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12)
        return h.astype(np.float32), probs

    def arrays(self) -> dict[str, NDArray[Any]]:
        out: dict[str, NDArray[Any]] = {"w": self.w, "b": self.b}
        for head, (wk, bk) in self.heads.items():
            out[f"head_{head}_w"] = wk
            out[f"head_{head}_b"] = bk
        if self.token_ids is not None and self.token_deltas is not None:
            out["token_ids"] = self.token_ids
            out["token_deltas"] = self.token_deltas
        if self.token_layer is not None:
            out["token_layer_w"], out["token_layer_b"] = self.token_layer
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, NDArray[Any]], config: TrainConfig) -> Classifier:
        def f64(name: str) -> F64:
            return np.asarray(arrays[name], dtype=np.float64)

        heads = {h: (f64(f"head_{h}_w"), f64(f"head_{h}_b")) for h in HEADS}
        token_ids = np.asarray(arrays["token_ids"], np.int64) if "token_ids" in arrays else None
        deltas = f64("token_deltas") if "token_deltas" in arrays else None
        layer = None
        if "token_layer_w" in arrays:
            layer = (f64("token_layer_w"), f64("token_layer_b"))
        return cls(
            w=f64("w"),
            b=f64("b"),
            heads=heads,
            config=config,
            token_ids=token_ids,
            token_deltas=deltas,
            token_layer=layer,
        )

    def adapt(self, embedder: Embedder) -> Embedder:
        """The embedder whose vectors this classifier reads (its token adjustments applied)."""
        if self.token_ids is None or self.token_deltas is None:
            return embedder
        if not isinstance(embedder, StaticEmbedder):
            raise ValueError("this classifier fine-tuned a static embedding; use StaticEmbedder")
        return embedder.tuned(self.token_ids, self.token_deltas, self.token_layer)


@dataclass(frozen=True)
class TokenInputs:
    """Bag-of-tokens view of the anchors, for fine-tuning a static embedding table.

    A static embedding of a text is normalise(counts @ table); with the counts fixed, the rows
    of the table that the anchors use can be trained like any other weight (model2vec does the
    same when it fine-tunes a distilled model for classification). The count matrix is dense:
    it is mostly zeros, but one BLAS product over it is several times faster than gathering
    and summing the occurrences sparsely in numpy.
    """

    counts: F32
    """n_texts x n_tokens: how often each used token occurs in each text."""
    token_ids: NDArray[np.int64]
    """Vocabulary id of each column."""
    base: F64
    """n_tokens x d: the distilled vectors of those tokens."""

    @classmethod
    def build(
        cls, rows: NDArray[np.int64], ids: NDArray[np.int64], vectors: NDArray[Any], n_texts: int
    ) -> TokenInputs:
        """From token occurrences (text row, vocabulary id) and the embedder's vector table."""
        token_ids, columns = np.unique(ids, return_inverse=True)
        counts = np.zeros((n_texts, token_ids.size), dtype=np.float32)
        np.add.at(counts, (rows, columns), 1.0)
        base = np.asarray(vectors[token_ids], dtype=np.float64)
        return cls(counts=counts, token_ids=token_ids, base=base)


def _normalize_rows(s: F64) -> tuple[F64, F64]:
    norms = np.maximum(np.linalg.norm(s, axis=1, keepdims=True), 1e-12)
    out: F64 = s / norms
    return out, norms


def train_classifier(
    x: NDArray[Any],
    labels: Mapping[str, I64],
    config: TrainConfig = TrainConfig(),
    tokens: TokenInputs | None = None,
) -> Classifier:
    """Fit the shared layer and heads on embeddings `x` (n x d) and per-head labels.

    With `tokens`, `x` is recomputed every step from the (trained) token vectors, and the
    learned offsets end up in `Classifier.token_deltas`.
    """
    x64 = np.asarray(x, dtype=np.float64)
    n, d = x64.shape
    layer = config.token_layer if tokens is not None else 0
    if layer:
        d = layer
    rng = np.random.default_rng(config.seed)
    # Glorot-style scale keeps tanh out of saturation at the start.
    params: dict[str, F64] = {
        "w": rng.normal(0.0, np.sqrt(2.0 / (d + config.hidden)), (d, config.hidden)),
        "b": np.zeros(config.hidden),
    }
    onehots: dict[str, F64] = {}
    for head in HEADS:
        k = len(HEAD_LABELS[head])
        params[f"{head}_w"] = rng.normal(
            0.0, np.sqrt(2.0 / (config.hidden + k)), (config.hidden, k)
        )
        params[f"{head}_b"] = np.zeros(k)
        onehots[head] = np.eye(k)[labels[head]]
    if tokens is not None:
        params["delta"] = np.zeros_like(tokens.base)
        if layer:
            # Base vectors are SIF-scaled; scale A so that a typical token's v @ A starts
            # with unit variance, in the responsive range of tanh.
            scale = 1.0 / float(np.median(np.linalg.norm(tokens.base, axis=1)))
            params["token_w"] = rng.normal(0.0, scale, (tokens.base.shape[1], layer))
            params["token_b"] = np.zeros(layer)
    m = {name: np.zeros_like(p) for name, p in params.items()}
    v = {name: np.zeros_like(p) for name, p in params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    norms: F64 | None = None
    for step in range(1, config.epochs + 1):
        counts: F32 | None = None
        if tokens is not None:
            counts = tokens.counts
            if config.token_dropout > 0:
                keep = rng.random(counts.shape, dtype=np.float32) >= config.token_dropout
                counts = counts * keep
            linear = tokens.base + params["delta"]
            table = linear
            if layer:
                activation = np.tanh(linear @ params["token_w"] + params["token_b"])
                table = activation - np.tanh(params["token_b"])
            # The pooling dominates the cost; float32 halves it.
            pooled = counts @ table.astype(np.float32)
            x64, norms = _normalize_rows(pooled.astype(np.float64))
        h = np.tanh(x64 @ params["w"] + params["b"])
        grads: dict[str, F64] = {}
        dh = np.zeros_like(h)
        for head in HEADS:
            probs = softmax(h @ params[f"{head}_w"] + params[f"{head}_b"])
            weight = 1.0 if head in ("family", "emotion") else config.dimension_weight
            dz = weight * (probs - onehots[head]) / n
            grads[f"{head}_w"] = h.T @ dz + config.weight_decay * params[f"{head}_w"]
            grads[f"{head}_b"] = dz.sum(axis=0)
            dh += dz @ params[f"{head}_w"].T
        dpre = dh * (1.0 - h * h)
        grads["w"] = x64.T @ dpre + config.weight_decay * params["w"]
        grads["b"] = dpre.sum(axis=0)
        if tokens is not None and counts is not None and norms is not None:
            dx = dpre @ params["w"].T
            # Back through the row normalisation: remove the radial part, divide by the norm.
            ds = (dx - x64 * (x64 * dx).sum(axis=1, keepdims=True)) / norms
            dtable = (counts.T @ ds.astype(np.float32)).astype(np.float64)
            dlinear = dtable
            if layer:
                dact = dtable * (1.0 - activation * activation)
                grads["token_w"] = linear.T @ dact + config.weight_decay * params["token_w"]
                offset_slope = 1.0 - np.tanh(params["token_b"]) ** 2
                grads["token_b"] = dact.sum(axis=0) - offset_slope * dtable.sum(axis=0)
                dlinear = dact @ params["token_w"].T
            grads["delta"] = dlinear + config.token_decay * params["delta"]
        for name, g in grads.items():
            m[name] = beta1 * m[name] + (1 - beta1) * g
            v[name] = beta2 * v[name] + (1 - beta2) * g * g
            m_hat = m[name] / (1 - beta1**step)
            v_hat = v[name] / (1 - beta2**step)
            lr = config.token_learning_rate if name == "delta" else config.learning_rate
            params[name] = params[name] - lr * m_hat / (np.sqrt(v_hat) + eps)
    heads = {head: (params[f"{head}_w"], params[f"{head}_b"]) for head in HEADS}
    classifier = Classifier(w=params["w"], b=params["b"], heads=heads, config=config)
    if tokens is not None:
        classifier.token_ids = tokens.token_ids
        classifier.token_deltas = params["delta"]
        if layer:
            classifier.token_layer = (params["token_w"], params["token_b"])
    return classifier


@dataclass
class Artifact:
    """A trained classifier plus everything the mapper needs without re-embedding anchors."""

    classifier: Classifier
    anchor_vectors: F32
    """Anchors in the learned space (rows L2-normalised), canonical anchor order."""
    anchor_conditions: NDArray[np.int16]
    """Index into `all_conditions()` of each anchor row."""
    meta: dict[str, Any]
    """embedder name, anchors digest and source, train config, format version."""
    lexical: LexicalModel | None = None
    """The n-gram model (absent in artifacts trained with `lexical=False`)."""

    def save(self, path: Path) -> None:
        arrays = {
            name: array.astype(np.int32 if name == "token_ids" else np.float32)
            for name, array in self.classifier.arrays().items()
        }
        # float16 halves the largest member; cosine ranks barely move at 3 significant digits.
        arrays["anchor_vectors"] = self.anchor_vectors.astype(np.float16)
        arrays["anchor_conditions"] = self.anchor_conditions.astype(np.int16)
        if self.lexical is not None:
            for name, array in self.lexical.arrays().items():
                arrays[name] = array if name == "lexical_keys" else array.astype(np.float32)
        save_npz(path, arrays, self.meta)

    @classmethod
    def load(cls, path: Path) -> Artifact:
        arrays, meta = load_npz(path)
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: unsupported classifier format {meta.get('format')!r}")
        config = TrainConfig(**meta["train_config"])
        return cls(
            classifier=Classifier.from_arrays(arrays, config),
            anchor_vectors=arrays["anchor_vectors"].astype(np.float32),
            anchor_conditions=arrays["anchor_conditions"],
            meta=meta,
            lexical=LexicalModel.from_arrays(arrays),
        )


def build_meta(
    embedder_name: str, anchors_digest: str, source: str, config: TrainConfig
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "embedder": embedder_name,
        "anchors_digest": anchors_digest,
        "anchors_source": source,
        "train_config": asdict(config),
    }


def artifact_diff(a: Path, b: Path) -> float:
    """Largest absolute difference between two artifacts' arrays (inf if shapes differ)."""
    arrays_a, _ = load_npz(a)
    arrays_b, _ = load_npz(b)
    if arrays_a.keys() != arrays_b.keys():
        return float("inf")
    worst = 0.0
    for name, x in arrays_a.items():
        y = arrays_b[name]
        if x.shape != y.shape:
            return float("inf")
        diff = np.abs(x.astype(np.float64) - y.astype(np.float64))
        worst = max(worst, float(diff.max(initial=0.0)))
    return worst
