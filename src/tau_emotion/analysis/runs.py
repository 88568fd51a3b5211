"""Run directories and the episode helpers every analysis needs.

A run directory holds `results.jsonl` (one episode per line) and `manifest.json` (the resolved
configuration). Analyses work on `Run` objects and never re-run anything; tasks are looked up
in the domains by (domain, task id) to recover gold actions, facts and neutral twins.
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
class Run:
    """One run directory: its label, resolved configuration and episodes (in key order)."""

    path: Path
    label: str
    config: dict[str, Any]
    code_version: str
    episodes: list[Episode]

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
    manifest = path / MANIFEST_FILE
    if manifest.exists():
        data = _manifest_data(manifest)
        config = dict(data.get("config") or {})
        code_version = str(data.get("code_version") or "")
    return Run(path, label or path.resolve().name, config, code_version, episodes)


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


def tool_kinds(domain: str) -> dict[str, ToolKind]:
    """read / write / terminal per tool of a domain; empty for an unknown domain."""
    from tau_emotion.domains import domain_names, load_domain

    return load_domain(domain).tool_kinds if domain in domain_names() else {}


def episode_ref(episode: Episode) -> str:
    """'domain/task#trial', how reports name an episode."""
    return f"{episode.domain}/{episode.task_id}#{episode.trial}"
