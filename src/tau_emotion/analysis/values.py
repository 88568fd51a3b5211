"""Checkable values in free text: emails, dates, times, phone numbers, codes and numbers.

Both the tool-use analysis (did the agent ask for something it already had?) and the user
hallucination check (did the simulated user state a fact it was never given?) compare such
values between texts. Each value gets a normal form so that "$1,250.00" matches "1250",
"June 5th" matches "2025-06-05" and "8tqvhg" matches "8TQVHG".

Deliberately left out, because they are too noisy to compare: single-digit numbers ("2 bags"
is as often "two bags"), number words, and codes made only of letters (indistinguishable
from shouting).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

ValueKind = Literal["email", "date", "time", "phone", "code", "number"]

_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for m in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b")
_MONTH_DAY = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*\d{{4}})?", re.I)
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b(?:,?\s*\d{{4}})?", re.I
)
_SLASH_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/\d{2,4})?\b")
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)(?![a-z])|\b(\d{1,2}):(\d{2})\b", re.I)
_PHONE = re.compile(r"(?:\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b")
_CODE = re.compile(r"\b[A-Za-z0-9][A-Za-z0-9_-]{3,}\b")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.I)
_NUMBER = re.compile(r"(?<![\w.])(\$?)(-?\d[\d,]*(?:\.\d+)?)(?![\w])")


@dataclass(frozen=True)
class Value:
    """One checkable value found in a text."""

    kind: ValueKind
    text: str
    norm: str


def _number_norm(text: str) -> str:
    number = float(text.replace(",", "").replace("$", ""))
    return f"{number:.2f}".rstrip("0").rstrip(".")


def extract_values(text: str) -> list[Value]:
    """The values in a text, in order of kind (each span is claimed by the first kind)."""
    return list(_extract(text))


@lru_cache(maxsize=8192)
def _extract(text: str) -> tuple[Value, ...]:
    # Cached: the same tool results and messages are compared many times per trajectory.
    found: list[Value] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    def claim(match: re.Match[str], kind: ValueKind, norm: str) -> None:
        if free(match.start(), match.end()):
            taken.append((match.start(), match.end()))
            found.append(Value(kind, match.group(0).strip(), norm))

    for m in _EMAIL.finditer(text):
        claim(m, "email", m.group(0).lower())
    for m in _ISO_DATE.finditer(text):
        claim(m, "date", f"{int(m.group(2)):02d}-{int(m.group(3)):02d}")
    for m in _MONTH_DAY.finditer(text):
        claim(m, "date", f"{_MONTHS[m.group(1).lower()]:02d}-{int(m.group(2)):02d}")
    for m in _DAY_MONTH.finditer(text):
        claim(m, "date", f"{_MONTHS[m.group(2).lower()]:02d}-{int(m.group(1)):02d}")
    for m in _SLASH_DATE.finditer(text):
        claim(m, "date", f"{int(m.group(1)):02d}-{int(m.group(2)):02d}")
    for m in _PHONE.finditer(text):
        claim(m, "phone", re.sub(r"\D", "", m.group(0))[-10:])
    for m in _TIME.finditer(text):
        if m.group(4) is not None:
            hour, minute = int(m.group(4)), int(m.group(5))
        else:
            hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
            hour += 12 if m.group(3).lower().startswith("p") else 0
        claim(m, "time", f"{hour:02d}:{minute:02d}")
    for m in _CODE.finditer(text):
        token = m.group(0)
        has_digit = any(c.isdigit() for c in token)
        has_alpha = any(c.isalpha() for c in token)
        if has_digit and has_alpha and not _ORDINAL.match(token):
            claim(m, "code", token.lower())
    for m in _NUMBER.finditer(text):
        digits = sum(c.isdigit() for c in m.group(2))
        if digits >= 2 or m.group(1):
            claim(m, "number", _number_norm(m.group(2)))
    return tuple(found)


class Corpus:
    """Texts a value may be supported by: their values' normal forms and their raw text."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._norms: set[tuple[str, str]] = set()
        self._numbers: set[str] = set()
        self._text = ""
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        for v in extract_values(text):
            self._norms.add((v.kind, v.norm))
            if v.kind == "number":
                self._numbers.add(v.norm)
        self._text += "\n" + text.lower()

    def supports(self, value: Value) -> bool:
        """Same value by normal form, or the raw text appears verbatim (ids inside longer codes,
        a number read out of a date or a code)."""
        if (value.kind, value.norm) in self._norms:
            return True
        if value.kind in ("code", "phone") and value.norm in self._numbers:
            return True
        return value.text.lower() in self._text or value.norm in self._text
