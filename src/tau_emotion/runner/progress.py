"""Run progress: a live bar on a terminal, plain lines in a batch job's log.

Without a TTY a live bar shows only its final frame, so a SLURM job would stay silent for
hours. There `PlainProgress` prints one self-contained line every `EVERY_EPISODES` episodes
or `EVERY_SECONDS` seconds, whichever comes first, and always after the last episode.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tau_emotion.data import Episode, TerminationReason
from tau_emotion.runner.run import ProgressHook

EVERY_EPISODES = 25
EVERY_SECONDS = 60.0


@dataclass
class RunStats:
    """Counts over the episodes finished in this session (a resumed run counts anew)."""

    started: float = field(default_factory=time.monotonic)
    seen: int = 0
    success: int = 0
    walked_away: int = 0
    errors: int = 0

    def add(self, episode: Episode) -> None:
        self.seen += 1
        self.success += episode.success
        self.walked_away += episode.termination == TerminationReason.USER_UNSATISFIED
        self.errors += bool(episode.errors)

    def summary(self) -> str:
        rate = self.success / self.seen if self.seen else 0.0
        return f"success {rate:.3f}  walked away {self.walked_away}  errors {self.errors}"


def _duration(seconds: float) -> str:
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


class PlainProgress:
    """A `ProgressHook` that writes a plain line now and then (see module docstring)."""

    def __init__(
        self,
        write: Callable[[str], None],
        every_episodes: int = EVERY_EPISODES,
        every_seconds: float = EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._write = write
        self._every_episodes = every_episodes
        self._every_seconds = every_seconds
        self._clock = clock
        self.stats = RunStats(started=clock())
        self._last_count = 0
        self._last_time = self.stats.started

    def __call__(self, episode: Episode, done: int, total: int) -> None:
        self.stats.add(episode)
        now = self._clock()
        due = (
            done == total
            or self.stats.seen - self._last_count >= self._every_episodes
            or now - self._last_time >= self._every_seconds
        )
        if due:
            self._last_count, self._last_time = self.stats.seen, now
            self._write(self.line(done, total, now))

    def line(self, done: int, total: int, now: float) -> str:
        elapsed = max(now - self.stats.started, 1e-9)
        rate = self.stats.seen / elapsed
        eta = _duration((total - done) / rate) if rate > 0 and done < total else "0m00s"
        return (
            f"episodes {done}/{total}  {self.stats.summary()}  "
            f"{rate * 60:.1f} episodes/min  elapsed {_duration(elapsed)}  ETA {eta}"
        )


@contextmanager
def progress_bar(console: Console) -> Iterator[ProgressHook]:
    """A live rich bar with the success rate so far (for a terminal)."""
    stats = RunStats()
    columns = (
        TextColumn("[bold]episodes"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("", total=None)

        def hook(episode: Episode, done: int, total: int) -> None:
            stats.add(episode)
            progress.update(bar, completed=done, total=total, description=stats.summary())

        yield hook


def _stderr_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def progress_display(console: Console, interactive: bool | None = None) -> Iterator[ProgressHook]:
    """The bar on a terminal, plain lines on stderr otherwise (batch jobs, pipes, CI).

    `interactive` overrides the terminal check: False while a human participant types at a
    prompt, which a live bar's redrawing would erase.
    """
    if console.is_terminal if interactive is None else interactive:
        with progress_bar(console) as hook:
            yield hook
    else:
        yield PlainProgress(_stderr_line)
