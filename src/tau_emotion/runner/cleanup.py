"""What a refused run leaves behind: nothing.

A run creates its ``--out`` folder (and ``--cache-dir``) before everything it checks has been
checked: the task selection, a task file, a few-shot file, the participants. A refusal
there used to leave an empty timestamped folder in ``runs/`` per mistyped option. The
folders a run created are removed again when it is refused before its first episode; a
folder that existed before is never touched.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE

LOCK_FILE = f".{RESULTS_FILE}.lock"
"""The lock `storage.file_lock` holds beside the results file while a run writes them."""


def missing_folders(*paths: Path | None) -> list[Path]:
    """The folders of `paths` and their parents that do not exist yet (absolute), deepest
    first, so that each is emptied of its children before its own turn comes."""
    missing: set[Path] = set()
    for given in paths:
        path = given.absolute() if given is not None else None
        while path is not None and not path.exists() and path != path.parent:
            missing.add(path)
            path = path.parent
    return sorted(missing, key=lambda p: len(p.parts), reverse=True)


def remove_unused(out: Path, created: list[Path]) -> None:
    """Remove the folders in `created` (made by this call) that hold no episode: the run's
    own files in `out` first, then each folder that is then empty. A folder that existed
    before is never in `created`, and `rmdir` leaves any folder something else wrote into."""
    out = out.absolute()
    results = out / RESULTS_FILE
    if out in created and not (results.exists() and results.stat().st_size):
        for name in (RESULTS_FILE, MANIFEST_FILE, LOCK_FILE):
            with contextlib.suppress(OSError):
                (out / name).unlink()
    for folder in created:
        with contextlib.suppress(OSError):
            folder.rmdir()
