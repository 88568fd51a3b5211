"""The LLM judge plumbing: any `ChatModel`, a JSON answer, never a crash.

Judges are optional everywhere: each analysis settles what it can deterministically and asks
the judge only about the rest. A judge that fails (endpoint down, unparseable reply) leaves
the case unresolved and says so: each analysis counts what it asked and what was answered
(`JudgeUse`), and claims the judge in its method only when it answered. It never aborts the
report.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from tau_emotion.data import Episode, Message
from tau_emotion.errors import TauEmotionError
from tau_emotion.models.base import ChatModel

T = TypeVar("T")
DEFAULT_CONCURRENCY = 8
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


class JudgeUse(BaseModel):
    """What an analysis asked its judge, and how much of it came back usable."""

    asked: int = Field(description="Cases the judge was asked about.")
    answered: int = Field(
        description="Cases it answered usably; the rest (endpoint failed, no JSON, an answer "
        "outside the allowed values) rest on the deterministic checks alone."
    )

    @property
    def failed(self) -> int:
        return self.asked - self.answered


class JudgedReport(BaseModel):
    """An analysis report whose labels a judge may have settled: what it was asked and
    answered, so a judge that never answered is not claimed (its `method` says '+judge' only
    when it did)."""

    judge: JudgeUse | None = Field(
        default=None, description="What the judge was asked and answered; None without one."
    )


def judge_use(answers: Iterable[object | None]) -> JudgeUse:
    """`JudgeUse` of a list of parsed answers, None standing for an unusable one."""
    items = list(answers)
    return JudgeUse(asked=len(items), answered=sum(a is not None for a in items))


def parse_json_object(text: str | None) -> dict[str, Any] | None:
    """The first JSON object in a reply (bare, or inside a ``` fence); None if there is none."""
    if not text:
        return None
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        start, end = candidate.find("{"), candidate.rfind("}")
        if start == -1 or end <= start:
            continue
        try:
            value = json.loads(candidate[start : end + 1])
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


async def ask_json(model: ChatModel, system: str, prompt: str) -> dict[str, Any] | None:
    """One judge call; None when the endpoint fails or the reply holds no JSON object."""
    try:
        reply = await model.complete(
            [Message(role="system", content=system), Message(role="user", content=prompt)]
        )
    except TauEmotionError:
        return None
    return parse_json_object(reply.content)


async def gather_limited(jobs: Iterable[Awaitable[T]], limit: int = DEFAULT_CONCURRENCY) -> list[T]:
    """Await jobs with at most `limit` in flight (judges are often rate-limited endpoints)."""
    semaphore = asyncio.Semaphore(limit)

    async def one(job: Awaitable[T]) -> T:
        async with semaphore:
            return await job

    return await asyncio.gather(*(one(j) for j in jobs))


def transcript(episode: Episode, result_chars: int = 300) -> str:
    """The conversation as numbered plain-text lines, tool results shortened, system left out."""
    lines: list[str] = []
    for i, m in enumerate(episode.messages):
        if m.role == "system":
            continue
        if m.role == "tool":
            text = (m.content or "")[:result_chars]
            lines.append(f"[{i}] tool {m.name or ''}{' ERROR' if m.error else ''}: {text}")
            continue
        if m.content:
            who = "customer" if m.role == "user" else "agent"
            lines.append(f"[{i}] {who}: {m.content}")
        for call in m.tool_calls or []:
            args = json.dumps(call.arguments, sort_keys=True)
            lines.append(f"[{i}] agent calls {call.name}({args})")
    return "\n".join(lines)
