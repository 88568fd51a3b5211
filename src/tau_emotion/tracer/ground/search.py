"""Grounding search: fill a walk's calls with real values and run them until every call works.

A depth-first search over argument choices: each call gets a few ranked argument sets; the
first one the tool accepts (and, for a write, that changes the state) is kept and the search
moves on; when a later call cannot be made to work, it backs up and tries the next set of an
earlier call (restoring the state by replaying the kept prefix). A budget of tool calls bounds
the search. At the end, the trajectory the oracle would produce must pass the policy checks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from tau_emotion.data import Action
from tau_emotion.domains.checks import PolicyCheck, Violation, run_checks
from tau_emotion.domains.tools import ToolSpec, to_text
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.arguments import argument_sets, rank, recent_values
from tau_emotion.tracer.ground.fill import param_choices
from tau_emotion.tracer.ground.scene import (
    Scene,
    required_params,
    schema_props,
)
from tau_emotion.tracer.oracle import oracle_messages
from tau_emotion.tracer.values import Choice, observe, parse_result, tool_noun

ATTEMPTS_PER_CALL = 6

WRITE_ATTEMPTS = 12

CALL_BUDGET = 60


@dataclass(frozen=True)
class Blocked:
    """A write of the walk that a judgement rule forbade, met after the search had made every
    call before it: what this customer would ask for and be refused. The walk
    fails as it stands, but it is a policy challenge (`ground.challenge.blocked_challenge`)."""

    rule_id: str
    reason: str
    tool: str
    arguments: dict[str, Any]
    choices: dict[str, Choice]
    calls: list[tuple[str, dict[str, Any]]]
    """The calls the search had made before it: whole earlier intents, then the reads of the
    blocked write's own intent."""
    results: list[str]
    picked: list[dict[str, Choice]]


@dataclass
class Outcome:
    """The result of grounding one walk for one customer."""

    ok: bool
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    choices: list[dict[str, Choice]] = field(default_factory=list)
    final_hash: str = ""
    reason: str = ""
    detail: str = ""
    depth: int = -1
    blocked: Blocked | None = None
    """The first forbidden write met with the most calls before it, when the search fails."""


READ_CACHE_LIMIT = 50_000


def call_text(
    env: Environment,
    tool: str,
    args: Mapping[str, Any],
    reads: dict[tuple[str, str, str], str | ToolError],
) -> str:
    """Run a tool and render its result. A read's answer depends only on its arguments and
    the state, so it is remembered in `reads` (the build's cache, by tool, arguments and state
    hash): grounding asks the same lookups again and again, and some are slow."""
    if env.kind(tool) != "read":
        return to_text(env.call(tool, dict(args)))
    key = (tool, json.dumps(args, sort_keys=True, default=str), env.hash())
    cached = reads.get(key)
    if cached is None:
        try:
            cached = to_text(env.call(tool, dict(args)))
        except ToolError as exc:
            cached = exc
        if len(reads) >= READ_CACHE_LIMIT:
            reads.clear()  # bounded: recent lookups matter more than old ones
        reads[key] = cached
    if isinstance(cached, ToolError):
        raise cached
    return cached


def _entities(tool: str, args: Mapping[str, Any], scene: Scene) -> set[str]:
    """The records a write acts on; the customer's account when it names no other."""
    cust = scene.profile.customer_param
    found = {
        repr(v)
        for p, v in args.items()
        if p != cust
        and (p in scene.profile.known_codes or is_entity_param(p))
        and not isinstance(v, list | dict)
        and not p.endswith("method_id")
    }
    return found or {repr(scene.customer_id)}


def _clash(tool: str, args: Mapping[str, Any], scene: Scene) -> str:
    """Writes in one task act on distinct things: the same action never twice on one record,
    and nothing more on a record once it is cancelled (or before cancelling it)."""
    kinds = scene.profile.domain.tool_kinds
    if kinds[tool] != "write":
        return ""
    mine = _entities(tool, args, scene)
    if tool.startswith(("cancel", "refund")):
        made = {
            repr(o.value)
            for o in scene.obs
            if 0 <= o.step < len(scene.calls) and kinds[scene.calls[o.step][0]] == "write"
        }
        if mine & made:
            return f"{tool} on a record this task just created"
    for name, earlier in scene.calls:
        if kinds[name] != "write":
            continue
        shared = mine & _entities(name, earlier, scene)
        if not shared:
            continue
        if name == tool:
            return f"{tool} twice on the same record"
        if name.startswith("cancel") or tool.startswith("cancel"):
            return f"{tool} and {name} on the same record"
    return ""


def _push(
    scene: Scene, tool: str, args: dict[str, Any], result: Any, chosen: dict[str, Choice]
) -> None:
    scene.calls.append((tool, args))
    scene.results.append((tool, result))
    scene.add_obs(observe(result, scene.step - 1, tool_noun(tool)))


def _pop(scene: Scene) -> None:
    scene.calls.pop()
    scene.results.pop()
    step = scene.step
    keep = next((i for i, o in enumerate(scene.obs) if o.step >= step), len(scene.obs))
    scene.truncate_obs(keep)


PROBE_CANDIDATES = 12

