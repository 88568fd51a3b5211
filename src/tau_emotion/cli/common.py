"""What every command shares: a one-line error with exit status 2."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import cast

import typer


def fail(message: str) -> typer.Exit:
    """Print a red one-line error and return the exit to raise (status 2)."""
    from tau_emotion.cli.errors import one_line
    from tau_emotion.storage import safe_text  # an endpoint's error text may quote the key

    typer.secho(f"error: {safe_text(one_line(message))}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)


def error_text(exc: Exception, domains: Sequence[str]) -> str:
    """The line of an error of a command over `domains`: a domain that failed to load is
    named with how to go on with the others (`--domain` naming them), since one broken folder
    otherwise stops every `--domain all`."""
    from tau_emotion.domains import DomainLoadError

    if isinstance(exc, DomainLoadError):
        return exc.without_it(list(domains))
    return str(exc)


def choice_enum(name: str, values: Iterable[str]) -> type[StrEnum]:
    """An enum whose members are `values`, for an option's choices: typer lists the choices of
    a repeatable option only for enums, and building it from the values keeps them spelled in
    one place (type-check such an annotation as ``str``: mypy cannot see a built enum)."""
    # The functional API returns a class; typeshed types the call as a member.
    return cast("type[StrEnum]", StrEnum(name, [(v, v) for v in values]))
