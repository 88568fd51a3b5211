"""Anchor descriptions: the on-disk format, the quality checks, loading and de-duplication.

An anchor is a second-person instruction to a simulated customer ("You feel ... You want ...")
that conveys one condition. The classifier learns from anchors and the mapper hands one back
as the customer's instruction, so every anchor, whoever wrote it, passes `anchor_problem`.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.emotions.defaults import MINIMUM_ANCHORS
from tau_emotion.emotions.space import all_conditions

ASSETS: Final[Path] = Path(__file__).resolve().parent / "assets"
DEFAULT_ANCHORS: Final[Path] = ASSETS / "anchors.json.gz"

MIN_CHARS: Final[int] = 80
MAX_CHARS: Final[int] = 700
MIN_WORDS: Final[int] = 14
MAX_WORDS: Final[int] = 130

# Word stems that would name a label outright. The point of an anchor is to *convey* a
# condition through feelings and behaviour, so a text that says "you are frustrated" or "your
# urgency is high" teaches the classifier a shortcut that free-text feelings never take.
# Dimension values that are ordinary words (warm, cold, low, high) are banned as well, since
# "a cold tone" or "high urgency" is exactly the mechanical naming we want to avoid.
_LABEL_PATTERNS: Final[tuple[str, ...]] = (
    r"annoy\w*",
    r"frustrat\w*",
    r"exasperat\w*",
    r"argumentativ\w*",
    r"bitter\w*",
    r"nervous\w*",
    r"anxi\w*",
    r"dread\w*",
    r"desperat\w*",
    r"dislik\w*",
    r"avers\w*",
    r"distaste\w*",
    r"repugn\w*",
    r"disappoint\w*",
    r"discourag\w*",
    r"helpless\w*",
    r"hopeless\w*",
    r"sorrow\w*",
    r"relie[fv]\w*",
    r"peace\w*",
    r"pride",
    r"proud\w*",
    r"excit\w*",
    r"anger\w*",
    r"angr\w*",
    r"fear\w*",
    r"disgust\w*",
    r"sad",
    r"sadness",
    r"sadly",
    r"enjoy\w*",
    r"polite\w*",
    r"impolite\w*",
    r"urgen\w*",
    r"trust\w*",
    r"distrust\w*",
    r"mistrust\w*",
    r"s[ck]eptic\w*",
    r"cautio\w*",
    r"warm\w*",
    r"cold\w*",
    r"neutral\w*",
    r"moderat\w*",
    r"low",
    r"high",
)
_LABEL_RE: Final[re.Pattern[str]] = re.compile(
    r"\b(" + "|".join(_LABEL_PATTERNS) + r")\b", re.IGNORECASE
)
_SECOND_RE: Final[re.Pattern[str]] = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)
_FIRST_RE: Final[re.Pattern[str]] = re.compile(
    r"\b(i|me|my|mine|myself|we|us|our|ours|i'm|i've|i'd|i'll)\b", re.IGNORECASE
)
# Quoted speech ("you mutter 'I give up'") may use the first person; only the instruction
# around it must be second person. An opening quote follows a non-word character, so the
# apostrophes of "don't" and "wits' end" are not taken for quotes.
_QUOTED_RE: Final[re.Pattern[str]] = re.compile(
    r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<!\w)'(?:[^'\n]|'(?=\w))+?'(?!\w)"
)
_WS_RE: Final[re.Pattern[str]] = re.compile(r"\s+")
_NORM_RE: Final[re.Pattern[str]] = re.compile(r"[^a-z0-9 ]+")


class AnchorSet(BaseModel):
    """A file of anchors: every condition id mapped to its descriptions, in order."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(default=1, description="Format version.")
    source: str = Field(
        description=(
            "Who wrote them: 'written' (the hand-written files in assets/written), "
            "'written+template:<seed>x<n>' (those plus n generated per condition), "
            "'template:<seed>' (the phrase-bank generator alone) or 'llm:<model>'."
        )
    )
    anchors: dict[str, list[str]] = Field(
        description="Condition id -> its anchor texts (second person, label-free)."
    )

    def texts_and_conditions(self) -> tuple[list[str], list[str]]:
        """All anchors flattened in canonical condition order, with their condition ids."""
        texts: list[str] = []
        ids: list[str] = []
        for condition in all_conditions():
            for text in self.anchors.get(condition.id, []):
                texts.append(text)
                ids.append(condition.id)
        return texts, ids

    def digest(self) -> str:
        """Short content hash; stored in classifier artifacts to tie them to their anchors."""
        texts, ids = self.texts_and_conditions()
        h = hashlib.sha256()
        for cid, text in zip(ids, texts, strict=True):
            h.update(cid.encode())
            h.update(b"\0")
            h.update(text.encode())
            h.update(b"\n")
        return h.hexdigest()[:16]


