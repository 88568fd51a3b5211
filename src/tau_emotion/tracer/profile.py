"""A domain as the Tracer sees it, and the build context of one domain.

Most of it is discovered: the customer id parameter and table from what the identity tools
return, sample outputs from replaying the seed tasks. The rest the domain declares in its
own folder (`Domain.tracer`, a `TracerSpec`): its identity tools, the codes a customer holds
on a receipt, which tables are public names, and so on. A `Profile` is made once per build
and domain (`profile_for`) and passed down every stage; the caches that grounding and
validation keep (lookups, screens, each customer's records) live on it, not in modules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from tau_emotion.data import Split
from tau_emotion.domains import Domain, load_domain
from tau_emotion.domains.tools import to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.declaration import CallerRule, TracerSpec
from tau_emotion.tracer.graph import load_graph
from tau_emotion.tracer.values import (
    Obs,
    Pools,
    Vocabulary,
    leaves,
    looks_like_id,
    nested_objects,
    parse_result,
    singular,
)

if TYPE_CHECKING:
    from tau_emotion.tracer.records import ToolGraph

# Known-facts keys for record fields whose own name would not prompt the right answer.
FACT_KEYS: Mapping[str, str] = {"one_time_code": "verification_code", "phone_number": "phone"}
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?")
TEST_CUSTOMER_SHARE = 0.3
"""Shared-database domains: the share of customers reserved for test tasks."""


@dataclass
class Caches:
    """What grounding and validation remember within one build of one domain. Each answer
    depends only on its key and the pristine database, so caching changes no output."""

    envs: dict[tuple[str, str], Environment] = field(default_factory=dict)
    """(stage, variant) -> the environment that stage runs tools in."""
    pools: dict[str, Pools] = field(default_factory=dict)
    internal_ids: dict[str, frozenset[str]] = field(default_factory=dict)
    code_values: dict[str, frozenset[str]] = field(default_factory=dict)
    code_owners: dict[str, dict[str, list[tuple[str, str, dict[str, object]]]]] = field(
        default_factory=dict
    )
    """variant -> customer id -> [(param, code, record)] (customers.py)."""
    keyed: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """variant -> record key -> record (scene.py, describing ids)."""
    owned: dict[tuple[str, str], list[Obs]] = field(default_factory=dict)
    """(variant, customer) -> what the customer owns, as observations (scene.py)."""
    activity: dict[tuple[str, str], int] = field(default_factory=dict)
    """(variant, customer) -> records still open (ground.py)."""
    screened: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], bool] = field(
        default_factory=dict
    )
    """(variant, customer, writes, tools) -> the screen's verdict (screen.py)."""
    can_write: dict[tuple[str, str, str], bool] = field(default_factory=dict)
    forbidden: dict[tuple[str, str, str], frozenset[str]] = field(default_factory=dict)
    """(variant, customer, write) -> rules that forbid one the customer could ask for (hunt.py)."""
    targets: dict[tuple[str, str, str], dict[str, list[tuple[str, dict[str, Any]]]]] = field(
        default_factory=dict
    )
    """(variant, customer, write) -> rule -> searched records a forbidden write takes (hunt.py)."""
    searched: dict[tuple[str, str], list[tuple[str, frozenset[str]]]] = field(default_factory=dict)
    """(variant, parameter) -> the records it names by key, with their other values (hunt.py)."""
    views: dict[tuple[str, str], tuple[list[Obs], dict[str, list[int]]]] = field(
        default_factory=dict
    )
    reads: dict[tuple[str, str, str], str | ToolError] = field(default_factory=dict)
    """(tool, arguments, state hash) -> the read's answer (search.py)."""


