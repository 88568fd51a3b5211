"""Checks on what a user hands the command line: files to read, folders to write, base URLs.

Each check raises `InputError` with one line that names the input and what is wrong with it;
the CLI prints that line and exits 2 (`tau_emotion.cli.errors`). Checking at the point an
input is read keeps the message specific ("--few-shot-file demos.jsonl is not UTF-8 text")
where a handler far away could only say "a file could not be decoded".
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from tau_emotion.errors import TauEmotionError


class InputError(TauEmotionError):
    """Something the user gave cannot be used; the message names it and says why."""


class ConfigError(InputError, ValueError):
    """A run's settings were refused: pydantic's `ValidationError` as the Python API raises
    it, so that one ``except TauEmotionError`` catches every bad input (a `ValueError` too,
    as the `ValidationError` it replaces was)."""


def check_base_url(url: str, what: str) -> str:
    """`url` if it is an absolute http(s) URL with a host, else `InputError`.

    A malformed or ftp:// base URL used to fail on every request, so a run recorded every
    episode as an infrastructure error and still exited 0.
    """
    if "://" not in url:
        # The usual slip is a bare host ("localhost:8000/v1"), which urlsplit reads as the
        # scheme "localhost": say what is missing rather than name a scheme never meant.
        raise InputError(f"{what} {url!r} has no scheme: did you mean 'http://{url}'?")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- parsing the port is what rejects "http://h:99999"
    except ValueError as exc:
        raise InputError(f"{what} {url!r} is not a valid URL ({exc})") from None
    if parts.scheme not in ("http", "https"):
        raise InputError(
            f"{what} {url!r} must be an http:// or https:// URL, not {parts.scheme or '(none)'}://"
        )
    if not parts.hostname:
        raise InputError(f"{what} {url!r} has no host")
    return url


ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""An environment variable's name. Most API keys hold '-' (sk-proj-..., sk-ant-...), so such
a key given where the name belongs never matches."""


def _looks_like_a_key(value: str) -> bool:
    """A valid name that is still most likely a key: keys of only letters, digits and '_'
    (gsk_..., hf_...) are long and mix upper case, lower case and digits, as variable names
    (OPENAI_API_KEY, my_token) never do."""
    return (
        len(value) >= 32
        and any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(c.isdigit() for c in value)
    )


def check_key_variable(value: str, what: str) -> str:
    """`value` if it is the name of an environment variable, else `InputError`.

    Every option that names the variable holding an API key is checked here: a key typed
    where its name belongs would otherwise be stored (a run's manifest, a cache key) or
    printed. The message never shows the value, which is most likely the key itself.
    """
    if not ENV_NAME.fullmatch(value) or _looks_like_a_key(value):
        raise InputError(
            f"{what} is not an environment variable name (give the NAME of the variable that "
            "holds the key, e.g. OPENAI_API_KEY, not the key; the value is not shown)"
        )
    return value


def key_variable_field(value: str) -> str:
    """`check_key_variable` as a pydantic field validator of `api_key_env` (a `ValueError`,
    which pydantic reports under the field's name, or the option the CLI maps it to)."""
    try:
        return check_key_variable(value, "api_key_env")
    except InputError as exc:
        raise ValueError(str(exc).removeprefix("api_key_env ")) from None


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of a file the user named, or `InputError` saying why it cannot be read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} {path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{what} {path} is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{what} {path} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})"
        ) from None


def writable_folder(path: Path, what: str) -> Path:
    """Create `path` if needed and check a run can write into it, or `InputError`."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{what} {path} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{what} {path} cannot be created: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"{what} {path} is not writable")
    return path


def writable_file(path: Path, what: str) -> Path:
    """Check that `path` can be written as a file (its folder is created), or `InputError`."""
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder, not a file")
    try:
        writable_folder(path.parent, "")
    except InputError as exc:
        raise InputError(f"{what} {path}: the folder{exc}") from None
    return path