def normalize_whitespace(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def label_words(text: str) -> list[str]:
    """Label words the text names outright (lower-cased, in order of appearance)."""
    return [m.group(0).lower() for m in _LABEL_RE.finditer(text)]


def anchor_problem(text: str) -> str | None:
    """Why `text` is not a usable anchor, or None when it is."""
    if text != normalize_whitespace(text):
        return "has leading/trailing or repeated whitespace or line breaks"
    if not MIN_CHARS <= len(text) <= MAX_CHARS:
        return f"length {len(text)} chars is outside [{MIN_CHARS}, {MAX_CHARS}]"
    words = len(text.split())
    if not MIN_WORDS <= words <= MAX_WORDS:
        return f"{words} words is outside [{MIN_WORDS}, {MAX_WORDS}]"
    named = label_words(text)
    if named:
        return f"names label word(s) {', '.join(sorted(set(named)))}"
    unquoted = _QUOTED_RE.sub(" ", text)
    if len(_SECOND_RE.findall(unquoted)) < 2:
        return "is not written in the second person (needs 'you'/'your')"
    first = _FIRST_RE.findall(unquoted)
    if first:
        return f"uses the first person outside quotes ({', '.join(sorted(set(first)))})"
    if not text[0].isupper():
        return "does not start with a capital letter"
    if text[-1] not in ".!?'\"”’":
        return "does not end like a sentence"
    return None


def dedupe_key(text: str) -> str:
    """Texts equal up to case, punctuation and spacing count as duplicates."""
    return normalize_whitespace(_NORM_RE.sub(" ", text.lower()))


def keep_valid_unique(
    candidates: Iterable[str], seen: set[str], limit: int | None = None
) -> tuple[list[str], list[tuple[str, str]]]:
    """Split candidates into new valid texts and (text, reason) rejections.

    `seen` holds dedupe keys already taken (updated in place), so a caller can de-duplicate
    across rounds and across conditions.
    """
    kept: list[str] = []
    rejected: list[tuple[str, str]] = []
    for raw in candidates:
        text = normalize_whitespace(raw)
        problem = anchor_problem(text)
        key = dedupe_key(text)
        if problem is None and key in seen:
            problem = "duplicate"
        if problem is not None:
            rejected.append((raw, problem))
            continue
        if limit is not None and len(kept) >= limit:
            continue
        seen.add(key)
        kept.append(text)
    return kept, rejected


def write_anchor_set(anchor_set: AnchorSet, path: Path) -> None:
    """Write gzipped JSON with a fixed mtime, so the same anchors give the same bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = anchor_set.model_dump_json(indent=1).encode()
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(payload)


def read_anchor_set(path: Path) -> AnchorSet:
    """Read a `.json.gz` (or plain `.json`) anchor file, validated."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return AnchorSet.model_validate_json(data)


@cache
def default_anchor_set() -> AnchorSet:
    """The anchors shipped with the package (parsed once per process)."""
    return read_anchor_set(DEFAULT_ANCHORS)


def usable_set_problem(anchor_set: AnchorSet) -> str | None:
    """Why a mapper cannot be trained on or sample from `anchor_set`, or None.

    The five heads are decided separately, so a mapper can choose any of the 594 conditions
    and must then hand out one of its anchors: a set has to cover every condition. An unknown
    id is refused rather than dropped, since it is a typo or a set for another space.
    """
    conditions = all_conditions()
    known = {c.id for c in conditions}
    unknown = [cid for cid in anchor_set.anchors if cid not in known]
    if unknown:
        return f"{len(unknown)} unknown condition id(s) (e.g. {unknown[0]!r})"
    empty = [c.id for c in conditions if not anchor_set.anchors.get(c.id)]
    if empty:
        return (
            f"{len(empty)} of the {len(conditions)} conditions have no anchors "
            f"(e.g. {empty[0]}); a mapper needs anchors for every condition"
        )
    return None


def coverage_problems(anchor_set: AnchorSet, minimum: int = MINIMUM_ANCHORS) -> list[str]:
    """Conditions with fewer than `minimum` distinct anchors, and unknown condition ids."""
    known = {c.id for c in all_conditions()}
    problems = [f"unknown condition id {cid!r}" for cid in anchor_set.anchors if cid not in known]
    for condition in all_conditions():
        texts = anchor_set.anchors.get(condition.id, [])
        distinct = len({dedupe_key(t) for t in texts})
        if distinct < minimum:
            problems.append(f"{condition.id}: {distinct} distinct anchors (< {minimum})")
    return problems