@dataclass
class Profile:
    """A domain as the Tracer sees it: the `Domain`, its declaration, what the seed tasks
    show, and the caches of one build."""

    domain: Domain
    auth_tools: tuple[str, ...]
    customer_param: str
    customer_tables: tuple[str, ...]
    samples: dict[str, list[Any]] = field(default_factory=dict)
    """Tool -> parsed results from replaying the seed tasks."""
    seed_traces: dict[str, list[list[str]]] = field(default_factory=dict)
    """Split -> the gold tool sequences of the seed tasks."""
    cache: Caches = field(default_factory=Caches)
    graph_override: ToolGraph | None = None
    """A graph to walk instead of the committed one (set by `save_graph`)."""
    _refs: dict[str, dict[str, list[tuple[str, str]]]] = field(default_factory=dict)
    _facts: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.domain.name

    @property
    def spec(self) -> TracerSpec:
        return self.domain.tracer

    @property
    def known_codes(self) -> Mapping[str, str]:
        return self.spec.known_codes

    @property
    def public_tables(self) -> frozenset[str]:
        return self.spec.public_tables

    @property
    def utilities(self) -> Mapping[str, str]:
        return self.spec.utilities

    @property
    def record_aliases(self) -> Mapping[str, str]:
        return self.spec.record_aliases

    @property
    def caller_rules(self) -> Mapping[str, CallerRule]:
        return self.spec.caller_rules

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary.extended(self.spec.param_aliases, self.spec.name_keys)

    @property
    def graph(self) -> ToolGraph:
        """The committed tool graph (or, where none is committed, the freshly built one)."""
        if self.graph_override is None:
            self.graph_override = load_graph(self)
        return self.graph_override

    def env(self, stage: str, variant: str) -> Environment:
        """One environment per stage and database variant, kept for the whole build."""
        key = (stage, variant)
        if key not in self.cache.envs:
            self.cache.envs[key] = Environment(self.domain, variant)
        return self.cache.envs[key]

    def db(self, variant: str) -> Any:
        return self.domain.load_db(variant)[0]

    def customers(self, split: Split) -> list[str]:
        """Customer ids a split's tasks may use (disjoint across splits on a shared DB)."""
        variant = self.domain.variant_for(split)
        tables = self.db(variant).tables()
        rules = self.caller_rules
        ids = sorted(
            k
            for t in self.customer_tables
            for k, rec in tables[t].items()
            if t not in rules or str(getattr(rec, rules[t].field, "")) <= rules[t].highest
        )
        if self.domain.variant_for("test") != self.domain.variant_for("train"):
            return ids
        shuffled = ids[:]
        random.Random(f"tracer/customers/{self.name}").shuffle(shuffled)
        cut = int(len(shuffled) * TEST_CUSTOMER_SHARE)
        return sorted(shuffled[:cut] if split == "test" else shuffled[cut:])

    def customer_record(self, variant: str, customer_id: str) -> dict[str, Any]:
        tables = self.db(variant).tables()
        for t in self.customer_tables:
            record = tables[t].get(customer_id)
            if record is not None:
                data: dict[str, Any] = record.model_dump(mode="json")
                return data
        raise KeyError(customer_id)

    def customer_facts(self, variant: str, customer_id: str) -> dict[str, str]:
        """What the customer knows about themselves: name, contact details, birth date..."""
        key = (variant, customer_id)
        if key not in self._facts:
            self._facts[key] = self._customer_facts(variant, customer_id)
        return dict(self._facts[key])

    def _references(self, variant: str) -> dict[str, list[tuple[str, str]]]:
        """Scalar value -> the (table, key) of every record that holds it at its top level."""
        if variant not in self._refs:
            refs: dict[str, list[tuple[str, str]]] = {}
            for tname, table in self.db(variant).tables().items():
                for key, record in table.items():
                    for field_name, value in record:
                        items = value if isinstance(value, list | tuple) else [value]
                        for v in items:
                            if isinstance(v, str) and field_name != "status":
                                refs.setdefault(v, []).append((tname, key))
            self._refs[variant] = refs
        return self._refs[variant]

    def scope(self, variant: str, customer_id: str, limit: int = 400) -> list[tuple[str, Any]]:
        """(table, record) of what the customer owns: records naming the customer, and
        records naming those (an account's holds). For screening customers only: the agent
        still has to see every id it uses."""
        refs = self._references(variant)
        tables = self.db(variant).tables()
        direct = [(t, k) for t, k in refs.get(customer_id, []) if k != customer_id]
        seen = dict.fromkeys(direct)
        for _, key in direct:
            for t, k in refs.get(key, []):
                if len(seen) >= limit:
                    break
                seen.setdefault((t, k))
        return [(t, tables[t][k]) for t, k in seen]

    def _customer_facts(self, variant: str, customer_id: str) -> dict[str, str]:
        facts: dict[str, str] = {}
        for key, value in leaves(self.customer_record(variant, customer_id)):
            if isinstance(value, str | int) and not isinstance(value, bool) and key not in facts:
                facts[key] = str(value)
        if "full_name" not in facts and "first_name" in facts and "last_name" in facts:
            facts["full_name"] = f"{facts['first_name']} {facts['last_name']}"
        if "first_name" not in facts and "full_name" in facts:
            first, _, last = facts["full_name"].partition(" ")
            facts.setdefault("first_name", first)
            facts.setdefault("last_name", last)
        if "phone" in facts:
            facts.setdefault("phone_number", facts["phone"])
        for key, value in self._owned_facts(variant, customer_id).items():
            facts.setdefault(key, value)
        return facts

    def _owned_facts(self, variant: str, customer_id: str) -> dict[str, str]:
        """Identity facts kept on records the customer owns (a line's phone number), for the
        lookups that ask for them."""
        wanted: set[str] = set()
        for tool in self.auth_tools:
            wanted.update(self.domain.toolset.specs[tool].schema["parameters"]["required"])
        out: dict[str, str] = {}
        for _, record in self.scope(variant, customer_id):
            data = record.model_dump(mode="json")
            for key in sorted(wanted - out.keys()):
                if isinstance(data.get(key), str):
                    out[key] = data[key]
        return out


