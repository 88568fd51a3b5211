"""The shared name pool: every given name, family name and email domain the generators draw
people from, in one data file (`names.json`) read through one typed model.

A domain asks for a list by key (``given("travel")``, ``family("travel.train")``,
``email_domains("example")``); a domain with a train and an eval database keeps disjoint
family-name lists under ``<domain>.train`` and ``<domain>.eval`` so no customer's name occurs
in both. Each list keeps the order it was first written in: a generator's draws are indices
into it, so reordering a list would change every snapshot drawn from it. A new domain should
draw from an existing list where it can and add a list only for what is its own.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from pydantic import BaseModel, ConfigDict, model_validator

Names = tuple[str, ...]


class NamePool(BaseModel):
    """The three kinds of list, each keyed by the pool's name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    given: dict[str, Names]
    family: dict[str, Names]
    email_domains: dict[str, Names]

    @model_validator(mode="after")
    def _checked(self) -> NamePool:
        for kind, lists in (("given", self.given), ("family", self.family)):
            for key, names in lists.items():
                if len(set(names)) != len(names):
                    raise ValueError(f"{kind} list {key!r} names someone twice")
        for key, train in self.family.items():
            if key.endswith(".train"):
                shared = set(train) & set(self.family.get(key[: -len("train")] + "eval", ()))
                if shared:
                    # A family name in both databases would let a customer be recognised
                    # across the split.
                    raise ValueError(f"{key!r} and its eval list share {sorted(shared)}")
        return self


@cache
def pool() -> NamePool:
    """The pool in `names.json`, read once."""
    text = files("tau_emotion.domains.kit").joinpath("names.json").read_text(encoding="utf-8")
    return NamePool.model_validate_json(text)


def _pick(kind: str, lists: dict[str, Names], key: str) -> Names:
    try:
        return lists[key]
    except KeyError:
        raise KeyError(f"no {kind} list {key!r} in names.json (have {sorted(lists)})") from None


def given(key: str) -> Names:
    """The given names of list `key`, e.g. ``given("travel.children")``."""
    return _pick("given", pool().given, key)


def family(key: str) -> Names:
    """The family names of list `key`, e.g. ``family("bank.eval")``."""
    return _pick("family", pool().family, key)


def email_domains(key: str) -> Names:
    """The email domains of list `key`, e.g. ``email_domains("example")``."""
    return _pick("email domain", pool().email_domains, key)


class FamilyNamed:
    """Mixin of a database's series that names its family-name list by key: the series
    file says which list (``"bank.train"``), the pool holds the names."""

    family_names: str

    @property
    def surnames(self) -> Names:
        return family(self.family_names)
