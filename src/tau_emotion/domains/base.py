"""The domain contract: what a domain folder exports, and how its files are loaded.

A domain is a subpackage of `tau_emotion.domains` that defines ``DOMAIN = Domain(...)`` in its
``__init__.py``, usually through `kit.package.domain_package`, which takes the name and root
from the folder and the databases from the generator. Its folder holds ``policy.md``, its
database snapshot(s), ``tasks/*.jsonl`` and, for the Tracer, ``tracer_profile.py``
(``TRACER = TracerSpec(...)``, see `Domain.tracer`) with the data files of ``tracer/``.
Nothing outside the folder names it: discovery is by package name.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from threading import Lock
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from tau_emotion.data import Message, Split, Task
from tau_emotion.domains.checks import PolicyCheck
from tau_emotion.domains.state import DomainDB, State, canonical_json
from tau_emotion.domains.tools import ToolKind, ToolSet
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.errors import DomainError, TaskFileError
from tau_emotion.storage import parse_jsonl

if TYPE_CHECKING:
    from tau_emotion.tracer.declaration import TracerSpec

TRACER_FILE = "tracer_profile.py"
"""The file in a domain folder that declares what the Tracer needs (``TRACER``)."""
TRACER_DATA = "tracer"
"""The folder beside it whose JSON files hold the declaration's phrases and reasons."""

T = TypeVar("T")

_DATA_FILES = {
    "phrases": "phrases.json",
    "reasons": "reasons.json",
    "transfer_reasons": "transfers.json",
}
"""The declaration's fields a domain may keep as data in ``tracer/`` instead (`_tracer_data`)."""


def _tracer_data(spec: TracerSpec, folder: Path) -> TracerSpec:
    """`spec` with the data files of `folder`: ``phrases.json``, ``reasons.json`` and
    ``transfers.json``, each read and checked by its loader. Every domain folder keeps them
    there, so its ``tracer_profile.py`` declares only what is not data."""
    from tau_emotion.tracer.declaration import load_phrases, load_reasons, load_transfer_reasons

    def read(name: str, load: Callable[[Path], T], declared: T) -> T:
        path = folder / name
        if not path.exists():
            return declared
        if declared:
            # Two sources for one field would leave a reader guessing which one the Tracer uses.
            raise DomainError(f"{path} and {TRACER_FILE} both declare what {name} holds")
        return load(path)

    return replace(
        spec,
        phrases=read(_DATA_FILES["phrases"], load_phrases, spec.phrases),
        reasons=read(_DATA_FILES["reasons"], load_reasons, spec.reasons),
        transfer_reasons=read(
            _DATA_FILES["transfer_reasons"], load_transfer_reasons, spec.transfer_reasons
        ),
    )


@dataclass(frozen=True)
class Database:
    """One database of a domain: its snapshot file and the generator that wrote it."""

    file: str
    """Snapshot file name inside the domain folder (JSON)."""
    generate: Callable[[], DomainDB]
    """Deterministic generator; its output must equal the committed snapshot."""


