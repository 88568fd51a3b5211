"""JSONL in and out for the stages: validated on read, appended and flushed on write.

A stage is resumable because it appends one line per finished item and, on a restart, skips
the keys its output already holds. A torn last line (a crash mid-write) is dropped on read.
Anything else that cannot be read is a `DamagedFileError` naming the file and the line: a
stage that went on past it would work from part of its input and say nothing.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from tau_emotion.data import Split
from tau_emotion.errors import describe
from tau_emotion.inputs import InputError
from tau_emotion.storage import DamagedFileError

M = TypeVar("M", bound=BaseModel)


def _lines(path: Path) -> tuple[list[bytes], bool]:
    """The lines of a file (without their newlines), and whether the last one is torn.

    Every record is written with its newline in one go, so a file that does not end with a
    newline was cut short in the middle of its last record; one that does holds no torn line.
    Lines are split on b"\\n" alone: a record's text may hold U+2028 and the like, which
    `str.splitlines` would split on."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise DamagedFileError(f"{path} is a folder, not a file") from None
    except OSError as exc:
        raise DamagedFileError(f"{path} cannot be read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the split after the final newline (or of an empty file)
    return lines, not data.endswith(b"\n") and bool(lines)


def _text(path: Path, lineno: int, line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DamagedFileError(
            f"{path} line {lineno} is not UTF-8 text (byte 0x{line[exc.start]:02x})"
        ) from None


def read_jsonl(path: Path, model: type[M]) -> list[M]:
    """All records of a file (none when it does not exist), or `DamagedFileError` naming the
    file and line of the first that cannot be read. A torn last line after at least one good
    record is skipped: a crash cut it short, and its item will simply be redone. A file with
    no good record is not torn but damaged (or not a stage file at all)."""
    if not path.exists():
        return []
    records: list[M] = []
    lines, torn = _lines(path)
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        tail = torn and lineno == len(lines) and bool(records)
        try:
            records.append(model.model_validate_json(_text(path, lineno, line)))
        except (DamagedFileError, ValidationError) as exc:
            if tail:
                break
            if isinstance(exc, DamagedFileError):
                raise
            # One line is one JSON document, so pydantic's "at line 1" says nothing.
            detail = (describe(exc) or str(exc)).replace(" at line 1 column ", " at column ")
            raise DamagedFileError(
                f"{path} line {lineno} is not a valid {model.__name__} record: {detail}"
            ) from None
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
    """Values of one top-level field over the lines already written (for resuming).

    A torn last line is not done, even where it happens to parse: the appender cuts it off
    before it writes. Any other line that is not a JSON object is `DamagedFileError`, raised
    before the stage appends to a file it could not read back."""
    if not path.exists():
        return set()
    keys: set[str] = set()
    lines, torn = _lines(path)
    if torn:
        lines.pop()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(_text(path, lineno, line))
        except json.JSONDecodeError as exc:
            raise DamagedFileError(
                f"{path} line {lineno} is not valid JSON ({exc.msg} at column {exc.colno})"
            ) from None
        if not isinstance(record, dict):
            raise DamagedFileError(f"{path} line {lineno} is not a JSON object")
        value = record.get(key)
        if isinstance(value, str):
            keys.add(value)
    return keys


PLAIN_EVERY_SECONDS = 30.0
"""Off a terminal, a stage's progress is a plain line this often, and one when it ends."""


def stage_label(path: Path) -> str:
    """What a progress line or bar says of the stage writing `path`
    (OUT/<domain>/<stage>[-<split>].jsonl): ``<domain>: ground (train)``. It said
    ``ground ground-train``, so a build of many domains never showed which one ran."""
    stage, _, split = path.stem.partition("-")
    return f"{path.parent.name}: {stage}" + (f" ({split})" if split else "")


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m{secs:02d}s"


@contextmanager
def progress(
    stage: Path,
    total: int,
    enabled: bool = True,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Callable[[], None]]:
    """A rich progress bar on a terminal; `advance()` moves it one step. Off a terminal (a
    log, CI, nohup) plain lines on stderr instead, every `PLAIN_EVERY_SECONDS` and at the
    end: the bar rendered nothing there but blank lines, so a half-hour build logged no
    progress at all. Disabled: a no-op. `stage` is the file the stage writes (`stage_label`)."""
    description = stage_label(stage)  # the stage writing `stage`, named by its file
    if not enabled or total == 0:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    if not Console().is_terminal:
        started = last = clock()
        done = 0

        def line() -> None:
            elapsed = _duration(clock() - started)
            print(f"{description}: {done}/{total}  {elapsed}", file=sys.stderr, flush=True)

        def advance() -> None:
            nonlocal done, last
            done += 1
            if done == total or clock() - last >= PLAIN_EVERY_SECONDS:
                last = clock()
                line()

        yield advance
        return
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


Settings = Mapping[str, Any]
"""What a stage file's content depends on besides its input (seed, test pool, mapper...):
JSON values, recorded beside the file when the stage starts it."""


def settings_path(path: Path) -> Path:
    """Where a stage file's settings lie: OUT/<domain>/<stage>[-<split>].settings.json."""
    return path.with_name(f"{path.stem}.settings.json")


def check_settings(path: Path, settings: Settings) -> None:
    """`InputError` naming the first setting the stage file at `path` was made with other
    than `settings`. A stage appends what its file lacks, so a rerun with another seed or
    test pool used to mix the two runs' records and call the result a build of the new
    settings. Files made before settings were recorded have none, and are not checked."""
    recorded = settings_path(path)
    if not path.exists() or not recorded.is_file():
        return
    try:
        had = json.loads(recorded.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DamagedFileError(f"{recorded} cannot be read: {exc}") from None
    if not isinstance(had, dict):
        raise DamagedFileError(f"{recorded} is not a JSON object of settings")
    wanted = json.loads(json.dumps(settings))  # as JSON holds them (int keys become str)
    for key in sorted({*had, *wanted}):
        if had.get(key) != wanted.get(key):
            before, now = json.dumps(had.get(key)), json.dumps(wanted.get(key))
            raise InputError(
                f"{path} was made with {key}={before}, not {key}={now}: rerun with the "
                f"settings it was made with to resume it, or use another --out "
                f"(or delete {path.parent.parent})"
            )


def resume_from(path: Path, key: str, settings: Settings) -> set[str]:
    """What a stage resumes from: the `key` values of the records its file at `path` already
    holds (`done_keys`), once the file is known to be made with `settings`
    (`check_settings`). A file the stage is about to start gets them recorded beside it."""
    have = done_keys(path, key)  # first: a damaged file leaves nothing new behind
    check_settings(path, settings)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(settings, indent=1, sort_keys=True) + "\n"
        settings_path(path).write_text(text, encoding="utf-8")
    return have
