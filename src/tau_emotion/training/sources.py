"""Where an export reads its rollouts: a mix folder, a run directory or a JSONL file.

Apart from `export` because reading a mix needs `mixes`, and `mixes` needs `export` (the
training digest that drops duplicate conversations, the export files a re-mix removes).
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.data import Episode
from tau_emotion.runner.results import RESULTS_FILE, load_episodes
from tau_emotion.training.export import ExportError
from tau_emotion.training.mixes import EPISODES_FILE, read_episodes
from tau_emotion.training.outcomes import Outcome, classify


def load_source(source: Path) -> tuple[list[Episode], str]:
    """Successful rollouts and a name from a mix folder, a run directory or a JSONL file.

    A source with no successful rollout is an `ExportError` naming its file: exporting it
    would write empty training files that only fail later, in training.
    """
    # Named after the real folder: `export .` (or `..`) has no name of its own to give.
    real = source.resolve()
    if source.is_file():
        path = source
        episodes, name = read_episodes(path), real.stem
    elif (source / EPISODES_FILE).exists():
        path = source / EPISODES_FILE
        episodes, name = read_episodes(path), real.name
    elif (source / RESULTS_FILE).exists():
        path = source / RESULTS_FILE
        episodes, name = list(load_episodes(path).values()), real.name
    elif not source.exists():
        raise ExportError(f"{source}: no such file or folder")
    else:
        raise ExportError(
            f"{source}: expected a mix folder ({EPISODES_FILE}), a run directory "
            f"({RESULTS_FILE}) or a JSONL file of episodes"
        )
    if not episodes:
        raise ExportError(f"no rollouts in {path}")
    # Only successes are training data, whatever the source holds (never a rollout that broke
    # a hard policy rule: see outcomes.Outcome.VIOLATED).
    successes = [e for e in episodes if classify(e) == Outcome.SUCCESS]
    if not successes:
        raise ExportError(f"no successful rollouts in {path} ({len(episodes)} rollouts)")
    return successes, name
