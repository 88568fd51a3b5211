"""Stage 1: the tool dependency graph of a domain.

Nodes are the task-relevant tools. An edge A -> B says B may legitimately follow A, for one
of three kinds of reason, each recorded on the edge:

- interface: an output of A feeds a parameter of B (keys in A's sample results, replayed
  from the seed tasks on the real database, match B's parameter names);
- behaviour: a public catalogue read (no entity needed) may come at any point, and a
  transfer may follow any look into the case;
- policy: identity lookups come first and nothing precedes them; a write only follows a
  tool that showed the entity it acts on; nothing follows a transfer.

`requires` adds the policy's ordering rules (quote before a plan change, read a booking
before changing it): for each tool, the tools that precede it in every seed task that uses
it, since seed tasks are gold trajectories that pass the policy checks.

The graph is derived, then reviewed: the domain declares the reviewer's edits
(`TracerSpec.review`), and the result is committed as ``domains/<name>/tracer/graph.json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from tau_emotion.domains.tools import ToolSpec

# The entity rule lives with the declaration (a phrase's slots follow it); imported here,
# where the Tracer's stages have always found it.
from tau_emotion.tracer.declaration import ID_SUFFIXES as ID_SUFFIXES
from tau_emotion.tracer.declaration import LITERAL_CODES as LITERAL_CODES
from tau_emotion.tracer.declaration import ReviewEdit
from tau_emotion.tracer.declaration import is_entity_param as is_entity_param
from tau_emotion.tracer.records import Edge, NodeRole, ToolGraph, ToolNode
from tau_emotion.tracer.values import Vocabulary, observe, tool_noun

if TYPE_CHECKING:
    # The graph reads a profile but never makes one; the profile loads its graph from here
    # (`Profile.graph`), so only that direction is an import that runs.
    from tau_emotion.tracer.profile import Profile

MIN_SEED_USES = 2
"""A tool's policy order is read off the seeds only when at least this many use it."""


def graph_path(profile: Profile) -> Path:
    return profile.domain.root / "tracer" / "graph.json"


def _params(spec: ToolSpec) -> dict[str, Any]:
    props: dict[str, Any] = spec.schema["parameters"].get("properties", {})
    return props


def _required(spec: ToolSpec) -> list[str]:
    req: list[str] = spec.schema["parameters"].get("required", [])
    return req


def _needs(spec: ToolSpec, profile: Profile, role: NodeRole) -> list[str]:
    """Required parameters that name an entity: the agent must have seen its id."""
    if role == "auth":
        return []
    return [
        p
        for p in _required(spec)
        if is_entity_param(p) or p in profile.known_codes or p == profile.customer_param
    ]


def _object_items(schema: dict[str, Any]) -> list[str] | None:
    """Required keys of an array-of-objects parameter (e.g. flights: flight_number, date)."""
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and "properties" in items:
        required: list[str] = items.get("required") or list(items["properties"])
        return required
    return None


def _is_catalogue_map(schema: dict[str, Any]) -> bool:
    """An id -> quantity object (a basket): filled from a priced list of items."""
    return schema.get("type") == "object" and isinstance(schema.get("additionalProperties"), dict)


def produced_params(
    tool: str,
    results: Sequence[Any],
    params: Mapping[str, dict[str, Any]],
    vocabulary: Vocabulary,
) -> list[str]:
    """Parameters (of any tool) that values in these results can fill."""
    found: set[str] = set()
    for result in results:
        obs = observe(result, 0, tool_noun(tool))
        keysets = [set(o.context) for o in obs if o.context is not None and o.group]
        for param, schema in params.items():
            item_keys = _object_items(schema)
            if item_keys is not None:
                if any(set(item_keys) <= ks for ks in keysets):
                    found.add(param)
            elif _is_catalogue_map(schema):
                if any(("id" in ks or "item_id" in ks) and "price" in ks for ks in keysets):
                    found.add(param)
            elif any(vocabulary.param_matches(param, o) for o in obs):
                found.add(param)
    return sorted(found)


def _all_params(profile: Profile) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for spec in profile.domain.toolset.specs.values():
        for p, schema in _params(spec).items():
            merged.setdefault(p, schema)
    return merged


def _nodes(profile: Profile) -> list[ToolNode]:
    params = _all_params(profile)
    nodes: list[ToolNode] = []
    for name, spec in profile.domain.toolset.specs.items():
        if name in profile.utilities:
            continue
        role: NodeRole = "auth" if name in profile.auth_tools else spec.kind
        produces = produced_params(name, profile.samples.get(name, []), params, profile.vocabulary)
        if role == "auth":
            produces = sorted({*produces, profile.customer_param})
        nodes.append(
            ToolNode(
                name=name,
                kind=spec.kind,
                role=role,
                params=list(_params(spec)),
                needs=_needs(spec, profile, role),
                produces=produces,
            )
        )
    return nodes


