"""A domain's fixed reference data (catalogues, price lists, the settings of each database's
series), kept as JSON beside the domain's code and validated on read.

Tables of data written as Python literals repeat one shape row after row and bury the few
values that matter in constructor calls; as data they read as data, and each is still typed:
the module that reads a table names the type it must validate into, so a typo in the file is
a load error, not a wrong snapshot.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, TypeVar

from pydantic import TypeAdapter

T = TypeVar("T")


class Reference:
    """The tables of one JSON file in a domain package, each read as a declared type."""

    def __init__(self, package: str, filename: str) -> None:
        self.where = f"{package}/{filename}"
        text = files(package).joinpath(filename).read_text(encoding="utf-8")
        self._tables: dict[str, Any] = json.loads(text)

    def table(self, key: str, kind: type[T]) -> T:
        """The table under `key`, validated as `kind` (a tuple of records, a mapping...)."""
        if key not in self._tables:
            raise KeyError(f"{self.where} has no table {key!r} (has {sorted(self._tables)})")
        return TypeAdapter(kind).validate_python(self._tables[key])
