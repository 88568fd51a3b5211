"""What every generator run shares: the database being written, table by table, ids numbered
in the order rows are written, and draws kept unique within the database.

A generator starts from its model's database with every table empty and writes rows straight
into it. The model is then the only list of the tables: no generator keeps a field per table
and names every table again to build the database, a table added to the model is there (empty)
until a generator fills it, and a generator cannot write a table the model lacks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from tau_emotion.domains.common import PeoplePools, make_id, unique, unique_email
from tau_emotion.domains.state import DomainDB

D = TypeVar("D", bound=DomainDB)


def empty_database(model: type[D]) -> D:
    """A database of `model` with every table empty, for a generator to fill in place."""
    return model(**{name: {} for name in model.model_fields})


class GeneratorRun(Generic[D]):
    """One run of a split domain's generator over one database's series: the database being
    filled, its seeded rng, ids led by the database's digit, and people's contact details
    unique within the database."""

    def __init__(
        self, model: type[D], rng: random.Random, pools: PeoplePools, lead: str, width: int
    ) -> None:
        self.db = empty_database(model)
        self.rng = rng
        self.pools = pools
        self.lead = lead
        self.width = width
        self.used: set[str] = set()

    def new_id(self, prefix: str, table: Mapping[str, Any]) -> str:
        """Rows are numbered 1, 2, ... in the order they are written to `table`."""
        return make_id(prefix + self.lead, len(table) + 1, self.width)

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
