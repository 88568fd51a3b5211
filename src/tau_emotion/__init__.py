"""tau-emotion: benchmark and training data for tool-calling agents serving emotional customers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from tau_emotion.api import Results, evaluate, evaluate_async
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.inputs import ConfigError, InputError
    from tau_emotion.runner.config import RunConfig
    from tau_emotion.runner.results import RunFolderError
    from tau_emotion.runner.run import RunExistsError, RunWarning

__all__ = [
    "ConfigError",
    "InputError",
    "Results",
    "RunConfig",
    "RunExistsError",
    "RunFolderError",
    "RunWarning",
    "TauEmotionError",
    "evaluate",
    "evaluate_async",
]

_LAZY = {
    "Results": "tau_emotion.api",
    "evaluate": "tau_emotion.api",
    "evaluate_async": "tau_emotion.api",
    "RunConfig": "tau_emotion.runner.config",
    # What the Python API raises and warns with (docs/python.md): every bad input is a
    # TauEmotionError, so one except clause catches them all.
    "TauEmotionError": "tau_emotion.errors",
    "InputError": "tau_emotion.inputs",
    "ConfigError": "tau_emotion.inputs",
    "RunExistsError": "tau_emotion.runner.run",
    "RunFolderError": "tau_emotion.runner.results",
    "RunWarning": "tau_emotion.runner.run",
}


def __getattr__(name: str) -> Any:
    # Imported on first use: `tau-emotion --help` imports this package and must stay fast.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tau_emotion' has no attribute {name!r}")
