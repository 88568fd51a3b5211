"""Property-based fuzzing of every tool of every domain, found generically.

A call may succeed or raise `ToolError` (a refusal the agent reads); anything else is a bug.
After each call the state must still be valid: every row written validates against its
model, holds no NaN or infinity, and the state hashes.

To reach a tool's deep checks (an amount is looked at only after the customer, account and
card are found), most calls start from a gold call of a real task, with the gold actions
before it already replayed, and replace one or two arguments with hostile values: NaN,
infinities, huge and negative numbers, wrong types, lone surrogates, odd digits, real ids
of other records. The rest are built from the signature alone.
"""

from __future__ import annotations

import contextlib
import json
import math
import traceback
import types
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, Union, get_args, get_origin

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tau_emotion.data import Action
from tau_emotion.domains import Domain
from tau_emotion.domains.tools import ToolSpec, to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError

HOSTILE_FLOATS: list[float] = [
    math.nan,
    math.inf,
    -math.inf,
    float("1e999"),
    -0.0,
    0.0,
    5e-324,
    0.005,
    0.004999,
    -1.0,
    1e300,
    1e15,
    1e9 + 0.01,
    999_999_999.99,
    250.0,
    12.345,
]
HOSTILE_INTS: list[int] = [0, 1, -1, 2, 3, 9, 10, 99, 100_000, 100_001, -100_001, 10**9, 10**30]
HOSTILE_STRINGS: list[str] = [
    "",
    " ",
    "\ud800",
    "a\udcffb",
    "²",
    "١٢",
    "NaN",
    "Infinity",
    "1e999",
    "-1",
    "0000-00-00",
    "2026-02-30",
    "9999-12-31",
    "0001-01-01",
    "24:61",
    "x" * 5000,
    "\x00",
    "Robert'); DROP TABLE--",
]
WRONG_TYPES: list[Any] = [None, [], {}, "", True, "NaN", [1, 2], {"a": 1}, 3.5, -7]


@dataclass
class Tally:
    """What one domain's fuzzing did."""

    calls: int = 0
    successes: int = 0
    refusals: int = 0
    failures: list[str] = field(default_factory=list)


