"""Typed tools: a method's signature and docstring become its JSON schema and its validator.

A domain writes its tools as methods of a `ToolSet` subclass and tags each with
``@tool("read")``, ``@tool("write")`` or ``@tool("terminal")``. The docstring's first paragraph
is the tool description; an ``Args:`` section (Google style) describes the parameters.
A tool that refuses raises `ToolError`, whose text goes back to the agent. Any other
exception is a bug in the domain and propagates.

Validation also bounds every value, here and nowhere else, so that no tool ever sees what
it cannot handle: numbers must be finite (JSON from a model may carry NaN, Infinity or
1e999) and no larger than `MAX_AMOUNT` / `MAX_COUNT`, and text must be encodable Unicode.
Those bounds lie far outside anything a customer asks for, so no valid call changes.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Literal, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from tau_emotion.domains.state import State
from tau_emotion.errors import ToolError

ToolKind = Literal["read", "write", "terminal"]
F = TypeVar("F", bound=Callable[..., Any])

_TOOL_ATTR = "__tau_tool_kind__"

MAX_AMOUNT = 1_000_000_000.0
"""Largest magnitude of a fractional argument (an amount in dollars). Beyond it, cent-exact
`Decimal` arithmetic with 28 digits fails, and no customer moves a billion dollars."""
MAX_COUNT = 100_000
"""Largest magnitude of an integer argument (tickets, guests, days, points, installments).
A tool may loop over a count or add it to a date; 1e15 days would overflow."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def tool(kind: ToolKind) -> Callable[[F], F]:
    """Tag a `ToolSet` method as a tool of the given kind."""
    if kind not in ("read", "write", "terminal"):
        raise ValueError(f"tool kind must be read, write or terminal, not {kind!r}")

    def mark(fn: F) -> F:
        setattr(fn, _TOOL_ATTR, kind)
        return fn

    return mark


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into the description and per-argument texts."""
    doc = inspect.cleandoc(doc or "")
    parts = re.split(r"^\s*(?:Args|Arguments|Parameters):\s*$", doc, maxsplit=1, flags=re.M)
    description = parts[0].strip()
    args: dict[str, str] = {}
    if len(parts) == 2:
        current: str | None = None
        for line in parts[1].splitlines():
            if re.match(r"^\s*(Returns|Raises|Yields|Examples?):\s*$", line):
                break
            match = re.match(r"^\s{0,8}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$", line)
            if match:
                current = match.group(1)
                args[current] = match.group(2).strip()
            elif current and line.strip():
                args[current] += " " + line.strip()
    return " ".join(description.split()), args


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, kind, JSON schema and argument validator."""

    name: str
    kind: ToolKind
    description: str
    arguments_model: type[BaseModel]
    schema: dict[str, Any]

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Validate and coerce arguments; raise `ToolError` naming what was wrong."""
        try:
            parsed = self.arguments_model.model_validate(arguments)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                for err in exc.errors()
            )
            raise ToolError(f"invalid arguments for {self.name}: {problems}") from None
        values = {name: getattr(parsed, name) for name in type(parsed).model_fields}
        for name, value in values.items():
            problem = _out_of_bounds(value, name)
            if problem is not None:
                raise ToolError(f"invalid arguments for {self.name}: {problem}")
        return values

    def openai_schema(self) -> dict[str, Any]:
        """The Chat Completions `tools` entry."""
        return {"type": "function", "function": self.schema}


def _out_of_bounds(value: Any, where: str) -> str | None:
    """What makes `value` (or anything inside it) unfit for a tool, or None when it is fit.

    Walks the validated values rather than constraining the field types, so the JSON schemas
    the agent sees stay exactly as the signatures write them.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float | Decimal):
        finite = value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)
        if not finite:
            return f"{where}: must be a finite number"
        if abs(float(value)) > MAX_AMOUNT:
            return f"{where}: must be between {-MAX_AMOUNT:,.0f} and {MAX_AMOUNT:,.0f}"
        return None
    if isinstance(value, int):
        if abs(value) > MAX_COUNT:
            return f"{where}: must be between {-MAX_COUNT:,} and {MAX_COUNT:,}"
        return None
    if isinstance(value, str):
        if not value.isascii() and _SURROGATE.search(value):
            return f"{where}: is not valid Unicode text (it holds a lone surrogate)"
        return None
    if isinstance(value, BaseModel):
        items = [(name, getattr(value, name)) for name in type(value).model_fields]
        return _first_problem(items, where)
    if isinstance(value, dict):
        keys = _first_problem([("key", k) for k in value], where)
        return keys or _first_problem([(str(k), v) for k, v in value.items()], where)
    if isinstance(value, list | tuple | set | frozenset):
        return _first_problem([(str(i), v) for i, v in enumerate(value)], where)
    return None


