"""The base of a split domain's generators: one generator, two series, two databases.

A split domain keeps its training and evaluation customers apart by writing two databases
from one generator, each from its own series (seed, lead digit, name and number pools). What
is left to write is the same in every such domain, so it is written here once: the two
generator entry points, the `Database` declarations of the domain, and which split runs
against which database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from tau_emotion.data import Split
from tau_emotion.domains.base import Database
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
