"""The one place the command line turns a user's mistake into one line and exit status 2.

`CliGroup` is the root command group: every command and sub-command runs inside its
`invoke`, so an error this package raises on purpose (`TauEmotionError`: a bad input, a
damaged file, an unknown domain), a validation error, or an operating-system error on a
path the user named ends as ``error: <one line naming the input>`` on stderr, never as a
traceback. Anything else is a bug and keeps its traceback.

A mistake typer finds while parsing (an unknown option, a value of the wrong type or outside
its choices, a missing required option) is a bad input too, and ends the same way instead of
in typer's boxed usage panel; a bare group (`tau-emotion tracer`) still shows its help.

Commands still validate their inputs where they read them (`tau_emotion.inputs`), so that
the line says which option was wrong; this handler is what keeps a missed case from
crashing. Every line it prints is redacted: an error can quote an endpoint's reply.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from tau_emotion.errors import describe
from tau_emotion.redact import register_key_variables
from tau_emotion.runner.outcome import EXIT_INPUT, EXIT_OK, RunOutcome
from tau_emotion.storage import safe_text


def one_line(message: str) -> str:
    """`message` on one line: a multi-line detail is joined with '; '."""
    parts = [line.strip() for line in message.splitlines() if line.strip()]
    return "; ".join(parts) or "unknown error"


def print_error(message: str) -> None:
    """``error: message`` in red on stderr: one line, redacted, encodable."""
    typer.secho(f"error: {safe_text(one_line(message))}", fg=typer.colors.RED, err=True)


def _usage_error_class() -> type[Exception]:
    # typer raises click's `UsageError` (from its own copy of click since typer 0.2x, from
    # click itself before): the class `typer.BadParameter` derives from is that one.
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


USAGE_ERROR = _usage_error_class()


def usage_line(exc: Exception) -> str | None:
    """A parse error of typer's as one line with the command's help hint; None for anything
    else, and for a group called bare (that "error" is the group's help, shown as such)."""
    if not isinstance(exc, USAGE_ERROR) or type(exc).__name__ == "NoArgsIsHelpError":
        return None
    message = str(exc.format_message()).replace("Value error, ", "")  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    return one_line(message) + hint


def _quiet_broken_pipe() -> None:
    """The reader of stdout went away (`tau-emotion tasks | head`): that is no error of the
    user's. Stop quietly, as `head`'s other writers do, pointing stdout at /dev/null so the
    interpreter's last flush has nowhere to fail (Python's documented SIGPIPE recipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(1) from None


class CliGroup(TyperGroup):
    """The root group: user errors from any sub-command become one line and exit 2."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        # The root's own options are parsed here, before `invoke` (`tau-emotion --bogus`).
        try:
            return super().make_context(*args, **kwargs)
        except Exception as exc:
            line = usage_line(exc)
            if line is None:
                raise
            print_error(line)
            raise typer.Exit(EXIT_INPUT) from None

    def invoke(self, ctx: Any) -> Any:  # typer's vendored click.Context (a private module)
        # Keys configured by environment are hidden from the very first line printed.
        register_key_variables()
        try:
            return super().invoke(ctx)
        except Exception as exc:
            line = usage_line(exc)
            if line is not None:
                print_error(line)
                raise typer.Exit(EXIT_INPUT) from None
            if isinstance(exc, (typer.Exit, typer.Abort, TyperException)):
                raise  # typer's own exits and help requests say what they mean
            if isinstance(exc, BrokenPipeError):
                _quiet_broken_pipe()
            message = describe(exc)
            if message is None:
                raise
            print_error(message)
            raise typer.Exit(EXIT_INPUT) from None


def finish_run(outcome: RunOutcome) -> None:
    """Print a run's one-line summary; exit with its status when that is not 0."""
    if outcome.code == EXIT_OK:
        typer.echo(safe_text(outcome.summary))
        return
    typer.secho(safe_text(outcome.summary), fg=typer.colors.YELLOW, err=True)
    raise typer.Exit(outcome.code)
