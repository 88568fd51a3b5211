"""Request cache with record and replay, keyed by the full request and its occurrence.

``record`` calls the model and stores every reply; ``replay`` answers only from the cache
(a miss is a `ModelError`, so a replayed run never reaches an endpoint); ``auto`` answers
from the cache when it can and records otherwise. The key is a hash of the model name, every
request field that can change the reply (`factory.cache_params`), every message and the tool
schemas, so any change in the request is a miss, plus the request's occurrence: the n-th time
this process sends an identical request it gets the n-th recorded reply. A caller that rejects
a reply and asks again (an empty reply retried, a verify regeneration) therefore gets the next
recorded reply, as it got a fresh one from the endpoint, never the rejected one forever. The
cache file is append-only JSONL, like result files, and survives kills the same way.
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
from tau_emotion.models.memo import MessageMemo, RecentByIdentity
from tau_emotion.storage import model_json

CacheMode = Literal["record", "replay", "auto"]


class CacheEntry(BaseModel):
    """One cached reply."""

    model_config = ConfigDict(extra="forbid")

    key: str
    reply: Message


# What a message contributes to the key: everything the request carries, not how long the
# reply took or what it cost (nor the repair notes, which were added after keys existed).
_KEY_EXCLUDE = {"usage", "latency_s", "repairs"}
_message_text = MessageMemo(
    lambda m: json.dumps(m.model_dump(mode="json", exclude=_KEY_EXCLUDE), sort_keys=True)
)


def _tools_text(tools: Sequence[dict[str, Any]]) -> str:
    return json.dumps(list(tools), sort_keys=True)


_tools_key_text: RecentByIdentity[Sequence[dict[str, Any]], str] = RecentByIdentity(_tools_text)


KEY_VERSION = "v2"
"""Prefix of every key. Keys without it (version 1, before the occurrence and `seed` /
`send_reasoning` were keyed) are ambiguous: they are skipped on load and reported on a miss."""


def request_key(
    model: str,
    params: dict[str, Any],
    messages: Sequence[Message],
    tools: Sequence[dict[str, Any]] | None,
) -> str:
    """sha256 of ``json.dumps({"messages", "model", "params", "tools"}, sort_keys=True)``.

    This is the request alone; `entry_key` adds the version and the occurrence.

    The text is assembled from per-message parts computed once per message (`MessageMemo`),
    so a growing conversation is not re-dumped on every turn; the bytes, and so the keys of
    existing cache files, are those of dumping the whole payload at once.
    """
    text = "".join(
        [
            '{"messages": [',
            ", ".join([_message_text(m) for m in messages]),
            '], "model": ',
            json.dumps(model),
            ', "params": ',
            json.dumps(params, sort_keys=True),
            ', "tools": ',
            _tools_key_text(tools) if tools else "null",
            "}",
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def entry_key(request: str, occurrence: int) -> str:
    """The key under which the `occurrence`-th (from 0) identical `request` is stored."""
    return f"{KEY_VERSION}:{request}#{occurrence}"


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
        self._sent: dict[str, int] = {}
        """How often each request (`request_key`) has been asked for in this process."""
        self.stale = 0
        """Entries of the file in an older key format, which can never match."""
        if path.exists():
            # Bytes, line by line: a damaged line (not UTF-8, cut off) is skipped, not fatal.
            for line in path.read_bytes().split(b"\n"):
                try:
                    entry = CacheEntry.model_validate_json(line)
                except ValueError:
                    continue  # a partial last line from a killed run
                if not entry.key.startswith(KEY_VERSION + ":"):
                    self.stale += 1
                    continue
                self._entries[entry.key] = entry.reply
        path.parent.mkdir(parents=True, exist_ok=True)

    def __len__(self) -> int:
        return len(self._entries)

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        request = request_key(self.name, self.params, messages, tools)
        # Within one conversation identical requests are sequential (a retry follows the
        # reply it rejects), so on replay the n-th one gets the reply the n-th one got when
        # recorded. Episodes in the same state (trials of one task) send identical requests
        # too; they are told apart only by arrival order, which is harmless wherever the
        # endpoint is deterministic (temperature 0, or a seed it honours) and the replies
        # match. Taken before any await: two identical requests in flight get different ones.
        occurrence = self._sent.get(request, 0)
        self._sent[request] = occurrence + 1
        key = entry_key(request, occurrence)
        if self.mode != "record" and key in self._entries:
            self.hits += 1
            return self._entries[key]
        if self.mode == "replay" or self.inner is None:
            stale = (
                f" ({self.stale} of its entries were recorded by an older version, whose keys "
                "no longer match: record them again)"
                if self.stale
                else ""
            )
            raise ModelError(
                f"request not in the cache {self.path} (replay mode){stale}; record it first "
                "with --cache-mode record or auto"
            )
        self.misses += 1
        reply = await self.inner.complete(messages, tools)
        self._entries[key] = reply
        with self.path.open("a", encoding="utf-8") as fh:
            # model_json: a reply's lone surrogate cannot crash the writer, and a key an
            # endpoint echoed never lands in the cache file.
            fh.write(model_json(CacheEntry(key=key, reply=reply)) + "\n")
        return reply
