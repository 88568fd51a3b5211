"""Checks a run makes before its first episode, so bad inputs fail fast and by name.

Without them a malformed base URL, an ``--out`` that is a file, a few-shot file that is not
UTF-8 or a ``local:`` model path that is a folder surfaced as a traceback half-way into a
run, or as every episode recorded as an infrastructure error.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.errors import named
from tau_emotion.inputs import InputError, check_base_url, read_text, writable_folder
from tau_emotion.models.factory import is_local
from tau_emotion.models.local import gguf_problem
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.redact import register_key_variables
from tau_emotion.runner.config import RunConfig

ROLES = {"agent_model": "agent", "user_model": "user"}


def check_run_inputs(config: RunConfig) -> None:
    """Raise `InputError` naming the first unusable input; register the keys to redact.

    The inputs that create nothing are checked first, so a refused run leaves no folder."""
    keys = []
    for field, role in ROLES.items():
        model: ModelConfig | None = getattr(config, field)
        if model is None:
            continue
        keys.append(model.api_key_env)
        if model.base_url is not None:
            check_base_url(model.base_url, named(f"--{role}-base-url", f"{field}.base_url"))
        if config.cache_mode != "replay":  # a replay never loads the model
            _check_local_model(model, named(f"--{role}-model", f"{field}.model"))
    # Before any file is written: an endpoint may echo the key in an error body.
    register_key_variables(keys)
    if config.few_shot_file is not None:
        read_text(config.few_shot_file, named("--few-shot-file", "few_shot_file"))
    writable_folder(config.out, named("--out", "out"))
    if config.cache_dir is not None:
        writable_folder(config.cache_dir, named("--cache-dir", "cache_dir"))


def _check_local_model(model: ModelConfig, what: str) -> None:
    """A ``local:PATH`` model that is missing, a folder or not GGUF, refused by name."""
    path = model.model.partition(":")[2]
    if not is_local(model.model) or not path:
        return
    problem = gguf_problem(Path(path))
    if problem is not None:
        raise InputError(f"{what} {model.model}: {path} {problem}")
