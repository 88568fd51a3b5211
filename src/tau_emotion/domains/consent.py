"""Reading consent in a conversation: whether a customer's reply is a yes, whether an agent
turn asks for one, and whether agent text names the change a yes is given to.

Transparent rules over words, not a model (docs/policy.md says what they read): the policy
checks (`trajectory.Trajectory`) decide with them which writes were confirmed, and the oracle agent
reads the scripted customer's answers with `is_affirmative`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from tau_emotion.data import ToolCall

# The consent test is a transparent rule over keywords, read clause by clause (docs/policy.md):
# a reply is a yes when some statement in it holds a yes word that nothing negates, and no
# clause of it refuses.
_AFFIRMATIVE = re.compile(
    r"\b(yes|yeah|yep|yup|sure|confirm(?:ed)?|go ahead|proceed|please do|do it|do that|"
    r"ok(?:ay)?|correct|that'?s right|sounds good|fine|absolutely|definitely|approved?|"
    r"alright|all right|go for it|of course|agreed|"
    # "I agree", but not "... before I agree": a condition is not consent.
    r"(?<!before )(?<!until )(?<!unless )(?<!if )(?<!once )(?:i|we) agree)\b",
    re.I,
)
"""The yes words. Also the scripted user's phrase lint: its colouring lines avoid them all."""
_NEGATIVE = re.compile(
    r"\b(no|nope|nah|don'?t|do not|wait|stop|hold on|hang on|not yet|never ?mind)\b", re.I
)
"""Every word that can make a reply a refusal, in any context (the refusal rules below read
each one only where it refuses). The scripted user's phrase lint keeps its lines free of all
of them, so that no colouring line can turn a yes into a no."""

# Phrases with a negative word that do not refuse anything ("no problem", "don't forget to
# email me"): blanked out before the reply is read, so they neither veto nor negate a yes.
_BENIGN = re.compile(
    r"\b(?:no|not a|not any) (?:problems?|worries|worry|rush|hurry|pressure|stress|big deal|"
    r"doubt|more)\b|\b(?:do not|don'?t|dont) (?:worry|forget|mind|care|hesitate|rush|hurry|"
    r"stress|panic)\b",
    re.I,
)
# Fillers a refusal may open with ("oh no", "hey, wait", "please stop").
_FILLER = r"(?:(?:oh|ah|uh|um|hmm+|well|so|actually|hey|god|hell|please|just|and|then)\s+)*"
_REFUSAL = re.compile(
    rf"^{_FILLER}(?:no|nope|nah)\b"  # "No, ...", "oh no", "nope" (a benign "no rush" is gone)
    r"|\b(?:no|nope|nah)$"  # "I said no", "hell no"
    r"|\bno (?:way|thanks|thank you)\b"
    r"|\bnot (?:yet|now|so fast|today)\b"
    rf"|^{_FILLER}(?:wait|hold on|hang on|hold off|hold it)\b"
    # "Stop asking and do it" is an impatient yes; "stop" alone, or "stop that", is not.
    rf"|^{_FILLER}stop\b(?! (?:asking|wasting|stalling|dragging|repeating|talking|checking))"
    r"|\b(?:never ?mind|forget (?:it|that|about it)|scratch that)\b"
    # "Don't" refuses when it bears on the action or the consent ("don't do that", "I don't
    # think so", "please don't"); a yes with an aside ("yes, and don't mess it up") stands.
    r"|\b(?:do not|don'?t|dont)(?:\s+(?:you\s+)?(?:do|go|proceed|want|need|think|agree|"
    r"approve|accept|authori[sz]e|consent|touch|change|cancel|file|book|charge|submit|process|"
    r"send|make|move|continue|bother|dare|like|it|that|this|anything|yet)\b|\s*$)",
)
# Words that negate a yes word up to three words before it ("not sure", "don't think that's
# right", "never agreed"), or make it a condition rather than consent ("before you proceed").
_NEGATORS = frozenset(
    {"not", "never", "no", "nor", "hardly", "cannot", "dont", "cant", "wont", "isnt", "arent"}
    | {"wasnt", "doesnt", "didnt", "wouldnt", "shouldnt", "couldnt", "aint", "neither"}
    | {"before", "until", "unless", "if"}
)
_NEGATION_WINDOW = 3
# Full-width and typographic marks read as their ASCII forms ("？" asks like "?").
_MARKS = str.maketrans({"\u2019": "'", "\u2018": "'", "\uff1f": "?", "\uff01": "!", "\u3002": "."})
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;\n]*")
_CLAUSE = re.compile(r"[,:()\u2014\u2013]|\s-\s|\bbut\b")


