"""Which embedder and which mapper to build, as typed settings, and the code that builds them.

`tau-emotion emotions map`, `eval` and `train` take their options from these settings (one
option per field, `tau_emotion.cli.generated`), and a Python caller builds the same mapper
from the same settings: ``build_mapper(MapperSettings(embedder="minilm"))`` trains the
classifier for MiniLM vectors on first use and caches it, as ``emotions map --embedder minilm``
does. Only pydantic is imported here at module level; numpy and the embedders load when a
mapper is built, so the commands' ``--help`` stays fast.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tau_emotion.emotions.defaults import (
    DEFAULT_EMBEDDER,
    DEFAULT_K,
    DEFAULT_KEY_ENV,
    DEFAULT_LEXICAL_WEIGHT,
    DEFAULT_SEED,
)
from tau_emotion.emotions.setup_error import MapperSetupError as MapperSetupError  # re-exported
from tau_emotion.errors import describe
from tau_emotion.inputs import InputError, check_base_url, key_variable_field

if TYPE_CHECKING:
    from tau_emotion.emotions.anchors import AnchorSet
    from tau_emotion.emotions.classifier import Artifact
    from tau_emotion.emotions.embedders import Embedder
    from tau_emotion.emotions.mapper import Mapper


class EmbedderSettings(BaseModel):
    """Which embedder turns text into vectors."""

    # An error must not echo a key typed where its variable's name belongs.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    embedder: str = Field(
        default=DEFAULT_EMBEDDER, description="static (default, numpy), minilm, or openai."
    )
    embed_model: str | None = Field(
        default=None, description="Model for --embedder openai (or a local ST model path)."
    )
    embed_base_url: str | None = Field(default=None, description="Base URL for --embedder openai.")
    api_key_env: str = Field(
        default=DEFAULT_KEY_ENV, description="Environment variable holding the API key."
    )

    _variable_name = field_validator("api_key_env")(key_variable_field)

    @field_validator("embed_base_url")
    @classmethod
    def _an_http_url(cls, url: str | None) -> str | None:
        # A malformed URL would fail only at the first request, after a classifier's
        # training had begun; said here, it names the setting.
        if url is not None:
            try:
                check_base_url(url, "embed_base_url")
            except InputError as exc:
                raise ValueError(str(exc).removeprefix("embed_base_url ")) from None
        return url

    def build(self) -> Embedder:
        """The embedder; MapperSetupError for an unknown kind or a missing model name."""
        from tau_emotion.emotions.embedders import make_embedder
        from tau_emotion.redact import register_key_variables

        register_key_variables([self.api_key_env])  # hidden from any error line that quotes it
        try:
            return make_embedder(
                self.embedder,
                model=self.embed_model,
                base_url=self.embed_base_url,
                api_key_env=self.api_key_env,
            )
        except (ValueError, ModuleNotFoundError) as exc:
            raise MapperSetupError(str(exc)) from exc


class MapperSettings(EmbedderSettings):
    """An embedder plus the classifier, anchors and blend a mapper votes with."""

    k: int = Field(default=DEFAULT_K, ge=1, description="Neighbouring anchors that vote.")
    lexical_weight: float = Field(
        default=DEFAULT_LEXICAL_WEIGHT,
        ge=0.0,
        le=1.0,
        description="Weight of the n-gram model against the embedding side (0 = embeddings only).",
    )
    seed: int = Field(default=DEFAULT_SEED, description="Seed for choosing the instruction.")
    classifier: Path | None = Field(
        default=None, description="Classifier artifact (default: shipped or cached)."
    )
    anchors: Path | None = Field(
        default=None, description="Anchors the classifier was trained on (default: shipped)."
    )


def default_cache_dir() -> Path:
    """Where classifiers trained for other embedders are kept: ``$XDG_CACHE_HOME`` (else
    ``~/.cache``) ``/tau-emotion/emotions``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tau-emotion" / "emotions"


