"""The hunt: a customer for a rule the split holds no challenge of yet.

Some rules forbid a write only on a rare record (a ticket already exchanged once, a guest
with two recent no-shows, a prescription past its expiry that still shows refills): a walk
drawn for that write is grounded on whichever customer can carry it, so the rule is almost
never met. When a walk of the exhaustive test pool fails outright, the hunt tries it once
more on a customer one of whose own records such a rule forbids the write on, so that the
search stops on the rule and the walk becomes that customer's challenge
(`challenge.blocked_challenge`). A walk that grounds is never hunted: the hunt only turns
walks that would have been thrown away into challenges.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tau_emotion.domains.checks import PolicyCheck
from tau_emotion.environment import Environment
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.challenge import ChallengePlan, judged_rules
from tau_emotion.tracer.ground.fill import param_choices
from tau_emotion.tracer.ground.scene import Scene, keyed_records, required_params, schema_props
from tau_emotion.tracer.ground.screen import owned_view
from tau_emotion.tracer.ground.search import Blocked, carried_out, ground_calls, new_scene
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import Walk
from tau_emotion.tracer.values import Pools, is_scalar

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
        outcome = ground_calls(list(tools), scene, env, intent_of)
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
            found |= _forbidden_on_records(view, env, write, rest)
    finally:
        env.reset()
    return frozenset(found)


def _forbidden_on_records(
    view: Scene, env: Environment, write: str, rules: Sequence[PolicyCheck]
) -> set[str]:
    """The rules that forbid `write` on one of the customer's own records with a value a
    search would show (the booking inside its exchange cutoff, whichever showtime it would
    move to; the visit whose voucher runs out before a later slot of its provider). The
    write's first record parameter takes each record the customer owns; the next one, the
    records that share a value with it (`_searched_values`); the rest, their first
    candidate. A rule that needs a value none of these fill cannot say here.

    Whether the tool would carry the write out is left to the hunt's full search, which
    checks it before the walk becomes a challenge (`search._note_blocked`)."""
    spec = view.profile.domain.toolset.specs[write]
    props = schema_props(spec)
    customer = view.profile.customer_param
    params = [p for p in required_params(spec) if p != customer]
    entities = [p for p in params if is_entity_param(p)]
    if not entities:
        return set()
    record_param, searched = entities[0], entities[1:2]
    base: dict[str, Any] = {customer: view.customer_id} if customer in props else {}
    for param in params:
        if param != record_param and param not in searched:
            choices = param_choices(write, param, props[param], view, {})
            if choices:
                base[param] = choices[0].value
    keyed = keyed_records(view.profile, view.variant)
    found: set[str] = set()
    records = param_choices(write, record_param, props[record_param], view, {})
    for record in records[:HUNT_ATTEMPTS]:
        args = {**base, record_param: record.value}
        for extra in _searched_values(view, searched, keyed.get(str(record.value))):
            for rule in rules:
                if rule.rule_id in found:
                    continue
                try:
                    if rule.forbids(env.tools, write, {**args, **extra}) is not None:
                        found.add(rule.rule_id)
                except (KeyError, TypeError):
                    continue  # the rule needs a value nothing here fills
    return found


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
