"""The one shape every refused command line must have, for the tests that check it."""

from __future__ import annotations

from typer.testing import Result


def one_error_line(result: Result, *expected: str) -> str:
    """Exit 2, no traceback or rich panel, exactly one `error:` line, holding each of
    `expected`; returns that line."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "╭" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    for text in expected:
        assert text in errors[0], result.output
    return errors[0]
