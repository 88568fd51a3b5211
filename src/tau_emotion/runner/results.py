"""Append-only result files: one JSON line per finished episode, safe against kill -9.

Each episode is written as one complete line with a single write and flushed to disk, so a
killed run leaves at most one partial last line. Loading drops that partial line (and
truncates it away before appending again); later lines for the same (domain, task, trial)
supersede earlier ones, so re-running failed episodes never needs a rewrite of the file.
Lines go through `storage.model_json`: text UTF-8 cannot encode (a lone surrogate from an
endpoint) is replaced and secrets are redacted, so no episode can crash the writer.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from tau_emotion.data import Episode
from tau_emotion.errors import TauEmotionError, first_problem
from tau_emotion.storage import model_json

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


def repair_tail(path: Path) -> None:
    """Cut a partial last line (no trailing newline) left by a killed writer."""
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
        fh.truncate(data.rfind(b"\n") + 1)


class ResultsWriter:
    """Appends episodes to a results file, one flushed line each."""

    def __init__(self, path: Path, fsync: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(path)
        self._fh = path.open("ab")
        self._fsync = fsync

    def append(self, episode: Episode) -> None:
        self._fh.write(model_json(episode).encode() + b"\n")
        self._fh.flush()
        if self._fsync:
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()