def _edge(a: ToolNode, b: ToolNode, profile: Profile) -> Edge | None:
    """Why b may follow a, or None."""
    if b.role == "auth" or a.role == "terminal":
        return None  # policy: identity first, and a transfer ends the conversation

    def edge(weight: float, *reasons: str) -> Edge:
        return Edge(source=a.name, target=b.name, reasons=list(reasons), weight=weight)

    cust = profile.customer_param
    knowable = {cust, *profile.known_codes}
    if a.role == "auth":
        if b.role == "read" and set(b.needs) <= knowable:
            return edge(2.0, f"policy: authentication first; {a.name} identifies {cust}")
        if b.role == "terminal":
            return edge(0.3, "policy: transfer when the customer asks for a human")
        return None  # a write needs its entity read first
    fed = [p for p in b.params if p in a.produces and p != cust]
    # Every record echoes the customer id; only the customer's own record (a lookup that
    # needs nothing else) hands it on as such.
    account_read = a.role == "read" and set(a.needs) <= {cust}
    if cust in b.needs and cust in a.produces and account_read and (not fed or b.needs == [cust]):
        fed.append(cust)
    if fed:
        return edge(1.0 + 2.0 * len(fed), *(f"interface: {a.name} output feeds {p}" for p in fed))
    if b.role == "read" and set(b.needs) <= knowable:
        return edge(0.5, "behaviour: a lookup that needs only what the customer says")
    if b.role == "terminal":
        return edge(0.3, "behaviour: transfer after looking into the case")
    return None


def _requires(profile: Profile, names: set[str]) -> dict[str, list[str]]:
    """Tools that precede a tool in every seed trace that uses it (auth excluded)."""
    before: dict[str, list[set[str]]] = {}
    for traces in profile.seed_traces.values():
        for trace in traces:
            for i, name in enumerate(trace):
                earlier = {t for t in trace[:i] if t in names and t not in profile.auth_tools}
                earlier.discard(name)
                before.setdefault(name, []).append(earlier)
    out: dict[str, list[str]] = {}
    for name, sets in sorted(before.items()):
        # Reads order themselves through the data they need; the policy orders actions.
        if profile.domain.tool_kinds.get(name) == "read":
            continue
        if name in names and len(sets) >= MIN_SEED_USES:
            common = set.intersection(*sets)
            if common:
                out[name] = sorted(common)
    return out


def derive_graph(profile: Profile) -> ToolGraph:
    """The graph the rules give, before review."""
    nodes = _nodes(profile)
    edges = [e for a in nodes for b in nodes if (e := _edge(a, b, profile)) is not None]
    entries = [n.name for n in nodes if n.role == "auth"]
    reachable = set(entries) | {e.target for e in edges}
    excluded = dict(profile.utilities)
    for n in nodes:
        if n.name not in reachable:
            excluded[n.name] = "unreachable: no tool output the agent can see feeds " + (
                ", ".join(n.needs) or "it"
            )
    kept = [n for n in nodes if n.name not in excluded]
    names = {n.name for n in kept}
    edges = [e for e in edges if e.source in names and e.target in names]
    return ToolGraph(
        domain=profile.name,
        nodes=kept,
        edges=sorted(edges, key=lambda e: (e.source, e.target)),
        entries=entries,
        requires=_requires(profile, names),
        excluded=dict(sorted(excluded.items())),
    )


def review_graph(graph: ToolGraph, edits: Sequence[ReviewEdit]) -> ToolGraph:
    """Apply the reviewer's edits and record them as notes."""
    edges = {(e.source, e.target): e for e in graph.edges}
    requires = {k: list(v) for k, v in graph.requires.items()}
    requires_any = {k: [list(x) for x in v] for k, v in graph.requires_any.items()}
    limits = dict(graph.limits)
    notes = list(graph.review)
    for action, a, b, why in edits:
        if action == "drop":
            edges.pop((a, b), None)
        elif action == "add":
            edges[(a, b)] = Edge(source=a, target=b, reasons=[f"review: {why}"])
        elif action == "unrequire":
            requires[a] = [t for t in requires.get(a, []) if t != b]
        elif action == "require_any":
            requires_any[a] = [alt.split("+") for alt in b.split("|")] if b else []
        elif action == "limit":
            limits[a] = int(b)
        else:
            raise ValueError(f"unknown review action {action!r}")
        notes.append(f"{action} {a} {b}: {why}".replace("  ", " "))
    return graph.model_copy(
        update={
            "edges": [edges[k] for k in sorted(edges)],
            "requires": {k: v for k, v in sorted(requires.items()) if v},
            "requires_any": dict(sorted(requires_any.items())),
            "limits": dict(sorted(limits.items())),
            "review": notes,
        }
    )


def build_graph(profile: Profile) -> ToolGraph:
    """Derived and reviewed."""
    graph = review_graph(derive_graph(profile), profile.spec.review)
    return graph.model_copy(
        update={"review": [*graph.review, "reviewed: edges, entries and requires read and kept"]}
    )


