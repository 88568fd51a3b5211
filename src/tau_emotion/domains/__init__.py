"""Domains, found by folder name. Adding a domain is adding a folder; nothing else changes."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from tau_emotion.domains.base import Domain
from tau_emotion.errors import DomainError

_ROOT = Path(__file__).parent


def domain_names() -> list[str]:
    """Names of all domains: subpackages of this package that hold a policy.md."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules([str(_ROOT)])
        if info.ispkg and (_ROOT / info.name / "policy.md").exists()
    )


@cache
def load_domain(name: str) -> Domain:
    """Import a domain by name; raise `DomainError` naming the known domains if it is unknown."""
    names = domain_names()
    if name not in names:
        raise DomainError(f"unknown domain {name!r}; known domains: {', '.join(names)}")
    module = importlib.import_module(f"tau_emotion.domains.{name}")
    domain = getattr(module, "DOMAIN", None)
    if not isinstance(domain, Domain):
        raise DomainError(f"tau_emotion.domains.{name} must define DOMAIN = Domain(...)")
    return domain


def resolve_domains(spec: str) -> list[str]:
    """'airline', 'airline,retail' or 'all' -> domain names, validated."""
    if spec.strip() == "all":
        return domain_names()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise DomainError("no domain given; use a name, a comma list, or 'all'")
    known = set(domain_names())
    for n in names:
        if n not in known:
            raise DomainError(f"unknown domain {n!r}; known domains: {', '.join(sorted(known))}")
    return list(dict.fromkeys(names))  # 'airline,airline' is airline once, not its tasks twice


__all__ = ["Domain", "domain_names", "load_domain", "resolve_domains"]
