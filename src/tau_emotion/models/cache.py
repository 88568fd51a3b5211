"""Request cache with record and replay, keyed by the full request.

``record`` calls the model and stores every reply; ``replay`` answers only from the cache
(a miss is a `ModelError`, so a replayed run never reaches an endpoint); ``auto`` answers
from the cache when it can and records otherwise. The key is a hash of the model name, its
sampling parameters, every message and the tool schemas, so any change in the request is a
miss. The cache file is append-only JSONL, like result files, and survives kills the same way.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from tau_emotion.data import Message
from tau_emotion.errors import ModelError
from tau_emotion.models.base import ChatModel

CacheMode = Literal["record", "replay", "auto"]


class CacheEntry(BaseModel):
    """One cached reply."""

    model_config = ConfigDict(extra="forbid")

    key: str
    reply: Message


def request_key(
    model: str,
    params: dict[str, Any],
    messages: Sequence[Message],
    tools: Sequence[dict[str, Any]] | None,
) -> str:
    payload = {
        "model": model,
        "params": params,
        "messages": [m.model_dump(mode="json", exclude={"usage", "latency_s"}) for m in messages],
        "tools": list(tools) if tools else None,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


class CachedModel:
    """Wraps any `ChatModel` with a persistent request cache."""

    def __init__(
        self,
        inner: ChatModel | None,
        path: Path,
        mode: CacheMode = "auto",
        params: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> None:
        if mode != "replay" and inner is None:
            raise ValueError("record and auto modes need a model to call")
        self.inner = inner
        self.name = name or (inner.name if inner else "cache")
        self.path = path
        self.mode = mode
        self.params = params or {}
        self.hits = 0
        self.misses = 0
        self._entries: dict[str, Message] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = CacheEntry.model_validate_json(line)
                except ValueError:
                    continue  # a partial last line from a killed run
                self._entries[entry.key] = entry.reply
        path.parent.mkdir(parents=True, exist_ok=True)

    def __len__(self) -> int:
        return len(self._entries)

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        key = request_key(self.name, self.params, messages, tools)
        if self.mode != "record" and key in self._entries:
            self.hits += 1
            return self._entries[key]
        if self.mode == "replay" or self.inner is None:
            raise ModelError(
                f"request not in the cache {self.path} (replay mode); record it first "
                "with --cache-mode record or auto"
            )
        self.misses += 1
        reply = await self.inner.complete(messages, tools)
        self._entries[key] = reply
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(CacheEntry(key=key, reply=reply).model_dump_json() + "\n")
        return reply