def load_graph(profile: Profile) -> ToolGraph:
    """The committed graph, or the freshly built one when none is committed yet (the
    profile keeps it: see `Profile.graph`)."""
    path = graph_path(profile)
    if path.exists():
        return ToolGraph.model_validate_json(path.read_text(encoding="utf-8"))
    return build_graph(profile)


def save_graph(profile: Profile, graph: ToolGraph) -> Path:
    """Commit the graph into the domain folder; the profile walks it from now on."""
    path = graph_path(profile)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(graph.model_dump_json(indent=1) + "\n", encoding="utf-8")
    profile.graph_override = graph
    return path


def graph_diff(committed: ToolGraph, fresh: ToolGraph) -> list[str]:
    """What differs between two graphs, one line per difference ([] when they are equal).

    Every field counts, not only the names: the walker samples by edge weight and order,
    checks `requires`, `requires_any` and `limits`, starts at `entries` and follows what a
    node `needs` and `produces`, so a derivation that only moved a weight or fed one more
    parameter already gives other walks (and so other tasks) than the committed graph."""
    lines: list[str] = []
    for name in ToolGraph.model_fields:
        old, new = getattr(committed, name), getattr(fresh, name)
        if old == new:
            continue
        if name == "nodes":
            lines += _records_diff("node", _by_name(committed.nodes), _by_name(fresh.nodes))
        elif name == "edges":
            lines += _records_diff("edge", _by_pair(committed.edges), _by_pair(fresh.edges))
        elif isinstance(old, dict):
            lines += [
                _changed(f"{name}[{key}]", old.get(key), new.get(key))
                for key in sorted({*old, *new})
                if old.get(key) != new.get(key)
            ]
        else:
            lines.append(_changed(name, old, new))
    return lines


def _by_name(nodes: Sequence[ToolNode]) -> dict[str, BaseModel]:
    return {n.name: n for n in nodes}


def _by_pair(edges: Sequence[Edge]) -> dict[str, BaseModel]:
    return {f"{e.source} -> {e.target}": e for e in edges}


def _records_diff(
    kind: str, old: Mapping[str, BaseModel], new: Mapping[str, BaseModel]
) -> list[str]:
    """Nodes or edges by key: the ones only one graph holds, then each field that differs,
    then their order (the walker draws among a tool's successors in the order listed)."""
    lines = [f"{kind} only in committed: {k}" for k in old if k not in new]
    lines += [f"{kind} only in fresh: {k}" for k in new if k not in old]
    for key in (k for k in old if k in new and old[k] != new[k]):
        a, b = old[key], new[key]
        lines += [
            _changed(f"{kind} {key} {field}", getattr(a, field), getattr(b, field))
            for field in type(a).model_fields
            if getattr(a, field) != getattr(b, field)
        ]
    if not lines:
        lines.append(f"{kind} order differs")
    return lines


def _changed(what: str, old: Any, new: Any) -> str:
    """One difference; a list of names by what it lost (-) and gained (+)."""
    if old is None:
        return f"{what} only in fresh: {new!r}"
    if new is None:
        return f"{what} only in committed: {old!r}"
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and all(isinstance(x, str) for x in [*old, *new])
    ):
        moved = [f"-{x}" for x in old if x not in new] + [f"+{x}" for x in new if x not in old]
        return f"{what}: " + (", ".join(moved) if moved else "order differs")
    return f"{what}: {old!r} committed, {new!r} fresh"


def left_out_writes(graph: ToolGraph, kinds: Mapping[str, str]) -> dict[str, str]:
    """The write tools of a domain (`kinds`: tool -> kind) that `graph` has no node for, and
    why (its `excluded` reason): no walk, and so no Tracer task, can use them."""
    nodes = {n.name for n in graph.nodes}
    return {
        tool: graph.excluded.get(tool, "not in the graph")
        for tool, kind in kinds.items()
        if kind == "write" and tool not in nodes
    }


def policy_problems(graph: ToolGraph) -> list[str]:
    """Rules every graph must keep (the tests run this on every committed graph)."""
    roles = {n.name: n.role for n in graph.nodes}
    problems: list[str] = []
    for e in graph.edges:
        if roles.get(e.target) == "auth":
            problems.append(f"{e.source} -> {e.target}: nothing may precede authentication")
        if roles.get(e.source) == "terminal":
            problems.append(f"{e.source} -> {e.target}: nothing may follow a transfer")
        if roles.get(e.target) == "write" and roles.get(e.source) == "auth":
            problems.append(f"{e.source} -> {e.target}: a write needs its entity read first")
        if roles.get(e.target) == "write" and not any(
            r.startswith(("interface:", "review:")) for r in e.reasons
        ):
            problems.append(f"{e.source} -> {e.target}: a write edge must carry data")
    for entry in graph.entries:
        if roles.get(entry) != "auth":
            problems.append(f"entry {entry} is not an identity lookup")
    return problems
