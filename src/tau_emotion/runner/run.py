"""Run episodes concurrently, append each result as it finishes, and resume after a kill."""

from __future__ import annotations

import asyncio
import subprocess
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from tau_emotion import __version__
from tau_emotion.data import Episode, RunManifest, Task
from tau_emotion.errors import TauEmotionError, named
from tau_emotion.runner.cleanup import missing_folders, remove_unused
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.episodes import EnvironmentPool, play_pair
from tau_emotion.runner.loop_thread import run_in_loop
from tau_emotion.runner.outcome import ErrorBudget
from tau_emotion.runner.participants import Participants
from tau_emotion.runner.preflight import check_run_inputs
from tau_emotion.runner.ray_executor import run_pairs_ray
from tau_emotion.runner.results import (
    MANIFEST_FILE,
    RESULTS_FILE,
    ResultsWriter,
    load_episodes,
)
from tau_emotion.runner.tasks import require_tasks, task_source
from tau_emotion.storage import FileBusyError, file_lock, model_json, read_model, write_atomic


class RunExistsError(TauEmotionError):
    """The output directory already holds results and --resume was not given."""


class RunWarning(UserWarning):
    """Something a run noticed and did not stop for; also kept in the manifest."""


def code_version() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"tau-emotion {__version__}" + (f" ({commit})" if commit else "")


ProgressHook = Callable[[Episode, int, int], None]
"""Called after each episode with (episode, done, total)."""


async def run_pairs(
    config: RunConfig,
    pairs: list[tuple[Task, int]],
    participants: Participants,
    on_episode: Callable[[Episode], bool | None],
) -> None:
    """Play (task, trial) pairs with `config.concurrency` episodes in flight.

    A worker stops taking pairs once `on_episode` returns False (``--fail-on-error``).
    """
    queue: asyncio.Queue[tuple[Task, int]] = asyncio.Queue()
    for pair in pairs:
        queue.put_nowait(pair)

    environments = EnvironmentPool()

    async def worker() -> None:
        while True:
            try:
                task, trial = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            episode = await play_pair(config, participants, task, trial, environments)
            if on_episode(episode) is False:
                return
            # Episodes of rule-based participants never await: without this one worker would
            # play every pair, and Ctrl-C (a cancellation) could not land until the end.
            await asyncio.sleep(0)

    await asyncio.gather(*(worker() for _ in range(min(config.concurrency, len(pairs)) or 1)))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def execute_run(
    config: RunConfig,
    resume: bool = False,
    participants: Participants | None = None,
    progress: ProgressHook | None = None,
    retry_errors: bool = False,
    on_warning: Callable[[str], None] | None = None,
) -> list[Episode]:
    """Run (or finish) a run; returns every episode of the run, old and new.

    Problems the run notices but does not stop for (see `runner.monitor`) go to `on_warning`
    (default: `warnings.warn`) once each, and into the manifest's ``warnings``. One run at a
    time writes a folder: a second (a `--resume` in another terminal, two `evaluate_async`
    calls on one `out`) is `RunExistsError` while the first holds it.
    """
    new_folders = missing_folders(config.out, config.cache_dir)
    try:
        check_run_inputs(config)
        try:
            with file_lock(config.out / RESULTS_FILE, wait=False):
                return _execute_run(
                    config, resume, participants, progress, retry_errors, on_warning
                )
        except FileBusyError:
            raise RunExistsError(
                f"{config.out} is being written by another run right now; wait for it to end "
                f"or choose another {named('--out', 'out')}"
            ) from None
    except Exception:
        # A refused run (a mistyped task id, a missing task file) leaves nothing behind: the
        # folders this call created go again while they hold no episode.
        remove_unused(config.out, new_folders)
        raise


