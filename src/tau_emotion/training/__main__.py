"""``python -m tau_emotion.training``: the training commands on their own.

This is the entry point for multi-GPU launchers, which need a module or script to start once
per process: ``accelerate launch --config_file CONFIG -m tau_emotion.training train sft ...``.
"""

from __future__ import annotations

from tau_emotion.training.cli import training_app

app = training_app()

if __name__ == "__main__":
    app()
