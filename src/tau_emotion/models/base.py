"""The one small protocol every model call goes through."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tau_emotion.data import Message


@runtime_checkable
class ChatModel(Protocol):
    """Chat completion with optional tools.

    Implementations return an assistant `Message` (text and/or tool calls, optional
    reasoning) with `usage` and `latency_s` filled in, and raise `ModelError` when the
    endpoint fails after their retries.
    """

    name: str

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
    ) -> Message: ...
