"""Hand-written emotion texts: the plain-text format people write them in, and its checks.

The shipped anchors and the independent evaluation set are written by people (or careful
authors), one text at a time, in files a person can read and review. The format is
deliberately plain so a writer never needs a script::

    # comment lines start with '#'; the header names who wrote the file and how
    [anger.annoyance.warm.low.trusting]
    You are mildly put out, but you keep it kind ...
    ~ You are not in any hurry at all ...     <- '~ ' marks a negation/contrast case

Each text is one line under its condition header. `check_written` applies every rule the
issue sets for anchors: the usual anchor checks (`anchors.anchor_problem`), one to five
sentences, behaviour only (no goals, products, relatives, amounts, dates), and no sentence
used twice anywhere in the set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tau_emotion.emotions.anchors import ASSETS, AnchorSet, anchor_problem, dedupe_key
from tau_emotion.emotions.space import all_conditions

WRITTEN_DIR: Final[Path] = ASSETS / "written"
"""The hand-written anchors, one file per emotion; `emotions anchors` builds the shipped set."""
WRITTEN_SOURCE: Final[str] = "written"
MAX_SENTENCES: Final[int] = 5
NEGATION_MARK: Final[str] = "~ "

# A sentence ends at . ! or ? (optionally followed by a closing quote) before whitespace.
_SENTENCE_END_RE: Final[re.Pattern[str]] = re.compile(r"(?:(?<=[.!?][\"'”’)])|(?<=[.!?]))\s+")

# Facts an emotion text must not carry: it describes how the customer behaves, never what
# they want or what happened to them, so the simulator's goal comes only from the task.
_FACT_WORDS: Final[tuple[str, ...]] = (
    # relatives and other people in a backstory
    r"mother|father|mom|mum|dad|husband|wife|son|daughter|child|children|kids?|baby|"
    r"grandmother|grandfather|grandma|grandpa|sister|brother|aunt|uncle|niece|nephew|"
    r"fianc[eé]e?|boyfriend|girlfriend|spouse|boss|landlord|neighbou?r",
    # things a customer service case is about
    r"orders?|flights?|bookings?|reservations?|tickets?|seats?|refunds?|charges?|charged|"
    r"bills?|billing|invoices?|payments?|cards?|accounts?|loans?|deposits?|balances?|"
    r"packages?|parcels?|deliver(?:y|ies|ed)|shipping|shipments?|returns?|exchanges?|"
    r"products?|items?|purchases?|subscriptions?|plans?|contracts?|phones?|laptops?|"
    r"appointments?|doctors?|prescriptions?|clinics?|hospitals?|hotels?|rooms?|trips?|"
    r"luggage|baggage|bags?|restaurants?|tables?|meals?|dishes|food|movies?|films?|"
    r"cinemas?|games?|courses?|classes|tuition|school|teachers?|banks?|insurance|"
    r"warranty|jacket|shoes?|honeymoon|wedding|funeral|birthday|vacation|holiday",
    # times and amounts
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|yesterday|"
    r"january|february|march|april|june|july|august|september|october|november|december|"
    r"dollars?|euros?|pounds?|cents?|hours?|minutes?|weeks?|months?|years?",
)
_FACT_RE: Final[re.Pattern[str]] = re.compile(
    r"\b(" + "|".join(_FACT_WORDS) + r")\b", re.IGNORECASE
)
_AMOUNT_RE: Final[re.Pattern[str]] = re.compile(r"[0-9$€£%]")


@dataclass(frozen=True)
class WrittenText:
    """One hand-written text, where it came from, and whether it is a negation case."""

    condition_id: str
    text: str
    path: Path
    line: int
    negation: bool = False

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


class WrittenFormatError(ValueError):
    """A written file that does not follow the format; names the file and line."""


def parse_written(path: Path) -> list[WrittenText]:
    """Read one written file; raises `WrittenFormatError` naming the file and line."""
    known = {c.id for c in all_conditions()}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise WrittenFormatError(f"{path}: not UTF-8 ({exc.reason})") from None
    condition: str | None = None
    out: list[WrittenText] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        # Any bracketed line is a header: one that is misspelt must fail here, not become an
        # anchor text of the condition above it (with the texts under it).
        if line.startswith("[") and line.endswith("]"):
            cid = line[1:-1].strip()
            if cid not in known:
                raise WrittenFormatError(
                    f"{path}:{number}: malformed header {line!r}: unknown condition id {cid!r}"
                )
            condition = cid
            continue
        if condition is None:
            raise WrittenFormatError(f"{path}:{number}: text before any [condition] header")
        negation = line.startswith(NEGATION_MARK)
        text = line[len(NEGATION_MARK) :].strip() if negation else line
        out.append(WrittenText(condition, text, path, number, negation))
    return out


def read_written(paths: Iterable[Path]) -> list[WrittenText]:
    """All texts of several files (a folder is read as its sorted `*.txt` files)."""
    texts: list[WrittenText] = []
    for path in paths:
        files = sorted(path.glob("*.txt")) if path.is_dir() else [path]
        for file in files:
            texts.extend(parse_written(file))
    return texts


def sentences(text: str) -> list[str]:
    """The text's sentences (a split on sentence-final punctuation followed by a space)."""
    return [s for s in _SENTENCE_END_RE.split(text.strip()) if s.strip()]


