"""The hunt: a customer for a rule the split holds no challenge of yet.

Some rules forbid a write only on a rare record (a ticket already exchanged once, a guest
with two recent no-shows, a prescription past its expiry that still shows refills): a walk
drawn for that write is grounded on whichever customer can carry it, so the rule is almost
never met. When a walk of the exhaustive test pool fails outright, the hunt tries it once
more on a customer one of whose own records such a rule forbids the write on, so that the
search stops on the rule and the walk becomes that customer's challenge
(`challenge.blocked_challenge`). A walk that grounds is never hunted: the hunt only turns
walks that would have been thrown away into challenges.

Some rules forbid a write only with a value a search shows late or not at all (a slot past a
visit's voucher, when the slot search lists the earliest few): on such a customer the hunt
leads the read before the write with filters that show one (`hunted_read`, the day of a
target slot), and a write the rule forbids after that read ends the search.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from tau_emotion.domains.checks import PolicyCheck
from tau_emotion.domains.tools import ToolSpec
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.challenge import ChallengePlan, judged_rules
from tau_emotion.tracer.ground.fill import param_choices
from tau_emotion.tracer.ground.scene import Scene, keyed_records, required_params, schema_props
from tau_emotion.tracer.ground.screen import owned_view
from tau_emotion.tracer.ground.search import (
    WRITE_ATTEMPTS,
    ArgSet,
    Blocked,
    Hunted,
    call_text,
    carried_out,
    ground_calls,
    new_scene,
    pop_call,
    push_call,
)
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import Walk
from tau_emotion.tracer.values import Choice, Pools, is_scalar

HUNT_CUSTOMERS = 3
"""Customers a failed walk is searched again on, at most."""
HUNT_ATTEMPTS = 24
"""Argument sets tried per (customer, write) when looking for a forbidden one: more than the
screen's, since the record the rule turns on is the rare one."""


def hunt(
    profile: Profile,
    walk: Walk,
    tools: Sequence[str],
    env: Environment,
    pools: Pools,
    intent_of: list[int],
    plan: ChallengePlan,
    seed: int,
) -> tuple[Blocked, Scene] | None:
    """A search of the walk that a rule the split does not hold yet stopped, on a customer
    that rule forbids one of the walk's writes for; None when no such customer's search
    stops on one (`HUNT_CUSTOMERS` are tried)."""
    kinds = profile.domain.tool_kinds
    writes = list(dict.fromkeys(t for t in tools if kinds[t] == "write"))
    wanted = {
        rule.rule_id
        for rule in judged_rules(profile.domain.checks)
        if plan.held.get(rule.rule_id, 0) == 0
        and rule.judgement is not None
        and rule.judgement.tools & set(writes)
    }
    if not wanted:
        return None
    variant = profile.domain.variant_for(walk.split)
    customers = profile.customers(walk.split)
    # Its own stream: the walk's grounding rng must not move for the walks the hunt skips.
    random.Random(f"tracer/hunt/{seed}/{walk.id}").shuffle(customers)
    searched = 0
    for index, customer in enumerate(customers):
        probe = new_scene(profile, variant, customer, pools, f"{seed}/{walk.id}/hunt")
        if not any(forbidden_rules(probe, env, w) & wanted for w in writes):
            continue
        scene = new_scene(profile, variant, customer, pools, f"{seed}/{walk.id}/h{index}")
        sought = frozenset(wanted)
        targets = [t for w in writes for t in searched_targets(scene, env, w, sought)]
        lead = functools.partial(hunted_read, rules=sought, targets=targets)
        outcome = ground_calls(list(tools), scene, env, intent_of, Hunted(sought, lead))
        if not outcome.ok and outcome.blocked is not None and outcome.blocked.rule_id in wanted:
            return outcome.blocked, scene
        searched += 1
        if searched >= HUNT_CUSTOMERS:
            break
    env.reset()
    return None


def forbidden_rules(scene: Scene, env: Environment, write: str) -> frozenset[str]:
    """The judgement rules that forbid some write of this tool the customer could ask for
    (alone, on the pristine state, with everything they own in view) and the tool would
    carry out. Cached per (customer, write): every walk of the split shares it."""
    cache = scene.profile.cache.forbidden
    key = (scene.variant, scene.customer_id, write)
    if key not in cache:
        cache[key] = _forbidden(scene, env, write)
    return cache[key]


def _forbidden(scene: Scene, env: Environment, write: str) -> frozenset[str]:
    domain = scene.profile.domain
    rules = [r for r in judged_rules(domain.checks) if r.judgement and write in r.judgement.tools]
    if not rules:
        return frozenset()
    view = owned_view(scene)
    found: set[str] = set()
    env.reset()
    try:
        for item in argument_sets(write, domain.toolset.specs[write], view, HUNT_ATTEMPTS):
            if isinstance(item, str):
                break  # a value only a search shows: judged on the records below
            args = item[0]
            hits = {
                r.rule_id
                for r in rules
                if r.rule_id not in found and r.forbids(env.tools, write, args) is not None
            }
            if hits and carried_out(env, write, args) is not None:
                found |= hits
        # The records cannot fill a new showtime, section or slot (or fill it with the one
        # the record already has): the rules left are judged with what a search would show.
        rest = [r for r in rules if r.rule_id not in found]
        if rest:
            found |= set(_forbidden_on_records(view, env, write, rest))
    finally:
        env.reset()
    return frozenset(found)


