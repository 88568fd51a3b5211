"""Run directories and the episode helpers every analysis needs.

A run directory holds `results.jsonl` (one episode per line) and `manifest.json` (the resolved
configuration, and how far the run got). Analyses work on `Run` objects and never re-run
anything; tasks are looked up by (domain, task id) to recover gold actions, facts and neutral
twins: in the run's own task source (`--tasks`) when it had one, else in the domains.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from pydantic import BaseModel, Field

from tau_emotion.data import Episode, Task, TerminationReason
from tau_emotion.domains.tools import ToolKind
from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.errors import TauEmotionError
from tau_emotion.evaluation.metrics import MetricsReport, compute_metrics
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, load_episodes

TaskKey = tuple[str, str]
"""(domain, task id)."""
ERROR_TERMINATIONS = frozenset(
    {
        TerminationReason.INFRA_ERROR,
        TerminationReason.FRAMEWORK_ERROR,
        TerminationReason.USER_ERROR,
    }
)
"""Endings that are not the agent's doing: an endpoint, the framework or the simulator broke."""


class RunDirError(TauEmotionError):
    """A path is not a readable run directory."""


@dataclass(frozen=True)
class RunProgress:
    """How far the manifest says the run got; None where an older manifest does not say."""

    finished: bool | None
    """Whether it records a finish time."""
    total: int | None
    """Episodes the run planned."""


@dataclass(frozen=True)
class Run:
    """One run directory: its label, resolved configuration and episodes (in key order)."""

    path: Path
    label: str
    config: dict[str, Any]
    code_version: str
    episodes: list[Episode]
    progress: RunProgress | None = None
    """None without a manifest (a hand-made run): nothing to say about its completion."""

    @property
    def no_emotion(self) -> bool:
        return bool(self.config.get("no_emotion")) or all(e.emotion is None for e in self.episodes)

    @property
    def split(self) -> str | None:
        split = self.config.get("split")
        return split if isinstance(split, str) else None

    @property
    def agent(self) -> str:
        """'strategy / model', e.g. 'tool-calling / Qwen/Qwen3-8B' or 'oracle'."""
        return _participant(self.config, "agent")

    @property
    def user(self) -> str:
        return _participant(self.config, "user")


def _participant(config: Mapping[str, Any], role: str) -> str:
    kind = str(config.get(role, "?"))
    model = config.get(f"{role}_model")
    if isinstance(model, dict) and model.get("model"):
        return f"{kind} / {model['model']}"
    return kind


def load_run(path: Path, label: str | None = None) -> Run:
    """Read a run directory; a missing manifest is tolerated (older or hand-made runs)."""
    results = path / RESULTS_FILE
    if not results.exists():
        raise RunDirError(f"{results} does not exist; is {path} a run directory?")
    episodes = sorted(load_episodes(results).values(), key=lambda e: e.key)
    config: dict[str, Any] = {}
    code_version = ""
    progress = None
    manifest = path / MANIFEST_FILE
    if manifest.exists():
        data = _manifest_data(manifest)
        config = dict(data.get("config") or {})
        code_version = str(data.get("code_version") or "")
        progress = _progress(data)
    return Run(path, label or path.resolve().name, config, code_version, episodes, progress)


def read_progress(path: Path) -> RunProgress | None:
    """The progress a run directory's manifest records; None without a manifest."""
    manifest = path / MANIFEST_FILE
    return _progress(_manifest_data(manifest)) if manifest.exists() else None


def _progress(data: Mapping[str, Any]) -> RunProgress:
    total = data.get("episodes_total")
    return RunProgress(
        finished=data["finished_at"] is not None if "finished_at" in data else None,
        # 0 is the field's default: a manifest that never counted its episodes.
        total=total if isinstance(total, int) and total > 0 else None,
    )


def unfinished_warning(progress: RunProgress | None, recorded: int) -> str | None:
    """A warning when the manifest says the run did not finish; None when it did (or cannot
    say). The episodes counted are those on disk: a killed run may never have updated the
    manifest's own count."""
    if progress is None:
        return None
    short = progress.total is not None and recorded < progress.total
    if not short and progress.finished is not False:
        return None
    facts = []
    if progress.total is not None:
        facts.append(f"{recorded} of {progress.total} planned episodes are recorded")
    if progress.finished is False:
        facts.append("its manifest has no finish time")
    return (
        f"the run is unfinished: {' and '.join(facts)}; missing tasks and trials are in no "
        "figure (`tau-emotion run` with the same options and --resume finishes it)"
    )


def run_metrics(run: Run, seed: int = 0) -> MetricsReport:
    """`compute_metrics` over a run's episodes, warning first when the run is unfinished:
    what `tau-emotion metrics`, metrics.json and the report all show."""
    return with_unfinished_warning(
        compute_metrics(run.episodes, seed), run.progress, len(run.episodes)
    )


def with_unfinished_warning(
    metrics: MetricsReport, progress: RunProgress | None, recorded: int
) -> MetricsReport:
    warning = unfinished_warning(progress, recorded)
    if warning is None:
        return metrics
    return metrics.model_copy(update={"warnings": [warning, *metrics.warnings]})


