"""What a domain declares for the Tracer: the facts no schema states, in one typed object.

A domain folder holds ``tracer_profile.py`` with ``TRACER = TracerSpec(...)``; `Domain.tracer`
loads it (a domain without one gets `TracerSpec()`, the empty defaults, and the Tracer
derives what it can: identity lookups are then the ``find_*`` reads). The Tracer reads a
domain only through this object and the `Domain` itself, so it never names a domain.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

if TYPE_CHECKING:
    from tau_emotion.tracer.ground.scene import Choice, Scene

Phrase = tuple[str, str]
"""How a customer asks for an action: a goal (after "You want to") and a request (after
"I'd like to"). Slots in braces are the action's arguments as the customer names them;
``{entity}`` is the record acted on, written with "your" in goals and "my" in requests."""

ID_SUFFIXES = ("_id", "_ids", "_code", "_number")
LITERAL_CODES = frozenset({"zip_code", "postal_code", "phone_number"})
"""Named like ids, but the customer states them (an address, a phone)."""
_SUFFIX = re.compile(r"_(id|ids|code|number)$")


def is_entity_param(param: str) -> bool:
    """Whether a parameter names an entity the agent must have seen (an id or a code)."""
    return param.endswith(ID_SUFFIXES) and param not in LITERAL_CODES


def slot(param: str, codes: Mapping[str, str]) -> str:
    """The template slot of a parameter: an id parameter without its suffix (new_plan_id ->
    new_plan), a receipt code or anything else as it is (voucher_code, zip_code)."""
    if param in codes or not is_entity_param(param):
        return param
    return _SUFFIX.sub("", param)


ENTITY_SLOT = "entity"
"""The slot of the record an action acts on, in every phrase."""

_PHRASES = TypeAdapter(dict[str, tuple[str, str]])


def load_phrases(path: Path) -> dict[str, Phrase]:
    """A domain's phrases from JSON (tool -> [goal, request]), checked on load."""
    return _PHRASES.validate_json(path.read_bytes())


_REASONS = TypeAdapter(dict[str, tuple[str, ...]])


def load_reasons(path: Path) -> dict[str, tuple[str, ...]]:
    """A domain's reasons from JSON (write tool -> reasons a customer gives for it), checked
    on load: each reads after "because", names no record and holds no digit."""
    reasons = _REASONS.validate_json(path.read_bytes())
    for tool, said in reasons.items():
        for reason in said:
            if not reason or reason != reason.strip() or reason.endswith("."):
                raise ValueError(f"{path}: {tool}: {reason!r} must be trimmed, without a period")
            if any(ch.isdigit() for ch in reason):
                raise ValueError(f"{path}: {tool}: {reason!r} holds a digit")
    return reasons


class TransferReason(BaseModel):
    """A situation the domain's policy sends to a human agent, as a customer puts it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    situation: str = Field(
        min_length=10,
        description="What the customer needs, in their words, complete as a sentence after "
        "'I need to speak to a human agent, because' (e.g. 'my trip has already started and "
        "I need the return leg moved'). It names no record: the task adds which one.",
    )
    policy: str = Field(
        min_length=10, description="The policy.md sentence that sends it to a human, verbatim."
    )


_TRANSFER_REASONS = TypeAdapter(tuple[TransferReason, ...])


def load_transfer_reasons(path: Path) -> tuple[TransferReason, ...]:
    """A domain's transfer reasons from JSON (a list of {situation, policy}), checked on load:
    each policy sentence must be in the domain's policy.md (the file beside ``tracer/``)."""
    reasons = _TRANSFER_REASONS.validate_json(path.read_bytes())
    policy = " ".join((path.parent.parent / "policy.md").read_text(encoding="utf-8").split())
    for reason in reasons:
        if " ".join(reason.policy.split()) not in policy:
            raise ValueError(f"{path}: {reason.policy!r} is not a sentence of policy.md")
    return reasons


Hook = Callable[[str, "Scene"], "list[dict[str, Choice]]"]
"""Fills parameters no name rule can (tool, scene -> argument fragments, best first): it
reads an earlier output's own format, e.g. free seats from a seat map's row notation."""

DEFAULT_TEST_TARGET = 50
"""Test tasks a build selects for a domain that declares no target."""


class ReviewEdit(NamedTuple):
    """One reviewer's edit of the derived tool graph, with its reason (kept as a note)."""

    action: Literal["drop", "add", "unrequire", "require_any", "limit"]
    """'drop'/'add' remove or insert the edge a -> b; 'unrequire' drops b from a's
    seed-derived order; 'require_any' gives a (a tool, or '*write' for every other write)
    alternatives b ('x+y|z': x and y, or z); 'limit' caps a at int(b) calls."""
    a: str
    b: str
    why: str


@dataclass(frozen=True)
class CallerRule:
    """Who of a customer table may call: a record may be the caller only when its `field`
    is at most `highest` (e.g. born on or before a date, where minors act via a guardian)."""

    field: str
    highest: str