@dataclass(frozen=True)
class Domain:
    """Everything tau-emotion knows about one business domain."""

    name: str
    description: str
    root: Path
    db_model: type[DomainDB]
    toolset: type[ToolSet]
    databases: Mapping[str, Database]
    """Variant name -> database. Shared-DB domains have one variant, ``main``."""
    split_database: Mapping[Split, str]
    """Which database variant each split's tasks run against."""
    checks: Sequence[PolicyCheck]
    tracer_spec: TracerSpec | None = field(default=None, compare=False, repr=False)
    """The Tracer declaration, for a domain built in code (a test's); a domain package
    declares it in its own ``tracer_profile.py`` instead."""
    _cache: dict[str, tuple[DomainDB, str]] = field(default_factory=dict, compare=False, repr=False)
    _lock: Lock = field(default_factory=Lock, compare=False, repr=False)

    @cached_property
    def policy(self) -> str:
        return (self.root / "policy.md").read_text(encoding="utf-8")

    @cached_property
    def tracer(self) -> TracerSpec:
        """What the Tracer needs to know about this domain beyond its code and data: the
        given `tracer_spec`, else ``TRACER`` from the folder's ``tracer_profile.py`` with
        the phrases and reasons of its ``tracer/`` files, else the empty defaults (the Tracer
        then derives what it can)."""
        from tau_emotion.tracer.declaration import TracerSpec

        if self.tracer_spec is not None:
            return self._checked(self.tracer_spec, lambda _: "the TracerSpec given to Domain")
        if not (self.root / TRACER_FILE).exists():
            return TracerSpec()
        module = importlib.import_module(f"tau_emotion.domains.{self.name}.tracer_profile")
        spec = getattr(module, "TRACER", None)
        if not isinstance(spec, TracerSpec):
            raise DomainError(
                f"{self.root / TRACER_FILE} must define TRACER = TracerSpec(...) "
                "(tau_emotion.tracer.declaration)"
            )
        return self._checked(_tracer_data(spec, self.root / TRACER_DATA), self._declared_in)

    def _declared_in(self, field_name: str) -> str:
        """The file a field of the Tracer declaration comes from: a data file of ``tracer/``
        where there is one (`_tracer_data`), else ``tracer_profile.py``."""
        data = self.root / TRACER_DATA / _DATA_FILES.get(field_name, "")
        return str(data if field_name in _DATA_FILES and data.exists() else self.root / TRACER_FILE)

    def _checked(self, spec: TracerSpec, source: Callable[[str], str]) -> TracerSpec:
        """`spec`, or a `DomainError` naming its first entry that names no tool, argument,
        parameter or table of this domain, the file it is in and what the domain has."""
        from tau_emotion.tracer.declaration import spec_problems

        tools = {
            name: list(tool.schema["parameters"].get("properties", {}))
            for name, tool in self.toolset.specs.items()
        }
        problems = spec_problems(spec, tools, list(self.db_model.model_fields))
        if problems:
            where, problem = problems[0]
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise DomainError(f"{source(where)}: {where}: {problem}{more}")
        return spec

    @property
    def tool_kinds(self) -> dict[str, ToolKind]:
        return {name: spec.kind for name, spec in self.toolset.specs.items()}

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [spec.openai_schema() for spec in self.toolset.specs.values()]

    def variant_for(self, split: Split) -> str:
        return self.split_database[split]

    def load_db(self, variant: str) -> tuple[DomainDB, str]:
        """The pristine database and its digest, parsed once per process."""
        with self._lock:
            if variant not in self._cache:
                if variant not in self.databases:
                    raise DomainError(
                        f"domain {self.name} has no database {variant!r}; "
                        f"it has {', '.join(self.databases)}"
                    )
                path = self.root / self.databases[variant].file
                try:
                    raw = path.read_bytes()
                    db = self.db_model.model_validate_json(raw)
                except FileNotFoundError:
                    raise DomainError(
                        f"{path} is missing; regenerate it with "
                        f"`tau-emotion domains generate {self.name}`"
                    ) from None
                except ValidationError as exc:
                    raise DomainError(
                        f"{path} does not match the {self.name} schema: {exc}"
                    ) from None
                # The file is canonical JSON, so hashing its bytes equals db_digest(db).
                self._cache[variant] = (db, hashlib.sha256(raw).hexdigest())
            return self._cache[variant]

    def fresh_tools(self, variant: str) -> ToolSet:
        """The domain's tools over a fresh state of database `variant` (cheap: an empty
        overlay over the shared pristine snapshot); judged policy checks replay writes on it."""
        return self.toolset(State(*self.load_db(variant)))

    def trajectory(self, messages: Sequence[Message], variant: str) -> Trajectory:
        """A conversation on database `variant`, indexed for this domain's policy checks."""
        return Trajectory(messages, self.tool_kinds, lambda: self.fresh_tools(variant))

    def variant_of_task(self, task_id: str) -> str:
        """The database variant a shipped task of this domain runs against (for auditing a
        stored episode, which names its task but not its split); the test split's for a task
        the domain does not ship."""
        if len(self.databases) == 1:
            return next(iter(self.databases))
        split = self._task_splits.get(task_id, "test")
        return self.variant_for(split)

    @cached_property
    def _task_splits(self) -> dict[str, Split]:
        return {task.id: task.split for task in self.tasks()}

    def task_files(self) -> list[Path]:
        return sorted((self.root / "tasks").glob("*.jsonl"))

    def tasks(self, split: Split | None = None, task_file: str | None = None) -> list[Task]:
        """All tasks of the domain (optionally of one split, or one tasks/NAME.jsonl), in order.

        Task ids are checked for duplicates across all files, whichever file is picked.
        """
        files = self.task_files()
        if task_file is not None and task_file not in {f.stem for f in files}:
            names = ", ".join(f.stem for f in files) or "none"
            raise TaskFileError(
                f"domain {self.name} has no task file {task_file!r} (tasks/*.jsonl: {names})"
            )
        per_file = [(path.stem, load_tasks(path, list(self.toolset.specs))) for path in files]
        tasks = [t for _, file_tasks in per_file for t in file_tasks]
        for t in tasks:
            if t.domain != self.name:
                raise TaskFileError(
                    f"task {t.id} in {self.root / 'tasks'} names domain {t.domain!r}"
                )
        seen: set[tuple[str, str]] = set()
        for t in tasks:
            if (t.split, t.id) in seen:
                raise TaskFileError(f"domain {self.name}: task id {t.id!r} appears twice")
            seen.add((t.split, t.id))
        if task_file is not None:
            tasks = next(file_tasks for stem, file_tasks in per_file if stem == task_file)
        return [t for t in tasks if split is None or t.split == split]


