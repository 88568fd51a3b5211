"""What grounding knows at one point of a walk, and the values it has seen.

A `Scene` holds the customer, the calls made so far and every value their results showed
(indexed by the parameter names each can fill). `seen` lists the values that can fill a
parameter, most recent first, with the customer's words for ids ("Visa ending 1234").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tau_emotion.domains.tools import ToolSpec
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.profile import FACT_KEYS, Profile

# Re-exported: a domain's hook (TracerSpec.hooks) gets a Scene and answers with Choices.
from tau_emotion.tracer.values import Choice as Choice
from tau_emotion.tracer.values import (
    Obs,
    Pools,
    describe,
    looks_like_id,
    observe,
    singular,
)


@dataclass
class Scene:
    """Everything grounding knows at one point of a walk."""

    profile: Profile
    variant: str
    customer_id: str
    facts: dict[str, str]
    pools: Pools
    rng: random.Random
    obs: list[Obs] = field(default_factory=list)
    codes: list[Obs] = field(default_factory=list)
    """The customer's receipt codes (from the database; the customer holds them)."""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    results: list[tuple[str, Any]] = field(default_factory=list)
    index: dict[str, list[int]] = field(default_factory=dict)
    """Observation name -> positions in `obs` (ascending), so matching is a lookup."""
    ctx_values: dict[int, frozenset[str]] = field(default_factory=dict)
    """id(context) -> its scalar values, for coherence ranking."""
    fixed: dict[str, list[Choice]] = field(default_factory=dict)
    """Cache of choices that do not depend on what was observed (the customer's codes)."""
    owned: list[Obs] | None = None
    """The customer's records as observations (built on first use, for descriptions)."""
    memo: dict[str, list[Choice]] = field(default_factory=dict)
    """Per-step cache of `_seen`; cleared whenever the observations change."""

    @property
    def step(self) -> int:
        return len(self.calls)

    def add_obs(self, new: list[Obs]) -> None:
        for o in new:
            for name in o.names:
                self.index.setdefault(name, []).append(len(self.obs))
            self.obs.append(o)
        self.memo.clear()

    def truncate_obs(self, length: int) -> None:
        for positions in self.index.values():
            while positions and positions[-1] >= length:
                positions.pop()
        del self.obs[length:]
        self.memo.clear()
        self.ctx_values.clear()

    def matching(self, param: str) -> list[Obs]:
        """Observations that can fill the parameter, in the order they were seen."""
        found: set[int] = set()
        for name in self.profile.vocabulary.wanted_names(param):
            found.update(self.index.get(name, ()))
        return [self.obs[i] for i in sorted(found)]


def schema_props(spec: ToolSpec) -> dict[str, dict[str, Any]]:
    props: dict[str, dict[str, Any]] = spec.schema["parameters"].get("properties", {})
    return props


def required_params(spec: ToolSpec) -> list[str]:
    req: list[str] = spec.schema["parameters"].get("required", [])
    return req


def type_of(schema: Mapping[str, Any]) -> str:
    if "type" in schema:
        return str(schema["type"])
    for alt in schema.get("anyOf", []):
        if alt.get("type") != "null":
            return str(alt.get("type", ""))
    return ""


def enum_of(schema: Mapping[str, Any]) -> list[Any]:
    if "enum" in schema:
        return list(schema["enum"])
    for alt in schema.get("anyOf", []):
        if "enum" in alt:
            return list(alt["enum"])
    return []


