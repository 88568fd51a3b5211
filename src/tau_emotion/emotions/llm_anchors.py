"""Regenerate anchors with any OpenAI-compatible chat endpoint.

Per condition, the model is asked for a JSON list of second-person descriptions; every reply is
checked with `anchor_problem` (second person, no label words, length bounds) and de-duplicated
across the whole run; conditions still short after a round are asked again, up to
`max_rounds`. The labels are given to the model in plain words and the model is told never to
use them, so a reply that names a label is rejected, not repaired.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from threading import Lock
from typing import Any, Final

from tau_emotion.emotions.anchors import AnchorSet, keep_valid_unique
from tau_emotion.emotions.defaults import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_PER_CONDITION,
    DEFAULT_TEMPERATURE,
)
from tau_emotion.emotions.space import Condition
from tau_emotion.emotions.space import Emotion as E

EMOTION_GLOSS: Final[dict[str, str]] = {
    E.ANNOYANCE: "mild irritation at a small, needless hassle",
    E.FRUSTRATION: "being blocked after repeated attempts that keep failing",
    E.EXASPERATION: "patience completely used up after too many rounds of the same problem",
    E.ARGUMENTATIVENESS: "a combative urge to contest every point and win the exchange",
    E.BITTERNESS: "lasting resentment from past unfair treatment",
    E.NERVOUSNESS: "jittery unease and fear of doing something wrong",
    E.ANXIETY: "persistent worry and what-ifs about what might happen",
    E.DREAD: "heavy foreboding that bad news is coming",
    E.DESPERATION: "being out of options and willing to try anything",
    E.DISLIKE: "a mild, settled lack of liking for the company or product",
    E.AVERSION: "wanting to keep away from and avoid the matter",
    E.DISTASTE: "offended sensibilities at something tacky or in poor taste",
    E.REPUGNANCE: "strong revulsion, feeling sickened by what happened",
    E.DISAPPOINTMENT: "being let down because expectations were not met",
    E.DISCOURAGEMENT: "losing heart and motivation after setbacks",
    E.HELPLESSNESS: "being powerless to fix things oneself",
    E.HOPELESSNESS: "conviction that nothing will ever improve",
    E.SORROW: "grief after a painful loss",
    E.RELIEF: "a weight lifted now that the worst is over",
    E.PEACE: "calm, settled contentment",
    E.PRIDE: "satisfaction in an achievement one earned",
    E.EXCITEMENT: "eager, energetic anticipation of something good",
}
DIMENSION_GLOSS: Final[dict[str, dict[str, str]]] = {
    "politeness": {
        "warm": "friendly and kind to the agent, says please and thank you",
        "neutral": "plain, civil and businesslike, neither friendly nor curt",
        "cold": "curt, clipped and dismissive toward the agent, no courtesies",
    },
    "urgency": {
        "low": "no time pressure at all; happy to wait days or weeks",
        "moderate": "wants it done within a day or two, but it is not an emergency",
        "high": "needs it done right now; a deadline is minutes or hours away",
    },
    "trust": {
        "trusting": "takes what the agent says at face value",
        "cautious": "open but checks key details and wants confirmations",
        "skeptical": "doubts the agent's claims and suspects a catch",
    },
}
SYSTEM_PROMPT: Final[str] = (
    "You write short role instructions for an actor who plays a customer contacting customer "
    "support. Write every instruction in the second person ('You feel ... You want ... "
    "You ...'), 2 to 5 sentences, 20 to 90 words. Convey the feeling, the register, the time "
    "pressure and the attitude toward the agent through concrete feelings and behaviour. Never "
    "use these words or their forms: the emotion's name, its family's name, politeness, "
    "urgency, urgent, trust, skeptical, cautious, warm, cold, neutral, low, moderate, high. "
    "Do not mention a specific product or company. Vary wording and sentence order. Answer "
    'with JSON only: {"descriptions": ["...", "..."]}'
)


def condition_prompt(condition: Condition, count: int) -> str:
    d = DIMENSION_GLOSS
    return (
        f"Condition: {condition.id}\n"
        f"Feeling: {EMOTION_GLOSS[condition.emotion]}.\n"
        f"Register: {d['politeness'][condition.politeness]}.\n"
        f"Time pressure: {d['urgency'][condition.urgency]}.\n"
        f"Attitude toward the agent: {d['trust'][condition.trust]}.\n"
        f"Write {count} different instructions."
    )


# Numbers, bracketed bounds and named words are dropped so rejections group by kind.
_REASON_DETAIL_RE: Final[re.Pattern[str]] = re.compile(r"\s*(\d+|\[.*?\]|\(.*?\)|word\(s\).*)")
_JSON_RE: Final[re.Pattern[str]] = re.compile(r"\{.*\}|\[.*\]", re.DOTALL)


def parse_descriptions(content: str) -> list[str]:
    """Strings from a reply: {"descriptions": [...]}, a bare list, or either inside prose."""
    match = _JSON_RE.search(content or "")
    if match is None:
        return []
    try:
        data: Any = json.loads(match.group(0))
    except json.JSONDecodeError:
        return []
    if isinstance(data, dict):
        data = data.get("descriptions", [])
    if not isinstance(data, list):
        return []
    return [item for item in data if isinstance(item, str)]


Complete = Callable[[str, str], str]
"""(system prompt, user prompt) -> reply text."""


def openai_complete(
    model: str,
    base_url: str | None,
    api_key: str,
    temperature: float = DEFAULT_TEMPERATURE,
    timeout: float = 120,
) -> Complete:
    from openai import OpenAI

    client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=3)

    def complete(system: str, user: str) -> str:
        response = client.chat.completions.create(
            model=model,
            temperature=temperature,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        )
        return response.choices[0].message.content or ""

    return complete


@dataclass
class GenerationReport:
    requests: int = 0
    accepted: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    """Reason (first words) -> count."""
    short: list[str] = field(default_factory=list)
    """Conditions that did not reach the target count."""


def generate_with_llm(
    complete: Complete,
    conditions: Sequence[Condition],
    per_condition: int = DEFAULT_PER_CONDITION,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    concurrency: int = DEFAULT_CONCURRENCY,
    source: str = "llm",
    progress: Callable[[int, int], None] | None = None,
) -> tuple[AnchorSet, GenerationReport]:
    """Ask for anchors until each condition has `per_condition` valid, unique ones."""
    report = GenerationReport()
    collected: dict[str, list[str]] = {c.id: [] for c in conditions}
    seen: set[str] = set()
    lock = Lock()

    def one(condition: Condition) -> None:
        missing = per_condition - len(collected[condition.id])
        # Ask for a few extra: some replies fail the checks.
        reply = complete(SYSTEM_PROMPT, condition_prompt(condition, missing + 3))
        candidates = parse_descriptions(reply)
        with lock:
            report.requests += 1
            kept, rejected = keep_valid_unique(candidates, seen, limit=missing)
            collected[condition.id].extend(kept)
            report.accepted += len(kept)
            if not candidates:
                rejected = [(reply, "reply had no JSON list of strings")]
            for _, reason in rejected:
                key = _REASON_DETAIL_RE.sub("", reason).strip()
                report.rejected[key] = report.rejected.get(key, 0) + 1

    for _ in range(max_rounds):
        todo = [c for c in conditions if len(collected[c.id]) < per_condition]
        if not todo:
            break
        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            for done, _ in enumerate(pool.map(one, todo), start=1):
                if progress is not None:
                    progress(done, len(todo))
    report.short = [c.id for c in conditions if len(collected[c.id]) < per_condition]
    return AnchorSet(source=source, anchors=collected), report
