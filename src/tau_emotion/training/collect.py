"""Collection: run the train split through the runner and classify every rollout.

A collection is an ordinary run directory (``results.jsonl``, ``manifest.json``,
``metrics.json``: same files, same resume, same progress as ``tau-emotion run``) plus two
derived files that are rewritten from the results whenever the collection finishes or is
resumed, so they can never disagree with them:

- ``outcomes.jsonl``: one `RolloutRecord` per rollout, in (domain, task, trial) order;
- ``collect_summary.json``: the `CollectSummary`.

With ``user_exit=False`` the simulated user cannot walk away; running the same tasks with the
same budget both ways measures what the dissatisfied-exit signal is worth.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tau_emotion.data import Episode
from tau_emotion.errors import TauEmotionError
from tau_emotion.evaluation.metrics import compute_metrics
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.runner.results import METRICS_FILE, read_run_folder
from tau_emotion.runner.run import ProgressHook, execute_run
from tau_emotion.runner.tasks import select_tasks
from tau_emotion.storage import model_json, write_atomic
from tau_emotion.training.outcomes import CollectSummary, rollout_record, summarize

OUTCOMES_FILE = "outcomes.jsonl"
SUMMARY_FILE = "collect_summary.json"


class CollectionError(TauEmotionError):
    """A collection was asked for the wrong split, or its directory is not a run."""


def collect(
    config: RunConfig,
    *,
    resume: bool = False,
    participants: Participants | None = None,
    progress: ProgressHook | None = None,
    retry_errors: bool = False,
    on_warning: Callable[[str], None] | None = None,
) -> CollectSummary:
    """Run (or finish) a collection and write its outcomes and summary."""
    if config.split != "train":
        # Training data built from the benchmark's test split would leak it into the model.
        raise CollectionError("collection builds training data: use --split train")
    episodes = execute_run(
        config,
        resume=resume,
        participants=participants,
        progress=progress,
        retry_errors=retry_errors,
        on_warning=on_warning,
    )
    write_atomic(config.out / METRICS_FILE, model_json(compute_metrics(episodes), indent=2) + "\n")
    return summarize_collection(config, episodes)


def summarize_collection(config: RunConfig, episodes: list[Episode]) -> CollectSummary:
    """Classify the rollouts of a collection; write ``outcomes.jsonl`` and the summary."""
    tasks = {(t.domain, t.id): t for t in select_tasks(config)}
    records = [
        rollout_record(e, tasks.get((e.domain, e.task_id)))
        for e in sorted(episodes, key=lambda e: e.key)
    ]
    write_atomic(config.out / OUTCOMES_FILE, "".join(model_json(r) + "\n" for r in records))
    summary = summarize(
        records,
        tasks,
        run_dir=str(config.out),
        user_exit=config.user_exit,
        agent=config.agent,
        agent_model=config.agent_model.model if config.agent_model else None,
        user=config.user,
        user_model=config.user_model.model if config.user_model else None,
        max_steps=config.max_steps,
        trials=config.trials,
    )
    write_atomic(config.out / SUMMARY_FILE, model_json(summary, indent=2) + "\n")
    return summary


def load_run(run_dir: Path) -> tuple[RunConfig, list[Episode]]:
    """A run directory's resolved configuration and its episodes (last record per key); a
    folder that is not a run is a `RunFolderError` naming it (``mix --from`` hands these
    folders straight from the command line)."""
    run = read_run_folder(run_dir)
    return run.config, run.episodes
