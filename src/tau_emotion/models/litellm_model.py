"""`litellm` provider strings (``litellm:anthropic/claude-...``) for users who already use them.

litellm returns OpenAI-shaped responses and raises exceptions derived from the `openai`
package's, so retries, parsing, usage and cost are shared with `OpenAICompatibleModel`.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from tau_emotion.errors import ModelError
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel


class LiteLLMModel(OpenAICompatibleModel):
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
        self._semaphore = asyncio.Semaphore(config.max_concurrency)

    async def _send(self, request: dict[str, Any]) -> Any:
        extra = request.pop("extra_body", {})
        return await self._litellm.acompletion(
            **request,
            **extra,
            api_base=self.config.base_url,
            api_key=os.environ.get(self.config.api_key_env),
            timeout=self.config.timeout_s,
            num_retries=0,
        )
