"""The lexical half of the classifier: a linear model over word-piece unigrams and bigrams.

The embedding half (`classifier.py`) generalises by meaning: an unseen word lands near the
words it resembles. Its weakness is that every word of a text moves every head, so the many
content words of the emotion sentences add noise to the politeness, urgency and trust heads,
and a short cue such as "no rush" or "prove it" is diluted. A sparse linear model has the
opposite profile: a phrase it has never seen contributes nothing at all, and each head reads
only the n-grams that predict it, including two-word cues ("no rush", "right away") that a
bag of word vectors cannot tell apart from their parts. The mapper blends both (`Mapper`,
`lexical_weight`); the two together beat either alone on held-out phrasings (docs/emotions.md).

Features are TF-IDF weighted (sublinear term frequency, smoothed IDF, rows L2-normalised) over
the shipped WordPiece vocabulary, so runtime needs only numpy and the tokenizer the static
embedder already uses. Training is full-batch Adam in float64 from zero weights: deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from tau_emotion.emotions.embedders import STATIC_VOCAB
from tau_emotion.emotions.numerics import softmax
from tau_emotion.emotions.space import HEAD_LABELS, HEADS
from tau_emotion.emotions.tokenizer import WordPieceTokenizer, read_vocab

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]

# Bigram keys live above every unigram key: key = BIGRAM_BASE + first * VOCAB_STRIDE + second.
VOCAB_STRIDE: Final[int] = 1 << 20
BIGRAM_BASE: Final[int] = VOCAB_STRIDE


@cache
def shipped_tokenizer() -> WordPieceTokenizer:
    """The WordPiece tokenizer of the shipped vocabulary (shared by every lexical model)."""
    return WordPieceTokenizer(read_vocab(STATIC_VOCAB))


def ngram_keys(ids: Sequence[int]) -> I64:
    """Unigram and bigram keys of one token sequence (with repeats)."""
    uni = np.asarray(ids, dtype=np.int64)
    if uni.size < 2:
        return uni
    bi = BIGRAM_BASE + uni[:-1] * VOCAB_STRIDE + uni[1:]
    return np.concatenate([uni, bi])


@dataclass(frozen=True)
class SparseRows:
    """A texts x features TF-IDF matrix as sorted (row, column, value) triples."""

    n_rows: int
    rows: I64
    columns: I64
    values: F64

    @cached_property
    def _row_starts(self) -> I64:
        """Where each non-empty row's run begins (computed once, used by every head)."""
        return np.flatnonzero(np.r_[True, np.diff(self.rows) != 0])

    def times(self, weights: F64) -> F64:
        """This matrix @ weights (features x outputs)."""
        out = np.zeros((self.n_rows, weights.shape[1]))
        if self.rows.size:
            contrib = weights[self.columns] * self.values[:, None]
            starts = self._row_starts
            out[self.rows[starts]] = np.add.reduceat(contrib, starts, axis=0)
        return out


def _count_keys(
    token_ids: Sequence[Sequence[int]],
) -> tuple[I64, I64, F64]:
    """Per text, its distinct n-gram keys and their counts (rows ascending)."""
    rows: list[I64] = []
    keys: list[I64] = []
    counts: list[F64] = []
    for row, ids in enumerate(token_ids):
        unique, count = np.unique(ngram_keys(ids), return_counts=True)
        rows.append(np.full(unique.size, row, dtype=np.int64))
        keys.append(unique)
        counts.append(count.astype(np.float64))
    if not rows:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    return np.concatenate(rows), np.concatenate(keys), np.concatenate(counts)