def load_tasks(path: Path, tools: Collection[str] | None = None) -> list[Task]:
    """Read a task JSONL file; a bad line raises `TaskFileError` naming file and line, as
    does, given the domain's `tools`, a task whose actions name another."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        detail = f"{exc.reason} at byte {exc.start}"
        raise TaskFileError(f"{path} is not UTF-8 text ({detail})") from None
    except OSError as exc:
        raise TaskFileError(f"{path} cannot be read: {exc.strerror or exc}") from None

    def refuse(lineno: int, problem: str) -> TaskFileError:
        # One line: the CLI prints this message as is.
        return TaskFileError(f"{path}:{lineno}: not a valid task ({problem})")

    numbered = parse_jsonl(text, Task, refuse)
    if tools is not None:
        for lineno, task in numbered:
            problem = unknown_tool(task, tools)
            if problem is not None:
                raise TaskFileError(f"{path}:{lineno}: task {task.id}: {problem}")
    return [task for _, task in numbered]


def unknown_tool(task: Task, tools: Collection[str]) -> str | None:
    """The first action of `task` (gold, or a challenge's forbidden one) naming no tool in
    `tools`: such a task used to load, and its every episode ended in a framework_error."""
    named = [("gold action", a.name) for a in task.gold_actions]
    if task.challenge is not None:
        named += [("forbidden action", a.name) for a in task.challenge.forbidden]
    for what, name in named:
        if name not in tools:
            return f"{what} {name!r} is no tool of the domain; its tools: {', '.join(tools)}"
    return None


def write_tasks(path: Path, tasks: Sequence[Task]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for t in tasks:
            fh.write(t.model_dump_json(exclude_defaults=False) + "\n")


def write_snapshot(db: DomainDB, path: Path) -> None:
    """Write a database snapshot in the canonical format (see `canonical_json`)."""
    path.write_bytes(canonical_json(db))
