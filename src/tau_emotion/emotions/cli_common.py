"""What both halves of `tau-emotion emotions` share: the one-line error exit and the key option.

The sub-app is split by job (`emotions.cli` holds the mapper and classifier commands,
`emotions.cli_anchors` the anchor and condition commands); this module is the little they have
in common, so neither imports the other. It imports only typer at module level, so that
`tau-emotion --help` stays fast.
"""

from __future__ import annotations

from typing import Annotated

import typer

KeyEnvOpt = Annotated[
    str, typer.Option("--api-key-env", help="Environment variable holding the API key.")
]


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: <message>`` on stderr; the caller raises the returned exit."""
    from tau_emotion.storage import safe_text  # an embeddings endpoint may quote the key

    typer.echo(f"error: {safe_text(message)}", err=True)
    return typer.Exit(code)