def build_mapper(
    settings: MapperSettings,
    cache_dir: Path | None = None,
    on_training: Callable[[str], None] | None = None,
) -> Mapper:
    """The mapper the settings name.

    Without a classifier, the static embedder with the shipped anchors uses the shipped
    artifact; any other embedder or anchor file gets a classifier trained on first use and
    kept in `cache_dir` (default `default_cache_dir()`), keyed by embedder, endpoint, vector
    dimension and anchors, since embedding ~10k anchors through MiniLM or an API is slow or
    costs money. `on_training` hears a line before that training starts. A classifier must
    have been trained on the same anchors: the instruction is sampled from the anchors it
    voted with.

    Raises MapperSetupError for anything the settings name that cannot be used, and the
    embedder's `EmbedderError` when an endpoint fails while the classifier is trained.
    """
    from tau_emotion.emotions.classifier import Artifact
    from tau_emotion.emotions.embedders import endpoint_of
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER, Mapper

    embedder = settings.build()
    anchors = read_anchors(settings.anchors)
    classifier = settings.classifier
    shipped = classifier is None and settings.anchors is None and _is_shipped(embedder)
    if shipped:
        classifier = DEFAULT_CLASSIFIER
    if classifier is None:
        classifier = (cache_dir or default_cache_dir()) / _cache_name(embedder, anchors.digest())
        if not classifier.exists():
            if on_training is not None:
                endpoint = endpoint_of(embedder)
                at = f" at {endpoint}" if endpoint else ""
                on_training(
                    f"training a classifier for {embedder.name}{at} (cached at {classifier})"
                )
            train_for(embedder, anchors, settings.anchors).save(classifier)
    try:
        artifact = Artifact.load(classifier)
        if artifact.meta.get("anchors_digest") != anchors.digest():
            raise ValueError(
                "it was trained on other anchors; rebuild it with `tau-emotion emotions train`"
                if shipped
                else "it was trained on other anchors; pass the same file with --anchors"
            )
        return Mapper(
            embedder,
            artifact,
            anchors,
            k=settings.k,
            seed=settings.seed,
            lexical_weight=settings.lexical_weight,
        )
    except (OSError, ValueError, KeyError, MapperSetupError) as exc:
        raise MapperSetupError(f"cannot use classifier {classifier}: {exc}") from exc


def _cache_name(embedder: Embedder, anchors_digest: str) -> str:
    """The cached classifier's file name. The embedder's name alone does not identify its
    vector space: two endpoints may serve different vectors under one model name, so the
    endpoint (hashed: a URL is no file name) and the vector width are part of the key."""
    from tau_emotion.emotions.embedders import embedding_dim, endpoint_of

    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", embedder.name)
    parts = [slug, f"{embedding_dim(embedder)}d"]
    endpoint = endpoint_of(embedder)
    if endpoint is not None:
        parts.append(hashlib.sha256(endpoint.encode()).hexdigest()[:12])
    return f"classifier-{'-'.join(parts)}-{anchors_digest}.npz"


def train_for(embedder: Embedder, anchors: AnchorSet, source: Path | None) -> Artifact:
    """A classifier trained on `anchors`; a set training cannot use raises MapperSetupError
    naming the file (`source`), as reading it would."""
    from tau_emotion.emotions.training import train_artifact

    try:
        return train_artifact(embedder, anchors)
    except ValueError as exc:
        raise MapperSetupError(f"cannot train on anchors {source or 'shipped'}: {exc}") from exc


def read_anchors(path: Path | None) -> AnchorSet:
    """The anchors at `path`, or the shipped ones; MapperSetupError names a bad file, and a
    set that does not cover every condition (`anchors.usable_set_problem`)."""
    from tau_emotion.emotions.anchors import (
        default_anchor_set,
        read_anchor_set,
        usable_set_problem,
    )

    try:
        anchor_set = default_anchor_set() if path is None else read_anchor_set(path)
    except (OSError, ValueError) as exc:  # ValueError: a pydantic error, bad gzip or JSON
        raise MapperSetupError(f"cannot use anchors {path}: {describe(exc) or exc}") from exc
    problem = usable_set_problem(anchor_set)
    if problem is not None:
        raise MapperSetupError(f"cannot use anchors {path or 'shipped'}: {problem}")
    return anchor_set


def _is_shipped(embedder: Embedder) -> bool:
    """Whether `embedder` is the one the shipped classifier was trained on."""
    from tau_emotion.emotions.embedders import default_embedder

    return embedder.name == default_embedder().name
