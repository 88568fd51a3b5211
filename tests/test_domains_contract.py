"""The domain contract, checked on every domain folder found (so a new domain is tested too)."""

from __future__ import annotations

import asyncio

import pytest

from tau_emotion.data import TerminationReason
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.checks import Trajectory, run_checks
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
    tasks = domain.tasks()
    used = {a.name for t in tasks for a in t.gold_actions}
    writes = {n for n, k in domain.tool_kinds.items() if k != "read"}
    assert writes <= used, f"{name}: write tools without a task: {sorted(writes - used)}"
    assert sum(len(t.intents) > 1 for t in tasks) >= 3, f"{name}: fewer than 3 multi-intent tasks"


@pytest.mark.parametrize("name", DOMAINS)
def test_oracle_with_scripted_user_solves_every_task_within_policy(name: str) -> None:
    domain = load_domain(name)
    failures = []
    envs: dict[str, Environment] = {}
    for task in domain.tasks():
        variant = domain.variant_for(task.split)
        env = envs.setdefault(variant, Environment(domain, variant))
        setup = EpisodeSetup(task, domain, seed=0, trial=0)
        episode = asyncio.run(run_episode(setup, OracleAgent(setup), ScriptedUser(setup), env))
        violations = run_checks(domain.checks, Trajectory(episode.messages, domain.tool_kinds))
        ok_end = episode.termination in (TerminationReason.USER_STOP, TerminationReason.TRANSFER)
        if episode.reward != 1.0 or violations or not ok_end:
            reason = episode.breakdown.reason if episode.breakdown else episode.errors
            failures.append(
                f"{task.id}: reward {episode.reward} ({reason}), {episode.termination}, {violations}"
            )
    assert not failures, "\n".join(failures)
