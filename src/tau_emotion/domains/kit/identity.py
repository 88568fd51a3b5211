"""The identity-lookup family: `find_*_by_email`, `find_*_by_phone` and their kin, once.

A lookup matches what a caller says against the people of one domain and answers with the
few fields that identify the record (an id, sometimes a name); details need another tool.
A domain declares a `Directory` (what a lookup answers, how it refuses, how it reads a phone
number) and declares its lookup tools from it with `Lookups` (where its people are, and per
tool the docstring and the fact asked beside a name), so each domain keeps its own tool
names, docstrings and wording while the matching and the tool bodies are written here.

Matching never depends on how the agent types: emails are compared trimmed and case-folded,
phone numbers by their digits, whatever punctuation the customer used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tau_emotion.domains.common import digits, phone_digits, words
from tau_emotion.domains.kit.declare import ToolDoc, declare
from tau_emotion.errors import ToolError

__all__ = [
    "Directory",
    "Fact",
    "Lookups",
    "PhoneRule",
    "all_digits",
    "date_of_birth",
    "last_ten",
    "us_phone",
    "written_date",
    "zip_code",
]


P = TypeVar("P")
T = TypeVar("T")


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


@dataclass(frozen=True)
class Fact(Generic[P]):
    """What a name lookup asks for beside the name: a zip code or a date of birth."""

    param: str
    """The tool's parameter, e.g. 'zip_code'."""
    what: str
    """What the refusal names when nobody matches, e.g. 'name and zip code'."""
    on_file: Callable[[P], str]
    read: Callable[[str], str] = str.strip
    """The caller's value as it is compared with the one on file; may refuse a malformed one."""


def zip_code(on_file: Callable[[P], str]) -> Fact[P]:
    """The zip code on file, compared as the caller gives it, trimmed."""
    return Fact("zip_code", "name and zip code", on_file)


def date_of_birth(on_file: Callable[[P], str], read: Callable[[str], str]) -> Fact[P]:
    """The date of birth on file, compared after the domain's own reading of the caller's."""
    return Fact("date_of_birth", "name and date of birth", on_file, read)


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def written_date(text: str) -> str:
    """A date of birth as the caller gives it, refused unless it is written YYYY-MM-DD."""
    value = text.strip()
    if not _ISO_DATE.fullmatch(value):
        raise ToolError("date_of_birth must be written YYYY-MM-DD")
    return value


def _full_name(person: Any) -> str:
    """The record's `full_name`, or its first and last name where it keeps them apart."""
    name = getattr(person, "full_name", None)
    return name if isinstance(name, str) else f"{person.first_name} {person.last_name}"


@dataclass(frozen=True)
class Lookups(Generic[T, P]):
    """The identity-lookup tools of one domain, declared from its `Directory` and docstrings.

    `people` reads the people a lookup searches from the domain's tool set `T`. Each factory
    returns a tool method to assign in the tool class under the name its `ToolDoc` gives:
    what the agent reads is the domain's, the body is written here once.
    """

    directory: Directory[P]
    people: Callable[[T], Iterable[P]]

    def email(self, doc: ToolDoc) -> Callable[..., dict[str, str]]:
        """`find_*_by_email(email)`."""

        def run(tools: T, email: str) -> dict[str, str]:
            return self.directory.by_email(self.people(tools), email)

        return declare("read", doc, ["email"], run)

    def phone(self, doc: ToolDoc, param: str = "phone") -> Callable[..., dict[str, str]]:
        """`find_*_by_phone(phone)`, under the domain's parameter name."""

        def run(tools: T, phone: str) -> dict[str, str]:
            return self.directory.by_phone(self.people(tools), phone)

        return declare("read", doc, [param], run)

    def full_name_and(
        self, doc: ToolDoc, fact: Fact[P], *, refusal: str | None = None
    ) -> Callable[..., dict[str, str]]:
        """`find_*_by_name_and_*(full_name, fact)`: the name compared by its words (case and
        spacing aside), the fact as `fact` reads it."""

        def run(tools: T, full_name: str, given: str) -> dict[str, str]:
            wanted, name = fact.read(given), words(full_name)
            return self.directory.by(
                self.people(tools),
                lambda p: words(_full_name(p)) == name and fact.on_file(p) == wanted,
                fact.what,
                refusal=refusal,
            )

        return declare("read", doc, ["full_name", fact.param], run)

    def first_last_and(
        self,
        doc: ToolDoc,
        fact: Fact[P],
        *,
        fold: Callable[[str], str],
        refusal: str | None = None,
    ) -> Callable[..., dict[str, str]]:
        """`find_*_by_name_and_*(first_name, last_name, fact)`: each name compared after
        `fold` (the domain's own case rule), the fact as `fact` reads it."""

        def run(tools: T, first_name: str, last_name: str, given: str) -> dict[str, str]:
            wanted, first, last = fact.read(given), fold(first_name), fold(last_name)

            def matches(person: Any) -> bool:
                return (
                    fold(person.first_name) == first
                    and fold(person.last_name) == last
                    and fact.on_file(person) == wanted
                )

            return self.directory.by(self.people(tools), matches, fact.what, refusal=refusal)

        return declare("read", doc, ["first_name", "last_name", fact.param], run)