def _walk_bad_numbers(value: Any, where: str) -> str | None:
    """The path of the first NaN or infinity inside a row dump, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    if isinstance(value, Decimal) and not value.is_finite():
        return where
    if isinstance(value, dict):
        for k, v in value.items():
            found = _walk_bad_numbers(v, f"{where}.{k}")
            if found:
                return found
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            found = _walk_bad_numbers(v, f"{where}[{i}]")
            if found:
                return found
    return None


def state_problem(env: Environment) -> str | None:
    """Why the state after a call is not valid, or None when it is."""
    for table, rows in env.state.changes().items():
        for key, record in rows.items():
            if record is None:
                continue
            dump = record.model_dump()
            bad = _walk_bad_numbers(dump, f"{table}[{key}]")
            if bad:
                return f"non-finite number stored at {bad}"
            try:
                type(record).model_validate(dump)
            except Exception as exc:
                return f"{table}[{key}] no longer validates: {exc}"
    try:
        env.hash()
    except Exception as exc:
        return f"the state does not hash: {exc!r}"
    return None


def value_strategy(annotation: Any, pool: list[str], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values of (and near) a parameter's type: valid ones, hostile ones, wrong types."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return st.one_of(st.sampled_from(args), st.sampled_from(HOSTILE_STRINGS))
    if origin in (Union, types.UnionType):
        return st.one_of(*(value_strategy(a, pool, depth) for a in args))
    if annotation is type(None):
        return st.none()
    if origin in (list, tuple, set) and depth < 3:
        inner = value_strategy(args[0] if args else Any, pool, depth + 1)
        return st.lists(inner, max_size=3)
    if origin is dict and depth < 3:
        key = value_strategy(args[0] if args else str, pool, depth + 1)
        item = value_strategy(args[1] if len(args) > 1 else Any, pool, depth + 1)
        return st.dictionaries(key, item, max_size=3)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and depth < 3:
        fields = {
            name: value_strategy(info.annotation, pool, depth + 1)
            for name, info in annotation.model_fields.items()
        }
        return st.fixed_dictionaries(fields)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.one_of(st.sampled_from(HOSTILE_INTS), st.integers(-5, 40))
    if annotation in (float, Decimal):
        return st.one_of(
            st.sampled_from(HOSTILE_FLOATS),
            st.floats(allow_nan=True, allow_infinity=True),
            st.floats(min_value=0, max_value=5_000).map(lambda x: round(x, 2)),
        )
    if annotation is str:
        return st.one_of(
            st.sampled_from(pool),
            st.sampled_from(HOSTILE_STRINGS),
            st.text(max_size=12),
        )
    return st.sampled_from(WRONG_TYPES)


def id_pool(env: Environment, gold: list[tuple[list[Action], dict[str, Any]]]) -> list[str]:
    """Real keys of every table, and the strings gold calls use: values that find records."""
    pool: set[str] = set()
    for table in env.state.db.tables().values():
        pool.update(sorted(table)[:25])
    for _, arguments in gold:
        pool.update(v for v in arguments.values() if isinstance(v, str))
    return sorted(pool) or ["x"]


def gold_calls(domain: Domain, variant: str, limit: int = 12) -> dict[str, list[Any]]:
    """Per tool: (gold actions before it, its gold arguments) from tasks on this database."""
    found: dict[str, list[Any]] = {}
    seen: set[str] = set()
    for split in ("test", "train"):
        if domain.variant_for(split) != variant:
            continue
        for task in domain.tasks(split):
            actions = task.gold_actions
            for i, action in enumerate(actions):
                fingerprint = json.dumps([action.name, action.arguments], sort_keys=True)
                calls = found.setdefault(action.name, [])
                if fingerprint in seen or len(calls) >= limit:
                    continue
                seen.add(fingerprint)
                calls.append((actions[:i], dict(action.arguments)))
    return found


def _encodes(text: str) -> bool:
    """The text can go to an endpoint and into a file (a refusal is shown to the agent)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def call_once(env: Environment, spec: ToolSpec, arguments: dict[str, Any], tally: Tally) -> None:
    """One fuzzed call and its checks; a failure is recorded, not raised, so a sweep counts all."""
    tally.calls += 1
    try:
        result = env.call(spec.name, arguments)
        to_text(result).encode("utf-8")
        tally.successes += 1
    except ToolError as exc:
        tally.refusals += 1
        if not str(exc).isascii() and not _encodes(str(exc)):
            tally.failures.append(f"{spec.name}({arguments!r:.300}): refusal text cannot encode")
    except Exception:
        detail = traceback.format_exc(limit=-3)
        tally.failures.append(f"{spec.name}({arguments!r:.300}) raised:\n{detail}")
        return
    problem = state_problem(env)
    if problem is not None:
        tally.failures.append(f"{spec.name}({arguments!r:.300}): {problem}")


def fuzz_tool(
    env: Environment, spec: ToolSpec, gold: list[Any], examples: int, tally: Tally, round_: int
) -> None:
    """Run up to `examples` fuzzed calls of one tool, deterministically for each round."""
    fields = spec.arguments_model.model_fields
    pool = id_pool(env, gold)
    strategies = {name: value_strategy(info.annotation, pool) for name, info in fields.items()}
    generated = st.fixed_dictionaries(strategies).map(lambda args: ([], args))
    bases = st.one_of(st.sampled_from(gold), generated) if gold else generated

    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        prefix, base = data.draw(bases)
        arguments = dict(base)
        if fields:
            names = sorted(fields)
            for name in data.draw(st.lists(st.sampled_from(names), max_size=2, unique=True)):
                hostile = st.one_of(strategies[name], st.sampled_from(WRONG_TYPES))
                arguments[name] = data.draw(hostile)
        env.reset()
        for action in prefix:
            # A gold action of a broken task is the contract test's business, not this one's.
            with contextlib.suppress(ToolError):
                env.call(action.name, dict(action.arguments))
        call_once(env, spec, arguments, tally)

    # Round 0 is hypothesis' own derandomised run; later rounds (only when a tool with few
    # possible inputs left the budget unspent) draw other examples, still from a fixed seed.
    (seed(round_)(run) if round_ else run)()
    env.reset()


def fuzz_domain(domain: Domain, calls: int) -> Tally:
    """About `calls` fuzzed calls over every tool of every database of `domain`."""
    tally = Tally()
    variants = sorted(domain.databases)
    per_tool = max(3, math.ceil(calls / (len(domain.toolset.specs) * len(variants))))
    envs = {variant: Environment(domain, variant) for variant in variants}
    golds = {variant: gold_calls(domain, variant) for variant in variants}
    for round_ in range(20):
        if tally.calls >= calls:
            break
        for variant, env in envs.items():
            for name, spec in domain.toolset.specs.items():
                fuzz_tool(env, spec, golds[variant].get(name, []), per_tool, tally, round_)
    return tally
