"""JSONL in and out for the stages: validated on read, appended and flushed on write.

A stage is resumable because it appends one line per finished item and, on a restart, skips
the keys its output already holds. A torn last line (a crash mid-write) is dropped on read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from tau_emotion.data import Split

M = TypeVar("M", bound=BaseModel)


def read_jsonl(path: Path, model: type[M]) -> list[M]:
    """All valid records of a file (none when it does not exist); a torn last line is skipped."""
    if not path.exists():
        return []
    records: list[M] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(model.model_validate_json(line))
        except ValidationError:
            if lineno == len(lines):
                break  # a line cut short by a crash: the item will simply be redone
            raise
    return records


def write_jsonl(path: Path, records: Iterable[BaseModel]) -> None:
    """Replace a file with these records."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(r.model_dump_json() + "\n")


def _truncate_torn_tail(path: Path) -> None:
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


@contextmanager
def appender(path: Path) -> Iterator[Callable[[BaseModel], None]]:
    """Append records one line at a time, flushed, so a crash loses at most the current one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        _truncate_torn_tail(path)
    fh: IO[str] = path.open("a", encoding="utf-8")
    try:

        def add(record: BaseModel) -> None:
            fh.write(record.model_dump_json() + "\n")
            fh.flush()

        yield add
    finally:
        fh.close()


def done_keys(path: Path, key: str) -> set[str]:
    """Values of one top-level field over the lines already written (for resuming)."""
    if not path.exists():
        return set()
    keys: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line).get(key)
        except json.JSONDecodeError:
            continue
        if isinstance(value, str):
            keys.add(value)
    return keys


@contextmanager
def progress(description: str, total: int, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """A rich progress bar; `advance()` moves it one step. Disabled: a no-op."""
    if not enabled or total == 0:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda: bar.advance(task)


def in_order(records: Sequence[M], order: Sequence[str], key: Callable[[M], str]) -> list[M]:
    """Records sorted by the position of their key in `order` (unknown keys last, stable)."""
    position = {k: i for i, k in enumerate(order)}
    return sorted(records, key=lambda r: position.get(key(r), len(position)))


StageName = Literal["walks", "ground", "feel", "validate"]


"""Stages whose output is one JSONL file per domain (and split) in a build folder."""


def stage_path(out: Path, domain: str, stage: StageName, split: Split | None = None) -> Path:
    """Where a stage's file lies: OUT/<domain>/<stage>[-<split>].jsonl."""
    suffix = f"-{split}" if split else ""
    return out / domain / f"{stage}{suffix}.jsonl"