PROBE_VIABLE = 3


def _primary(tool: str, spec: ToolSpec, scene: Scene) -> tuple[str, list[Choice]] | None:
    """The entity parameter a read picks among several (which order, which reservation)."""
    props = schema_props(spec)
    for param in required_params(spec):
        if param == scene.profile.customer_param:
            continue
        if is_entity_param(param) or param in scene.profile.known_codes:
            cands = param_choices(tool, param, props[param], scene, {})
            if len(cands) > 1:
                return param, rank(cands, {}, scene, recent_values(scene), True)
    return None


def probe(
    tools: list[str], i: int, scene: Scene, env: Environment, restore: Any
) -> dict[str, list[Any]]:
    """Before a read picks its entity, try each candidate as far as the next write: run the
    read with it, then the write with its first argument sets. Entities the write accepts are
    preferred, so the search does not wander through delivered orders to cancel one."""
    specs = scene.profile.domain.toolset.specs
    kinds = scene.profile.domain.tool_kinds
    tool = tools[i]
    later = next((t for t in tools[i + 1 :] if kinds[t] == "write"), None)
    if kinds[tool] != "read" or later is None:
        return {}
    found = _primary(tool, specs[tool], scene)
    if found is None:
        return {}
    param, cands = found
    viable: list[Any] = []
    for cand in cands[:PROBE_CANDIDATES]:
        first = next(iter(argument_sets(tool, specs[tool], scene, 1, {param: [cand.value]})))
        if isinstance(first, str) or first[0].get(param) != cand.value:
            continue
        args, chosen = first
        try:
            text = call_text(env, tool, args, scene.profile.cache.reads)
        except ToolError:
            continue
        _push(scene, tool, args, parse_result(text), chosen)
        ok = False
        for item in argument_sets(later, specs[later], scene, 2):
            if isinstance(item, str):
                break
            try:
                env.call(later, dict(item[0]))
            except ToolError:
                continue
            ok = True
            break
        _pop(scene)
        if ok:
            restore()
            viable.append(cand.value)
            if len(viable) >= PROBE_VIABLE:
                break
    return {param: viable} if viable else {}


ArgSet = tuple[dict[str, Any], dict[str, Choice]]
"""A call's arguments and the choices they came from."""


@dataclass(frozen=True)
class Hunted:
    """What the hunt is after (`ground.hunt`): the rules sought, and the argument sets a read
    tries before its ranked ones, so that the write after it can be one they forbid."""

    rules: frozenset[str]
    lead: Callable[[list[str], int, Scene, Environment], list[ArgSet]]


def _repeats(item: ArgSet | str, lead: Sequence[ArgSet]) -> bool:
    return not isinstance(item, str) and any(item[0] == args for args, _ in lead)


def forbidden_by(
    checks: Sequence[PolicyCheck], env: Environment, tool: str, args: dict[str, Any]
) -> tuple[str, str] | None:
    """(rule id, reason) of the first judgement rule that forbids this write now, or None."""
    for check in checks:
        reason = check.forbids(env.tools, tool, args)
        if reason is not None:
            return check.rule_id, reason
    return None


def carried_out(env: Environment, tool: str, args: Mapping[str, Any]) -> str | None:
    """The tool's answer when it would carry the write out and change the database (on a
    fork of the state, which stays as it is); None when it refuses or changes nothing (then
    breaking a rule with it would not show in the final state)."""
    state = env.state.fork()
    before = state.digest()
    try:
        result = env.domain.toolset(state).invoke(tool, dict(args))
    except ToolError:
        return None
    return to_text(result) if state.digest() != before else None


def first_violation(
    scene: Scene, env: Environment, texts: Sequence[str], intents: Sequence[int]
) -> Violation | None:
    """The first policy check the oracle's conversation for the scene's calls breaks."""
    kinds = scene.profile.domain.tool_kinds
    actions = [Action(name=n, arguments=a) for n, a in scene.calls]
    messages = oracle_messages(actions, texts, kinds, intents)
    trajectory = Trajectory(messages, kinds, env.fresh_tools)
    violations = run_checks(scene.profile.domain.checks, trajectory)
    return violations[0] if violations else None


def pop_call(scene: Scene) -> None:
    """Take the last call off the scene, with what its result showed."""
    _pop(scene)


def push_call(
    scene: Scene, tool: str, args: dict[str, Any], text: str, chosen: dict[str, Choice]
) -> None:
    """Add a call the search made to the scene, with what its result shows the agent."""
    _push(scene, tool, args, parse_result(text), chosen)


