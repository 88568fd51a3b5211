"""tau-emotion: benchmark and training data for tool-calling agents serving emotional customers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from tau_emotion.api import Results, evaluate, evaluate_async
    from tau_emotion.runner.config import RunConfig

__all__ = ["Results", "RunConfig", "evaluate", "evaluate_async"]

_LAZY = {
    "Results": "tau_emotion.api",
    "evaluate": "tau_emotion.api",
    "evaluate_async": "tau_emotion.api",
    "RunConfig": "tau_emotion.runner.config",
}


def __getattr__(name: str) -> Any:
    # Imported on first use: `tau-emotion --help` imports this package and must stay fast.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tau_emotion' has no attribute {name!r}")
