"""Empathy: which agent turns acknowledge the customer's feelings, and success with / without.

The detector is a documented lexicon plus one pattern; an LLM judge may add turns the
lexicon misses. What the report states is an *association*: emotional customers who got an
acknowledging agent succeeded more (or less) often. Agents that acknowledge feelings may
differ in other ways too, so this is not the effect of empathy.

Lexicon (case-insensitive, matched anywhere in an agent text turn), by cue: every phrase the
scripted customer listens for (`simulation.users.acknowledgment`: apologies such as
"so sorry", "my apologies"; acknowledgments such as "I hear you", "I get why", "no wonder";
validation such as "understandably", "what a nightmare", "you have every right"; "don't
worry"; "I appreciate your patience"; shared joy such as "congratulations", "great news",
"what a relief"), and broader ones the analysis alone counts (`_BROADER`): "I can see /
tell", "I know this/that/how", "I realize", "it makes sense that", "rest assured", "I'll take
care of", "I'm here to help", "we'll get this sorted", "thanks for your patience", "bearing
with me". Both are written once, so the analysis and the simulator agree on what counts.

Pattern ("feeling_reference"): "you" / "you're" / "your" followed within a few words by a
feeling word (frustrated, upset, worried, stressed, anxious, disappointed, angry, annoyed,
scared, nervous, overwhelmed, afraid, concerned, sad, inconvenience...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from tau_emotion.analysis.judge import (
    JudgedReport,
    ask_json,
    gather_limited,
    judge_use,
    transcript,
)
from tau_emotion.analysis.runs import EpisodeRow, episode_fields
from tau_emotion.analysis.stats import Rate, success_rate
from tau_emotion.data import Episode
from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.evaluation.metrics import group_by
from tau_emotion.models.base import ChatModel
from tau_emotion.simulation.users.acknowledgment import ACKNOWLEDGMENT

# Broader than what the scripted customer listens for (`ACKNOWLEDGMENT`, every phrase
# of which is here too): an analysis may count "I'm here to help" as reassurance, while the
# customer needs its feeling answered.
_BROADER: dict[str, tuple[str, ...]] = {
    "acknowledgment": (r"i can (see|tell|understand)", r"i know (this|that|how)", r"i reali[sz]e"),
    "validation": (
        r"(that'?s|that is|it'?s|it is) (completely |totally |really |so )?"
        r"(understandable|frustrating|stressful|upsetting|worrying)",
        r"makes? (complete |perfect |total )?sense (that|you)",
    ),
    "reassurance": (
        r"rest assured",
        r"i'?ll take care of",
        r"i('m| am) here to help",
        r"we'?ll get (this|it) (sorted|fixed|resolved)",
    ),
    "patience": (
        r"(thank you|thanks|i appreciate( you)?),? (so much )?(for )?(your )?patience",
        r"bearing with (me|us)",
    ),
}
LEXICON: dict[str, tuple[str, ...]] = {
    cue: ACKNOWLEDGMENT.get(cue, ()) + _BROADER.get(cue, ()) for cue in ACKNOWLEDGMENT | _BROADER
}
"""The cues and their phrases: the scripted customer's, then the analysis's own."""

FEELING_WORDS = (
    "frustrat",
    "upset",
    "worr",
    "stress",
    "anxi",
    "disappoint",
    "angry",
    "anger",
    "annoy",
    "scar",
    "nervous",
    "overwhelm",
    "afraid",
    "concern",
    "sad",
    "inconvenien",
    "distress",
    "panic",
)
_FEELING_REFERENCE = re.compile(
    r"\b(you|you'?re|you are|your)\b(\W+\w+){0,4}?\W+(" + "|".join(FEELING_WORDS) + r")\w*",
    re.I,
)
_CUES = {cue: re.compile("|".join(f"(?:{p})" for p in ps), re.I) for cue, ps in LEXICON.items()}

JUDGE_SYSTEM = """\
You audit customer-service conversations. An agent turn "acknowledges the customer's
feelings" when it recognises or responds to how the customer feels (apology for the trouble,
naming or validating the feeling, reassurance), not merely being polite.
Answer with one JSON object: {"turns": [message indices of agent turns that do]}."""


class EpisodeEmpathy(EpisodeRow):
    """Empathy of one episode."""

    success: bool = Field(description="Reward 1.")
    turns: list[int] = Field(description="Indices of agent turns acknowledging feelings.")
    cues: list[str] = Field(description="Lexicon cues found (and 'judge' for judged turns).")

    @property
    def empathetic(self) -> bool:
        return bool(self.turns)


class EmpathyCell(BaseModel):
    """Success with and without empathy in one group of episodes."""

    episodes: int = Field(description="Episodes in the group.")
    with_empathy: Rate = Field(description="Success among episodes with an acknowledging turn.")
    without_empathy: Rate = Field(description="Success among episodes without one.")
    difference: float | None = Field(
        description="with - without success rate; None when either side is empty."
    )


JudgedTurns = Mapping[tuple[str, str, int], Sequence[int] | None]
"""Episode key -> the agent turns the judge found acknowledging; None where the judge gave no
usable answer (the episode then rests on the lexicon alone)."""


class EmpathyReport(JudgedReport):
    """Success with / without empathy per emotion family (an association, not a cause)."""

    method: Literal["lexicon", "lexicon+judge"] = Field(
        description="How turns were detected: '+judge' only when the judge answered."
    )
    note: str = Field(description="How to read the numbers.")
    episodes: list[EpisodeEmpathy] = Field(description="One per episode.")
    by_family: dict[str, EmpathyCell] = Field(
        description=f"Per emotion family ({NEUTRAL!r}: neutral)."
    )
    emotional: EmpathyCell = Field(description="All episodes with an emotional customer.")


NOTE = (
    "Association, not cause: agents that acknowledge feelings may differ in other ways, and "
    "acknowledging may be more common in conversations that were going well or badly anyway."
)


def detect_empathy(text: str | None) -> list[str]:
    """Lexicon cues (and 'feeling_reference') an agent text matches; empty if none."""
    if not text:
        return []
    cues = [cue for cue, pattern in _CUES.items() if pattern.search(text)]
    if _FEELING_REFERENCE.search(text):
        cues.append("feeling_reference")
    return cues


def episode_empathy(episode: Episode, judged_turns: Sequence[int] = ()) -> EpisodeEmpathy:
    turns: list[int] = []
    cues: set[str] = set()
    for i, m in enumerate(episode.messages):
        if m.role != "assistant":
            continue
        found = detect_empathy(m.content)
        if found:
            turns.append(i)
            cues.update(found)
    extra = [
        i
        for i in judged_turns
        if i not in turns
        and 0 <= i < len(episode.messages)
        and episode.messages[i].role == "assistant"
        and episode.messages[i].content
    ]
    if extra:
        cues.add("judge")
    return EpisodeEmpathy(
        **episode_fields(episode),
        success=episode.success,
        turns=sorted([*turns, *extra]),
        cues=sorted(cues),
    )


def _cell(rows: Sequence[EpisodeEmpathy]) -> EmpathyCell:
    yes = [r for r in rows if r.empathetic]
    no = [r for r in rows if not r.empathetic]
    with_e = success_rate(yes)
    without = success_rate(no)
    return EmpathyCell(
        episodes=len(rows),
        with_empathy=with_e,
        without_empathy=without,
        difference=with_e.value - without.value if yes and no else None,
    )


def empathy_analysis(
    episodes: Sequence[Episode], judged: JudgedTurns | None = None
) -> EmpathyReport:
    """Per-family success with / without an acknowledging turn; `judged` adds judge turns."""
    rows = [episode_empathy(e, (judged or {}).get(e.key) or ()) for e in episodes]
    by_family = group_by(rows, lambda r: r.family)
    use = judge_use(judged.values()) if judged is not None else None
    return EmpathyReport(
        method="lexicon+judge" if use is not None and use.answered else "lexicon",
        judge=use,
        note=NOTE,
        episodes=rows,
        by_family={f: _cell(rs) for f, rs in sorted(by_family.items())},
        emotional=_cell([r for r in rows if r.family != NEUTRAL]),
    )


async def judge_empathy(
    episodes: Sequence[Episode], judge: ChatModel, concurrency: int = 8
) -> dict[tuple[str, str, int], list[int] | None]:
    """Ask the judge about emotional episodes the lexicon found no acknowledgment in; None
    for an episode it gave no usable answer about (not "no acknowledgment")."""
    todo = [e for e in episodes if e.emotion is not None and not episode_empathy(e).empathetic]

    async def one(e: Episode) -> list[int] | None:
        answer = await ask_json(judge, JUDGE_SYSTEM, transcript(e))
        turns = answer.get("turns") if answer else None
        if not isinstance(turns, list):
            return None
        return [t for t in turns if isinstance(t, int)]

    results = await gather_limited((one(e) for e in todo), concurrency)
    return {e.key: turns for e, turns in zip(todo, results, strict=True)}