def _auth_tools(domain: Domain) -> tuple[str, ...]:
    declared = domain.tracer.auth_tools
    if declared:
        return tuple(declared)
    # No declaration: identity lookups are the read tools named find_*.
    return tuple(
        n for n, s in domain.toolset.specs.items() if s.kind == "read" and n.startswith("find_")
    )


def _replay_samples(domain: Domain) -> tuple[dict[str, list[Any]], dict[str, list[list[str]]]]:
    """Results of the seed tasks' gold actions, per tool: real outputs on real entities."""
    samples: dict[str, list[Any]] = {}
    traces: dict[str, list[list[str]]] = {"test": [], "train": []}
    envs: dict[str, Environment] = {}
    for task in (t for t in domain.tasks() if t.provenance == "seed"):
        variant = domain.variant_for(task.split)
        env = envs.setdefault(variant, Environment(domain, variant))
        env.reset()
        traces[task.split].append([a.name for a in task.gold_actions])
        for action in task.gold_actions:
            try:
                result = to_text(env.call(action.name, dict(action.arguments)))
            except ToolError:
                break
            bucket = samples.setdefault(action.name, [])
            if len(bucket) < 6:
                bucket.append(parse_result(result))
        env.reset()
    _explore_unsampled(domain, samples, envs)
    return samples, traces


def _explore_unsampled(
    domain: Domain, samples: dict[str, list[Any]], envs: dict[str, Environment]
) -> None:
    """Reads no seed task calls: run them once with no arguments or a customer's id, so the
    graph knows what they output."""
    customer: dict[str, str] = {}
    for results in samples.values():
        for r in results:
            if isinstance(r, dict) and len(r) <= 4:
                customer.update({k: v for k, v in r.items() if k.endswith("_id")})
    env = next(iter(envs.values()), None) or Environment(domain, next(iter(domain.databases)))
    for name, spec in domain.toolset.specs.items():
        if name in samples or spec.kind != "read":
            continue
        required = spec.schema["parameters"].get("required", [])
        if not all(p in customer for p in required):
            continue
        try:
            result = env.call(name, {p: customer[p] for p in required})
        except ToolError:
            continue
        samples[name] = [parse_result(to_text(result))]


