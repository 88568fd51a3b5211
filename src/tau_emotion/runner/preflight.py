"""Checks a run makes before its first episode, so bad inputs fail fast and by name.

Without them a malformed base URL, an ``--out`` that is a file or a few-shot file that is
not UTF-8 surfaced as a traceback half-way into a run, or as every episode recorded as an
infrastructure error and exit status 0.
"""

from __future__ import annotations

from tau_emotion.inputs import check_base_url, read_text, writable_folder
from tau_emotion.redact import register_key_variables
from tau_emotion.runner.config import RunConfig

ROLE_FLAGS = {"agent_model": "--agent-base-url", "user_model": "--user-base-url"}


def check_run_inputs(config: RunConfig) -> None:
    """Raise `InputError` naming the first unusable input; register the keys to redact."""
    keys = []
    for field, flag in ROLE_FLAGS.items():
        model = getattr(config, field)
        if model is None:
            continue
        keys.append(model.api_key_env)
        if model.base_url is not None:
            check_base_url(model.base_url, flag)
    # Before any file is written: an endpoint may echo the key in an error body.
    register_key_variables(keys)
    writable_folder(config.out, "--out")
    if config.cache_dir is not None:
        writable_folder(config.cache_dir, "--cache-dir")
    if config.few_shot_file is not None:
        read_text(config.few_shot_file, "--few-shot-file")
