"""Domains, found by folder name. Adding a domain is adding a folder; nothing else changes.

A domain folder holds an ``__init__.py`` and a ``policy.md``. Discovery reads the folders of
this package's ``__path__``, the same list the import machinery searches, so what is listed
is what imports (a test adds a temporary folder to it).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import traceback
from functools import cache
from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.errors import DomainError

DOMAIN_FILES = ("__init__.py", "policy.md")
"""What makes a folder of this package a domain (`domain_names`)."""


class DomainLoadError(DomainError):
    """A domain folder exists but its package failed to import or declares no `Domain`; the
    message names the domain and the cause (file and line where there is one)."""

    def __init__(self, domain: str, cause: str) -> None:
        super().__init__(f"domain {domain} failed to load: {cause}")
        self.domain = domain
        self.cause = cause

    def without_it(self, chosen: list[str], option: str = "--domain") -> str:
        """The message, and how to go on with the other domains of `chosen` (the domains a
        command was asked for): one broken folder should not hide that the rest work."""
        others = [d for d in chosen if d != self.domain]
        if not others:
            return str(self)
        return f"{self}; to use the other domains, name them: {option} {','.join(others)}"


def _roots() -> list[Path]:
    # Read at each call: a test extends the package's __path__ with a folder of its own.
    return [Path(p) for p in __path__]


def _folder(name: str) -> Path | None:
    """The folder of this package named `name`, domain or not (None: there is none)."""
    if not name.isidentifier():
        return None  # a path or a typo with punctuation is no folder of this package
    return next((r / name for r in _roots() if (r / name).is_dir()), None)


def domain_names() -> list[str]:
    """Names of all domains: subpackages of this package that hold a policy.md."""
    return sorted(
        {
            info.name
            for root in _roots()
            for info in pkgutil.iter_modules([str(root)])
            if info.ispkg and (root / info.name / "policy.md").exists()
        }
    )


def _unknown(name: str, names: list[str]) -> DomainError:
    """Why `name` is no domain: a folder missing a domain's files says which (a newcomer's
    half-made folder used to be called an unknown domain), anything else is unknown."""
    folder = _folder(name)
    if folder is not None:
        missing = [f for f in DOMAIN_FILES if not (folder / f).exists()]
        if missing:
            return DomainError(
                f"folder {folder} is no domain yet: it has no {' and no '.join(missing)} "
                f"(a domain folder needs {' and '.join(DOMAIN_FILES)})"
            )
    return DomainError(f"unknown domain {name!r}; known domains: {', '.join(names)}")


def _cause(exc: BaseException, folder: Path | None) -> str:
    """'<file>:<line>: <error>' of an exception raised while importing a domain: the last
    line of the domain's own code it passed through (else the innermost line), which is the
    line to fix, rather than the framework line that noticed."""
    text = exc.args[0] if isinstance(exc, KeyError) and len(exc.args) == 1 else exc
    message = f"{type(exc).__name__}: {text}"
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}: {type(exc).__name__}: {exc.msg}"
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if folder is not None and Path(f.filename).is_relative_to(folder)]
    if not (own or frames):
        return message
    frame = (own or frames)[-1]
    return f"{frame.filename}:{frame.lineno}: {message}"


@cache
def load_domain(name: str) -> Domain:
    """Import a domain by name; raise `DomainError` naming the known domains if it is unknown,
    and `DomainLoadError` (one line: the domain, file, line and error) if its package does not
    import or defines no ``DOMAIN``."""
    names = domain_names()
    if name not in names:
        raise _unknown(name, names)
    module_name = f"{__name__}.{name}"
    folder = _folder(name)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        # Any error in a domain's own code is that domain's: named, so that listing the
        # others (and a run of them) can go on without it.
        sys.modules.pop(module_name, None)
        raise DomainLoadError(name, _cause(exc, folder)) from exc
    domain = getattr(module, "DOMAIN", None)
    if not isinstance(domain, Domain):
        where = folder / "__init__.py" if folder is not None else module_name
        raise DomainLoadError(name, f"{where} must define DOMAIN = domain_package(...)")
    return domain


def resolve_domains(spec: str) -> list[str]:
    """'airline', 'airline,retail' or 'all' -> domain names, validated."""
    if spec.strip() == "all":
        return domain_names()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise DomainError("no domain given; use a name, a comma list, or 'all'")
    known = domain_names()
    for n in names:
        if n not in known:
            raise _unknown(n, known)
    return list(dict.fromkeys(names))  # 'airline,airline' is airline once, not its tasks twice


__all__ = ["Domain", "DomainLoadError", "domain_names", "load_domain", "resolve_domains"]
