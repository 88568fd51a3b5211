"""What every command shares: a one-line error with exit status 2."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import cast

import typer


def fail(message: str) -> typer.Exit:
    """Print a red one-line error and return the exit to raise (status 2)."""
    from tau_emotion.cli.errors import one_line
    from tau_emotion.storage import safe_text  # an endpoint's error text may quote the key

    typer.secho(f"error: {safe_text(one_line(message))}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)


def choice_enum(name: str, values: Iterable[str]) -> type[StrEnum]:
    """An enum whose members are `values`, for an option's choices: typer lists the choices of
    a repeatable option only for enums, and building it from the values keeps them spelled in
    one place (type-check such an annotation as ``str``: mypy cannot see a built enum)."""
    # The functional API returns a class; typeshed types the call as a member.
    return cast("type[StrEnum]", StrEnum(name, [(v, v) for v in values]))