def _manifest_data(manifest: Path) -> dict[str, Any]:
    """The manifest's JSON object; a damaged one is named, not a traceback (a run killed while
    it wrote the file, or one edited by hand)."""
    try:
        data = json.loads(manifest.read_bytes())
    except OSError as exc:
        raise RunDirError(f"{manifest} cannot be read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunDirError(f"{manifest} is damaged: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{manifest} is damaged: expected a JSON object")
    if not isinstance(data.get("config") or {}, dict):
        raise RunDirError(f"{manifest} is damaged: 'config' is not an object")
    return data


def load_runs(paths: Sequence[Path]) -> list[Run]:
    """Several runs; labels are the folder names, made unique with a suffix when they clash."""
    runs: list[Run] = []
    seen: dict[str, int] = {}
    for path in paths:
        name = path.resolve().name
        seen[name] = seen.get(name, 0) + 1
        runs.append(load_run(path, name if seen[name] == 1 else f"{name}#{seen[name]}"))
    return runs


def family_of(episode: Episode) -> str:
    return episode.emotion.family if episode.emotion else NEUTRAL


class EpisodeRow(BaseModel):
    """Which episode a row of an analysis is about: the first fields of every per-episode
    row (empathy, failures, hallucinations, policy, tool use), so the report and the viewer
    join on them."""

    domain: str = Field(description="Domain.")
    task_id: str = Field(description="Task id.")
    trial: int = Field(description="Trial.")
    family: str = Field(description=f"Emotion family ({NEUTRAL!r} when neutral).")


class EpisodeFields(TypedDict):
    domain: str
    task_id: str
    trial: int
    family: str


def episode_fields(episode: Episode) -> EpisodeFields:
    """An `EpisodeRow`'s fields for one episode: `Row(**episode_fields(e), ...)`."""
    return EpisodeFields(
        domain=episode.domain,
        task_id=episode.task_id,
        trial=episode.trial,
        family=family_of(episode),
    )


def emotion_of(episode: Episode) -> str:
    return episode.emotion.emotion if episode.emotion else NEUTRAL


def task_index(domains: Iterable[str], split: str | None = None) -> dict[TaskKey, Task]:
    """Tasks of the named domains by (domain, id); unknown domains are skipped.

    An id may exist in both splits; the run's split wins, then 'test'.
    """
    from tau_emotion.domains import domain_names, load_domain

    known = set(domain_names())
    index: dict[TaskKey, Task] = {}
    for name in sorted(set(domains)):
        if name not in known:
            continue
        tasks = load_domain(name).tasks()
        preferred = [t for t in tasks if t.split == (split or "test")]
        for t in [*tasks, *preferred]:  # later entries win: the preferred split last
            index[(t.domain, t.id)] = t
    return index


def run_tasks(run: Run) -> tuple[dict[TaskKey, Task], str | None]:
    """The tasks a run played, by (domain, id), and a warning when some cannot be known.

    A run of `--tasks PATH` (a task JSONL or a Tracer build folder) played that source's
    tasks, which may hold ids the domains do not (their neutral twins among them) or the
    shipped ids with other content: its tasks win over the domains' own. When the source
    cannot be found or read from here, the domains' tasks are all there is, and the warning
    says what that leaves unchecked."""
    index = task_index({e.domain for e in run.episodes}, run.split)
    source = run.config.get("tasks")
    if not source:
        return index, None
    found = _find_source(Path(str(source)), run)
    lost = (
        "; episodes of tasks that are not also shipped ones cannot be paired with a neutral "
        "twin, diffed against gold writes or checked for user hallucinations"
    )
    if found is None:
        where = "run the report from the folder the run was started in"
        return index, f"the run's task source (--tasks {source}) is not found ({where}){lost}"
    try:
        played = _read_source(found, run)
    except TauEmotionError as exc:
        return index, f"the run's task source (--tasks {source}) cannot be read ({exc}){lost}"
    return {**index, **played}, None


def _find_source(source: Path, run: Run) -> Path | None:
    """`--tasks` as the run recorded it; a relative path is tried from here, then from where
    the run was started (its --out, recorded relative to it, locates that folder)."""
    if source.is_absolute():
        return source if source.exists() else None
    tried = [source, run.path.parent / source]
    out = Path(str(run.config.get("out") or ""))
    here = run.path.resolve().parts
    if out.parts and not out.is_absolute() and here[-len(out.parts) :] == out.parts:
        tried.append(Path(*here[: -len(out.parts)]) / source)
    return next((p for p in tried if p.exists()), None)


def _read_source(path: Path, run: Run) -> dict[TaskKey, Task]:
    from tau_emotion.domains.base import load_tasks

    if path.is_dir():  # a Tracer build folder: (tasks/)<domain>/<split or task file>.jsonl
        base = path / "tasks" if (path / "tasks").is_dir() else path
        name = str(run.config.get("task_file") or run.split or "test")
        files = [base / d / f"{name}.jsonl" for d in sorted({e.domain for e in run.episodes})]
        files = [f for f in files if f.exists()]
        if not files:
            raise RunDirError(f"{path} holds no {name}.jsonl of the run's domains")
    else:
        files = [path]
    tasks = [t for f in files for t in load_tasks(f)]
    preferred = [t for t in tasks if t.split == (run.split or "test")]
    return {(t.domain, t.id): t for t in [*tasks, *preferred]}


def tool_kinds(domain: str) -> dict[str, ToolKind]:
    """read / write / terminal per tool of a domain; empty for an unknown domain."""
    from tau_emotion.domains import domain_names, load_domain

    return load_domain(domain).tool_kinds if domain in domain_names() else {}


def episode_ref(episode: Episode) -> str:
    """'domain/task#trial', how reports name an episode."""
    return f"{episode.domain}/{episode.task_id}#{episode.trial}"
