"""What every command shares: a one-line error with exit status 2."""

from __future__ import annotations

import typer


def fail(message: str) -> typer.Exit:
    """Print a red one-line error and return the exit to raise (status 2)."""
    from tau_emotion.cli.errors import one_line
    from tau_emotion.storage import safe_text  # an endpoint's error text may quote the key

    typer.secho(f"error: {safe_text(one_line(message))}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)
