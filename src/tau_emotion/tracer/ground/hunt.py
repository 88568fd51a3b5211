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
from collections.abc import Sequence

from tau_emotion.environment import Environment
from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.challenge import ChallengePlan, judged_rules
from tau_emotion.tracer.ground.scene import Scene
from tau_emotion.tracer.ground.screen import owned_view
from tau_emotion.tracer.ground.search import Blocked, carried_out, ground_calls, new_scene
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import Walk
from tau_emotion.tracer.values import Pools

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
                break  # a value only a search shows: the customer's records cannot say
            args = item[0]
            hits = {
                r.rule_id
                for r in rules
                if r.rule_id not in found and r.forbids(env.tools, write, args) is not None
            }
            if hits and carried_out(env, write, args) is not None:
                found |= hits
    finally:
        env.reset()
    return frozenset(found)