def fact_words(text: str) -> list[str]:
    """Words and characters that carry facts (goals, products, relatives, amounts, dates)."""
    found = [m.group(0).lower() for m in _FACT_RE.finditer(text)]
    found += _AMOUNT_RE.findall(text)
    return found


def text_problem(text: str, *, second_person: bool = True) -> str | None:
    """Why one written text breaks the rules, or None.

    `second_person=False` is for first-person customer messages in the evaluation set:
    they are checked for shape only, since a real message may name facts and labels.
    """
    if second_person:
        problem = anchor_problem(text)
        if problem is not None:
            return problem
        count = len(sentences(text))
        if count > MAX_SENTENCES:
            return f"{count} sentences (at most {MAX_SENTENCES})"
        facts = fact_words(text)
        if facts:
            return f"carries facts, not behaviour: {', '.join(sorted(set(facts)))}"
        return None
    if len(text.split()) < 3:
        return "fewer than 3 words"
    return None


def check_written(
    texts: Sequence[WrittenText],
    *,
    second_person: bool = True,
    minimum_per_condition: int = 0,
    conditions: Iterable[str] | None = None,
) -> list[str]:
    """Every problem in a set of written texts, each naming the file and line.

    Sentences are compared across the whole set (two texts may not share one, within a
    condition or across conditions); `minimum_per_condition` is checked for `conditions`
    (default: every condition that appears).
    """
    problems: list[str] = []
    first_use: dict[str, WrittenText] = {}
    per_condition: dict[str, int] = {}
    for item in texts:
        per_condition[item.condition_id] = per_condition.get(item.condition_id, 0) + 1
        problem = text_problem(item.text, second_person=second_person)
        if problem is not None:
            problems.append(f"{item.where}: {problem}: {item.text[:70]!r}")
        for sentence in sentences(item.text):
            key = dedupe_key(sentence)
            if len(key.split()) < 3:
                continue  # "You sigh." or "Fine." may recur; a real sentence may not
            earlier = first_use.setdefault(key, item)
            if earlier is not item:
                problems.append(
                    f"{item.where}: sentence already used at {earlier.where}: {sentence!r}"
                )
    wanted = list(conditions) if conditions is not None else list(per_condition)
    if minimum_per_condition:
        for cid in wanted:
            if per_condition.get(cid, 0) < minimum_per_condition:
                problems.append(
                    f"{cid}: {per_condition.get(cid, 0)} texts (< {minimum_per_condition})"
                )
    return problems


def written_anchor_set(folder: Path = WRITTEN_DIR) -> AnchorSet:
    """The anchor set of a folder of written files, in canonical condition order.

    Negation marks are dropped (they label evaluation texts; for anchors they mean nothing),
    and each condition keeps its texts in file order, so the set is a pure function of the
    files and the shipped `anchors.json.gz` is rebuilt byte for byte.
    """
    by_condition: dict[str, list[str]] = {}
    for item in read_written([folder]):
        by_condition.setdefault(item.condition_id, []).append(item.text)
    anchors = {c.id: by_condition[c.id] for c in all_conditions() if c.id in by_condition}
    return AnchorSet(source=WRITTEN_SOURCE, anchors=anchors)


def augmented_anchor_set(anchor_set: AnchorSet, per_condition: int, seed: int = 0) -> AnchorSet:
    """The written anchors plus `per_condition` phrase-bank anchors for each of their conditions.

    Optional augmentation (off by default; its effect is in docs/emotions.md). Written texts
    come first in each condition, so they keep their places; generated ones that repeat a
    written text are dropped.
    """
    from tau_emotion.emotions.generator import generate_anchor_set

    generated = generate_anchor_set(per_condition, seed=seed)
    anchors: dict[str, list[str]] = {}
    for condition in all_conditions():
        if condition.id not in anchor_set.anchors:
            continue  # augment what the set covers, never add conditions it lacks
        own = anchor_set.anchors[condition.id]
        seen = {dedupe_key(t) for t in own}
        extra = [t for t in generated.anchors.get(condition.id, []) if dedupe_key(t) not in seen]
        anchors[condition.id] = own + extra
    source = f"{anchor_set.source}+template:{seed}x{per_condition}"
    return AnchorSet(source=source, anchors=anchors)
