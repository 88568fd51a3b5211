"""The identity-lookup family: `find_*_by_email`, `find_*_by_phone` and their kin, once.

A lookup matches what a caller says against the people of one domain and answers with the
few fields that identify the record (an id, sometimes a name); details need another tool.
A domain declares a `Directory` (what a lookup answers, how it refuses, how it reads a phone
number) and its tools call it, so each domain keeps its own tool names, docstrings and
wording while the matching is written here.

Matching never depends on how the agent types: emails are compared trimmed and case-folded,
phone numbers by their digits, whatever punctuation the customer used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from tau_emotion.domains.common import digits, phone_digits
from tau_emotion.errors import ToolError

__all__ = ["Directory", "PhoneRule", "all_digits", "last_ten", "us_phone"]


P = TypeVar("P")


@dataclass(frozen=True)
class PhoneRule:
    """How a domain reads a phone number a caller gives."""

    normalise: Callable[[str], str]
    """Both the caller's number and the one on file go through it before they are compared."""
    short: str | None = None
    """The refusal of a number that does not come to ten digits; None looks it up as given."""


def last_ten(text: str) -> str:
    """The last ten digits: a leading country code, whatever it is, is dropped."""
    return digits(text)[-10:]


all_digits = digits
"""Every digit, as given: '+1 503 ...' does not match '503-...'.

(The phone lookups of some domains once kept `str.isdigit` characters, superscripts
included; every lookup now reads decimal digits only, which no shipped task tells apart.)"""
us_phone = phone_digits
"""Ten digits, or eleven with a leading US country code 1 dropped."""


@dataclass(frozen=True)
class Directory(Generic[P]):
    """One domain's identity lookups: answers, refusals and the phone rule."""

    answer: Callable[[P], dict[str, str]]
    """What a lookup returns for the person found."""
    missing: str
    """The refusal when nobody matches; '{what}' names what was looked up."""
    phone: PhoneRule = PhoneRule(all_digits)
    email_of: Callable[[P], str | None] = lambda p: getattr(p, "email")  # noqa: B009
    phone_of: Callable[[P], str | None] = lambda p: getattr(p, "phone")  # noqa: B009
    ambiguous: str | None = None
    """The refusal when several people match ('{what}' as above); None takes the first."""
    email_label: str = "email address"
    phone_label: str = "phone number"

    def by_email(self, people: Iterable[P], email: str) -> dict[str, str]:
        wanted = email.strip().casefold()
        return self.by(
            people,
            lambda p: (self.email_of(p) or "").strip().casefold() == wanted,
            self.email_label,
        )

    def by_phone(self, people: Iterable[P], phone: str) -> dict[str, str]:
        rule = self.phone
        wanted = rule.normalise(phone)
        if rule.short is not None and len(wanted) != 10:
            raise ToolError(rule.short)

        def same(person: P) -> bool:
            on_file = self.phone_of(person)
            return on_file is not None and rule.normalise(on_file) == wanted

        return self.by(people, same, self.phone_label)

    def by(
        self,
        people: Iterable[P],
        matches: Callable[[P], bool],
        what: str,
        *,
        refusal: str | None = None,
    ) -> dict[str, str]:
        """The answer for the one person `matches` picks, refusing none (with `refusal` if
        given, else `missing`) and several, where the domain asks for one person only."""
        found = [p for p in people if matches(p)]
        if not found:
            raise ToolError(refusal or self.missing.format(what=what))
        if len(found) > 1 and self.ambiguous is not None:
            raise ToolError(self.ambiguous.format(what=what))
        return self.answer(found[0])
