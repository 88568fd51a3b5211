"""Append-only result files: one JSON line per finished episode, safe against kill -9.

Each episode is written as one complete line with a single write and flushed to disk, so a
killed run leaves at most one partial last line. Loading drops that partial line (and
truncates it away before appending again); a last line that is a whole record without its
newline (a writer stopped between the two, a copied file) is kept by both, and the newline
added before appending. Later lines for the same (domain, task, trial)
supersede earlier ones, so re-running failed episodes never needs a rewrite of the file.
Lines go through `storage.model_json`: text UTF-8 cannot encode (a lone surrogate from an
endpoint) is replaced and secrets are redacted, so no episode can crash the writer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from tau_emotion.data import Episode, RunManifest
from tau_emotion.errors import TauEmotionError, first_problem
from tau_emotion.runner.config import STORED, RunConfig
from tau_emotion.storage import DamagedFileError, model_json, read_model

RESULTS_FILE = "results.jsonl"
MANIFEST_FILE = "manifest.json"
METRICS_FILE = "metrics.json"

EpisodeKey = tuple[str, str, int]


class ResultsFileError(TauEmotionError):
    """A results file is corrupt somewhere other than its last line."""


def load_episodes(path: Path) -> dict[EpisodeKey, Episode]:
    """Episodes by (domain, task_id, trial); the last record of a key wins."""
    episodes: dict[EpisodeKey, Episode] = {}
    if not path.exists():
        return episodes
    if not path.is_file():
        raise ResultsFileError(f"{path} is not a file")
    data = path.read_bytes()
    lines = data.split(b"\n")
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            episode = Episode.model_validate_json(line)
        except ValidationError as exc:
            if lineno == len(lines):  # the partial last line of a killed run
                continue
            problem = first_problem(exc)
            raise ResultsFileError(
                f"{path} is damaged: line {lineno} is not a valid episode record ({problem})"
            ) from None
        episodes[episode.key] = episode
    return episodes


def _is_episode(line: bytes) -> bool:
    try:
        Episode.model_validate_json(line)
    except ValidationError:
        return False
    return True


def repair_tail(path: Path) -> None:
    """Make the file end with a newline before appending: a last line without one is kept
    (newline added) when it is a whole episode, as `load_episodes` keeps it, and cut when it
    is the partial line of a killed writer, as `load_episodes` drops it. (Cutting a whole
    record that resume counted as done would lose that episode for good.)"""
    if not path.exists():
        return
    with path.open("rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        data = path.read_bytes()
        start = data.rfind(b"\n") + 1
        if data[start:].strip() and _is_episode(data[start:]):
            fh.seek(size)
            fh.write(b"\n")
        else:
            fh.truncate(start)


class ResultsWriter:
    """Appends episodes to a results file, one flushed line each."""

    def __init__(self, path: Path, fsync: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(path)
        self._path = path
        self._fh = path.open("ab")
        self._fsync = fsync
        # (lines appended, file size after them), as of the last append seen to finish. One
        # attribute, so that a Ctrl-C cannot land between updating the two.
        self._mark = (0, self._fh.tell())

    def append(self, episode: Episode) -> None:
        line = model_json(episode).encode() + b"\n"
        self._fh.write(line)
        self._fh.flush()
        if self._fsync:
            os.fsync(self._fh.fileno())
        lines, end = self._mark
        self._mark = (lines + 1, end + len(line))

    def lines_written(self) -> int:
        """Complete lines this writer appended, as the file holds them: the bytes past the
        last finished append are read back, so an append that a Ctrl-C cut short after its
        write (in the fsync, where a signal most often lands) still counts."""
        if not self._fh.closed:
            self._fh.flush()
        lines, end = self._mark
        with self._path.open("rb") as fh:
            fh.seek(end)
            return lines + fh.read().count(b"\n")

    def close(self) -> None:
        self._fh.close()


class RunFolderError(TauEmotionError):
    """A folder given as a run cannot be read as one; the message names it and says why."""


@dataclass(frozen=True)
class RunFolder:
    """What a run folder holds: its manifest, the config it ran with, and its episodes (the
    last record of each key)."""

    manifest: RunManifest
    config: RunConfig
    episodes: list[Episode]


def read_run_folder(run_dir: Path) -> RunFolder:
    """The run in `run_dir` (finished or interrupted), for `Results.load` and the commands
    that take runs to draw from (``mix --from``); its config's `out` is `run_dir`, where it
    was found. Every problem is a `RunFolderError` naming the folder or file."""
    if not run_dir.is_dir():
        problem = "is a file, not a folder" if run_dir.exists() else "no such folder"
        raise RunFolderError(f"{run_dir}: {problem} (expected a run folder)")
    manifest_path = run_dir / MANIFEST_FILE
    if not manifest_path.exists():
        raise RunFolderError(f"{run_dir} is not a run folder (no {MANIFEST_FILE})")
    results_path = run_dir / RESULTS_FILE
    if not results_path.exists():
        # load_episodes reads a missing file as a run with nothing done yet; a folder read
        # as a finished run without one is not a run at all.
        raise RunFolderError(f"{run_dir} is not a run folder (no {RESULTS_FILE})")
    try:
        manifest = read_model(manifest_path, RunManifest)
    except DamagedFileError as exc:
        raise RunFolderError(str(exc)) from None
    try:
        config = RunConfig.model_validate(
            {**manifest.config, "out": run_dir}, context={STORED: True}
        )
    except ValidationError as exc:
        problem = first_problem(exc, "config")
        raise RunFolderError(f"{manifest_path} holds no valid run config: {problem}") from None
    return RunFolder(manifest, config, list(load_episodes(results_path).values()))
