"""The domain contract, checked on every domain folder found (so a new domain is tested too)."""

from __future__ import annotations

import asyncio
import json
import typing
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from pydantic import AfterValidator, BaseModel

from tau_emotion.data import TerminationReason, ToolCall
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.checks import run_checks
from tau_emotion.domains.common import money
from tau_emotion.domains.state import DomainDB, canonical_json, db_digest
from tau_emotion.environment import Environment
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser

DOMAINS = domain_names()


def test_domains_are_found() -> None:
    assert "airline" in DOMAINS


@pytest.mark.parametrize("name", DOMAINS)
def test_tools_schemas_and_checks_are_well_formed(name: str) -> None:
    domain = load_domain(name)
    kinds = domain.tool_kinds
    assert 10 <= len(kinds) <= 25, f"{name} has {len(kinds)} tools"
    assert kinds.get("transfer_to_human_agents") == "terminal"
    assert "write" in kinds.values() and "read" in kinds.values()
    for schema in domain.tool_schemas():
        fn = schema["function"]
        assert fn["description"], f"{name}.{fn['name']} has no description"
        for arg, prop in fn["parameters"].get("properties", {}).items():
            assert prop.get("description"), f"{name}.{fn['name']}({arg}) has no description"
    assert len(domain.policy) > 500
    rule_ids = [c.rule_id for c in domain.checks]
    assert len(rule_ids) == len(set(rule_ids)) and all(r.startswith(f"{name}.") for r in rule_ids)
    assert set(domain.split_database) == {"train", "test"}
    assert set(domain.split_database.values()) <= set(domain.databases)


@pytest.mark.parametrize("name", DOMAINS)
def test_seed_tasks_cover_every_write_tool(name: str) -> None:
    domain = load_domain(name)
    tasks = [t for t in domain.tasks() if t.provenance == "seed"]
    used = {a.name for t in tasks for a in t.gold_actions}
    writes = {n for n, k in domain.tool_kinds.items() if k != "read"}
    assert writes <= used, f"{name}: write tools without a task: {sorted(writes - used)}"
    assert sum(len(t.intents) > 1 for t in tasks) >= 3, f"{name}: fewer than 3 multi-intent tasks"


@pytest.mark.parametrize("name", DOMAINS)
def test_oracle_with_scripted_user_solves_every_seed_task_within_policy(name: str) -> None:
    """Hand-written tasks; the Tracer's generated sets have their own tests (tests/tracer)."""
    domain = load_domain(name)
    failures = []
    envs: dict[str, Environment] = {}
    for task in (t for t in domain.tasks() if t.provenance == "seed"):
        variant = domain.variant_for(task.split)
        env = envs.setdefault(variant, Environment(domain, variant))
        setup = EpisodeSetup(task, domain, seed=0, trial=0)
        episode = asyncio.run(run_episode(setup, OracleAgent(setup), ScriptedUser(setup), env))
        violations = run_checks(
            domain.checks,
            domain.trajectory(episode.messages, domain.variant_of_task(episode.task_id)),
        )
        ok_end = episode.termination in (TerminationReason.USER_STOP, TerminationReason.TRANSFER)
        if episode.reward != 1.0 or violations or not ok_end:
            reason = episode.breakdown.reason if episode.breakdown else episode.errors
            failures.append(
                f"{task.id}: reward {episode.reward} ({reason}), {episode.termination}, {violations}"
            )
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("name", "variant"),
    [(name, variant) for name in DOMAINS for variant in load_domain(name).databases],
)
def test_generator_reproduces_the_snapshot(name: str, variant: str) -> None:
    domain = load_domain(name)
    generated = domain.databases[variant].generate()
    assert db_digest(generated) == domain.load_db(variant)[1], (
        f"{name}/{variant} is stale: `tau-emotion domains generate {name}`"
    )


PERSONAL_FIELDS = ("email", "phone", "full_name")


