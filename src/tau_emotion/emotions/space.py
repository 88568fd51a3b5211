"""The emotion condition space: 22 emotions in 5 families x politeness x urgency x trust.

A condition is one point of the space; its id is ``family.emotion.politeness.urgency.trust``
(e.g. ``anger.frustration.cold.high.skeptical``). Ids are stable: they are built from the
fixed, ordered tuples below, so the 594 conditions always come out in the same order. The
dimensions' values are spelled once, as the types `data.EmotionSpec` declares its fields with.

The three dimensions are deliberately orthogonal to the emotion: a hurried customer need not
be angry, a distrustful one need not be rude, and a happy one may be curt.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Final, get_args

from tau_emotion.data import EmotionSpec, Politeness, Trust, Urgency


class Family(StrEnum):
    """The five emotion families, in canonical order."""

    ANGER = "anger"
    FEAR = "fear"
    DISGUST = "disgust"
    SADNESS = "sadness"
    ENJOYMENT = "enjoyment"


class Emotion(StrEnum):
    """The 22 emotions, in canonical order (family by family).

    The one place their names are spelled: every table keyed by emotion (the scripted user's
    phrases, the anchor generator's glosses, the Tracer's cue phrases) uses these members as
    keys, and a test checks each table covers all of them.
    """

    ANNOYANCE = "annoyance"
    FRUSTRATION = "frustration"
    EXASPERATION = "exasperation"
    ARGUMENTATIVENESS = "argumentativeness"
    BITTERNESS = "bitterness"
    NERVOUSNESS = "nervousness"
    ANXIETY = "anxiety"
    DREAD = "dread"
    DESPERATION = "desperation"
    DISLIKE = "dislike"
    AVERSION = "aversion"
    DISTASTE = "distaste"
    REPUGNANCE = "repugnance"
    DISAPPOINTMENT = "disappointment"
    DISCOURAGEMENT = "discouragement"
    HELPLESSNESS = "helplessness"
    HOPELESSNESS = "hopelessness"
    SORROW = "sorrow"
    RELIEF = "relief"
    PEACE = "peace"
    PRIDE = "pride"
    EXCITEMENT = "excitement"


_E = Emotion
_GROUPS: Final[dict[Family, tuple[Emotion, ...]]] = {
    Family.ANGER: (
        _E.ANNOYANCE,
        _E.FRUSTRATION,
        _E.EXASPERATION,
        _E.ARGUMENTATIVENESS,
        _E.BITTERNESS,
    ),
    Family.FEAR: (_E.NERVOUSNESS, _E.ANXIETY, _E.DREAD, _E.DESPERATION),
    Family.DISGUST: (_E.DISLIKE, _E.AVERSION, _E.DISTASTE, _E.REPUGNANCE),
    Family.SADNESS: (
        _E.DISAPPOINTMENT,
        _E.DISCOURAGEMENT,
        _E.HELPLESSNESS,
        _E.HOPELESSNESS,
        _E.SORROW,
    ),
    Family.ENJOYMENT: (_E.RELIEF, _E.PEACE, _E.PRIDE, _E.EXCITEMENT),
}

# The public tables hold plain strings, as they did before the enums: labels go into numpy
# arrays, JSON files and error messages, where a member's repr must never leak.
FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    f.value: tuple(e.value for e in group) for f, group in _GROUPS.items()
}
"""Family -> its emotions, in canonical order."""

EMOTIONS: Final[tuple[str, ...]] = tuple(e for group in FAMILIES.values() for e in group)
FAMILY_OF: Final[dict[str, str]] = {e: f for f, group in FAMILIES.items() for e in group}

POLITENESS: Final[tuple[Politeness, ...]] = get_args(Politeness)
URGENCY: Final[tuple[Urgency, ...]] = get_args(Urgency)
TRUST: Final[tuple[Trust, ...]] = get_args(Trust)

HEADS: Final[tuple[str, ...]] = ("family", "emotion", "politeness", "urgency", "trust")
"""The five things a condition fixes; the classifier has one output head per entry, and the
metrics and reports break results down by each."""

NEUTRAL: Final = "none"
"""The label a neutral (no-emotion) customer takes on every head, wherever results are grouped
by condition (metrics breakdowns, task sampling strata, analyses, reports, data frames)."""

HEAD_LABELS: Final[dict[str, tuple[str, ...]]] = {
    "family": tuple(FAMILIES),
    "emotion": EMOTIONS,
    "politeness": POLITENESS,
    "urgency": URGENCY,
    "trust": TRUST,
}


@dataclass(frozen=True, order=True)
class Condition:
    """One emotion condition; pure data."""

    family: str
    emotion: str
    politeness: Politeness
    urgency: Urgency
    trust: Trust

    @property
    def id(self) -> str:
        return f"{self.family}.{self.emotion}.{self.politeness}.{self.urgency}.{self.trust}"

    def label(self, head: str) -> str:
        """The value this condition takes on one classifier head."""
        value: str = getattr(self, head)
        return value

    def to_spec(self, instruction: str) -> EmotionSpec:
        """The `EmotionSpec` a simulated customer carries for this condition."""
        return EmotionSpec(
            condition_id=self.id,
            family=self.family,
            emotion=self.emotion,
            politeness=self.politeness,
            urgency=self.urgency,
            trust=self.trust,
            instruction=instruction,
        )


@cache
def all_conditions() -> tuple[Condition, ...]:
    """All 594 conditions in canonical order (family, emotion, politeness, urgency, trust)."""
    return tuple(
        Condition(FAMILY_OF[e], e, p, u, t)
        for e in EMOTIONS
        for p in POLITENESS
        for u in URGENCY
        for t in TRUST
    )


@cache
def _by_id() -> dict[str, Condition]:
    return {c.id: c for c in all_conditions()}


def condition_by_id(condition_id: str) -> Condition:
    """Look a condition up by its id; raises KeyError naming the bad part."""
    try:
        return _by_id()[condition_id]
    except KeyError:
        raise KeyError(_explain_bad_id(condition_id)) from None


def condition_index(condition: Condition) -> int:
    """Position of the condition in `all_conditions()`; stable across versions."""
    e = EMOTIONS.index(condition.emotion)
    p = POLITENESS.index(condition.politeness)
    u = URGENCY.index(condition.urgency)
    t = TRUST.index(condition.trust)
    return (((e * 3) + p) * 3 + u) * 3 + t


def to_emotion_spec(condition: Condition | str, instruction: str) -> EmotionSpec:
    """Build the `EmotionSpec` for a condition (or condition id) and an instruction."""
    if isinstance(condition, str):
        condition = condition_by_id(condition)
    return condition.to_spec(instruction)


def _explain_bad_id(condition_id: str) -> str:
    parts = condition_id.split(".")
    if len(parts) != 5:
        return (
            f"condition id {condition_id!r} must have 5 dot-separated parts "
            "(family.emotion.politeness.urgency.trust)"
        )
    family, emotion, politeness, urgency, trust = parts
    if family not in FAMILIES:
        return f"unknown family {family!r} in {condition_id!r}; one of {', '.join(FAMILIES)}"
    if emotion not in FAMILIES[family]:
        return f"{emotion!r} is not an emotion of family {family!r} in {condition_id!r}"
    for value, allowed, name in (
        (politeness, POLITENESS, "politeness"),
        (urgency, URGENCY, "urgency"),
        (trust, TRUST, "trust"),
    ):
        if value not in allowed:
            return f"unknown {name} {value!r} in {condition_id!r}; one of {', '.join(allowed)}"
    return f"unknown condition id {condition_id!r}"