def _execute_run(
    config: RunConfig,
    resume: bool,
    participants: Participants | None,
    progress: ProgressHook | None,
    retry_errors: bool,
    on_warning: Callable[[str], None] | None,
) -> list[Episode]:
    out = config.out
    results_path = out / RESULTS_FILE
    done = load_episodes(results_path)
    if done and not resume:
        raise RunExistsError(
            f"{out} already holds {len(done)} episodes; pass {named('--resume', 'resume=True')} "
            f"to finish it or choose another {named('--out', 'out')}"
        )
    manifest_path = out / MANIFEST_FILE
    previous = read_model(manifest_path, RunManifest) if resume and manifest_path.exists() else None
    if previous is not None:
        differences = config.resume_differences(previous.config)
        if differences:
            shown = "; ".join(differences[:3]) + ("; ..." if len(differences) > 3 else "")
            raise RunExistsError(
                f"{named('--resume', 'resume=True')}: {out} was run with other settings "
                f"({shown}); resume it with the same options, or choose another "
                f"{named('--out', 'out')}"
            )
    tasks = require_tasks(config)
    all_pairs = [(t, trial) for trial in range(config.trials) for t in tasks]

    def finished(task: Task, trial: int) -> bool:
        e = done.get((task.domain, task.id, trial))
        return e is not None and not (retry_errors and e.errors)

    pairs = [(t, trial) for t, trial in all_pairs if not finished(t, trial)]
    out.mkdir(parents=True, exist_ok=True)
    manifest = RunManifest(
        config=config.model_dump(mode="json"),
        code_version=code_version(),
        started_at=now(),
        episodes_total=len(all_pairs),
        episodes_done=len(all_pairs) - len(pairs),
    )
    if previous is not None:
        manifest.started_at, manifest.warnings = previous.started_at, previous.warnings
    write_atomic(manifest_path, model_json(manifest, indent=2))

    def warn(message: str) -> None:
        # Written at once so that a run killed later still shows what it noticed; once, though
        # a resumed run notices it again (and says so again).
        if message not in manifest.warnings:
            manifest.warnings.append(message)
            write_atomic(manifest_path, model_json(manifest, indent=2))
        if on_warning is not None:
            on_warning(message)
        else:
            warnings.warn(message, RunWarning, stacklevel=2)

    if config.num_tasks is not None and len(tasks) < config.num_tasks:
        # Not refused (the run is all the tasks there are), but a sample of another size than
        # the one asked for must not pass unnoticed.
        warn(
            f"{named('--num-tasks', 'num_tasks')} {config.num_tasks}: only {len(tasks)} tasks "
            f"in {task_source(config)}; running all of them"
        )
    writer = ResultsWriter(results_path)
    before = count = manifest.episodes_done
    # The budget is a share of the whole run's episodes, and the endpoint failures a resumed
    # run keeps count against it, as they would have had the run never stopped.
    budget = ErrorBudget(config.fail_on_error, len(all_pairs))
    for task, trial in all_pairs:
        kept = done.get((task.domain, task.id, trial))
        if kept is not None and finished(task, trial):
            budget.record(kept)
    if budget.stopped:  # already over it: the outcome says so, and --retry-errors goes on
        pairs = []

    def record(episode: Episode) -> bool:
        nonlocal count
        writer.append(episode)
        done[episode.key] = episode
        count += 1
        # With every line, not only in the `finally` below: a run stopped by SIGTERM (a job
        # scheduler, `timeout`, `docker stop`) or SIGKILL runs no `finally`, and its manifest
        # must still say how far it got.
        manifest.episodes_done = count
        write_atomic(manifest_path, model_json(manifest, indent=2))
        if progress is not None:
            progress(episode, count, len(all_pairs))
        return budget.record(episode)

    try:
        if config.executor == "ray":  # episodes run in Ray actors; results still land here
            run_pairs_ray(config, pairs, record, participants)
        else:
            played = participants or Participants(config, warn=warn)
            run_in_loop(run_pairs(config, pairs, played, record))
    finally:
        # Also when interrupted (Ctrl-C): the manifest says how far the run got.
        # Counted from the file, not `count`: a Ctrl-C can land inside `record` after the
        # line is written and before `count` grows (the Ray driver is plain synchronous code).
        written = before + writer.lines_written()
        writer.close()
        manifest.episodes_done = written
        manifest.finished_at = now() if written == len(all_pairs) else None
        write_atomic(manifest_path, model_json(manifest, indent=2))
    keys = {(t.domain, t.id, trial) for t, trial in all_pairs}
    return [e for k, e in done.items() if k in keys]