def _identifiers(db: DomainDB) -> set[str]:
    """Ids and personal facts of a database: every row key and nested `id`, every email,
    phone and person's name, and every last four digits of a card, account or SSN. One-row
    tables hold the business's own settings (its name, the lead digit of its ids)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, dict):
            first, last = node.get("first_name"), node.get("last_name")
            if isinstance(first, str) and isinstance(last, str):
                found.add(f"{first} {last}".lower())
            for key, value in node.items():
                personal = key in PERSONAL_FIELDS or key.endswith("last4")
                if isinstance(value, str) and (key == "id" or personal):
                    found.add(value.lower() if key == "full_name" else value)
                walk(value)

    for rows in json.loads(canonical_json(db)).values():
        if len(rows) > 1:
            found.update(rows)
            walk(list(rows.values()))
    return found


SPLIT = [n for n in DOMAINS if len(set(load_domain(n).split_database.values())) > 1]


@pytest.mark.parametrize("name", SPLIT)
def test_train_and_eval_databases_share_no_entity_or_person(name: str) -> None:
    domain = load_domain(name)
    train, test = (domain.load_db(domain.variant_for(s))[0] for s in ("train", "test"))
    shared = _identifiers(train) & _identifiers(test)
    assert not shared, f"{name}: in both databases: {sorted(shared)[:10]}"


CUSTOMER_ARGUMENTS = ("user_id", "customer_id", "caller_id", "patient_id")
"""Argument names by which tools name the customer they act for."""


@pytest.mark.parametrize("name", DOMAINS)
def test_seed_tasks_are_grounded_and_change_the_state_they_should(name: str) -> None:
    """Beyond the oracle run: each seed task is neutral, its customer exists, its gold replay
    is deterministic, changes the state exactly when it writes, says something when it changes
    nothing, acts only for the task's customer, and asks for outputs that a tool result (or
    the policy) states."""
    domain = load_domain(name)
    seeds = [t for t in domain.tasks() if t.provenance == "seed"]
    assert len(seeds) >= 15, f"{name} has {len(seeds)} seed tasks"
    if name in SPLIT:
        assert sum(t.split == "train" for t in seeds) >= 3, f"{name}: fewer than 3 train tasks"
    envs: dict[str, Environment] = {}
    unchanged = []
    for task in seeds:
        env = envs.setdefault(task.split, Environment.for_task(task))
        pristine = env.hash()
        digest = env.replay(task.gold_actions)
        assert env.replay(task.gold_actions) == digest, f"{task.id}: replay is not deterministic"
        writes = any(domain.tool_kinds[a.name] != "read" for a in task.gold_actions)
        assert (digest != pristine) == writes, f"{task.id}: state change does not match writes"
        if digest == pristine:
            unchanged.append(task.id)
            assert task.required_outputs, f"{task.id} changes nothing and asks for no output"
        assert task.user_id not in task.instruction, f"{task.id}: the instruction names an id"
        tables = env.state.db.tables().values()
        assert any(task.user_id in rows for rows in tables), f"{task.id}: unknown customer"
        assert task.emotion is None, f"{task.id}: a seed task is neutral; emotions come later"
        for action in task.gold_actions:
            for argument in CUSTOMER_ARGUMENTS:
                named = action.arguments.get(argument, task.user_id)
                assert named == task.user_id, f"{task.id}: {action.name} acts for {named}"
        for i, intent in enumerate(task.intents):
            said = [
                env.execute(ToolCall(id=f"{i}.{n}", name=a.name, arguments=a.arguments))
                for n, a in enumerate(intent.actions)
            ]
            for output in intent.outputs:
                assert any(output in (m.content or "") for m in said) or output in domain.policy, (
                    f"{task.id}: output {output!r} is in no tool result of its intent"
                )
        env.reset()
    assert len(unchanged) <= 2, f"{name}: too many information-only tasks: {unchanged}"


_MONEY_WORDS = {
    "amount",
    "balance",
    "cents",
    "charge",
    "copay",
    "cost",
    "deductible",
    "dollars",
    "fee",
    "payout",
    "price",
    "refund",
}
"""Words that make a field money wherever they stand in its name ('late_fee', 'price')."""


def _records(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """`model` and every record type its fields hold, each once."""
    seen: set[type[BaseModel]] = set()
    todo = [model]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        for field in current.model_fields.values():
            todo.extend(
                t
                for t in _leaf_types(field.annotation)
                if isinstance(t, type) and issubclass(t, BaseModel)
            )


def _leaf_types(annotation: Any) -> list[Any]:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is None or not args:
        return [annotation]
    return [leaf for arg in args for leaf in _leaf_types(arg)]


@pytest.mark.parametrize("name", DOMAINS)
def test_every_amount_is_stored_as_money(name: str) -> None:
    """One money type: every number named for money is the kit's cent-exact `Money`, never
    an int (cents or dollars), a float (which prints as it likes) or a bare Decimal. (Ids
    and dates named for money, 'fee_id', 'refund_of', are text and pass.) A domain stores at
    least one amount: a `Money` field of any name ('fines'), or a number field whose name
    holds a word of `_MONEY_WORDS`."""
    records = list(_records(load_domain(name).db_model))
    fields = [
        (record.__name__, field_name, field)
        for record in records
        for field_name, field in record.model_fields.items()
        if _MONEY_WORDS & set(field_name.split("_"))
        and {int, float, Decimal} & set(_leaf_types(field.annotation))
    ]
    typed = [
        field_name
        for record in records
        for field_name, field in record.model_fields.items()
        if _is_money(field.annotation, field.metadata)
    ]
    assert fields or typed, (
        f"{name}: no record field is Money and no number field is named for money "
        f"(a name holding one of {sorted(_MONEY_WORDS)}); a domain stores at least one "
        "amount, as Money (tau_emotion.domains.common)"
    )
    wrong = [
        f"{r}.{n}" for r, n, field in fields if not _is_money(field.annotation, field.metadata)
    ]
    assert not wrong, f"not Money: {wrong}"


def _is_money(annotation: Any, metadata: list[Any]) -> bool:
    """`Money` itself, or an optional or nested one (`Money | None`, `tuple[Money, ...]`)."""
    if any(isinstance(m, AfterValidator) and m.func is money for m in metadata):
        return True
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is None or not args:
        return False
    return all(
        arg is type(None)
        or arg is Ellipsis
        or _is_money(arg, list(getattr(arg, "__metadata__", ())))
        for arg in args
    )
