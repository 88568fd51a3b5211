"""The screen: can this customer plausibly carry the walk's writes at all?

With everything the customer owns in view (as if every lookup had run), each write of the
walk, in order, must be accepted by its tool. It is a cheap filter before the real search,
which still only uses values the agent has seen. Verdicts are cached per (customer, writes).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.arguments import argument_sets
from tau_emotion.tracer.graph import load_graph
from tau_emotion.tracer.scene import Scene, owned_obs
from tau_emotion.tracer.values import Obs

SCREEN_CUSTOMERS = 8
"""Customers fully screened per walk."""
CANDIDATES = 40
"""Customers drawn per walk and checked against each write alone (cached) first."""
SCREEN_ATTEMPTS = 6

LAST_SCREEN_ERROR = [""]
"""The last refusal a screen met (for diagnosing which rules customers fail)."""


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
    key = (scene.profile.name, scene.variant, scene.customer_id, tuple(writes), tuple(tools))
    if key not in _SCREENED:
        _SCREENED[key] = _screen(tools, writes, scene, env)
    return _SCREENED[key]


_SCREENED: dict[tuple[str, str, str, tuple[str, ...], tuple[str, ...]], bool] = {}
_CAN: dict[tuple[str, str, str, str], bool] = {}


def can_write(scene: Scene, env: Environment, write: str) -> bool:
    """Whether the customer could make this write at all (alone, on the pristine state, with
    everything they own in view). Cached per (customer, write): it is shared by every walk,
    so most walks cost a few lookups to find out which customers are worth a full screen."""
    key = (scene.profile.name, scene.variant, scene.customer_id, write)
    if key not in _CAN:
        _CAN[key] = _screen([write], [write], scene, env)
    return _CAN[key]


_VIEWS: dict[tuple[str, str, str], tuple[list[Obs], dict[str, list[int]]]] = {}


def _view(scene: Scene) -> Scene:
    """A scene that has seen everything the customer owns (built once per customer)."""
    key = (scene.profile.name, scene.variant, scene.customer_id)
    view = Scene(
        profile=scene.profile,
        variant=scene.variant,
        customer_id=scene.customer_id,
        facts=scene.facts,
        pools=scene.pools,
        rng=random.Random(scene.customer_id),
        codes=scene.codes,
    )
    if key not in _VIEWS:
        view.add_obs(owned_obs(scene.profile, scene.variant, scene.customer_id))
        _VIEWS[key] = (view.obs, view.index)
    else:
        view.obs, view.index = _VIEWS[key]  # shared read-only: a screen never truncates
    view.owned = view.obs
    return view


def _screen(tools: list[str], writes: list[str], scene: Scene, env: Environment) -> bool:
    specs = scene.profile.domain.toolset.specs
    view = _view(scene)
    graph_nodes = {n.name: n for n in load_graph(scene.profile.name).nodes}
    env.reset()
    try:
        for write in writes:
            for item in argument_sets(write, specs[write], view, SCREEN_ATTEMPTS):
                if isinstance(item, str):
                    if _owned_source(item, write, tools, graph_nodes):
                        LAST_SCREEN_ERROR[0] = f"{write}: nothing owned fills {item}"
                        return False  # the customer owns nothing the write could act on
                    break  # it needs something only a search shows: cannot judge
                try:
                    env.call(write, dict(item[0]))
                except ToolError as exc:
                    LAST_SCREEN_ERROR[0] = f"{write}: {exc}"
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
