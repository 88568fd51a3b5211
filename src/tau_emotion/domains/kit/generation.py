"""What every generator run shares: the tables of one database written row by row, ids
numbered in the order rows are written, draws kept unique, and the database built from its
model's own fields at the end.

Each generator used to keep a dataclass with one dict per table and then name every table
again to build the database; here the model is the only list of tables, so a table added to
a domain's database cannot be forgotten by its generator, and one a generator writes that the
model lacks is an error rather than a silently dropped table.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar, cast

from tau_emotion.domains.common import PeoplePools, make_id, unique, unique_email
from tau_emotion.domains.state import DomainDB

D = TypeVar("D", bound=DomainDB)
R = TypeVar("R")


class Tables:
    """The tables of one database being written, by table name, rows in insertion order."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, Any]] = {}

    def table(self, name: str) -> dict[str, Any]:
        return self._tables.setdefault(name, {})

    def rows(self, name: str, kind: type[R]) -> dict[str, R]:
        """The table `name` read as rows of `kind` (the rows written there are of that type)."""
        del kind  # names the row type for the checker only; rows are validated in `database`
        return cast(dict[str, R], self.table(name))

    def database(self, model: type[D]) -> D:
        """Every table `model` declares, those never written empty."""
        unknown = sorted(set(self._tables) - set(model.model_fields))
        if unknown:
            raise ValueError(f"{model.__name__} has no table {', '.join(unknown)}")
        return model(**{name: self.table(name) for name in model.model_fields})


def empty_database(model: type[D]) -> D:
    """A database of `model` with every table empty, for a generator that fills it in place."""
    return Tables().database(model)


class GeneratorRun(Tables):
    """One run of a split domain's generator over one database's series: its seeded rng, ids
    led by the database's digit, and people's contact details unique within the database."""

    def __init__(self, rng: random.Random, pools: PeoplePools, lead: str, width: int) -> None:
        super().__init__()
        self.rng = rng
        self.pools = pools
        self.lead = lead
        self.width = width
        self.used: set[str] = set()

    def new_id(self, prefix: str, table: str) -> str:
        """Rows are numbered 1, 2, ... in the order they are written to `table`."""
        return make_id(prefix + self.lead, len(self.table(table)) + 1, self.width)

    def unique(self, make: Callable[[], str]) -> str:
        """Draw values from `make` until one is unused (emails, phones, card numbers)."""
        return unique(self.used, make)

    def email(self, first: str, last: str) -> str:
        return unique_email(self.rng, self.used, first, last, self.pools.email_domains)

    def phone(self) -> str:
        """'(area) 555-dddd' in one of the database's own area codes."""
        area = self.pools.area_codes
        return self.unique(
            lambda: f"({self.rng.choice(area)}) 555-{self.rng.randint(100, 9999):04d}"
        )
