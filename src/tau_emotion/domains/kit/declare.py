"""Tools declared from data: one body in the kit, the domain's own words for the agent.

`ToolSet` builds a tool's schema from its method's signature and docstring. A kit tool (an
identity lookup, the hand-off) has one body for every domain, but what the agent reads is the
domain's own: the description, and the parameter names and texts its tasks and policy spell.
A domain keeps those as data, in `tool_docs.json` beside its tools (one `ToolDoc` per kit
tool), and `declare` makes the method from them: the schema is exactly the one a method
written out by hand in the domain would give, and no body or skeleton is written again.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, PrivateAttr, RootModel

from tau_emotion.domains.tools import ToolKind, tool

__all__ = ["DOCS_FILE", "ToolDoc", "ToolDocs", "declare"]

R = TypeVar("R")

DOCS_FILE = "tool_docs.json"
"""Where a domain keeps the docs of its kit tools, beside its tools modules."""

_SELF = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)


class ToolDoc(BaseModel):
    """What the agent reads of one tool: its description and a text per parameter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    args: dict[str, str]
    _source: str = PrivateAttr(default="")
    """The docs file it was read from ('' for one made in code), for the errors to name."""

    def where(self) -> str:
        """How an error names this doc: its file and tool, or the tool alone."""
        return f"{self._source}: {self.name}" if self._source else self.name

    def docstring(self) -> str:
        """The Google-style docstring `ToolSet` reads the schema from."""
        args = [f"    {param}: {text}" for param, text in self.args.items()]
        return "\n".join([self.description, "", "Args:", *args])


class ToolDocs(RootModel[tuple[ToolDoc, ...]]):
    """A domain's `tool_docs.json`: the `ToolDoc` of each of its kit tools."""

    _source: str = PrivateAttr(default=DOCS_FILE)

    @classmethod
    def beside(cls, module_file: str) -> ToolDocs:
        """The docs file in the folder of the module `module_file` (pass `__file__`)."""
        path = Path(module_file).with_name(DOCS_FILE)
        docs = cls.model_validate_json(path.read_bytes())
        names = [doc.name for doc in docs.root]
        if len(set(names)) != len(names):
            raise ValueError(f"{path} describes a tool twice: {names}")
        docs._source = str(path)
        for doc in docs.root:
            # A mismatch `declare` finds later is then named with the file to fix.
            doc._source = str(path)
        return docs

    def __getitem__(self, name: str) -> ToolDoc:
        for doc in self.root:
            if doc.name == name:
                return doc
        known = ", ".join(doc.name for doc in self.root)
        raise KeyError(f"{self._source} has no tool {name!r}; it has {known}")


def declare(
    kind: ToolKind, doc: ToolDoc, params: Sequence[str], run: Callable[..., R]
) -> Callable[..., R]:
    """The tool method `doc.name` of `kind`, taking the text parameters `params` (in that order)
    and answering `run(tools, *values)`. Assign it in the tool class under that name.

    Every kit tool takes text only: what a caller says, which the body normalises itself.
    """
    if list(doc.args) != list(params):
        raise ValueError(
            f"{doc.where()}: the docs describe {list(doc.args)}, the tool takes {list(params)}"
        )
    signature = inspect.Signature(
        [_SELF, *(inspect.Parameter(p, _SELF.kind, annotation=str) for p in params)]
    )

    def method(*args: Any, **kwargs: Any) -> R:
        bound = signature.bind(*args, **kwargs)
        tools, *values = bound.args
        return run(tools, *values)

    method.__name__ = method.__qualname__ = doc.name
    method.__doc__ = doc.docstring()
    # The schema reads these two, as it reads a hand-written method's signature.
    method.__signature__ = signature  # type: ignore[attr-defined]
    method.__annotations__ = {p: str for p in params}
    return tool(kind)(method)
