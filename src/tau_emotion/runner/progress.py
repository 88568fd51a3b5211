"""A rich progress bar with the live success rate."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def progress_bar(console: Console) -> Iterator[ProgressHook]:
    stats = {"done": 0, "success": 0, "dissatisfied": 0, "errors": 0}
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
            stats["done"] += 1
            stats["success"] += episode.success
            stats["dissatisfied"] += episode.termination == TerminationReason.USER_UNSATISFIED
            stats["errors"] += bool(episode.errors)
            rate = stats["success"] / stats["done"]
            progress.update(
                bar,
                completed=done,
                total=total,
                description=f"success {rate:.3f}  walked away {stats['dissatisfied']}  "
                f"errors {stats['errors']}",
            )

        yield hook
