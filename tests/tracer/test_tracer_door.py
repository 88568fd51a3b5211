"""`Domain` is the Tracer's only door: the Tracer names no domain, each domain declares what
the Tracer needs in its own folder, and a domain outside the package builds like any other."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import tau_emotion.tracer
from shipped_domains import SHIPPED_DOMAINS
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import load_tasks
from tau_emotion.environment import Environment
from tau_emotion.tracer.build import run_build
from tau_emotion.tracer.declaration import TracerSpec
from tau_emotion.tracer.oracle import replay_task
from tau_emotion.tracer.profile import profile_for
from tau_emotion.tracer.stats import write_stats

from toy_domain import SMALL_BUILD, make_domain

TRACER_DIR = Path(tau_emotion.tracer.__file__).parent


def test_the_tracer_names_no_domain_and_imports_nothing_by_string() -> None:
    names = domain_names()
    assert set(SHIPPED_DOMAINS) <= set(names)  # a word list of every domain found, new ones too
    word = re.compile(r"\b(" + "|".join(names) + r")\b", re.IGNORECASE)
    files = sorted(TRACER_DIR.rglob("*.py"))
    assert len(files) > 20
    found = []
    for path in files:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if word.search(line) or "importlib" in line or "import_module" in line:
                found.append(f"{path.relative_to(TRACER_DIR)}:{lineno}: {line.strip()}")
    assert found == []


@pytest.mark.parametrize("name", domain_names())
def test_every_domain_declares_what_the_tracer_needs(name: str) -> None:
    domain = load_domain(name)
    spec = domain.tracer
    assert isinstance(spec, TracerSpec)
    assert (domain.root / "tracer_profile.py").exists()
    tools = set(domain.toolset.specs)
    assert spec.auth_tools and set(spec.auth_tools) <= tools
    assert set(spec.phrases) <= tools and set(spec.hooks) <= tools
    assert set(spec.utilities) <= tools
    tables = set(domain.load_db(next(iter(domain.databases)))[0].tables())
    assert spec.public_tables <= tables and set(spec.caller_rules) <= tables
    for edit in spec.review:
        assert edit.a in tools or edit.a == "*write", edit
        named = {t for alt in edit.b.split("|") for t in alt.split("+") if t}
        assert edit.action == "limit" or named <= tools, edit


def test_a_domain_without_a_declaration_gets_the_empty_defaults(tmp_path: Path) -> None:
    toy = dataclasses.replace(make_domain(tmp_path / "toy"), tracer_spec=None)
    assert toy.tracer == TracerSpec()
    # With no declared identity tools, the find_* reads are the identity lookups.
    assert dataclasses.replace(make_domain(tmp_path / "toy2", seed_tasks=True), tracer_spec=None)
    profile = profile_for(
        dataclasses.replace(make_domain(tmp_path / "toy3", seed_tasks=True), tracer_spec=None)
    )
    assert profile.auth_tools == ("find_customer",)


def test_the_toy_domain_builds_a_tracer_test_set(tmp_path: Path) -> None:
    toy = make_domain(tmp_path / "toy", seed_tasks=True)
    final = run_build(SMALL_BUILD, tmp_path / "build", install=True, show=False, domains=[toy])
    test = load_tasks(final / "toy" / "test.jsonl")
    twins = load_tasks(final / "toy" / "test_neutral.jsonl")
    train = load_tasks(final / "toy" / "train.jsonl")
    assert len(test) == toy.tracer.test_target == 3
    assert len(train) == 4
    assert [t.neutral_twin_id for t in test] == [t.id for t in twins]
    hashes = json.loads((toy.root / "tracer" / "hashes.json").read_text())
    env = Environment(toy, "main")
    for task in [*test, *train]:
        assert task.domain == "toy" and task.provenance == "tracer:7"
        assert task.emotion is not None and task.feeling
        assert task.gold_actions[0].name == "find_customer"
        assert task.gold_actions[-1].name in {"add_credit", "transfer_to_human_agents"}
        _, digest = replay_task(task, env)
        assert digest == hashes[f"{task.split}/{task.id}"]
        # The declared phrase is how the customer asks for credit.
        if "add_credit" in {a.name for a in task.gold_actions}:
            assert "dollars of store credit" in task.instruction
    assert any("add_credit" in {a.name for a in t.gold_actions} for t in test)
    # Installing writes into the toy's own folder, and the statistics read the build alone.
    assert load_tasks(toy.root / "tasks" / "test.jsonl") == test
    (stats,) = write_stats(tmp_path / "build")
    assert stats.domain == "toy" and stats.splits["test"].selected == 3
