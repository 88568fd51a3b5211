"""What the Tracer needs to know about a domain, derived from its code, data and seed tasks.

Most of it is discovered: the authentication tools come from the domain's policy checks, the
customer id parameter and table from what those tools return, sample outputs from replaying
the seed tasks. The rest is a short table of facts that no schema states: which identifiers a
customer holds on a receipt (a booking code) and which tables are public names (airports).
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tau_emotion.data import Split
from tau_emotion.domains import Domain, load_domain
from tau_emotion.domains.tools import to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.values import (
    Pools,
    leaves,
    looks_like_id,
    nested_objects,
    parse_result,
    singular,
)

# Identifiers printed on a receipt or a confirmation email: a customer may quote them.
# parameter name -> the known_facts key the scripted user answers to.
KNOWN_CODES: Mapping[str, Mapping[str, str]] = {
    "airline": {"reservation_code": "reservation_code"},
    "retail": {"order_number": "order_number"},
    "movie": {"booking_code": "booking_code"},
    "travel": {"booking_code": "booking_code"},
    "restaurant": {"reservation_code": "reservation_code", "order_number": "order_number"},
    "basketball": {"order_id": "order_number"},
    "telehealth": {"voucher_code": "voucher_code", "member_id": "member_id"},
}
# Tables whose keys are public names (an airport code, a flight number, a drug, a plan).
PUBLIC_TABLES: Mapping[str, frozenset[str]] = {
    "airline": frozenset({"airports", "flights", "flight_days"}),
    "telecom": frozenset({"plans", "addons"}),
    "telehealth": frozenset({"drugs"}),
}
# Facts of the customer's own record a tool parameter asks for under another name.
RECORD_ALIASES: Mapping[str, Mapping[str, str]] = {
    "bank": {"code": "one_time_code"},
}
# Known-facts keys for record fields whose own name would not prompt the right answer.
FACT_KEYS: Mapping[str, str] = {"one_time_code": "verification_code", "phone_number": "phone"}
# Tools a task never needs (pure utilities).
UTILITIES: Mapping[str, Mapping[str, str]] = {
    "airline": {"calculate": "arithmetic utility; no entity flows through it"},
}
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?")
# Who may call, where the customer tables hold people who may not act alone: the school
# serves minors only through a guardian, so students call only once they are adults.
CALLER_RULES: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "school": {"students": ("date_of_birth", "2007-03-10")},
}
"""Domain -> table -> (field, highest value): a record of the table may be the caller only
when its field is at most that value (born on or before the date)."""
TEST_CUSTOMER_SHARE = 0.3
"""Shared-database domains: the share of customers reserved for test tasks."""


@dataclass
class Profile:
    """A domain as the Tracer sees it."""

    domain: Domain
    auth_tools: tuple[str, ...]
    customer_param: str
    customer_tables: tuple[str, ...]
    known_codes: Mapping[str, str]
    public_tables: frozenset[str]
    utilities: Mapping[str, str]
    record_aliases: Mapping[str, str]
    samples: dict[str, list[Any]] = field(default_factory=dict)
    """Tool -> parsed results from replaying the seed tasks."""
    seed_traces: dict[str, list[list[str]]] = field(default_factory=dict)
    """Split -> the gold tool sequences of the seed tasks."""
    _refs: dict[str, dict[str, list[tuple[str, str]]]] = field(default_factory=dict)
    _facts: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.domain.name

    def db(self, variant: str) -> Any:
        return self.domain.load_db(variant)[0]

    def customers(self, split: Split) -> list[str]:
        """Customer ids a split's tasks may use (disjoint across splits on a shared DB)."""
        variant = self.domain.variant_for(split)
        tables = self.db(variant).tables()
        rules = CALLER_RULES.get(self.name, {})
        ids = sorted(
            k
            for t in self.customer_tables
            for k, rec in tables[t].items()
            if t not in rules or str(getattr(rec, rules[t][0], "")) <= rules[t][1]
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
    for module in ("checks", "tools"):
        try:
            mod = importlib.import_module(f"tau_emotion.domains.{domain.name}.{module}")
        except ImportError:
            continue
        found = getattr(mod, "AUTH_TOOLS", None)
        if isinstance(found, tuple | list) and found:
            return tuple(str(t) for t in found)
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


@cache
def load_profile(name: str) -> Profile:
    domain = load_domain(name)
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
        known_codes=KNOWN_CODES.get(name, {}),
        public_tables=PUBLIC_TABLES.get(name, frozenset()),
        utilities=UTILITIES.get(name, {}),
        record_aliases=RECORD_ALIASES.get(name, {}),
        samples=samples,
        seed_traces=traces,
    )


@cache
def db_pools(name: str, variant: str) -> Pools:
    """Values per key over a whole database: the source of literal parameter values."""
    pools = Pools()
    for table in load_domain(name).load_db(variant)[0].tables().values():
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
    return pools


@cache
def internal_ids(name: str, variant: str) -> frozenset[str]:
    """Identifiers a real customer would not know: table keys and id fields, minus public
    names and receipt codes. The leak check looks for these in customer-facing text."""
    profile = load_profile(name)
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
    codes = known_code_values(name, variant)
    public_keys = {
        k for t in profile.public_tables for k in profile.db(variant).tables().get(t, {})
    }
    return frozenset(found - codes - public_keys)


def _coded(key: str) -> bool:
    """A table key that reads as a code, not a word (PLN-BCG, SH-60001)."""
    return len(key) >= 4 and any(ch.isdigit() or ch.isupper() for ch in key) and " " not in key


@cache
def known_code_values(name: str, variant: str) -> frozenset[str]:
    """Every value of a receipt code in the database (any customer's)."""
    profile = load_profile(name)
    values: set[str] = set()
    for tname, table in profile.db(variant).tables().items():
        for param in profile.known_codes:
            if code_table(param, tname):
                values.update(k for k in table if isinstance(k, str))
    return frozenset(values)


def code_table(param: str, table: str) -> bool:
    """Whether a table is keyed by a receipt code: reservation_code -> reservations."""
    noun = param.rsplit("_", 1)[0]
    return singular(table).endswith(noun)
