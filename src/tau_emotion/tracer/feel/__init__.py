"""Stage 5: feelings. Describe how each customer feels, in the condition chosen for them.

The feeling comes from the customer's background and requests only (`feel.cues`), written
for an emotion and three dimensions chosen from the situation; that condition travels with
the task as data, and the mapper writes its sampled second-person instruction (a model's
free-text feeling is the mapper's to assign a condition, `llm`). The mapper is a small
protocol: the real one (`tau_emotion.emotions.mapper`) when its trained assets are installed,
otherwise an offline lexicon mapper that reads the same cues the writer uses. Test tasks get a
no-emotion twin.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from tau_emotion.data import EmotionSpec
from tau_emotion.emotions import FAMILY_OF, to_emotion_spec
from tau_emotion.emotions.space import Emotion
from tau_emotion.tracer.feel.cues import (
    EMOTION_PHRASES,
    POLITENESS_CUES,
    TRUST_CUES,
    URGENCY_CUES,
    request_kind,
    write_feeling,
)
from tau_emotion.tracer.jsonl import (
    Settings,
    appender,
    progress,
    read_jsonl,
    resume_from,
)
from tau_emotion.tracer.records import Candidate, Felt, GroundResult, Rejection


class FeelingMapper(Protocol):
    """Free-text feeling -> condition and instruction; and an instruction for a condition."""

    name: str

    def map(self, texts: Sequence[str]) -> list[EmotionSpec]: ...

    def instruction(self, condition_id: str, text: str) -> str: ...


class EmotionsMapper:
    """Adapter for `tau_emotion.emotions.mapper.Mapper` (the trained kNN mapper)."""

    name = "emotions.mapper"

    def __init__(self, seed: int = 0) -> None:
        from tau_emotion.emotions.mapper import Mapper

        self._mapper = Mapper.default(seed=seed)

    def map(self, texts: Sequence[str]) -> list[EmotionSpec]:
        return [m.spec() for m in self._mapper.map(list(texts))]

    def instruction(self, condition_id: str, text: str) -> str:
        from tau_emotion.emotions import condition_by_id

        return self._mapper.instruction_for(condition_by_id(condition_id), text)


class LexiconMapper:
    """Offline fallback: finds the writer's cue phrases in the text; instructions are the
    condition's shipped anchors."""

    name = "tracer.lexicon"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @staticmethod
    def _find(text: str, table: dict[str, tuple[str, ...]], default: str) -> str:
        lower = text.lower()
        for label, phrases in table.items():
            if any(p in lower for p in phrases):
                return label
        return default

    def map(self, texts: Sequence[str]) -> list[EmotionSpec]:
        from tau_emotion.emotions import FAMILY_OF, to_emotion_spec

        out: list[EmotionSpec] = []
        for text in texts:
            # No emotion cue in the text: annoyance, the space's first emotion (the mildest anger).
            emotion = self._find(text, dict(EMOTION_PHRASES), Emotion.ANNOYANCE.value)
            dims = (
                self._find(text, dict(POLITENESS_CUES), "neutral"),
                self._find(text, dict(URGENCY_CUES), "moderate"),
                self._find(text, dict(TRUST_CUES), "cautious"),
            )
            cid = ".".join((FAMILY_OF[emotion], emotion, *dims))
            out.append(to_emotion_spec(cid, self.instruction(cid, text)))
        return out

    def instruction(self, condition_id: str, text: str) -> str:
        from tau_emotion.emotions.anchors import default_anchor_set

        # The shipped (hand-written, behaviour-only) anchors, as the trained mapper hands out.
        options = default_anchor_set().anchors[condition_id]
        digest = hashlib.sha256(f"{self.seed}\0{text}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big")).choice(options)


def default_mapper(seed: int = 0) -> FeelingMapper:
    """The trained mapper when its assets are installed, else the lexicon fallback."""
    try:
        return EmotionsMapper(seed)
    except (ImportError, FileNotFoundError, OSError, KeyError, ValueError):
        return LexiconMapper(seed)


def feel_candidate(candidate: Candidate, mapper: FeelingMapper, seed: int, twin: bool) -> Felt:
    """Write the feeling, map it, attach the condition; add the neutral twin if asked."""
    task = candidate.task
    rng = random.Random(f"tracer/feel/{seed}/{task.id}")
    goals = [a.name for i in task.intents for a in i.actions]
    values = [str(v) for a in task.gold_actions for v in a.arguments.values()]
    kind = request_kind(goals, values, task.challenge is not None)
    name = task.known_facts.get("full_name", "The customer")
    text, emotion, dims = write_feeling(name, candidate.situation, kind, rng)
    # The writer chose the condition for this situation, so it travels as data: mapping the
    # text back would only re-guess it (and sometimes flip it). The mapper writes the
    # condition's instruction; it assigns conditions only to text a model wrote (`llm`).
    cid = ".".join((FAMILY_OF[emotion], emotion, *dims))
    spec = to_emotion_spec(cid, mapper.instruction(cid, text))
    return attach(candidate, text, spec, twin)


def attach(candidate: Candidate, feeling: str, spec: EmotionSpec, twin: bool) -> Felt:
    task = candidate.task
    neutral = None
    twin_id = f"{task.id}-neutral" if twin else None
    felt_task = task.model_copy(
        update={"emotion": spec, "feeling": feeling, "neutral_twin_id": twin_id}
    )
    if twin and twin_id is not None:
        neutral = task.model_copy(
            update={"id": twin_id, "emotion": None, "feeling": None, "neutral_twin_id": task.id}
        )
    return Felt(
        walk_id=candidate.walk_id,
        candidate=candidate.model_copy(update={"task": felt_task}),
        twin=neutral,
    )


def feel_settings(seed: int, mapper: FeelingMapper) -> Settings:
    """What a feel file depends on besides its candidates: the feelings are drawn from the
    seed, and the mapper writes the conditions' instructions."""
    return {"seed": seed, "mapper": mapper.name}


def run_feel(
    grounded: Path,
    out: Path,
    seed: int,
    mapper: FeelingMapper | None = None,
    show: bool = True,
) -> list[Felt]:
    """The feel stage over files: every grounded candidate gets a feeling and a condition;
    test candidates also a neutral twin. Rejections pass through. A file felt with another
    seed or mapper is refused (`InputError`)."""
    mapper = mapper or default_mapper(seed)
    results = read_jsonl(grounded, GroundResult)
    have = resume_from(out, "walk_id", feel_settings(seed, mapper))  # once inputs are read
    todo = [r for r in results if r.walk_id not in have]
    with appender(out) as add, progress(out, len(todo), show) as tick:
        for r in todo:
            if r.candidate is None:
                rejection = r.rejection or Rejection(stage="ground", reason="unknown")
                add(Felt(walk_id=r.walk_id, rejection=rejection))
            else:
                twin = r.candidate.task.split == "test"
                add(feel_candidate(r.candidate, mapper, seed, twin))
            tick()
    return read_jsonl(out, Felt)