@dataclass
class LexicalModel:
    """Known n-gram keys (sorted), their IDF, and per-head weights over them."""

    keys: I64
    idf: F64
    heads: dict[str, tuple[F64, F64]]

    def features(self, token_ids: Sequence[Sequence[int]]) -> SparseRows:
        return self._tfidf(*_count_keys(token_ids), n_rows=len(token_ids))

    def _tfidf(self, rows: I64, keys: I64, counts: F64, n_rows: int) -> SparseRows:
        """TF-IDF rows from per-text key counts; keys this model does not know are dropped."""
        position = np.searchsorted(self.keys, keys)
        position = np.minimum(position, max(self.keys.size - 1, 0))
        known = self.keys[position] == keys if self.keys.size else np.zeros(keys.size, bool)
        rows, columns, counts = rows[known], position[known], counts[known]
        values = (1.0 + np.log(counts)) * self.idf[columns]
        norms = np.zeros(n_rows)
        np.add.at(norms, rows, values * values)
        values = values / np.sqrt(np.maximum(norms[rows], 1e-12))
        return SparseRows(n_rows, rows, columns, values)

    def probabilities(self, token_ids: Sequence[Sequence[int]]) -> dict[str, F64]:
        x = self.features(token_ids)
        return {head: softmax(x.times(w) + b) for head, (w, b) in self.heads.items()}

    def arrays(self) -> dict[str, NDArray[Any]]:
        out: dict[str, NDArray[Any]] = {"lexical_keys": self.keys, "lexical_idf": self.idf}
        for head, (w, b) in self.heads.items():
            out[f"lexical_{head}_w"] = w
            out[f"lexical_{head}_b"] = b
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, NDArray[Any]]) -> LexicalModel | None:
        if "lexical_keys" not in arrays:
            return None

        def f64(name: str) -> F64:
            return np.asarray(arrays[name], dtype=np.float64)

        heads = {h: (f64(f"lexical_{h}_w"), f64(f"lexical_{h}_b")) for h in HEADS}
        keys = np.asarray(arrays["lexical_keys"], dtype=np.int64)
        return cls(keys=keys, idf=f64("lexical_idf"), heads=heads)


def train_lexical(
    token_ids: Sequence[Sequence[int]],
    labels: Mapping[str, I64],
    epochs: int = 150,
    learning_rate: float = 0.05,
    weight_decay: float = 1e-5,
) -> LexicalModel:
    """Fit one softmax regression per head on TF-IDF n-gram features (full batch, Adam)."""
    n = len(token_ids)
    if n == 0:
        raise ValueError("no texts to train the lexical model on")
    counted = _count_keys(token_ids)
    vocabulary, document_frequency = np.unique(counted[1], return_counts=True)
    idf = np.log((1.0 + n) / (1.0 + document_frequency)) + 1.0
    model = LexicalModel(keys=vocabulary, idf=idf, heads={})
    sparse = model._tfidf(*counted, n_rows=n)
    # Dense for training: one BLAS product over a mostly-zero float32 matrix is several times
    # faster than gathering and summing the non-zeros in numpy, and just as deterministic.
    x = np.zeros((n, vocabulary.size), dtype=np.float32)
    x[sparse.rows, sparse.columns] = sparse.values

    sizes = [len(HEAD_LABELS[head]) for head in HEADS]
    onehot = np.concatenate([np.eye(k)[labels[h]] for h, k in zip(HEADS, sizes, strict=True)], 1)
    bounds = np.cumsum([0, *sizes])
    w = np.zeros((vocabulary.size, int(bounds[-1])))
    b = np.zeros(int(bounds[-1]))
    mw, vw, mb, vb = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, epochs + 1):
        logits = (x @ w.astype(np.float32)).astype(np.float64) + b
        dz = np.empty_like(logits)
        for i in range(len(HEADS)):
            part = slice(int(bounds[i]), int(bounds[i + 1]))
            dz[:, part] = (softmax(logits[:, part]) - onehot[:, part]) / n
        gw = (x.T @ dz.astype(np.float32)).astype(np.float64) + weight_decay * w
        gb = dz.sum(axis=0)
        mw = beta1 * mw + (1 - beta1) * gw
        vw = beta2 * vw + (1 - beta2) * gw * gw
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb * gb
        correction1, correction2 = 1 - beta1**step, 1 - beta2**step
        w -= learning_rate * (mw / correction1) / (np.sqrt(vw / correction2) + eps)
        b -= learning_rate * (mb / correction1) / (np.sqrt(vb / correction2) + eps)
    model.heads = {
        head: (w[:, bounds[i] : bounds[i + 1]].copy(), b[bounds[i] : bounds[i + 1]].copy())
        for i, head in enumerate(HEADS)
    }
    return model
