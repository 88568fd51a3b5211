"""How text lands on disk: always encodable, never holding a secret, rewritten atomically.

Every writer of run files (results, manifest, metrics, cache, report) goes through here:

- `encodable` replaces lone surrogates (U+D800..U+DFFF), which UTF-8 cannot encode. They
  arrive from endpoints that send ``"\\ud800"`` escapes and from bytes decoded with
  ``surrogateescape``; one of them in an episode used to crash the run at write time and
  again at ``--resume``. The models' boundary replaces them too; this is the backstop.
- `model_json` serialises a pydantic model like ``model_dump_json``, falling back to a
  scrubbed copy only when the fast path meets such a character, and redacts secrets.
- `write_atomic` replaces a file whole (temp file in the same folder, fsync, rename), so a
  kill mid-write leaves the old file or the new one, never half of one.
- `read_model` loads a file that a run rewrites and names it when it is damaged.
- `file_lock` makes the writers of one file (or one run folder) take turns.
- `parse_jsonl` reads JSONL records, naming the first bad line through the caller's error.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pydantic_core
from pydantic import BaseModel, ValidationError

from tau_emotion.errors import TauEmotionError, first_problem
from tau_emotion.redact import redact

M = TypeVar("M", bound=BaseModel)

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


class DamagedFileError(TauEmotionError):
    """A file a run wrote cannot be read back; the message names the file."""


class FileBusyError(TauEmotionError):
    """Another writer holds the lock of a file (`file_lock` without waiting)."""


def encodable(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD, so that UTF-8 can encode it."""
    if text.isascii():
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def encodable_value(value: Any) -> Any:
    """`encodable` applied to every string (keys too) inside JSON-like data."""
    if isinstance(value, str):
        return encodable(value)
    if isinstance(value, dict):
        return {encodable_value(k): encodable_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encodable_value(v) for v in value]
    return value


def model_json(model: BaseModel, indent: int | None = None) -> str:
    """``model.model_dump_json(indent=...)``, with surrogates replaced and secrets redacted."""
    try:
        text = model.model_dump_json(indent=indent)
    except pydantic_core.PydanticSerializationError:
        # Only unencodable text gets here. The same serialiser on the scrubbed JSON-mode dump
        # writes numbers exactly as model_dump_json does, so the bytes differ only where a
        # surrogate was.
        data = encodable_value(model.model_dump(mode="json"))
        text = pydantic_core.to_json(data, indent=indent).decode()
    return redact(text)


def safe_text(text: str) -> str:
    """Text made fit to store or print: encodable, with secrets redacted."""
    return redact(encodable(text))


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8, made safe) so a reader never sees half a file.

    The file gets the mode a plain write would give it: an existing file's own, else what
    the umask allows (a temp file is created owner-only, and a report or metrics file that
    others could not read was a surprise).
    """
    data = safe_text(text).encode("utf-8")
    if path.is_dir():  # else os.replace would name its temp file, not the path given
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    _make_folder(path.parent)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _make_folder(folder: Path) -> None:
    """Create `folder` and its parents; a file in the way is named as such ("out.json is a
    file, not a folder"), where mkdir would only say "File exists"."""
    for place in (folder, *folder.parents):
        if place.exists():
            if not place.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "is a file, not a folder", str(place))
            break
    folder.mkdir(parents=True, exist_ok=True)


def _umask() -> int:
    """The process's umask now, read without changing it where Linux shows it (setting it to
    read it back is not safe while other threads create files)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def file_lock(path: Path, wait: bool = True) -> Iterator[None]:
    """Hold an exclusive lock beside `path` (``.<name>.lock``) for the block: writers of one
    file, or of one run folder, take turns. Without `wait`, a lock another process (or
    thread) holds is `FileBusyError` at once. The lock goes with the process, so a killed
    writer never leaves one behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with (path.parent / f".{path.name}.lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FileBusyError(f"{path} is being written by another process") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable; some file systems cannot open a folder, which is fine."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_model(path: Path, model: type[M]) -> M:
    """Load a JSON file written by `write_atomic`; `DamagedFileError` names it if broken."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise DamagedFileError(f"{path} is a folder, not a file") from None
    try:
        data.decode("utf-8")  # pydantic would only say "invalid unicode code point"
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DamagedFileError(
            f"{path} is damaged: not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})"
        ) from None
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise DamagedFileError(f"{path} is damaged: {first_problem(exc)}") from None


def parse_jsonl(
    text: str, model: type[M], refuse: Callable[[int, str], Exception]
) -> list[tuple[int, M]]:
    """Each non-blank line of JSONL `text` as `model`, with its line number; the first line
    that is not one raises ``refuse(line number, its first problem)``, the caller's error
    naming its file. Lines are split on newlines only: `str.splitlines` also splits at
    U+2028 and the like, which a JSON string may hold unescaped."""
    records: list[tuple[int, M]] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append((lineno, model.model_validate_json(line)))
        except ValidationError as exc:
            raise refuse(lineno, first_problem(exc)) from None
    return records
