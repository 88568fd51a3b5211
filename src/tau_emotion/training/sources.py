"""Where an export reads its rollouts: a mix folder, a run directory or a JSONL file.

Apart from `export` because reading a mix needs `mixes`, and `mixes` needs `export` (the
training digest that drops duplicate conversations, the export files a re-mix removes).

Rollouts of the benchmark's test split are never training data, whichever command is asked
(`collect` refuses the split, `mix` and `export` refuse its runs and rollouts): a model
trained on them would be scored on tasks it was trained on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_emotion.data import Episode, RunManifest
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, load_episodes
from tau_emotion.storage import read_model
from tau_emotion.training.export import ExportError
from tau_emotion.training.mixes import EPISODES_FILE, read_episodes
from tau_emotion.training.outcomes import Outcome, classify


class SplitLeakError(ExportError):
    """Training data was asked of the benchmark's test split."""


LEAK = "training data built from the benchmark's test split would leak it into the model"


def require_train_run(run_dir: Path, split: str, what: str) -> None:
    """`SplitLeakError` unless the run in `run_dir` (whose config has `split`) is a train
    run; `what` names where it was given (``--from``, ``export``)."""
    if split != "train":
        raise SplitLeakError(
            f"{what} {run_dir}: a run of the {split} split; {LEAK} (collect training data "
            "with --split train)"
        )


def manifest_split(run_dir: Path) -> str | None:
    """The split of the run whose manifest is in `run_dir`, or None without a manifest."""
    path = run_dir / MANIFEST_FILE
    if not path.is_file():
        return None
    return str(read_model(path, RunManifest).config.get("split", "test"))


def refuse_test_tasks(tasks: Sequence[tuple[str, str]], path: Path) -> None:
    """`SplitLeakError` when the (domain, task id) of `path`'s rollouts name shipped test
    tasks: a mix folder or a JSONL file carries no split of its own, but the task ids say
    where they came from (the train and test tasks of a domain never share an id)."""
    known = set(domain_names())
    domains = sorted({d for d, _ in tasks} & known)
    test = {(d, t.id) for d in domains for t in load_domain(d).tasks("test")}
    leaked = [key for key in tasks if key in test]
    if leaked:
        domain, task_id = leaked[0]
        raise SplitLeakError(
            f"{path}: {len(leaked)} of its {len(tasks)} rollouts are of the benchmark's "
            f"test tasks (e.g. {domain}/{task_id}); {LEAK}"
        )


def load_source(source: Path) -> tuple[list[Episode], str]:
    """Successful rollouts and a name from a mix folder, a run directory or a JSONL file.

    A source with no successful rollout is an `ExportError` naming its file: exporting it
    would write empty training files that only fail later, in training. A source of the
    test split is a `SplitLeakError`.
    """
    # Named after the real folder: `export .` (or `..`) has no name of its own to give.
    real = source.resolve()
    run_dir: Path | None = None
    if source.is_file():
        path = source
        episodes, name = read_episodes(path), real.stem
        run_dir = source.parent if source.name == RESULTS_FILE else None
    elif (source / EPISODES_FILE).exists():
        path = source / EPISODES_FILE
        episodes, name = read_episodes(path), real.name
    elif (source / RESULTS_FILE).exists():
        path = source / RESULTS_FILE
        episodes, name = list(load_episodes(path).values()), real.name
        run_dir = source
    elif not source.exists():
        raise ExportError(f"{source}: no such file or folder")
    else:
        raise ExportError(
            f"{source}: expected a mix folder ({EPISODES_FILE}), a run directory "
            f"({RESULTS_FILE}) or a JSONL file of episodes"
        )
    split = manifest_split(run_dir) if run_dir is not None else None
    if run_dir is not None and split is not None:
        require_train_run(run_dir, split, "export")
    if not episodes:
        raise ExportError(f"no rollouts in {path}")
    refuse_test_tasks([(e.domain, e.task_id) for e in episodes], path)
    # Only successes are training data, whatever the source holds (never a rollout that broke
    # a hard policy rule: see outcomes.Outcome.VIOLATED).
    successes = [e for e in episodes if classify(e) == Outcome.SUCCESS]
    if not successes:
        raise ExportError(f"no successful rollouts in {path} ({len(episodes)} rollouts)")
    return successes, name
