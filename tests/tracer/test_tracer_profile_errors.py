"""Mistakes in a domain's Tracer declaration are refused when it is loaded, in one line that
names the file, the entry and what the domain has; and a write tool the Tracer cannot give a
task is said on the command line (`tracer graph`, `tracer stats`), not only in graph.md.

The toy domain is installed as a package in a folder added to the domains package's
``__path__`` (what discovery and the import machinery search), with its own
``tracer_profile.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tau_emotion.domains as domains_pkg
from cli_errors import one_error_line
from tau_emotion.cli.main import app
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import write_tasks
from tau_emotion.errors import DomainError
from tau_emotion.tracer.declaration import ReviewEdit, TracerSpec
from tau_emotion.tracer.graph import build_graph, left_out_writes
from tau_emotion.tracer.profile import load_profile, profile_for
from tau_emotion.tracer.stats import idle_writes

from toy_domain import credit_task, make_domain
from toy_domain.tracer_profile import TRACER

runner = CliRunner()

PROFILE = """from dataclasses import replace
from toy_domain.tracer_profile import TRACER as _TOY

TRACER = replace(_TOY, {change})
"""


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "more_domains"
    folder.mkdir()
    monkeypatch.setattr(domains_pkg, "__path__", [*domains_pkg.__path__, str(folder)])
    load_domain.cache_clear()
    load_profile.cache_clear()
    yield folder
    load_domain.cache_clear()
    load_profile.cache_clear()
    for name in [m for m in sys.modules if m.startswith("tau_emotion.domains.toy")]:
        del sys.modules[name]


def _toy_package(folder: Path, change: str = "") -> Path:
    """The toy domain as a package `toy` with seed tasks and a tracer_profile.py that
    replaces the toy declaration's fields with `change` (keyword arguments)."""
    root = folder / "toy"
    root.mkdir()
    (root / "policy.md").write_text("# Toy\n")  # discovery looks for it before the import
    (root / "__init__.py").write_text(
        "from dataclasses import replace\nfrom pathlib import Path\n"
        "from toy_domain import make_domain\n"
        "DOMAIN = replace(make_domain(Path(__file__).parent, seed_tasks=True), tracer_spec=None)\n"
    )
    (root / "tracer_profile.py").write_text(PROFILE.format(change=change))
    return root


def _spec_error(tmp_path: Path, spec: TracerSpec) -> str:
    domain = replace(make_domain(tmp_path / "toy", seed_tasks=True), tracer_spec=spec)
    with pytest.raises(DomainError) as caught:
        domain.tracer  # noqa: B018 (the load is the check)
    message = str(caught.value)
    assert "\n" not in message
    return message


TOOLS = "the tools are add_credit, find_customer, get_account, get_credit, transfer_to_human_agents"


def test_a_phrase_keyed_to_no_tool_is_refused(tmp_path: Path) -> None:
    spec = replace(TRACER, phrases={"add_credits": ("get credit", "get credit")})
    message = _spec_error(tmp_path, spec)
    assert message == f"the TracerSpec given to Domain: phrases: 'add_credits' is no tool; {TOOLS}"


def test_a_misspelled_slot_is_refused(tmp_path: Path) -> None:
    spec = replace(TRACER, phrases={"add_credit": ("get {amout} dollars", "get {amount}")})
    message = _spec_error(tmp_path, spec)
    assert message.endswith(
        "phrases: add_credit: slot {amout} names no argument of add_credit; its slots are "
        "amount, customer, entity"
    )


def test_a_misspelled_auth_tool_is_named_not_the_seed_tasks(tmp_path: Path) -> None:
    spec = replace(TRACER, auth_tools=("find_customr",))
    domain = replace(make_domain(tmp_path / "toy", seed_tasks=True), tracer_spec=spec)
    with pytest.raises(DomainError, match=f"auth_tools: 'find_customr' is no tool; {TOOLS}"):
        profile_for(domain)


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        ({"reasons": {"add_creditt": ("I want it",)}}, "reasons", "'add_creditt' is no tool"),
        ({"utilities": {"calc": "a utility"}}, "utilities", "'calc' is no tool"),
        ({"hooks": {"calc": lambda tool, scene: []}}, "hooks", "'calc' is no tool"),
        (
            {"review": (ReviewEdit("drop", "find_customer", "get_acount", "why"),)},
            "review",
            "drop find_customer get_acount: 'get_acount' is no tool",
        ),
        ({"known_codes": {"order_code": "order"}}, "known_codes", "'order_code' is no parameter"),
        ({"public_tables": frozenset({"plans"})}, "public_tables", "'plans' is no table"),
    ],
)
def test_every_field_naming_a_tool_parameter_or_table_is_checked(
    tmp_path: Path, change: dict[str, object], where: str, problem: str
) -> None:
    message = _spec_error(tmp_path, replace(TRACER, **change))  # type: ignore[arg-type]
    assert f": {where}: {problem}" in message


