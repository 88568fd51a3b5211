"""The base of a split domain's generators: one generator, two series, two databases.

A split domain keeps its training and evaluation customers apart by writing two databases
from one generator, each from its own series (seed, lead digit, name and number pools). What
is left to write is the same in every such domain, so it is written here once: the two
generator entry points, the `Database` declarations of the domain, and which split runs
against which database.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from tau_emotion.data import Split
from tau_emotion.domains.base import Database
from tau_emotion.domains.common import make_id
from tau_emotion.domains.state import DomainDB

S = TypeVar("S")
D = TypeVar("D", bound=DomainDB)

SPLIT_DATABASE: Mapping[Split, str] = {"train": "train", "test": "eval"}
"""Training tasks run against the train database, test tasks against the eval one."""


@dataclass(frozen=True)
class SplitGenerator(Generic[S, D]):
    """`generate(series)` run for the train and the eval series of one domain."""

    generate: Callable[[S], D]
    train: S
    eval: S

    def generate_train(self) -> D:
        return self.generate(self.train)

    def generate_eval(self) -> D:
        return self.generate(self.eval)

    def databases(self) -> dict[str, Database]:
        """The `Domain.databases` of the domain: db_train.json and db_eval.json."""
        return {
            "train": Database("db_train.json", self.generate_train),
            "eval": Database("db_eval.json", self.generate_eval),
        }


class Series(Protocol):
    """What a generator run needs of one database's series."""

    @property
    def seed(self) -> int: ...
    @property
    def digit(self) -> str:
        """Leading digit of every numeric id of the database."""
        ...

    @property
    def surnames(self) -> tuple[str, ...]: ...


T = TypeVar("T", bound=Series)


class SeriesRun(Generic[T]):
    """The base of one generator run over one series: its own seeded rng, ids led by the
    series digit, and people drawn from the series' own family names."""

    def __init__(self, series: T) -> None:
        self.s = series
        self.rng = random.Random(series.seed)

    def ident(self, prefix: str, n: int, width: int) -> str:
        """An id led by the database's own digit, so train and eval ids never collide."""
        return make_id(prefix + self.s.digit, n, width)

    def name(self, first_names: Sequence[str]) -> tuple[str, str]:
        """A (first, family) name; family names come from this series only."""
        return self.rng.choice(first_names), self.rng.choice(self.s.surnames)

    def phone(self, area: str) -> str:
        """A '555' number in the area code (the caller keeps it unique)."""
        return f"{area}-555-{self.rng.randint(100, 9999):04d}"