def ground_calls(
    tools: list[str],
    scene: Scene,
    env: Environment,
    intents: list[int],
    hunted: Hunted | None = None,
) -> Outcome:
    """Search argument choices until every call of the walk succeeds and the policy holds.
    In the hunt, `hunted` says what is sought: a read first tries its lead argument sets,
    and a write a hunted rule forbids after one of them ends the search there."""
    specs = scene.profile.domain.toolset.specs
    kinds = scene.profile.domain.tool_kinds
    checks = scene.profile.domain.checks
    budget = [CALL_BUDGET]
    texts: list[str] = []
    picked: list[dict[str, Choice]] = []
    worst = Outcome(ok=False, reason="budget", detail="search budget spent")
    env.reset()

    def fail(depth: int, reason: str, detail: str) -> None:
        if depth >= worst.depth:
            worst.depth, worst.reason, worst.detail = depth, reason, detail

    def restore() -> None:
        env.reset()
        for name, args in scene.calls:
            env.call(name, dict(args))

    # In the hunt, a write a hunted rule forbids met after a hunted read ends the search:
    # that customer asked for what the rule forbids, and the walk is their challenge.
    led = [0]
    stop = [False]

    def dfs(i: int) -> bool:
        if i == len(tools):
            broken = first_violation(scene, env, texts, intents)
            if broken is not None:
                fail(i, f"policy:{broken.rule_id}", broken.detail)
                return False
            return True
        tool = tools[i]
        prefer = probe(tools, i, scene, env, restore)
        attempts = WRITE_ATTEMPTS if kinds[tool] == "write" else ATTEMPTS_PER_CALL
        lead = hunted.lead(tools, i, scene, env) if hunted else []
        ranked = argument_sets(tool, specs[tool], scene, attempts, prefer)
        # Lazily: the ranked sets draw from the scene's stream as the search reaches them.
        for item in chain(lead, (a for a in ranked if not _repeats(a, lead))):
            if stop[0]:
                return False
            if isinstance(item, str):
                fail(i, f"no_value:{tool}.{item}", "nothing the agent has seen fills it")
                return False
            if budget[0] <= 0:
                fail(i, "budget", "search budget spent")
                return False
            budget[0] -= 1
            args, chosen = item
            clash = _clash(tool, args, scene)
            if clash:
                fail(i, "entity_clash", clash)
                continue
            # A write a judgement rule forbids is screened here, where a tool that enforced the
            # rule used to refuse it, so the search backtracks at the same point.
            forbidden = forbidden_by(checks, env, tool, args)
            if forbidden:
                fail(i, f"policy:{forbidden[0]}", forbidden[1][:200])
                _note_blocked(
                    worst, forbidden, tool, args, chosen, scene, env, texts, picked, intents, i
                )
                kept = worst.blocked
                if led[0] and hunted and kept is not None and kept.rule_id in hunted.rules:
                    stop[0] = kept.tool == tool and kept.arguments == args
                continue
            before = env.hash() if kinds[tool] == "write" else ""
            try:
                text = call_text(env, tool, args, scene.profile.cache.reads)
            except ToolError as exc:
                fail(i, f"tool_refused:{tool}", str(exc)[:200])
                continue
            if kinds[tool] == "write" and env.hash() == before:
                fail(i, f"no_change:{tool}", "the write left the state as it was")
                restore()
                continue
            _push(scene, tool, args, parse_result(text), chosen)
            texts.append(text)
            picked.append(chosen)
            hunting = bool(lead) and item is lead[0]
            led[0] += hunting
            if dfs(i + 1):
                return True
            led[0] -= hunting
            _pop(scene)
            texts.pop()
            picked.pop()
            if kinds[tool] == "write":
                restore()
        return False

    if dfs(0):
        return Outcome(
            ok=True,
            calls=list(scene.calls),
            results=list(texts),
            choices=list(picked),
            final_hash=env.hash(),
        )
    return worst


def _note_blocked(
    worst: Outcome,
    forbidden: tuple[str, str],
    tool: str,
    args: dict[str, Any],
    chosen: dict[str, Choice],
    scene: Scene,
    env: Environment,
    texts: Sequence[str],
    picked: Sequence[dict[str, Choice]],
    intents: Sequence[int],
    i: int,
) -> None:
    """Keep the forbidden write at call `i` as `worst.blocked` when its own intent has made
    only reads so far, the tool would carry it out (`env` holds the calls before it), and no
    earlier one had more calls before it.

    A write the rule forbids may be one the tool refuses anyway (a tour on a day outside the
    trip is refused whatever the lead time): asking for it would test nothing, and keeping it
    would hide a shallower one that makes a challenge."""
    if worst.blocked is not None and len(worst.blocked.calls) >= i:
        return
    kinds = scene.profile.domain.tool_kinds
    start = intents.index(intents[i])
    if any(kinds[name] != "read" for name, _ in scene.calls[start:i]):
        return
    if carried_out(env, tool, args) is None:
        return
    worst.blocked = Blocked(
        rule_id=forbidden[0],
        reason=forbidden[1],
        tool=tool,
        arguments=dict(args),
        choices=dict(chosen),
        calls=[(name, dict(a)) for name, a in scene.calls[:i]],
        results=list(texts[:i]),
        picked=[dict(c) for c in picked[:i]],
    )


def new_scene(profile: Any, variant: str, customer_id: str, pools: Any, seed: str) -> Scene:
    from tau_emotion.tracer.ground.customers import customer_codes

    return Scene(
        profile=profile,
        variant=variant,
        customer_id=customer_id,
        facts=profile.customer_facts(variant, customer_id),
        pools=pools,
        rng=random.Random(seed),
        codes=customer_codes(profile, variant, customer_id),
    )
