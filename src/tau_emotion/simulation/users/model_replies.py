"""Reading the user model's own replies: the react labels (`parse_react`), the end tokens
as the model meant them (`normalise_tokens`), the longest reply that is still a customer
speaking (`MAX_REPLY_CHARS`), and the supervisor's verdict on a reply (`read_verdict`).

Both are read the way models write them, markdown included, and both fail safe: a thought
never reaches the agent, and a verdict that is not clearly VALID is a rejection.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN

# A react label: "Thought:" or "Customer:", bare or in markdown ("**Customer:**",
# "**Customer**:", "### Thought:"). Which matches count as labels is decided in `_labels`.
_LABEL = re.compile(r"(?:[#>]+[ \t]*)?[*_]*\b(thought|customer)\b[*_]*[ \t]*[*_]*:[*_]*", re.I)
_LINE_START = re.compile(r"(?:^|\n)[\s*_#>-]*\Z")
_SENTENCE_GAP = re.compile(r"[.!?*_)\]][ \t]+\Z")


def _labels(text: str) -> list[re.Match[str]]:
    """The react labels in `text`: at the start of a line, or inline (see below).

    Inline ("Thought: ask. Customer: Hi") only when capitalised and after the end of a
    sentence or in markdown bold, so a customer who says "as a loyal Customer: ..." is not
    cut in two.
    """
    found = []
    for match in _LABEL.finditer(text):
        before = text[: match.start()]
        bold = match.group(0)[0] in "*_" and (not before or before[-1].isspace())
        inline = _SENTENCE_GAP.search(before) is not None and match.group(1)[0].isupper()
        if _LINE_START.search(before) or inline or bold:
            found.append(match)
    return found


def parse_react(text: str) -> tuple[str | None, str | None]:
    """(thought, customer line) from a react reply; None where a part is missing.

    Each part runs from its label to the next label, so a `Thought:` written after the
    `Customer:` line stays private; the customer line is the first one, and the thoughts,
    wherever they stand, are joined.
    """
    labels = _labels(text)
    thoughts: list[str] = []
    said: str | None = None
    for i, label in enumerate(labels):
        end = labels[i + 1].start() if i + 1 < len(labels) else len(text)
        part = text[label.end() : end].strip()
        if not part:
            continue
        if label.group(1).lower() == "thought":
            thoughts.append(part)
        elif said is None:
            said = part
    return ("\n".join(thoughts) or None), said


class Verdict(NamedTuple):
    """The supervisor's verdict on one reply (see `read_verdict`)."""

    valid: bool
    problem: str
    """Why the reply is rejected; empty when it is valid."""


_VERDICT_WORD = re.compile(r"\b(not\s+)?(valid|invalid)\b", re.I)
_MARKDOWN = re.compile(r"[*_`#>\"]+")
UNCLEAR_VERDICT = "the reviewer gave no clear verdict"
"""The objection recorded for a verdict that is neither clearly VALID nor INVALID."""


def read_verdict(text: str) -> Verdict:
    """Read a supervisor's answer; anything but a clear VALID is a rejection (fail safe).

    Markdown is stripped and the first whole word VALID or INVALID (any case) decides:
    "**INVALID**: ...", "The message is INVALID: ..." are rejections. A reply that is
    valid only if read generously is rejected too, at the cost of one regeneration: no
    verdict word, "not valid", or VALID followed by a later INVALID. Letting a bad reply
    through can end the episode wrongly (an early stop), so doubt counts as a no.
    """
    plain = " ".join(_MARKDOWN.sub("", text).split())
    words = list(_VERDICT_WORD.finditer(plain))
    if not words:
        return Verdict(False, f"{UNCLEAR_VERDICT}: {plain}" if plain else UNCLEAR_VERDICT)
    first = words[0]
    if first.group(2).lower() == "invalid" and not first.group(1):
        reason = plain[first.end() :].lstrip(" :.-\u2013\u2014").strip()
        return Verdict(False, reason or "invalid")
    if all(w.group(2).lower() == "valid" and not w.group(1) for w in words):
        return Verdict(True, "")
    return Verdict(False, f"{UNCLEAR_VERDICT}: {plain}")


MAX_REPLY_CHARS = 4000
"""A customer reply longer than this is unusable and regenerated, as an empty one is. The
prompt asks for one short message; the longest request of the shipped tasks is under 700
characters, so a reply six times that is a runaway generation (a loop, a pasted document),
not a customer speaking, and passing it on would flood the agent's context."""

_NEAR_TOKENS = tuple(
    # "###stop###", "### STOP ###", "# # # Stop # # #": the token the model meant to write.
    (re.compile(r"(?:#\s*){3}" + word + r"(?:\s*#){3}", re.I), token)
    for word, token in (("stop", STOP_TOKEN), ("unsatisfied", UNSATISFIED_TOKEN))
)


def normalise_tokens(text: str) -> str:
    """`text` with near-miss end tokens (any case, spaces inside) written as the real ones.

    The episode loop ends on the exact tokens only; a model that writes "###stop###" means
    to stop, and sending that to the agent as customer text would play on an episode the
    customer has ended. Where a token stands in the reply is not judged: as in tau-bench, a
    token anywhere ends the episode, and a reply holding both ends as a walk-away (the loop
    reads ###UNSATISFIED### first).
    """
    for pattern, token in _NEAR_TOKENS:
        text = pattern.sub(token, text)
    return text


def ends_episode(text: str) -> bool:
    """Whether a reply carries an end token (spelled right or nearly)."""
    plain = normalise_tokens(text)
    return STOP_TOKEN in plain or UNSATISFIED_TOKEN in plain