def _first_problem(items: list[tuple[str, Any]], where: str) -> str | None:
    for name, item in items:
        problem = _out_of_bounds(item, f"{where}.{name}")
        if problem is not None:
            return problem
    return None


def _check_arg_docs(name: str, params: list[str], arg_docs: dict[str, str]) -> None:
    """Refuse an ``Args:`` entry that names no parameter, or a parameter without one: the
    entry's text used to be dropped and the agent shown the parameter with no description."""
    stray = [a for a in arg_docs if a not in params]
    bare = [p for p in params if p not in arg_docs]
    if stray:
        hint = f"; {', '.join(map(repr, bare))} has no description" if bare else ""
        raise TypeError(
            f"tool {name}: its docstring's Args documents {stray[0]!r}, which is no "
            f"parameter (it takes {', '.join(params) or 'none'}){hint}"
        )
    if bare:
        raise TypeError(f"tool {name}: parameter {bare[0]!r} has no entry in its docstring's Args")


def _build_spec(name: str, fn: Callable[..., Any], kind: ToolKind) -> ToolSpec:
    description, arg_docs = _parse_docstring(fn.__doc__ or "")
    if not description:
        raise TypeError(f"tool {name} needs a docstring: it is the tool's description")
    hints = get_type_hints(fn)
    signature = list(inspect.signature(fn).parameters.values())[1:]
    _check_arg_docs(name, [p.name for p in signature], arg_docs)
    fields: dict[str, Any] = {}
    for param in signature:
        if param.name not in hints:
            raise TypeError(f"tool {name}: parameter {param.name} has no type annotation")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (
            hints[param.name],
            Field(default, description=arg_docs.get(param.name, "")),
        )
    model = create_model(f"{name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)
    params = _inline_refs(model.model_json_schema())
    schema = {"name": name, "description": description, "parameters": params}
    return ToolSpec(name, kind, description, model, schema)


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace ``$ref``s by their definitions and drop titles.

    Some chat templates and tool-call parsers only understand self-contained schemas.
    """
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return walk(defs[ref.split("/")[-1]])
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "title" and isinstance(value, str):
                continue  # a schema title, not an argument called "title"
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: walk(prop) for name, prop in value.items()}
            else:
                out[key] = walk(value)
        return out

    result: dict[str, Any] = walk(schema)
    return result


class ToolSet:
    """Base class of a domain's tools. Subclasses add tagged methods; specs are built once."""

    specs: ClassVar[dict[str, ToolSpec]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs: dict[str, ToolSpec] = {}
        for attr in dir(cls):
            fn = getattr(cls, attr, None)
            kind = getattr(fn, _TOOL_ATTR, None)
            if kind is not None and callable(fn):
                specs[attr] = _build_spec(attr, fn, kind)
        cls.specs = dict(sorted(specs.items()))

    def __init__(self, state: State) -> None:
        self.state = state

    def invoke(self, name: str, arguments: dict[str, Any]) -> Any:
        """Validate and run one tool. Raises `ToolError` for unknown tools and bad arguments."""
        spec = self.specs.get(name)
        if spec is None:
            known = ", ".join(self.specs)
            raise ToolError(f"unknown tool {name!r}; available tools: {known}")
        return getattr(self, name)(**spec.validate(arguments))


def to_text(result: Any) -> str:
    """Render a tool result for the agent: JSON for structured data, text as is."""
    if isinstance(result, str):
        return result
    if isinstance(result, BaseModel):
        return result.model_dump_json()
    return json.dumps(_jsonable(result), ensure_ascii=False)


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
