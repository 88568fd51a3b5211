"""How the scripted customer reads an agent's turn: what it asks for, and whether it listened.

Two judgements used to be made by spotting words anywhere in the agent's text, which punished
good agents and rewarded a trick: "Let me pull up your order now" counted as asking for the
order number again, and "I understand, I'm sorry about this." in front of every reply counted
as empathy whatever the customer had said. Here:

- a fact is *asked for* only in a sentence that asks: one that ends in a question mark or makes
  a request ("please provide...", "I'll need your..."), and names the fact;
- an acknowledgment *counts* only when the sentence that carries it also responds to this
  customer: it names their feeling (a word of their emotion family) or something they said (a
  content word from their own messages).

A question that asks for none of the customer's facts is a clarifying question; `clarify`
answers it from what the customer wants (the current intent's request and the values its
instruction states), so the customer does not answer "I don't know" about its own request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from tau_emotion.data import Action, Intent
from tau_emotion.emotions.space import Family
from tau_emotion.evaluation.outputs import output_communicated
from tau_emotion.simulation.users.acknowledgment import ACKNOWLEDGMENT

FACT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "email": ("email", "e-mail"),
    "phone": ("phone", "mobile number", "phone number"),
    "full_name": ("name",),
    "zip_code": ("zip", "postal code", "postcode"),
    "date_of_birth": ("date of birth", "birth", "dob", "birthday"),
}

_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_REQUESTING = re.compile(
    r"\b(please (provide|share|give|tell|send|confirm|verify)|"
    r"(can|could|would) you (please )?(provide|share|give|tell|send|confirm|verify)|"
    r"may i (have|get|ask)|i('ll| will)? need your|i need (your|the)|what('s| is) your|"
    r"tell me your|provide your|share your|send me your)\b",
    re.I,
)
_EMPATHY = re.compile(
    "|".join(rf"\b(?:{p})" for phrases in ACKNOWLEDGMENT.values() for p in phrases), re.I
)

# fmt: off
FEELING_WORDS: dict[str, tuple[str, ...]] = {
    # Stems an agent uses when it names what a customer of each family feels.
    Family.ANGER: ("frustrat", "annoy", "upset", "angry", "anger", "irritat", "exasperat",
                   "infuriat", "unfair", "fed up", "furious", "livid", "outrag", "maddening",
                   "humiliat", "insult"),
    Family.FEAR: ("worr", "anxious", "anxiety", "nervous", "scar", "stress", "concern",
                  "afraid", "fright", "uneasy", "dread", "terrif", "panic", "shaken",
                  "unsettl", "distress"),
    Family.SADNESS: ("sad", "disappoint", "hard time", "difficult", "loss", "heartbreak",
                     "heartbroken", "discourag", "hopeless", "helpless", "let down", "painful",
                     "crush", "devastat", "grief", "griev", "mourn", "sorrow", "gutted",
                     "lonely"),
    Family.DISGUST: ("disgust", "unpleasant", "awful", "appall", "revolting", "distaste",
                     "gross", "unacceptable", "offensive", "off-putting", "sicken", "vile",
                     "filthy", "nauseat", "repuls", "horrif"),
    Family.ENJOYMENT: ("excit", "glad", "happy", "wonderful", "great news", "relie", "thrill",
                       "proud", "pleased", "delight", "lovely", "brilliant", "over the moon",
                       "chuffed", "congrat", "well done", "celebrat", "fantastic", "amazing"),
}

_STOPWORDS = frozenset(
    """about above after again against being below between could doing during every
    further having here hello itself just know like make more most much need only other
    please really right same should since some still such sure than thank thanks that
    their them then there these they thing things this those through today under until
    very want what when where which while will with would your yours yourself
    understand sorry apologise apologize imagine sounds appreciate patience""".split()  # noqa: SIM905
)
# fmt: on
_WORD = re.compile(r"[a-z][a-z'-]{4,}")
_FACT_WORDS = re.compile(r"\b(number|code|id|birth|address|zip|phone|email|name)\b", re.I)


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text.strip()) if s]


def asking_sentences(text: str) -> list[str]:
    """The sentences of `text` that ask the customer for something, lower-cased."""
    return [s.lower() for s in sentences(text) if s.rstrip().endswith("?") or _REQUESTING.search(s)]


def fact_patterns(key: str) -> tuple[str, ...]:
    """Words an agent uses when it asks for a fact (the key itself always counts)."""
    words = key.replace("_", " ")
    head = key.split("_")[0]
    # "order_number", "reservation_code", "member_id": the entity word alone is how agents ask.
    entity = (head,) if key.endswith(("_number", "_code", "_id")) and len(head) > 3 else ()
    return (words, *FACT_SYNONYMS.get(key, ()), *entity)


def asked_facts(text: str, facts: Mapping[str, str]) -> list[tuple[str, str]]:
    """The known facts an agent turn asks for, in the order the facts are listed."""
    asking = asking_sentences(text)
    return [
        (k, v) for k, v in facts.items() if any(p in s for s in asking for p in fact_patterns(k))
    ]


def asks_unknown_fact(text: str) -> bool:
    """Whether a question asks for an identifying fact (a number, code, birth date...)."""
    return any(_FACT_WORDS.search(s) for s in asking_sentences(text))


def acknowledges_feelings(text: str) -> bool:
    """Whether an agent message uses an acknowledgment phrase at all (lexicon match)."""
    return bool(_EMPATHY.search(text))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 5 and word.endswith("s") and not word.endswith("ss") else word


def _content_words(texts: Iterable[str]) -> set[str]:
    # A plural is the same thing ("three broken blenders" answers "my blender broke").
    words = {_singular(w.strip("'-")) for t in texts for w in _WORD.findall(t.lower())}
    return {w for w in words if w not in _STOPWORDS and not _EMPATHY.search(w)}


def responds_to_feelings(text: str, customer_said: Sequence[str], family: str | None) -> bool:
    """Whether an acknowledgment in `text` answers this customer, not a formula.

    The sentence with the acknowledgment phrase must name a feeling of the customer's family
    (or the sentence right after it must: "I'm sorry. That sounds stressful.") or share a
    content word with what the customer said.
    """
    parts = sentences(text)
    heard = _content_words(customer_said)
    feeling_words = FEELING_WORDS.get(family or "", ())
    for i, sentence in enumerate(parts):
        if not _EMPATHY.search(sentence):
            continue
        # The feeling may be named in the next sentence ("I'm sorry. That sounds stressful."),
        # but what the customer said must be in the acknowledgment itself: otherwise a fixed
        # apology in front of any on-topic reply would pass.
        window = " ".join(parts[i : i + 2]).lower()
        if any(stem in window for stem in feeling_words):
            return True
        if _content_words([sentence]) & heard:
            return True
    return False


def _arg_words(name: str) -> list[str]:
    words = [w for w in name.split("_") if w not in ("id", "ids", "code", "new", "is")]
    return [" ".join(words)] + [w for w in words if len(w) >= 4]


def clarify(question: str, intent: Intent, stated: str) -> list[str]:
    """What the customer can say to a clarifying question: "<what> is <value>" for each value
    of the current intent that the question asks about and the customer's own words state.

    `stated` is the text the customer knows (instruction and requests); a value it does not
    contain is not the customer's to give.
    """
    lower, known = question.lower(), stated.lower()
    said: list[str] = []
    for action in intent.actions:
        said.extend(_clarify_action(action, lower, known, said))
    return said


def _stated(value: object, known: str) -> bool:
    """Whether the customer's own words contain a value (numbers as numbers: 5.0 is "5")."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):
        return output_communicated(str(value), [known])
    return str(value).lower() in known


def _clarify_action(action: Action, question: str, known: str, already: list[str]) -> list[str]:
    out: list[str] = []
    for name, value in action.arguments.items():
        items = value if isinstance(value, list) else [value]
        shown = [str(v) for v in items if _stated(v, known)]
        if not shown or not any(w in question for w in _arg_words(name)):
            continue
        line = f"the {_arg_words(name)[0]} is {', '.join(shown)}"
        if line not in already and line not in out:
            out.append(line)
    return out
