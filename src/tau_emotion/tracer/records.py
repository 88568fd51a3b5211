"""What every Tracer stage writes to disk: pydantic records, one JSON object per line."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tau_emotion.data import Frozen, Split, Task
from tau_emotion.domains.tools import ToolKind
from tau_emotion.tracer.preference import Preference

NodeRole = Literal["auth", "read", "write", "terminal"]


class ToolNode(Frozen):
    """One tool in a domain's dependency graph."""

    name: str = Field(description="Tool name.")
    kind: ToolKind = Field(description="read, write or terminal.")
    role: NodeRole = Field(description="auth (identity lookup), read, write or terminal.")
    params: list[str] = Field(description="Parameter names, in signature order.")
    needs: list[str] = Field(
        default_factory=list,
        description="Parameters naming an entity the agent must have seen (ids, codes).",
    )
    produces: list[str] = Field(
        default_factory=list, description="Parameter names its sample outputs can fill."
    )


class Edge(Frozen):
    """B may legitimately follow A, and why."""

    source: str = Field(description="Tool called first.")
    target: str = Field(description="Tool that may follow.")
    reasons: list[str] = Field(description="Why: data flow, behaviour or policy, one each.")
    weight: float = Field(default=1.0, description="Relative chance a random walk takes it.")


class ToolGraph(Frozen):
    """A domain's reviewed tool dependency graph."""

    domain: str = Field(description="Domain name.")
    nodes: list[ToolNode] = Field(description="Task-relevant tools.")
    edges: list[Edge] = Field(description="Allowed transitions, sorted by (source, target).")
    entries: list[str] = Field(description="Tools a conversation may start with (auth).")
    requires: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Policy order: a tool -> tools that must run earlier in the same task.",
    )
    requires_any: dict[str, list[list[str]]] = Field(
        default_factory=dict,
        description="Policy order with alternatives: a tool -> sets of tools, one set of which "
        "must all run earlier ('*write' stands for every write not listed by name).",
    )
    limits: dict[str, int] = Field(
        default_factory=dict, description="Policy: most calls of a tool in one task."
    )
    excluded: dict[str, str] = Field(
        default_factory=dict, description="Tools left out of the graph -> why."
    )
    proposed_by: str = Field(default="rules", description="'rules' or the proposing model.")
    review: list[str] = Field(default_factory=list, description="Reviewer's notes.")

    def node(self, name: str) -> ToolNode:
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)

    def successors(self, name: str) -> list[Edge]:
        return [e for e in self.edges if e.source == name]


class Walk(Frozen):
    """A random walk over the graph: the tool sequence of one task, intent by intent."""

    id: str = Field(description="Unique in the domain: its name and a number, e.g. 'shop-w00042'.")
    domain: str = Field(description="Domain name.")
    split: Split = Field(description="Which split's pool the walk belongs to.")
    intents: list[list[str]] = Field(description="Tool names of each intent, in order.")

    @property
    def trace(self) -> str:
        """The identity of the trace: the flat tool sequence (intent boundaries ignored)."""
        return trace_key([name for intent in self.intents for name in intent])


def trace_key(names: list[str]) -> str:
    return ">".join(names)


class Rejection(Frozen):
    """Why a walk or a candidate was dropped, at which stage."""

    stage: Literal["ground", "feel", "validate"] = Field(description="Stage that rejected it.")
    reason: str = Field(description="Reason code, e.g. 'tool_refused:cancel_reservation'.")
    detail: str = Field(default="", description="The specifics (an error text, a value).")


class Candidate(Frozen):
    """A grounded walk: gold actions on real entities, plus the customer's side of the task."""

    walk_id: str = Field(description="The walk it grounds.")
    trace: str = Field(description="Flat tool sequence of the gold actions.")
    variant: str = Field(description="Database variant the actions ran on.")
    final_hash: str = Field(description="State hash after the gold actions.")
    mentions: dict[str, str] = Field(
        default_factory=dict,
        description="Gold values the instruction names by a description instead -> it.",
    )
    preferred: dict[str, Preference] = Field(
        default_factory=dict,
        description="Gold values the instruction names by a preference instead (the earliest "
        "slot a search lists) -> it (`tracer.preference`).",
    )
    task: Task = Field(description="The task (no emotion yet).")
    situation: str = Field(
        description="What the customer has to do, in their words ('cancel your order #W1'): "
        "the writer's first request, for the feel stage (which never parses the prose)."
    )


class GroundResult(Frozen):
    """One line of the ground stage: a candidate, or why the walk could not be grounded."""

    walk_id: str = Field(description="The walk.")
    candidate: Candidate | None = Field(default=None, description="The grounded candidate.")
    rejection: Rejection | None = Field(default=None, description="Why it failed.")


class Felt(Frozen):
    """One line of the feel stage: the candidate with its feeling and emotion condition."""

    walk_id: str = Field(description="The walk.")
    candidate: Candidate | None = Field(default=None, description="With feeling and emotion.")
    twin: Task | None = Field(default=None, description="The no-emotion twin (test split).")
    rejection: Rejection | None = Field(default=None, description="Why it failed.")


class Verdict(Frozen):
    """One line of the validate stage."""

    walk_id: str = Field(description="The walk.")
    accepted: bool = Field(description="Whether the task is kept.")
    reasons: list[Rejection] = Field(default_factory=list, description="Every failed check.")
    candidate: Candidate | None = Field(default=None, description="The task, when accepted.")
    twin: Task | None = Field(default=None, description="Its neutral twin, when there is one.")