@dataclass(frozen=True)
class TracerSpec:
    """Everything the Tracer knows about a domain that its code, data and seed tasks do not
    show. Every field has an empty default: a new domain starts with none and adds what its
    first build asks for."""

    auth_tools: tuple[str, ...] = ()
    """Identity lookups (the tools the policy checks authenticate with). Empty: the read
    tools named ``find_*``."""
    known_codes: Mapping[str, str] = field(default_factory=dict)
    """Identifiers printed on a receipt or a confirmation email, which a customer may quote:
    parameter name -> the known_facts key the scripted user answers to."""
    public_tables: frozenset[str] = frozenset()
    """Tables whose keys are public names (an airport code, a drug, a plan): not leaks."""
    record_aliases: Mapping[str, str] = field(default_factory=dict)
    """Facts of the customer's own record that a tool parameter asks for under another name:
    parameter -> record field."""
    utilities: Mapping[str, str] = field(default_factory=dict)
    """Tools a task never needs (pure utilities): tool -> why."""
    caller_rules: Mapping[str, CallerRule] = field(default_factory=dict)
    """Customer table -> who of it may call."""
    review: tuple[ReviewEdit, ...] = ()
    """The reviewer's edits of the derived graph, applied in order."""
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    """Tool -> how a customer asks for it. A tool missing here reads as its name."""
    hooks: Mapping[str, Hook] = field(default_factory=dict)
    """Tool -> the hook that fills the parameters its name rules cannot."""
    param_aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Parameter names whose values the domain's tools show under other keys (added to the
    generic aliases, e.g. ``phone`` for ``phone_number``)."""
    name_keys: tuple[str, ...] = ()
    """Result keys that name a thing in this domain (after the generic ones: label, name,
    title...), so a customer can describe it."""
    test_target: int = DEFAULT_TEST_TARGET
    """Test tasks a full build selects."""
    test_walks: int | None = None
    """Distinct walks in the test pool, where the build's default (`BuildConfig.test_walks`)
    is too few: a domain whose customers rarely carry several writes at once accepts few of
    the test pool's many-intent walks."""
    reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Write tool -> why a customer would want it, in their words, each complete after
    "because" (first person; "my plans changed"). The writer gives one with an intent's
    request; a tool without any is asked for without a reason."""
    transfer_reasons: tuple[TransferReason, ...] = ()
    """Why a customer would need a human agent, from the policy's transfer rules. A task asks
    for a transfer only with one of these reasons (the agent must judge it out of scope), so a
    domain without any gets no transfer tasks."""


_WILDCARD = "*write"
"""`ReviewEdit.a` of a 'require_any' that applies to every other write."""


def spec_problems(
    spec: TracerSpec, tools: Mapping[str, Collection[str]], tables: Collection[str]
) -> list[tuple[str, str]]:
    """What `spec` names that the domain does not have, as (field, problem): `tools` maps
    each tool to its parameters, `tables` lists the database's tables. A typo in a name used
    to be ignored (a phrase keyed to no tool, a slot no argument fills: it reads "it") or to
    surface later as an error blaming something else (a misspelled identity lookup)."""
    known = ", ".join(tools)
    problems: list[tuple[str, str]] = []

    def tool_names(where: str, names: Collection[str]) -> None:
        for name in names:
            if name not in tools:
                problems.append((where, f"{name!r} is no tool; the tools are {known}"))

    tool_names("auth_tools", spec.auth_tools)
    for where in ("phrases", "reasons", "hooks", "utilities"):
        tool_names(where, getattr(spec, where))
    for tool, phrase in spec.phrases.items():
        if tool not in tools:
            continue
        slots = {ENTITY_SLOT} | {slot(p, spec.known_codes) for p in tools[tool]}
        for text in phrase:
            for name in re.findall(r"\{(\w*)\}", text):
                if name not in slots:
                    problems.append(
                        (
                            "phrases",
                            f"{tool}: slot {{{name}}} names no argument of {tool}; its slots "
                            f"are {', '.join(sorted(slots))}",
                        )
                    )
    for edit in spec.review:
        problems += [("review", p) for p in _edit_problems(edit, tools, known)]
    params = {p for ps in tools.values() for p in ps}
    for where in ("known_codes", "record_aliases"):
        for param in getattr(spec, where):
            if param not in params:
                problems.append((where, f"{param!r} is no parameter of any tool"))
    for where, named in (
        ("public_tables", spec.public_tables),
        ("caller_rules", spec.caller_rules),
    ):
        for table in named:
            if table not in tables:
                problems.append(
                    (where, f"{table!r} is no table; the tables are {', '.join(tables)}")
                )
    return problems


def _edit_problems(edit: ReviewEdit, tools: Mapping[str, object], known: str) -> list[str]:
    """The tool names of one review edit that name no tool (`ReviewEdit` says what a and b
    hold for each action)."""
    named = [edit.a] if edit.a != _WILDCARD or edit.action != "require_any" else []
    if edit.action in ("drop", "add", "unrequire"):
        named.append(edit.b)
    elif edit.action == "require_any" and edit.b:
        named += [t for alt in edit.b.split("|") for t in alt.split("+")]
    elif edit.action == "limit" and not edit.b.isdigit():
        return [f"{edit.action} {edit.a}: {edit.b!r} is no number of calls"]
    return [
        f"{edit.action} {edit.a} {edit.b}: {t!r} is no tool; the tools are {known}"
        for t in named
        if t not in tools
    ]
