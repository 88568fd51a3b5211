"""A domain package's `Domain`, declared from its folder and its parts.

Every domain folder is a package whose ``__init__.py`` ties the same parts together: its
record model, its tools, its policy checks and its generator. What is left is derived the
same way everywhere, so it is derived here: the name and root are the folder's, and the
generator says which databases there are and which split runs against which (one
``db.json`` for both splits, or a `SplitGenerator`'s train and eval databases).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_emotion.data import Split
from tau_emotion.domains.base import Database, Domain
from tau_emotion.domains.checks import PolicyCheck
from tau_emotion.domains.kit.split import SPLIT_DATABASE, SplitGenerator
from tau_emotion.domains.state import DomainDB
from tau_emotion.domains.tools import ToolSet
from tau_emotion.errors import DomainError

__all__ = ["SHARED_DATABASE", "domain_package"]

SHARED_DATABASE: Mapping[Split, str] = {"train": "main", "test": "main"}
"""A one-database domain runs training and test tasks against the same ``db.json``."""


def domain_package(
    init_file: str,
    description: str,
    *,
    db: type[DomainDB],
    tools: type[ToolSet],
    checks: Sequence[PolicyCheck],
    generate: SplitGenerator[Any, Any] | Callable[[], DomainDB],
) -> Domain:
    """The `Domain` of the package whose ``__init__.py`` is `init_file` (pass ``__file__``).

    `generate` is the deterministic generator of the snapshot(s): a function for a domain
    with one ``db.json``, or the domain's `SplitGenerator` for ``db_train.json`` and
    ``db_eval.json``.
    """
    init = Path(init_file)
    if init.name != "__init__.py":
        # The name and root come from the folder, so only a package's own file will do.
        raise DomainError(f"domain_package() wants the __file__ of a package, not {init}")
    if isinstance(generate, SplitGenerator):
        databases, split_database = generate.databases(), SPLIT_DATABASE
    else:
        databases, split_database = {"main": Database("db.json", generate)}, SHARED_DATABASE
    root = init.parent
    # In `Domain`'s field order; the test of this module pins name, root and description.
    return Domain(root.name, description, root, db, tools, databases, split_database, checks)
