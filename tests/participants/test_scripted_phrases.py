"""The scripted customer's colouring lines: enough of them, each conveying one part only.

A colouring line is added to any turn of any condition, so it meets every politeness, urgency
and trust value and every kind of reply (a yes, a refusal, a press in a policy challenge). Each
line therefore has to say its own part of the condition and nothing that contradicts another,
and must not contain the words the oracle and the checks read as consent, refusal or giving up.
`offences` states those rules once; the tests apply it to every line, and to known-bad lines
so that a rule that stopped catching anything would fail too.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tau_emotion.domains.consent import _AFFIRMATIVE, _NEGATIVE
from tau_emotion.domains.telehealth.checks import EMERGENCY
from tau_emotion.emotions.space import FAMILY_OF, TRUST, URGENCY, Emotion
from tau_emotion.simulation.users import phrases as P
from tau_emotion.simulation.users.challenge import _SETTLING
from tau_emotion.simulation.users.reading import FEELING_WORDS
from tau_emotion.simulation.users.scripted import _DONE

MIN_LINES = 6

# Whole words the shared regexes leave out: a bare "cancel" reads as a refusal to a person
# and to an LLM agent, though `_NEGATIVE` only matches "cancel that".
_ALSO_FORBIDDEN = re.compile(r"\bcancel\w*\b", re.I)
# Each part the readers act on, with the name a failure reports.
_READERS = (
    ("settle (challenge.is_settling)", _SETTLING),
    ("affirmative (consent.is_affirmative)", _AFFIRMATIVE),
    ("negative (consent.is_affirmative)", _NEGATIVE),
    ("closing (scripted._DONE)", _DONE),
    ("emergency (telehealth)", EMERGENCY),
    ("cancel", _ALSO_FORBIDDEN),
)

# Words that carry another part of the condition. Hand-kept, so broad on purpose: a false
# alarm costs a rewording, a miss costs a contradictory customer.
_TIME = re.compile(
    r"\b(now|soon\w*|quick\w*|hurr\w*|rush\w*|wait\w*|time\w*|minutes?|moments?|hours?|"
    r"today|tonight|tomorrow|asap|immediate\w*|right away|deadline\w*|fast|slow\w*|"
    r"delay\w*|urgen\w*|later|lately|finally|pressed|pressing|clock|patien\w*|pace|whenever)\b",
    re.I,
)
_TRUST = re.compile(
    r"\b(trust\w*|believ\w*|doubt\w*|promis\w*|lie|lied|lying|misle\w*|proof|prove\w*|"
    r"check\w*|verif\w*|certain\w*|sure|word|faith|convinc\w*|skeptic\w*|suspic\w*|wary|"
    r"burn\w*|let (me )?down|face value|say-so)\b",
    re.I,
)
# Politeness is its own dimension: a line that thanks or insults would contradict cold or warm.
_POLITENESS = re.compile(
    r"\b(please|thanks?|thank you|sorry|apologi\w*|appreciat\w*|kindly|pardon|forgive\w*|"
    r"excuse me|dear|idiot\w*|stupid|useless|incompetent|ridiculous)\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(i|me|my|myself)\b", re.I)


def _stems(family: str) -> tuple[str, ...]:
    return FEELING_WORDS[family]


def _family_words(line: str, families: list[str]) -> list[str]:
    """Family stems in the line, matched as `reading.responds_to_feelings` matches them."""
    lower = line.lower()
    return [stem for f in families for stem in _stems(f) if stem in lower]


def offences(line: str, part: str, family: str | None = None) -> list[str]:
    """What is wrong with a colouring line for `part` ('feeling', 'urgency' or 'trust').

    `family` is the family of the emotion a feeling line conveys.
    """
    found = [name for name, regex in _READERS if regex.search(line)]
    words = len(line.split())
    if not 3 <= words <= 14:
        found.append(f"{words} words")
    if "?" in line:
        found.append("asks a question")
    if re.search(r"\d", line):
        found.append("states a number")
    if not _FIRST_PERSON.search(line):
        found.append("not first person")
    if not (line[:1].isupper() and line.endswith((".", "!"))):
        found.append("not a spoken sentence")
    if _POLITENESS.search(line):
        found.append("politeness marker")
    if part != "urgency" and _TIME.search(line):
        found.append("speaks of time")
    if part != "trust" and _TRUST.search(line):
        found.append("speaks of trust")
    others = [f for f in FEELING_WORDS if f != family]
    stray = _family_words(line, others)
    if stray:
        found.append(f"words of another family: {stray}")
    return found


def _colouring() -> list[tuple[str, str, str, str | None]]:
    """(table, key, line, family) for every colouring line."""
    rows: list[tuple[str, str, str, str | None]] = []
    for emotion, lines in P.FEELING.items():
        rows += [("FEELING", emotion, line, FAMILY_OF[emotion]) for line in lines]
    for value, lines in P.URGENCY_LINES.items():
        rows += [("URGENCY_LINES", value, line, None) for line in lines]
    for value, lines in P.TRUST_LINES.items():
        rows += [("TRUST_LINES", value, line, None) for line in lines]
    return rows


_PART = {"FEELING": "feeling", "URGENCY_LINES": "urgency", "TRUST_LINES": "trust"}


def test_every_emotion_has_enough_feeling_lines() -> None:
    assert sorted(P.FEELING) == sorted(Emotion)
    short = {e: len(lines) for e, lines in P.FEELING.items() if len(lines) < MIN_LINES}
    assert not short, f"emotions with fewer than {MIN_LINES} lines: {short}"


@pytest.mark.parametrize(
    ("table", "values"),
    [(P.URGENCY_LINES, URGENCY), (P.TRUST_LINES, TRUST)],
    ids=["urgency", "trust"],
)
def test_every_dimension_value_has_enough_lines(
    table: dict[str, tuple[str, ...]], values: tuple[str, ...]
) -> None:
    assert sorted(table) == sorted(values)
    short = {v: len(lines) for v, lines in table.items() if len(lines) < MIN_LINES}
    assert not short, f"values with fewer than {MIN_LINES} lines: {short}"


def _module_lines() -> list[tuple[str, str]]:
    """(table, line) for every non-empty string in every table of the module.

    `PLEASE` is left out: it holds a word spliced into requests, not a line, and warm and
    neutral share it by design.
    """
    rows: list[tuple[str, str]] = []
    for name, table in vars(P).items():
        if not name.isupper() or not isinstance(table, dict) or name == "PLEASE":
            continue
        for value in table.values():
            items = value if isinstance(value, tuple) else (value,)
            rows += [(name, item) for item in items if isinstance(item, str) and item]
    return rows


def _normal(line: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", line.lower()).split())


def test_no_line_repeats_anywhere_in_the_module() -> None:
    rows = _module_lines()
    assert {name for name, _ in rows} >= {"FEELING", "URGENCY_LINES", "TRUST_LINES", "YES"}
    counts = Counter(_normal(line) for _, line in rows)
    repeated = sorted(line for line, n in counts.items() if n > 1)
    assert not repeated, f"lines that appear more than once: {repeated}"


@pytest.mark.parametrize("table", sorted(_PART))
def test_colouring_lines_convey_their_part_only(table: str) -> None:
    bad = {
        line: offences(line, _PART[table], family)
        for name, _, line, family in _colouring()
        if name == table and offences(line, _PART[table], family)
    }
    assert not bad, f"{table} lines that break the rules: {bad}"


def test_lines_of_one_key_open_differently() -> None:
    # Six lines that all begin "I'm really ..." read as one line; the openings must vary.
    openings: Counter[tuple[str, str, str]] = Counter(
        (table, key, " ".join(_normal(line).split()[:2])) for table, key, line, _ in _colouring()
    )
    same = sorted(k for k, n in openings.items() if n > 1)
    assert not same, f"lines of one key opening with the same two words: {same}"


@pytest.mark.parametrize(
    ("line", "part", "family", "why"),
    [
        ("No rush, I'm calm about it.", "feeling", "enjoyment", "negative"),
        ("No rush, I'm calm about it.", "feeling", "enjoyment", "speaks of time"),
        ("I'm feeling fine about this.", "feeling", "enjoyment", "settle"),
        ("Okay, I'm so excited!", "feeling", "enjoyment", "affirmative"),
        ("I can't wait to get this sorted!", "feeling", "enjoyment", "negative"),
        ("I doubt you'll get it right, I'm annoyed.", "feeling", "anger", "speaks of trust"),
        ("I'm not happy with this at all.", "feeling", "disgust", "another family"),
        ("I'm in a hurry, I'm so worried.", "urgency", None, "another family"),
        ("I need it now; you've lied before.", "urgency", None, "speaks of trust"),
        ("I trust you, take your time.", "trust", None, "speaks of time"),
        ("Please, I believe you.", "trust", None, "politeness"),
        ("Is there anything else I should know?", "trust", None, "closing"),
        ("What is my balance? I trust you.", "trust", None, "asks a question"),
        ("I paid 40 dollars and I trust you.", "trust", None, "number"),
        ("Believe it.", "trust", None, "words"),
        ("Just cancel, I trust you to.", "trust", None, "cancel"),
        ("I can't breathe, I'm so scared.", "feeling", "fear", "emergency"),
        ("Hurry up, this matters.", "urgency", None, "first person"),
    ],
)
def test_offences_catches_what_it_should(
    line: str, part: str, family: str | None, why: str
) -> None:
    found = offences(line, part, family)
    assert any(why in reason for reason in found), (line, found)
