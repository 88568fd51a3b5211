"""`litellm` provider strings (``litellm:anthropic/claude-...``) for users who already use them.

litellm returns OpenAI-shaped responses and raises exceptions derived from the `openai`
package's, so retries (`retry.py`) and parsing (`completion.py`: sanitised text, finite tool
arguments, usage and cost) are shared with `OpenAICompatibleModel`; only the sending differs.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from typing import Any

from tau_emotion.data import Message
from tau_emotion.errors import ModelError
from tau_emotion.models.completion import Undecodable, from_data
from tau_emotion.models.openai_compat import ModelConfig, request_fields
from tau_emotion.models.retry import Retryable, retry_after, with_retries
from tau_emotion.models.wire import to_openai_messages


def as_data(value: Any) -> Any:
    """A litellm response (pydantic objects, or any attribute bag) as plain JSON-like data."""
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_data(v) for v in value]
    if hasattr(value, "model_dump"):
        return as_data(value.model_dump())
    if hasattr(value, "__dict__"):
        data = {k: as_data(v) for k, v in vars(value).items() if not k.startswith("_")}
        data.update(as_data(data.pop("model_extra", None) or {}))
        return data
    return value


class LiteLLMModel:
    """`ChatModel` through `litellm.acompletion`."""

    def __init__(self, config: ModelConfig) -> None:
        try:
            import litellm
        except ImportError:
            raise ModelError(
                "litellm provider strings need the litellm package: "
                "pip install 'tau-emotion[litellm]'"
            ) from None
        import openai

        self.config = config
        self.name = config.model
        self._openai = openai
        self._litellm = litellm
        self._who = f"{config.model} via litellm"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        cfg = self.config
        request = request_fields(cfg)
        request["messages"] = to_openai_messages(messages, cfg.send_reasoning)
        if tools:
            request["tools"] = list(tools)
        return await with_retries(
            lambda: self._attempt(request), cfg.max_retries, cfg.backoff_s, self._who
        )

    async def _attempt(self, request: dict[str, Any]) -> Message:
        o, cfg = self._openai, self.config
        started = time.perf_counter()
        try:
            async with asyncio.timeout(cfg.timeout_s):
                response = await self._litellm.acompletion(
                    **request,
                    api_base=cfg.base_url,
                    api_key=os.environ.get(cfg.api_key_env),
                    timeout=cfg.timeout_s,
                    num_retries=0,
                )
        except (TimeoutError, o.APITimeoutError):
            raise Retryable(f"no complete reply within {cfg.timeout_s:g} s (timeout_s)") from None
        except o.APIConnectionError as exc:
            raise Retryable(f"connection failed: {exc}") from None
        except o.APIStatusError as exc:
            reason = f"HTTP {exc.status_code}: {exc}"
            if exc.status_code in (408, 409, 429) or exc.status_code >= 500:
                raise Retryable(reason, retry_after(exc.response.headers)) from None
            raise ModelError(f"{self._who}: {reason}") from exc
        except Exception as exc:
            raise ModelError(f"{self._who}: {type(exc).__name__}: {exc}") from exc
        data = as_data(response)
        if not isinstance(data, dict):
            raise Retryable(f"litellm returned {type(response).__name__}, not a completion")
        try:
            return from_data(
                data,
                time.perf_counter() - started,
                cfg.price_input_per_mtok,
                cfg.price_output_per_mtok,
            )
        except Undecodable as exc:
            raise Retryable(str(exc)) from None
