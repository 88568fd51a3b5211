"""The screen: can this customer plausibly carry the walk's writes at all?

With everything the customer owns in view (as if every lookup had run), each write of the
walk, in order, must be accepted by its tool. It is a cheap filter before the real search,
which still only uses values the agent has seen. Verdicts are cached per (customer, writes)
on the build's profile.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.scene import Scene, owned_obs

SCREEN_CUSTOMERS = 8
"""Customers fully screened per walk."""
CANDIDATES = 40
"""Customers drawn per walk and checked against each write alone (cached) first."""
SCREEN_ATTEMPTS = 6


def screen_customer(tools: list[str], scene: Scene, env: Environment) -> bool:
    """Whether this customer can plausibly carry the walk: with everything the customer owns
    in view, each of the walk's writes, in order, must be accepted by its tool. It is a cheap
    filter before the real search, which still only uses values the agent has seen."""
    kinds = scene.profile.domain.tool_kinds
    writes = [t for t in tools if kinds[t] == "write"]
    if not writes:
        return True
    # The verdict depends on the customer, the writes and which tools feed them: walks
    # share these often, so it is worked out once.
    # The tools in order, not as a set: `_owned_source` asks which tools come before a write,
    # so two walks with the same tools in another order can get different verdicts.
    screened = scene.profile.cache.screened
    key = (scene.variant, scene.customer_id, tuple(writes), tuple(tools))
    if key not in screened:
        screened[key] = _screen(tools, writes, scene, env)
    return screened[key]


def can_write(scene: Scene, env: Environment, write: str) -> bool:
    """Whether the customer could make this write at all (alone, on the pristine state, with
    everything they own in view). Cached per (customer, write): it is shared by every walk,
    so most walks cost a few lookups to find out which customers are worth a full screen."""
    can = scene.profile.cache.can_write
    key = (scene.variant, scene.customer_id, write)
    if key not in can:
        can[key] = _screen([write], [write], scene, env)
    return can[key]


def owned_view(scene: Scene) -> Scene:
    """A scene that has seen everything the customer owns (built once per customer)."""
    views = scene.profile.cache.views
    key = (scene.variant, scene.customer_id)
    view = Scene(
        profile=scene.profile,
        variant=scene.variant,
        customer_id=scene.customer_id,
        facts=scene.facts,
        pools=scene.pools,
        rng=random.Random(scene.customer_id),
        codes=scene.codes,
    )
    if key not in views:
        view.add_obs(owned_obs(scene.profile, scene.variant, scene.customer_id))
        views[key] = (view.obs, view.index)
    else:
        view.obs, view.index = views[key]  # shared read-only: a screen never truncates
    view.owned = view.obs
    return view


def _screen(tools: list[str], writes: list[str], scene: Scene, env: Environment) -> bool:
    specs = scene.profile.domain.toolset.specs
    view = owned_view(scene)
    graph_nodes = {n.name: n for n in scene.profile.graph.nodes}
    env.reset()
    try:
        for write in writes:
            for item in argument_sets(write, specs[write], view, SCREEN_ATTEMPTS):
                if isinstance(item, str):
                    if _owned_source(item, write, tools, graph_nodes):
                        return False  # the customer owns nothing the write could act on
                    break  # it needs something only a search shows: cannot judge
                try:
                    env.call(write, dict(item[0]))
                except ToolError:
                    continue
                break
            else:
                return False
        return True
    finally:
        env.reset()


def _owned_source(param: str, write: str, tools: list[str], nodes: Mapping[str, Any]) -> bool:
    """Whether the walk gets the parameter from a read of the customer's own records."""
    before = [nodes[t] for t in tools[: tools.index(write)] if t in nodes]
    producers = [n for n in before if param in n.produces]
    return bool(producers) and all(n.needs for n in producers)