def seen_choices(param: str, scene: Scene) -> list[Choice]:
    """Values of earlier outputs that can fill the parameter, most recent first; an id is
    described from whichever object that shows it names it best (a card's label in the
    account details rather than its line in a payment history)."""
    if param in scene.memo:
        return scene.memo[param]
    latest: dict[str, Obs] = {}
    best: dict[str, str] = {}
    labelled: set[str] = set()
    entity = is_entity_param(param)
    for o in scene.matching(param):
        if o.value is None or isinstance(o.value, bool):
            continue
        key = repr(o.value)
        latest[key] = o
        wanted = entity or looks_like_id(o.value)
        if wanted and isinstance(o.value, str) and key not in labelled and own_id(o):
            desc = describe(o.context, o.value, names=scene.profile.vocabulary.names)
            if desc and (key not in best or named(o.context)):
                best[key] = desc
                if named(o.context):
                    labelled.add(key)
    out: list[Choice] = []
    for key, o in sorted(latest.items(), key=lambda kv: -kv[1].step):
        desc = best.get(key, "")
        if key not in labelled and isinstance(o.value, str) and (entity or looks_like_id(o.value)):
            desc = owned_description(scene, o.value) or desc
        out.append(Choice(o.value, "seen", o.context, o.step, desc))
    scene.memo[param] = out
    return out


def own_id(o: Obs) -> bool:
    """Whether the observation is its object's own id (a location's id in the list of
    locations), not a reference to another record (the location_id of an order): only the
    record itself describes the thing."""
    ctx = o.context
    if ctx is None:
        return True
    for key in ("id", "code", "number", *(f"{o.owner}_{s}" for s in ("id", "code", "number"))):
        if key in ctx:
            return o.key == key
    first = next((k for k in ctx if k.endswith(("_id", "_code", "_number"))), None)
    return first is None or o.key == first


def named(context: Mapping[str, Any] | None) -> bool:
    return context is not None and any(
        isinstance(context.get(k), str) for k in ("label", "name", "title", "brand")
    )


def owned_description(scene: Scene, value: Any) -> str:
    """How the customer's own records describe one of their ids (a card the reservation was
    paid with is 'Visa ending 1234' in their account), for ids the trace saw undescribed. The
    agent can look the account up to match it."""
    if scene.owned is None:
        scene.owned = owned_obs(scene.profile, scene.variant, scene.customer_id)
    for o in scene.owned:
        if o.value == value and named(o.context) and own_id(o):
            return describe(o.context, value, names=scene.profile.vocabulary.names)
    return db_description(scene.profile, scene.variant, value)


def keyed_records(profile: Profile, variant: str) -> Mapping[str, dict[str, Any]]:
    """Every record of the pristine database by its key, as JSON (built once per variant)."""
    if variant not in profile.cache.keyed:
        keyed: dict[str, dict[str, Any]] = {}
        for table in profile.db(variant).tables().values():
            for k, record in table.items():
                keyed.setdefault(k, record.model_dump(mode="json"))
        profile.cache.keyed[variant] = keyed
    return profile.cache.keyed[variant]


def db_description(profile: Profile, variant: str, value: Any) -> str:
    """How the database names a record by its key (a store location an order points at):
    the agent can look it up in the public catalogue to match the customer's words."""
    record = keyed_records(profile, variant).get(str(value))
    names = profile.vocabulary.names
    return describe(record, value, names=names) if record is not None and named(record) else ""


def owned_obs(profile: Profile, variant: str, customer_id: str) -> list[Obs]:
    """The customer's own record and everything it owns, as observations of step -1 (as if
    every lookup had run); built once per customer."""
    key = (variant, customer_id)
    if key not in profile.cache.owned:
        out = observe(profile.customer_record(variant, customer_id), -1, "customer")
        for table, record in profile.scope(variant, customer_id):
            out += observe(record.model_dump(mode="json"), -1, singular(table))
        profile.cache.owned[key] = out
    return profile.cache.owned[key]


def code_choices(param: str, scene: Scene) -> list[Choice]:
    fact = scene.profile.known_codes.get(param)
    if fact is None:
        return []
    key = f"codes:{param}"
    if key not in scene.fixed:
        scene.fixed[key] = [
            Choice(o.value, "code", o.context, -1, "", fact)
            for o in scene.codes
            if scene.profile.vocabulary.param_matches(param, o)
        ]
    return scene.fixed[key]


def fact_choice(param: str, scene: Scene) -> Choice | None:
    key = scene.profile.record_aliases.get(param, param)
    if key in scene.facts:
        return Choice(scene.facts[key], "fact", None, -1, "", FACT_KEYS.get(key, key))
    return None
