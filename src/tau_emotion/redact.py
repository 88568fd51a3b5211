"""Secret values never reach a file or the terminal.

An endpoint that echoes the Authorization header in an error body (some proxies do on 401)
puts the API key into the exception text, and from there into `errors[].message` of the
results, the cache, the report and the one-line CLI error. Every writer of stored or printed
text passes it through `redact`, which replaces the value of each configured key variable
by a marker naming the variable, so that a run folder can be shared.

The registry is process-wide on purpose: the writers that need it (results, manifest, cache,
report, CLI errors) are far apart, and a key configured anywhere must be hidden everywhere.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

DEFAULT_KEY_VARIABLES = ("OPENAI_API_KEY",)
"""Always redacted: the default of --agent-api-key-env / --user-api-key-env."""

KEY_SUFFIXES = ("_API_KEY",)
"""Other variables whose values are secrets by name (ANTHROPIC_API_KEY, HF_API_KEY, ...)."""

MIN_SECRET_LENGTH = 8
"""Shorter values (a placeholder such as "EMPTY" or "x") would blank out ordinary text."""

# (text to find, marker) pairs; replaced as a whole tuple so readers on other threads never
# see a half-updated registry.
_patterns: tuple[tuple[str, str], ...] = ()
_variables: frozenset[str] = frozenset()


def register_key_variables(names: Iterable[str] = ()) -> None:
    """Redact from now on the values of `names`, the defaults, and every ``*_API_KEY``."""
    global _patterns, _variables
    wanted = set(names) | set(DEFAULT_KEY_VARIABLES)
    wanted |= {name for name in os.environ if name.endswith(KEY_SUFFIXES)}
    _variables = _variables | wanted
    found: dict[str, str] = dict(_patterns)
    for name in sorted(_variables):
        value = os.environ.get(name, "").strip()
        if len(value) < MIN_SECRET_LENGTH:
            continue
        marker = f"[{name} redacted]"
        found[value] = marker
        # The JSON-escaped form too, so that a key inside already serialised text is found.
        found[json.dumps(value)[1:-1]] = marker
    # Longest first: a key that contains another key is replaced whole.
    _patterns = tuple(sorted(found.items(), key=lambda item: -len(item[0])))


def redact(text: str) -> str:
    """`text` with every registered secret value replaced by ``[VARIABLE redacted]``."""
    for value, marker in _patterns:
        if value in text:
            text = text.replace(value, marker)
    return text


def registered_variables() -> frozenset[str]:
    """Names whose values are redacted (for tests and diagnostics; never the values)."""
    return _variables