def _forbidden_on_records(
    view: Scene,
    env: Environment,
    write: str,
    rules: Sequence[PolicyCheck],
    every: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """The rules that forbid `write` on one of the customer's own records with a value a
    search would show (the booking inside its exchange cutoff, whichever showtime it would
    move to; the visit whose voucher runs out before a later slot of its provider). The
    write's first record parameter takes each record the customer owns; the next one, the
    records that share a value with it (`_searched_values`); the rest, their first
    candidate. A rule that needs a value none of these fill cannot say here.

    Whether the tool would carry the write out is left to the hunt's full search, which
    checks it before the walk becomes a challenge (`search._note_blocked`).

    By rule, the argument sets it forbids: the first one each, or with `every` each one a
    searched value fills (the hunt's targets, `searched_targets`)."""
    spec = view.profile.domain.toolset.specs[write]
    props = schema_props(spec)
    customer = view.profile.customer_param
    params = [p for p in required_params(spec) if p != customer]
    entities, searched = _record_params(view, write)
    if not entities:
        return {}
    record_param = entities[0]
    base: dict[str, Any] = {customer: view.customer_id} if customer in props else {}
    for param in params:
        if param != record_param and param not in searched:
            choices = param_choices(write, param, props[param], view, {})
            if choices:
                base[param] = choices[0].value
    keyed = keyed_records(view.profile, view.variant)
    found: dict[str, list[dict[str, Any]]] = {}
    records = param_choices(write, record_param, props[record_param], view, {})
    for record in records[:HUNT_ATTEMPTS]:
        args = {**base, record_param: record.value}
        for extra in _searched_values(view, searched, keyed.get(str(record.value))):
            for rule in rules:
                if rule.rule_id in found and not (extra and every):
                    continue
                try:
                    if rule.forbids(env.tools, write, {**args, **extra}) is not None:
                        found.setdefault(rule.rule_id, []).append({**args, **extra})
                except (KeyError, TypeError):
                    continue  # the rule needs a value nothing here fills
    return found


def searched_targets(
    scene: Scene, env: Environment, write: str, wanted: frozenset[str]
) -> list[tuple[str, dict[str, Any]]]:
    """The searched records (by key) that a write on one of the customer's records would
    take and a wanted rule forbids it with: the slots past the voucher's expiry of the
    visit's own provider. A search must show one before the customer can ask for it
    (`hunted_read`). Cached per (customer, write), by rule."""
    cache = scene.profile.cache.targets
    key = (scene.variant, scene.customer_id, write)
    if key not in cache:
        cache[key] = _targets_by_rule(scene, env, write)
    out: list[tuple[str, dict[str, Any]]] = []
    for rule in sorted(wanted & cache[key].keys()):
        out += [t for t in cache[key][rule] if t not in out]
    return out


def _targets_by_rule(
    scene: Scene, env: Environment, write: str
) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    domain = scene.profile.domain
    rules = [r for r in judged_rules(domain.checks) if r.judgement and write in r.judgement.tools]
    view = owned_view(scene)
    searched = _record_params(view, write)[1]
    if not rules or not searched:
        return {}
    keyed = keyed_records(scene.profile, scene.variant)
    env.reset()
    try:
        found = _forbidden_on_records(view, env, write, rules, every=True)
    finally:
        env.reset()
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for rule, forbidden in found.items():
        for args in forbidden:
            value = str(args.get(searched[0]))
            if value in keyed and (value, keyed[value]) not in out.get(rule, []):
                out.setdefault(rule, []).append((value, keyed[value]))
    return out


def _record_params(view: Scene, write: str) -> tuple[list[str], list[str]]:
    """The write's required entity parameters, and the one of them a search fills (the
    second: the slot a visit moves to), as `_forbidden_on_records` takes them."""
    spec = view.profile.domain.toolset.specs[write]
    customer = view.profile.customer_param
    entities = [p for p in required_params(spec) if p != customer and is_entity_param(p)]
    return entities, entities[1:2]


SEARCHED_VALUES = 48
"""Records a searched parameter takes per customer record in the hunt's probe, at most."""


def _searched_values(
    view: Scene, searched: Sequence[str], record: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """Values a search could show for the parameter: the database's records keyed by it
    that share a value with the customer's record (the slots of the visit's own provider,
    the showtimes of the booked film), spread evenly over them. One empty set when
    there is none: the rules that judge the record alone still get their say."""
    if not searched or record is None:
        return [{}]
    param = searched[0]
    mine = {repr(v) for v in record.values() if is_scalar(v)}
    near = [key for key, values in _keyed_by(view, param) if not mine.isdisjoint(values)]
    if not near:
        return [{}]
    step = max(1, len(near) // SEARCHED_VALUES)
    return [{param: key} for key in near[::step][:SEARCHED_VALUES]]


def _keyed_by(view: Scene, param: str) -> list[tuple[str, frozenset[str]]]:
    """The records a parameter names by their key (the slots `new_slot_id` names), each
    with its other scalar values; built once per (variant, parameter)."""
    cache = view.profile.cache.searched
    key = (view.variant, param)
    if key not in cache:
        names = view.profile.vocabulary.wanted_names(param)
        cache[key] = [
            (k, frozenset(repr(v) for f, v in rec.items() if f not in names and is_scalar(v)))
            for k, rec in keyed_records(view.profile, view.variant).items()
            if any(rec.get(n) == k for n in names)
        ]
    return cache[key]


HUNTED_READS = 24
"""Target records whose filters the hunt tries on a read, at most."""


def hunted_read(
    tools: list[str],
    i: int,
    scene: Scene,
    env: Environment,
    rules: frozenset[str],
    targets: Sequence[tuple[str, Mapping[str, Any]]],
) -> list[ArgSet]:
    """In the hunt, the read argument set whose result shows a target record under which the
    next write is one a hunted rule forbids and the tool would carry out (a day of slots past
    the visit's voucher), as a one-item list to try first; empty when no target gives one.

    A search lists its first few matches, and a customer asks only for what the agent was
    shown: a rule that turns on a later value would never be met with the read's ranked
    filters. The scene's random stream is left where it was, so the search that follows
    draws what it would have drawn."""
    specs = scene.profile.domain.toolset.specs
    kinds = scene.profile.domain.tool_kinds
    tool = tools[i]
    later = next((t for t in tools[i + 1 :] if kinds[t] == "write"), None)
    if kinds[tool] != "read" or later is None or not targets:
        return []
    judging = [
        c
        for c in scene.profile.domain.checks
        if c.rule_id in rules and c.judgement is not None and later in c.judgement.tools
    ]
    if not judging:
        return []
    drawn = scene.rng.getstate()
    try:
        for args, chosen, key in _target_filters(tool, specs[tool], scene, targets):
            try:
                text = call_text(env, tool, args, scene.profile.cache.reads)
            except ToolError:
                continue
            if key not in text:
                continue
            push_call(scene, tool, args, text, chosen)
            try:
                hit = _forbidden_next(later, specs[later], scene, env, judging)
            finally:
                pop_call(scene)
            if hit:
                return [(args, chosen)]
    finally:
        scene.rng.setstate(drawn)
    return []


def _target_filters(
    tool: str,
    spec: ToolSpec,
    scene: Scene,
    targets: Sequence[tuple[str, Mapping[str, Any]]],
) -> list[tuple[dict[str, Any], dict[str, Choice], str]]:
    """The read's arguments set from each target record (its provider as the agent has seen
    it, the day of its start for a `date`), with the target's key, which the result must
    show. A target whose entity the conversation has not shown is passed over."""
    props = schema_props(spec)
    required = set(required_params(spec))
    first = next(iter(argument_sets(tool, spec, scene, 1)), None)
    if first is None or isinstance(first, str):
        return []
    fixed = {p: c for p, c in first[1].items() if p in required}
    out: list[tuple[dict[str, Any], dict[str, Choice], str]] = []
    for key, record in targets[:HUNTED_READS]:
        chosen = dict(fixed)
        for param in props:
            value = _filter_value(param, record)
            if value is None or param in chosen:
                continue
            if is_entity_param(param):
                seen = [
                    c
                    for c in param_choices(tool, param, props[param], scene, chosen)
                    if c.value == value
                ]
                if seen:
                    chosen[param] = seen[0]
            else:
                chosen[param] = Choice(value, "pool", record)
        args = {p: chosen[p].value for p in props if p in chosen}
        if set(args) - required and all(a != args for a, _, _ in out):
            out.append((args, chosen, key))
    return out


def _filter_value(param: str, record: Mapping[str, Any]) -> Any:
    """The value a record gives a read's filter: its own field, or for a day filter the day
    of its first timestamp."""
    if param in record and is_scalar(record[param]):
        return record[param]
    if param == "date" or param.endswith("_date"):
        for value in record.values():
            if isinstance(value, str) and len(value) > 10 and value[10] == "T":
                return value[:10]
    return None


def _forbidden_next(
    write: str, spec: ToolSpec, scene: Scene, env: Environment, rules: Sequence[PolicyCheck]
) -> bool:
    """Whether one of the write's argument sets (on what the scene has seen) is forbidden
    by one of `rules` and would be carried out."""
    for item in argument_sets(write, spec, scene, WRITE_ATTEMPTS):
        if isinstance(item, str):
            return False
        args = item[0]
        forbidden = any(r.forbids(env.tools, write, args) is not None for r in rules)
        if forbidden and carried_out(env, write, args) is not None:
            return True
    return False
