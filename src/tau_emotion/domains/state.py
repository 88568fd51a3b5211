"""Copy-on-write database state: a fresh episode costs an empty dict, not a deep copy.

A domain database is a pydantic model whose fields are tables: ``MutableMapping[str, Record]``
(pydantic parses each to a plain dict) where records are frozen pydantic models. The pristine
database is parsed once per process and shared by every episode. An episode's `State` keeps
its writes in an overlay; reads look in the overlay first. Tools never mutate a record in
place (records are frozen); they build a changed copy and `put` it (or assign it:
``table[key] = record``).

`State.view` gives the tools the whole database typed as the domain's own model, every field
this episode's live `Table`: ``self.db.customers[key]`` reads through the overlay and
``self.db.customers[key] = record`` writes into it, so no domain lists its tables by hand.
That is why the model's fields are declared as `MutableMapping`, the type both a parsed
table (a dict) and a live `Table` have.

The state hash is the hash of the pristine snapshot combined with the sorted overlay, so two
episodes that end in the same state get the same hash whatever order they wrote in, and a
record written back to its original value drops out of the overlay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import ItemsView, Iterator, Mapping, MutableMapping, ValuesView
from typing import Any, TypeVar, cast, overload

from pydantic import BaseModel, ConfigDict

R = TypeVar("R", bound=BaseModel)
D = TypeVar("D", bound="DomainDB")
T = TypeVar("T")

_DELETED: Any = object()


class Record(BaseModel):
    """Base for database rows: frozen, so that the shared pristine DB cannot be mutated."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DomainDB(BaseModel):
    """Base for a domain's database: every field is a table ``MutableMapping[str, Record]``."""

    model_config = ConfigDict(extra="forbid")

    def tables(self) -> dict[str, Mapping[str, Any]]:
        return {name: getattr(self, name) for name in type(self).model_fields}

    def record_counts(self) -> dict[str, int]:
        return {name: len(table) for name, table in self.tables().items()}


def record_digest(record: BaseModel) -> str:
    return hashlib.sha256(record.model_dump_json().encode()).hexdigest()