def _negated(clause: str, match: re.Match[str]) -> bool:
    before = re.findall(r"[a-z']+", clause[: match.start()])[-_NEGATION_WINDOW:]
    if any(w.replace("'", "") in _NEGATORS or w.endswith("n't") for w in before):
        return True
    return re.match(r"\s+not\b", clause[match.end() :]) is not None  # "absolutely not"


def is_affirmative(text: str | None) -> bool:
    """Whether a user message explicitly agrees, and refuses nothing.

    A yes is a yes word ("yes", "go ahead", "alright", ...) in a statement, not negated by a
    word shortly before it ("not sure") or a "not" right after it ("absolutely not"). A
    sentence that asks ("Is that amount correct?") agrees to nothing. One refusing clause
    anywhere ("no", "not yet", "wait", "hold on", "stop", "don't do that", "never mind")
    vetoes the reply, but phrases that only contain a negative word ("no problem", "don't
    forget ...", "I don't mind") do not.
    """
    if not text:
        return False
    text = _BENIGN.sub(" ", text.translate(_MARKS).lower())
    agreed = False
    for sentence in _SENTENCE.findall(text):
        question = "?" in sentence
        for clause in _CLAUSE.split(sentence.rstrip(".!?;\n")):
            clause = " ".join(clause.split())
            if _REFUSAL.search(clause):
                return False
            if not question and any(not _negated(clause, m) for m in _AFFIRMATIVE.finditer(clause)):
                agreed = True
    return agreed


# An agent turn that asks for confirmation: a question, or a request for a yes worded as an
# imperative ("Please reply yes to confirm."). An offer stated as a fact ("What I can do
# instead is ...") asks nothing.
_ASKS = re.compile(
    r"[?\uff1f]|\bplease confirm\b|\b(?:reply|answer|say|respond)(?: with)? [\"']?yes\b|"
    r"\blet me know if\b|\bwould you like\b|\bshall i\b|\bshould i\b|\bdo you want\b",
    re.I,
)


def asks_confirmation(text: str) -> bool:
    """Whether an agent turn asks the customer something it could answer with a yes."""
    return _ASKS.search(text) is not None


IDENTITY_ARGUMENTS = frozenset({"customer_id", "user_id", "patient_id", "caller_id"})
"""Arguments naming the customer served. Every call of a conversation carries the same one,
so saying it describes no particular change."""

# Words of tool names and argument values too common in any agent turn to show which change
# it describes ("Can I update your details?" names no write).
_GENERIC_WORDS = frozenset(
    {"get", "set", "update", "change", "modify", "customer", "user", "patient", "caller"}
    | {"details", "detail", "info", "add", "create", "make", "new", "request", "submit"}
    | {"issue", "file", "open", "send", "apply", "place", "correct", "name"}
    | {"item", "items", "account", "records", "record", "the", "and", "for", "with"}
    | {"yes", "true", "false", "none", "other", "all", "any"}
)
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"(?<![\w.,/:-])-?\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w-]|[.,/:]\d)")


def _same_stem(tool_word: str, word: str) -> bool:
    """Whether a word of a text shares the tool word's stem: cancel ~ cancellation, dispute ~
    disputing, book ~ booking."""
    if len(tool_word) <= 4:
        return word.startswith(tool_word)
    common = 0
    for a, b in zip(tool_word, word, strict=False):
        if a != b:
            break
        common += 1
    return common >= len(tool_word) - 2


def _numbers(text: str) -> set[Decimal]:
    return {Decimal(m[1].replace(",", "") + (m[2] or "")) for m in _NUMBER.finditer(text)}


def _plain(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def _values(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _values(item)
    else:
        yield value


def describes(text: str, call: ToolCall) -> bool:
    """Whether agent text names a call: a significant word of the tool's name (on a common
    stem) or one of its argument values other than the customer's id (numbers by value,
    text as a whole phrase, case ignored)."""
    plain = _plain(text)
    words = set(_WORD.findall(plain))
    significant = [w for w in call.name.split("_") if len(w) >= 3 and w not in _GENERIC_WORDS]
    if any(_same_stem(t, w) for t in significant for w in words):
        return True
    numbers: set[Decimal] | None = None
    for key, argument in call.arguments.items():
        if key in IDENTITY_ARGUMENTS:
            continue
        for value in _values(argument):
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int | float):
                numbers = _numbers(text) if numbers is None else numbers
                if Decimal(str(value)) in numbers:
                    return True
                continue
            phrase = _plain(str(value))
            if len(phrase) < 2 or phrase in _GENERIC_WORDS:
                continue
            if re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", plain):
                return True
    return False
