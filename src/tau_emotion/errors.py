"""The error model, in one place.

- `ToolError`: a tool refused (bad state, policy, unknown entity, invalid arguments). Its
  text goes back to the agent as the tool result; the episode goes on.
- `ModelError`: a model endpoint failed after its retries (infrastructure). The episode is
  recorded with termination ``infra_error`` and counted in the metrics, never dropped.
- `ParticipantError`: a participant produced output that could not be used even after its
  own retries (e.g. an unparseable simulator reply). Recorded as ``agent_error`` or
  ``user_error``.
- `TaskFileError` / `DomainError`: broken input files and domains; raised at load time with
  the file, line and problem named, before any episode runs.
- `inputs.InputError` / `storage.DamagedFileError`: a path, file, folder or base URL the
  user gave cannot be used, or a file a run wrote is damaged; raised before the first
  episode, naming the input. The CLI turns every `TauEmotionError` into one line and exit
  status 2 (`cli.errors`); a run's endpoint failures set statuses 3-5 (`runner.outcome`).
- A tool argument that is not finite, out of range or not encodable is refused at the tool
  boundary (`domains.tools`) as a `ToolError`, so no tool sees it and no database holds it.

`describe` is the one-line text of an error caused by input (None for a bug): the CLI prints
it, and library code that wraps such an error in its own quotes it. A message names an input
the way its caller gave it (`named`): ``--out`` on the command line, ``out`` from the Python
API, which runs its checks inside `python_names`.

Any other exception inside an episode is a bug; the runner still records it on the episode
(kind ``bug``) so a run never crashes half-way, and tests fail on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pydantic import ValidationError


class TauEmotionError(Exception):
    """Base of all errors this package raises on purpose."""


class ToolError(TauEmotionError):
    """A tool refused; the message is shown to the agent."""


class ModelError(TauEmotionError):
    """A model endpoint failed after retries."""


class ParticipantError(TauEmotionError):
    """A participant could not produce a usable turn."""


class DomainError(TauEmotionError):
    """A domain is missing, malformed, or inconsistent."""


class TaskFileError(TauEmotionError):
    """A task file could not be read; the message names the file and line."""


def describe(exc: BaseException) -> str | None:
    """The user-facing text of an error caused by input, or None for a bug."""
    if isinstance(exc, TauEmotionError):
        return str(exc)
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {_message(e['msg'])}"
            if e["loc"]
            else _message(e["msg"])
            for e in exc.errors()
        )
    if isinstance(exc, UnicodeError):
        return f"input is not valid UTF-8 text ({exc})"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    return None


def _message(msg: str) -> str:
    # pydantic prefixes the text of a validator's ValueError; the reader wants the text.
    return str(msg).removeprefix("Value error, ")


def first_problem(exc: ValidationError, under: str = "") -> str:
    """The first problem pydantic found, on one line: ``field.path: message`` (``under``
    prefixes the path), or the message alone for the whole input. One only: a line that is
    not JSON at all has one, but a record from another version can have dozens, which would
    not fit the one error line a file's problem is reported in."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in (under, *first["loc"]) if p != "")
    return f"{where}: {first['msg']}" if where else str(first["msg"])


_PYTHON_NAMES: ContextVar[bool] = ContextVar("tau_emotion_python_names", default=False)


def named(flag: str, keyword: str) -> str:
    """How a message names an input: its command-line `flag` (``--out``), or its `keyword`
    (``out``) when the Python API is the caller; a notebook user never typed ``--out``."""
    return keyword if _PYTHON_NAMES.get() else flag


@contextmanager
def python_names() -> Iterator[None]:
    """Within the block (this thread, and the tasks and threads it starts with a copy of its
    context), messages name inputs by their keyword arguments (`named`)."""
    token = _PYTHON_NAMES.set(True)
    try:
        yield
    finally:
        _PYTHON_NAMES.reset(token)