def canonical_json(db: DomainDB) -> bytes:
    """The snapshot format: sorted keys, compact, one trailing newline.

    Sorting makes the bytes independent of the order a generator built its tables in.
    """
    data = json.loads(db.model_dump_json())
    return (json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n").encode()


def db_digest(db: DomainDB) -> str:
    """Hash of a database's canonical snapshot bytes (equals the hash of its snapshot file)."""
    return hashlib.sha256(canonical_json(db)).hexdigest()


class Table(MutableMapping[str, R]):
    """One table of a `State`: reads fall through to the pristine rows, writes stay local.

    A full `MutableMapping` (``table[key] = record`` is `put`, ``del table[key]`` is `delete`),
    so a live table passes wherever a parsed one does. `items` and `values` walk the rows
    directly rather than through the generic per-key lookups of the mixins: the tools scan
    whole tables on most calls.
    """

    def __init__(self, name: str, base: Mapping[str, R], overlay: dict[str, Any]) -> None:
        self.name = name
        self._base = base
        self._overlay = overlay

    @overload
    def get(self, key: str, /) -> R | None: ...
    @overload
    def get(self, key: str, /, default: R | T) -> R | T: ...
    def get(self, key: str, /, default: Any = None) -> Any:
        if key in self._overlay:
            value = self._overlay[key]
            return default if value is _DELETED else value
        return self._base.get(key, default)

    def __getitem__(self, key: str) -> R:
        record = self.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def put(self, key: str, record: R) -> None:
        """Insert or replace a row; writing back the pristine value undoes the change."""
        if self._base.get(key) == record:
            self._overlay.pop(key, None)
        else:
            self._overlay[key] = record

    def __setitem__(self, key: str, record: R) -> None:
        self.put(key, record)

    def delete(self, key: str) -> None:
        """Remove a row if there is one (deleting a missing row is no error, unlike `del`)."""
        if key in self._base:
            self._overlay[key] = _DELETED
        else:
            self._overlay.pop(key, None)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.delete(key)

    def rows(self) -> Iterator[tuple[str, R]]:
        """The rows as this episode sees them, pristine order first, then new rows."""
        overlay = self._overlay
        if not overlay:  # the common case: iterate the pristine rows directly
            yield from self._base.items()
            return
        for key, value in self._base.items():
            if key in overlay:
                changed = overlay[key]
                if changed is not _DELETED:
                    yield key, changed
            else:
                yield key, value
        for key, changed in overlay.items():
            if key not in self._base and changed is not _DELETED:
                yield key, changed

    def items(self) -> ItemsView[str, R]:
        return _Items(self)

    def values(self) -> ValuesView[R]:
        return _Values(self)

    def __iter__(self) -> Iterator[str]:
        # Not a generator over `rows()`: tools scan whole tables for ids (`next_id`) and
        # lookups, and an untouched table's keys are the pristine dict's, iterated directly.
        if not self._overlay:
            return iter(self._base)
        return (key for key, _ in self.rows())

    def __len__(self) -> int:
        if not self._overlay:
            return len(self._base)
        return sum(1 for _ in self.rows())

    # A table is a live view of one episode, not a value: compare and hash it by identity.
    # (`Mapping` would compare contents and make it unhashable.)
    __eq__ = object.__eq__
    __hash__ = object.__hash__


class _Items(ItemsView[str, R]):
    def __init__(self, table: Table[R]) -> None:
        super().__init__(table)
        self._table = table

    def __iter__(self) -> Iterator[tuple[str, R]]:
        return self._table.rows()


class _Values(ValuesView[R]):
    def __init__(self, table: Table[R]) -> None:
        super().__init__(table)
        self._table = table

    def __iter__(self) -> Iterator[R]:
        for _, value in self._table.rows():
            yield value


class State:
    """The database as one episode sees it."""

    def __init__(self, db: DomainDB, base_digest: str) -> None:
        self.db = db
        self._base_digest = base_digest
        self._tables = db.tables()
        self._overlays: dict[str, dict[str, Any]] = {name: {} for name in self._tables}

    def table(self, name: str) -> Table[Any]:
        return Table(name, self._tables[name], self._overlays[name])

    def view(self, model: type[D]) -> D:
        """The database typed as `model` (the domain's DB class), each field a live `Table`.

        Built without validation: the fields hold tables, not dicts. Reads and writes go
        through this episode's overlay and `reset` clears them, so a tool set builds its view
        once. It is a view for tools only, never a snapshot: hash and dump the `State`.
        """
        if not isinstance(self.db, model):  # a tool set typed against another domain
            raise TypeError(f"the state holds a {type(self.db).__name__}, not a {model.__name__}")
        tables = {name: self.table(name) for name in self._tables}
        # The pydantic mypy plugin types `model_construct` of a bound TypeVar as the bound.
        return cast(D, model.model_construct(None, **tables))

    def applied(self, model: type[D]) -> D:
        """The database with this state's writes in it, as a new `model` (a generator that
        builds history through the tools keeps it): the changed tables are copies, deleted
        rows left out; the pristine database is not touched."""
        if not isinstance(self.db, model):
            raise TypeError(f"the state holds a {type(self.db).__name__}, not a {model.__name__}")
        update = {
            name: {k: v for k, v in {**self._tables[name], **overlay}.items() if v is not _DELETED}
            for name, overlay in self._overlays.items()
            if overlay
        }
        return self.db.model_copy(update=update)

    def reset(self) -> None:
        for overlay in self._overlays.values():
            overlay.clear()

    def fork(self) -> State:
        """Another state holding the same rows as this one now, to change apart from it (the
        pristine tables are shared; only the overlay is copied)."""
        forked = State(self.db, self._base_digest)
        for name, overlay in self._overlays.items():
            forked._overlays[name].update(overlay)
        return forked

    def changes(self) -> dict[str, dict[str, Any]]:
        """The overlay: rows written this episode (None for deleted rows)."""
        return {
            name: {k: (None if v is _DELETED else v) for k, v in overlay.items()}
            for name, overlay in self._overlays.items()
            if overlay
        }

    def digest(self) -> str:
        h = hashlib.sha256(self._base_digest.encode())
        for name in sorted(self._overlays):
            overlay = self._overlays[name]
            for key in sorted(overlay):
                value = overlay[key]
                h.update(f"\x00{name}\x00{key}\x00".encode())
                h.update(b"<deleted>" if value is _DELETED else value.model_dump_json().encode())
        return h.hexdigest()
