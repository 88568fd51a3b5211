"""Ranked argument sets for one tool call: which candidate of each parameter to try, in which
combination, and which optional parameters to pass.

Candidates are ranked for coherence: values from the same object as a choice already made for
this call first (the flight's own date), then values tied to the previous calls' arguments
(the item of the product just looked up), then the most recent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tau_emotion.domains.tools import ToolSpec
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.fill import coherent_pick, param_choices
from tau_emotion.tracer.ground.scene import (
    Scene,
    enum_of,
    required_params,
    schema_props,
)
from tau_emotion.tracer.values import Choice, scalars


def _context_values(context: Mapping[str, Any], scene: Scene) -> frozenset[str]:
    key = id(context)
    cached = scene.ctx_values.get(key)
    if cached is None:
        cached = frozenset(repr(v) for v in context.values() if not isinstance(v, dict | list)) - {
            repr(scene.customer_id)
        }
        scene.ctx_values[key] = cached
    return cached


RANK_LIMIT = 48


def recent_values(scene: Scene) -> frozenset[str]:
    """Argument values of the last two calls (the thread the conversation is following)."""
    cust = scene.customer_id
    return frozenset(repr(v) for _, args in scene.calls[-2:] for v in scalars(args) if v != cust)


TERMINAL_STATES = frozenset(
    {
        "completed",
        "cancelled",
        "canceled",
        "closed",
        "expired",
        "played",
        "late_cancelled",
        "no_show",
        "landed",
        "departed",
        "resolved",
        "returned",
        "refunded",
        "inactive",
        "released",
        "delivered",
        "paid",
        "used",
    }
)
"""Statuses after which a record rarely takes another action: acted-on candidates last."""


def rank(
    choices: list[Choice],
    chosen: Mapping[str, Choice],
    scene: Scene,
    recent: frozenset[str],
    acting: bool = False,
) -> list[Choice]:
    """Coherent first: same object as a choice made for this call, then tied to the previous
    calls' arguments, then the most recent. For a write (`acting`), records in a final
    state (a completed visit, a delivered order) go last."""
    chosen_ctx = [c.context for c in chosen.values() if c.context is not None]
    chosen_vals = {
        repr(v) for c in chosen.values() if c.source != "customer" for v in scalars(c.value)
    }
    top = scene.step + 1

    def score(item: tuple[int, Choice]) -> tuple[float, int]:
        i, c = item
        s = (c.step + 1) / top
        if c.source in ("seen", "code", "fact", "customer"):
            s += 0.5
        if c.context is not None:
            if any(c.context is x for x in chosen_ctx):
                s += 8
            vals = _context_values(c.context, scene)
            if chosen_vals and not vals.isdisjoint(chosen_vals):
                s += 4
            if not vals.isdisjoint(recent):
                s += 2
            if acting and c.context.get("status") in TERMINAL_STATES:
                s -= 3
        return (-s, i)

    if len(choices) <= 1:
        return choices
    # Candidates come most recent first; beyond the first few dozen none would be tried.
    return [c for _, c in sorted(enumerate(choices[:RANK_LIMIT]), key=score)]


def _order(spec: ToolSpec, scene: Scene) -> list[str]:
    props = schema_props(spec)
    req = required_params(spec)

    def key(p: str) -> tuple[int, int]:
        schema = props[p]
        group = 0 if is_entity_param(p) else 1
        if schema.get("type") in ("array", "object"):
            group = 1
        elif group == 1:
            group = 2
        return (0 if p in req else 1, group)

    return sorted(props, key=key)


def _depends_on_chosen(schema: Mapping[str, Any]) -> bool:
    """Enums, integers and id lists are picked in the light of the choices made before."""
    kind = schema.get("type")
    return bool(enum_of(schema)) or kind in ("integer", "number", "array")


def _optional(
    param: str,
    cands: list[Choice],
    attempt: int,
    all_optional: bool,
    optional_ids: list[str],
    scene: Scene,
    reading: bool = False,
) -> list[Choice]:
    """Whether (and with what) an optional parameter is passed on this attempt. Optional
    entities (a payment method, a payee or an account) take turns, one per attempt, since
    tools often want exactly one of them; literals (a new email, a seating wish) come at
    random, and always some when the tool has nothing but optional parameters."""
    if not cands:
        return []
    if is_entity_param(param):
        turn = attempt % (len(optional_ids) + 1)
        if turn < len(optional_ids) and optional_ids[turn] == param:
            return [c for c in cands if c.source in ("seen", "code", "fact")]
        return []
    # A lookup's optional filters (a film title, a cinema) narrow it and are often needed;
    # a write's optional literals (an occasion) are extra wishes.
    chance = 0.6 if all_optional or reading else 0.25
    if scene.rng.random() < chance:
        return cands
    return []


def _with_object_mates(chosen: dict[str, Choice], props: Mapping[str, Any], req: set[str]) -> None:
    """An optional value taken from a database object brings its mates along (a street
    comes with its city and zip code)."""
    for choice in list(chosen.values()):
        obj = choice.context
        if choice.source != "pool" or obj is None:
            continue
        for mate in props:
            if mate not in chosen and mate not in req and mate in obj and obj[mate] is not None:
                chosen[mate] = Choice(obj[mate], "pool", obj)


def argument_sets(
    tool: str,
    spec: ToolSpec,
    scene: Scene,
    attempts: int,
    prefer: Mapping[str, Sequence[Any]] | None = None,
) -> Iterator[tuple[dict[str, Any], dict[str, Choice]] | str]:
    """Ranked argument sets for one call; a string names a required parameter with no value.
    `prefer` moves the given values of a parameter to the front (entities a probe found
    workable)."""
    props = schema_props(spec)
    req = set(required_params(spec))
    order = _order(spec, scene)
    hook = scene.profile.spec.hooks.get(tool)
    hooked = hook(tool, scene) if hook is not None else []
    all_optional = not (req - {scene.profile.customer_param})
    acting = spec.kind == "write"
    optional_ids = [p for p in order if p not in req and is_entity_param(p)]
    tried: list[dict[str, Any]] = []
    primary: str | None = None
    recent = recent_values(scene)
    stable: dict[str, list[Choice]] = {}
    params = frozenset(props)
    for attempt in range(attempts):
        chosen: dict[str, Choice] = {}
        if hooked:
            chosen.update(hooked[attempt % len(hooked)])
        for param in order:
            if param in chosen:
                continue
            optional = param not in req
            if param in stable:
                cands = stable[param]
            else:
                cands = param_choices(tool, param, props[param], scene, chosen)
                if not _depends_on_chosen(props[param]):
                    stable[param] = cands
            if optional:
                cands = _optional(
                    param, cands, attempt, all_optional, optional_ids, scene, not acting
                )
                if not cands:
                    continue
            if not cands:
                yield param
                return
            ranked = rank(cands, chosen, scene, recent, acting)
            if prefer and param in prefer:
                good = [repr(v) for v in prefer[param]]
                ranked = sorted(
                    ranked,
                    key=lambda c: good.index(repr(c.value)) if repr(c.value) in good else 99,
                )
            if primary is None and len(ranked) > 1 and param in req:
                primary = param
            if attempt == 0:
                pick = ranked[0]
            elif param == primary:
                pick = ranked[attempt % len(ranked)]
            elif scene.rng.random() < 0.7:
                pick = ranked[0]
            else:
                pick = scene.rng.choice(ranked[:4])
            chosen[param] = coherent_pick(pick, tool, param, props[param], chosen, scene, params)
        _with_object_mates(chosen, props, req)
        args = {p: chosen[p].value for p in props if p in chosen}
        if args in tried:
            continue
        tried.append(args)
        yield args, chosen