def test_the_error_names_the_domains_tracer_profile_and_the_command_says_one_line(
    packages: Path,
) -> None:
    root = _toy_package(packages, 'phrases={"add_credits": ("get credit", "get credit")}')
    with pytest.raises(DomainError, match=rf"^{root / 'tracer_profile.py'}: phrases: "):
        load_domain("toy").tracer  # noqa: B018
    result = runner.invoke(app, ["tracer", "graph", "--domain", "toy", "--check"])
    one_error_line(result, "tracer_profile.py", "'add_credits' is no tool")


def test_a_phrase_kept_as_data_is_named_by_its_file(packages: Path) -> None:
    root = _toy_package(packages, "phrases={}")
    (root / "tracer").mkdir()
    phrases = root / "tracer" / "phrases.json"
    phrases.write_text(json.dumps({"add_credit": ["get {amout}", "get {amount}"]}))
    with pytest.raises(DomainError, match=rf"^{phrases}: phrases: add_credit: slot {{amout}}"):
        load_domain("toy").tracer  # noqa: B018


def test_the_shipped_declarations_load() -> None:
    for name in domain_names():
        assert isinstance(load_domain(name).tracer, TracerSpec)


# --- F6: a write tool that gets no task is said ---------------------------------------------


def test_tracer_graph_warns_for_a_write_left_out_of_the_graph(packages: Path) -> None:
    _toy_package(packages, 'utilities={"add_credit": "nothing feeds it here"}')
    graph = build_graph(load_profile("toy"))
    assert left_out_writes(graph, load_domain("toy").tool_kinds) == {
        "add_credit": "nothing feeds it here"
    }
    result = runner.invoke(app, ["tracer", "graph", "--domain", "toy", "--check"])
    warning = "warning: toy: write tool add_credit left out of the graph: nothing feeds it here"
    assert result.stderr.splitlines().count(warning) == 1, result.output


def _fake_build(out: Path, graph_json: str, tasks: int) -> None:
    """A build folder as `tracer stats` reads it: walks, verdicts, the graph, the tasks."""
    (out / "toy").mkdir(parents=True)
    (out / "toy" / "walks.jsonl").write_text("")
    (out / "toy" / "validate-test.jsonl").write_text("")
    (out / "toy" / "graph.json").write_text(graph_json)
    no_write = credit_task()
    no_write = no_write.model_copy(update={"intents": no_write.intents[1:]})
    write_tasks(out / "tasks" / "toy" / "test.jsonl", [no_write] * tasks)


def test_tracer_stats_warns_for_a_write_no_task_uses(packages: Path, tmp_path: Path) -> None:
    _toy_package(packages)
    graph = build_graph(load_profile("toy"))
    out = tmp_path / "build"
    _fake_build(out, graph.model_dump_json(), tasks=1)
    assert idle_writes(out, "toy", "test") == {"add_credit": ""}
    result = runner.invoke(app, ["tracer", "stats", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: toy: test: write tool add_credit is in no task\n" in result.stderr
    # The statistics themselves are as before: the warning is not written into them.
    assert "add_credit" not in (out / "stats.md").read_text()


def test_tracer_stats_gives_the_graphs_reason_for_a_left_out_write(
    packages: Path, tmp_path: Path
) -> None:
    _toy_package(packages, 'utilities={"add_credit": "nothing feeds it here"}')
    graph = build_graph(load_profile("toy"))
    out = tmp_path / "build"
    _fake_build(out, graph.model_dump_json(), tasks=0)
    result = runner.invoke(app, ["tracer", "stats", str(out)])
    line = "warning: toy: test: write tool add_credit is in no task (left out of the graph: "
    assert line + "nothing feeds it here)\n" in result.stderr, result.output
