"""Whether a required output was said: numbers compared as values, text as whole words.

A substring test lets "0.00" pass on "$10.00", "75" on the code "LK175" and "232" on the zip
code "97232". Here a number in the agent's text is a *token*: a run of digits (with
thousands separators and decimals) that is not glued to a letter, another digit or a joining
mark, so the digits inside codes, dates, times, zip codes and scores ("LK175", "2025-06-26",
"10:30", "97232", "75-2") are never numbers of their own. Currency marks and trailing zeros
do not matter: "75" is said by "75", "$75", "75.00", "USD 75" and "$1,275" is not "75".

A text output (a name, a code, a date, an address) must appear as a whole phrase, ignoring
case and runs of whitespace: "LK175" is said by "lk175." but not by "LK1750" or "LK175-2".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
"""A number's digits: plain ("1250"), grouped by thousands ("1,250"), with decimals."""

_GLUE = r"[.,/:-]"
"""Marks that join a digit run to its neighbour into one token: a decimal or group
separator, a date or time separator, a hyphen (codes, dates, scores, "75-minute")."""

_NUMBER_TOKEN = re.compile(
    rf"(?<![\w.,/:-])"  # not the tail of a word, a code, a date or a larger number
    r"(?P<sign>[-\u2212])?"
    r"(?:[$\u20ac\u00a3]\s?)?"  # "$75", "-$75", "€ 75"
    rf"(?P<digits>{_DIGITS})"
    rf"(?!\w|-|{_GLUE}\d)"  # not the head of one ("75USD", "75-2", "75.5.1", "10:30")
)

_CURRENCY = r"(?:USD|US\$|\$|EUR|\u20ac|GBP|\u00a3)"
_NUMERIC_OUTPUT = re.compile(
    rf"\s*(?P<sign>[-\u2212])?\s*(?:{_CURRENCY}\s*)?(?P<sign2>[-\u2212])?"
    rf"(?P<digits>{_DIGITS})\s*(?:{_CURRENCY}|dollars?)?\s*",
    re.IGNORECASE,
)
"""A required output that is a number, perhaps with a currency mark ("75", "$1,250.00")."""

_BEFORE = rf"(?<!\w)(?<!\w{_GLUE})"
_AFTER = rf"(?!\w|{_GLUE}\w)"
"""What may not touch a text output's word-character ends: a word character, or a joining
mark that leads into one (so "LK175" is not said by "LK175-2", "LK175.3" or "XLK175", but is
by "LK175." and "(LK175)")."""


class _Number:
    """A number's value, and its digits when leading zeros make it an identifier ("0953")."""

    def __init__(self, negative: bool, digits: str) -> None:
        plain = digits.replace(",", "")
        self.value = -Decimal(plain) if negative else Decimal(plain)
        whole = plain.split(".")[0]
        self.code = plain if len(whole) > 1 and whole.startswith("0") else None

    def same(self, other: _Number) -> bool:
        if self.code is not None or other.code is not None:
            return self.code == other.code
        return self.value == other.value


def _as_number(output: str) -> _Number | None:
    match = _NUMERIC_OUTPUT.fullmatch(output)
    if match is None:
        return None
    try:
        return _Number(bool(match["sign"] or match["sign2"]), match["digits"])
    except InvalidOperation:  # pragma: no cover - the pattern only admits decimal digits
        return None


def numbers_in(text: str) -> list[Decimal]:
    """The values of the number tokens in a text, in order (for tests and audits)."""
    return [_token(m).value for m in _NUMBER_TOKEN.finditer(text)]


def _token(match: re.Match[str]) -> _Number:
    return _Number(match["sign"] is not None, match["digits"])


def _says_number(target: _Number, text: str) -> bool:
    return any(target.same(_token(m)) for m in _NUMBER_TOKEN.finditer(text))


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _says_phrase(phrase: str, text: str) -> bool:
    before = _BEFORE if phrase[0].isalnum() or phrase[0] == "_" else ""
    after = _AFTER if phrase[-1].isalnum() or phrase[-1] == "_" else ""
    return re.search(before + re.escape(phrase) + after, text) is not None


def output_communicated(output: str, agent_texts: Sequence[str]) -> bool:
    """Whether any agent text says the required output: as the same number on a token
    boundary when the output is a number, else as the whole phrase (case and whitespace
    ignored)."""
    number = _as_number(output)
    if number is not None:
        return any(_says_number(number, text) for text in agent_texts)
    phrase = _normalise(output)
    if not phrase:
        return False
    return any(_says_phrase(phrase, _normalise(text)) for text in agent_texts)