def profile_for(domain: Domain) -> Profile:
    """The Tracer's view of a domain: made once per build and passed to every stage."""
    name = domain.name
    auth = _auth_tools(domain)
    samples, traces = _replay_samples(domain)
    customer_param = ""
    ids: list[str] = []
    for tool in auth:
        for result in samples.get(tool, []):
            if isinstance(result, dict):
                key = next((k for k in result if k.endswith("_id")), "")
                customer_param = customer_param or key
                if key and isinstance(result[key], str):
                    ids.append(result[key])
    if not customer_param:
        raise ValueError(f"{name}: no seed task shows what its authentication tools return")
    tables: list[str] = []
    for variant in domain.databases:
        for tname, table in domain.load_db(variant)[0].tables().items():
            if tname not in tables and any(i in table for i in ids):
                tables.append(tname)
    return Profile(
        domain=domain,
        auth_tools=auth,
        customer_param=customer_param,
        customer_tables=tuple(tables),
        samples=samples,
        seed_traces=traces,
    )


@cache
def load_profile(name: str) -> Profile:
    """The profile of an installed domain, by name: for the commands and tests that start
    from a name. The stages take a `Profile`, never a name."""
    return profile_for(load_domain(name))


def db_pools(profile: Profile, variant: str) -> Pools:
    """Values per key over a whole database: the source of literal parameter values."""
    if variant in profile.cache.pools:
        return profile.cache.pools[variant]
    pools = Pools()
    for table in profile.db(variant).tables().values():
        for record in table.values():
            data = record.model_dump(mode="json")
            for key, value in leaves(data):
                if value is not None and not isinstance(value, bool):
                    pools.add(key, value)
                    if isinstance(value, str) and _DATETIME.fullmatch(value):
                        # A showtime's start also offers a day and a time to search by.
                        pools.add("date", value[:10])
                        pools.add("time", value[11:16])
            for obj in nested_objects(data):
                pools.add_object(obj)
    profile.cache.pools[variant] = pools
    return pools


def internal_ids(profile: Profile, variant: str) -> frozenset[str]:
    """Identifiers a real customer would not know: table keys and id fields, minus public
    names and receipt codes. The leak check looks for these in customer-facing text."""
    if variant in profile.cache.internal_ids:
        return profile.cache.internal_ids[variant]
    found: set[str] = set()
    code_fields = {p.split("_")[-1] for p in profile.known_codes} | set(profile.known_codes)
    for tname, table in profile.db(variant).tables().items():
        public = tname in profile.public_tables
        for key, record in table.items():
            if not public and (looks_like_id(key) or _coded(key)):
                found.add(key)
            for field_name, value in leaves(record.model_dump(mode="json")):
                is_id = field_name == "id" or field_name.endswith("_id")
                if is_id and field_name not in code_fields and looks_like_id(value):
                    found.add(value)
    codes = known_code_values(profile, variant)
    public_keys = {
        k for t in profile.public_tables for k in profile.db(variant).tables().get(t, {})
    }
    profile.cache.internal_ids[variant] = frozenset(found - codes - public_keys)
    return profile.cache.internal_ids[variant]


def _coded(key: str) -> bool:
    """A table key that reads as a code, not a word (PLN-BCG, SH-60001)."""
    return len(key) >= 4 and any(ch.isdigit() or ch.isupper() for ch in key) and " " not in key


def known_code_values(profile: Profile, variant: str) -> frozenset[str]:
    """Every value of a receipt code in the database (any customer's)."""
    if variant not in profile.cache.code_values:
        values: set[str] = set()
        for tname, table in profile.db(variant).tables().items():
            for param in profile.known_codes:
                if code_table(param, tname):
                    values.update(k for k in table if isinstance(k, str))
        profile.cache.code_values[variant] = frozenset(values)
    return profile.cache.code_values[variant]


def code_table(param: str, table: str) -> bool:
    """Whether a table is keyed by a receipt code: reservation_code -> reservations."""
    noun = param.rsplit("_", 1)[0]
    return singular(table).endswith(noun)
