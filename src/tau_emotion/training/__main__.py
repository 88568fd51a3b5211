"""``python -m tau_emotion.training``: the training commands on their own.

This is the entry point for multi-GPU launchers, which need a module or script to start once
per process: ``accelerate launch --config_file CONFIG -m tau_emotion.training train sft ...``.
"""

from __future__ import annotations

import typer

from tau_emotion.training.cli import register

app = typer.Typer(
    name="tau-emotion-training",
    help="Collect rollouts, build mixes, export and fine-tune.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
register(app)

if __name__ == "__main__":
    app()
