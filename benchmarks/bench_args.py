"""Argument types and helpers shared by the benchmark scripts.

Every script is run as ``python benchmarks/NAME.py``, so this folder is on ``sys.path`` and
``import bench_args`` finds this file. The types raise `argparse.ArgumentTypeError`, which
argparse turns into its usage error (exit 2, naming the argument) while parsing, so a bad
value is refused before a run that can take minutes starts, and never surfaces as a
traceback from deep inside it or as figures that silently mean something else.

One rule for ``--quick`` in every script: it only changes the defaults. A value given
explicitly is honoured under ``--quick``; an option ``--quick`` cannot honour (the part of
the run it sets is skipped) is refused with a usage error (`refuse_under_quick`).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from tau_emotion.domains import resolve_domains
from tau_emotion.errors import DomainError
from tau_emotion.inputs import InputError, check_base_url

QUICK_RULE = "--quick only changes defaults: a value given explicitly is honoured."


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An integer no smaller than `minimum`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below the minimum, {minimum}")
        return value

    parse.__name__ = f"int_at_least_{minimum}"
    return parse


positive_int = int_at_least(1)
non_negative_int = int_at_least(0)


def int_in_range(low: int, high: int) -> Callable[[str], int]:
    """An integer in [low, high]."""
    at_least = int_at_least(low)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > high:
            raise argparse.ArgumentTypeError(f"{value} is above the maximum, {high}")
        return value

    parse.__name__ = f"int_in_range_{low}_{high}"
    return parse


# 0 asks the system for a free port; 65535 is the largest a TCP port can be.
port = int_in_range(0, 65535)


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    # float() accepts "nan" and "inf", which no latency or duration can be.
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (a divisor: a rate is computed from it)."""
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value:g} is not above 0")
    return value


def non_negative_float(text: str) -> float:
    """A finite number, 0 or above."""
    value = _finite(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value:g} is below 0")
    return value


def domain_list(text: str) -> list[str]:
    """'airline', 'airline,retail' or 'all', validated against the installed domains."""
    try:
        return resolve_domains(text)
    except DomainError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def http_url(text: str) -> str:
    """An http(s) URL with a host, as the command line's base URLs are checked: a malformed
    one would fail only when it is first used."""
    try:
        return check_base_url(text, "")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).strip()) from None


def _creatable_folder(folder: Path) -> None:
    """Refuse a folder that neither exists nor can be made (an ancestor is a file or locked)."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise argparse.ArgumentTypeError(f"{probe} is not a folder, so {folder} cannot be made")
    if not os.access(probe, os.W_OK | os.X_OK) and probe != folder:
        raise argparse.ArgumentTypeError(f"{folder} cannot be made: {probe} is not writable")


def output_file(text: str) -> Path:
    """A file to write at the end of a run: not a folder, its folder there or makeable.

    Checked while parsing so that a bad path fails before the run, not after it (the
    script makes any missing folders when it writes, `write_output`).
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty path is no file")
    path = Path(text)
    if text.endswith(os.sep) or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"{path} is not writable")
    _creatable_folder(path.parent)
    if path.parent.exists() and not os.access(path.parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{path.parent} is not writable")
    return path


def output_folder(text: str) -> Path:
    """A folder to build into: an existing folder or one that can be made, not a file."""
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("an empty path is no folder")
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    _creatable_folder(path)
    if path.is_dir() and not os.access(path, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{path} is not writable")
    return path


def write_output(path: Path, text: str) -> None:
    """Write a figures file checked by `output_file`, making its missing folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def fill_defaults(
    args: argparse.Namespace, defaults: Mapping[str, object], quick: Mapping[str, object]
) -> None:
    """Give every option left unset (None) its default, the --quick one under --quick.

    The options concerned default to None in the parser so that an explicit value can be
    told from the default, and honoured under --quick (`QUICK_RULE`).
    """
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick.get(name, value) if args.quick else value)


def refuse_under_quick(
    parser: argparse.ArgumentParser, args: argparse.Namespace, *names: str
) -> None:
    """Refuse options given with --quick where --quick skips what they set."""
    if not args.quick:
        return
    for name in names:
        if getattr(args, name) is not None:
            option = "--" + name.replace("_", "-")
            parser.error(f"argument {option}: not allowed with --quick (quick mode skips it)")
