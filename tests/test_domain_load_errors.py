"""A domain folder that is half made or broken is named with what is wrong, and does not take
the other domains down with it: a folder missing policy.md, an import error in a domain's
code, a tool_docs.json that does not match, a docstring whose Args name no parameter, and a
task whose gold action names no tool.

The temporary domains live in a folder added to the domains package's ``__path__`` (what
discovery and the import machinery both search), so the shipped ten stay beside them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tau_emotion.domains as domains_pkg
from cli_errors import one_error_line
from tau_emotion.cli.main import app, framework_causes
from tau_emotion.data import Action, Episode, EpisodeError, ErrorKind, TerminationReason
from tau_emotion.domains import DomainLoadError, domain_names, load_domain, resolve_domains
from tau_emotion.domains.base import write_tasks
from tau_emotion.domains.kit.declare import DOCS_FILE, ToolDocs, declare
from tau_emotion.domains.tools import ToolSet, tool
from tau_emotion.errors import DomainError, TaskFileError

from toy_domain import credit_task, make_domain

runner = CliRunner()


@pytest.fixture
def extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder searched for domains after the package's own; what it held is forgotten
    after the test (the import cache and `load_domain`'s)."""
    folder = tmp_path / "more_domains"
    folder.mkdir()
    monkeypatch.setattr(domains_pkg, "__path__", [*domains_pkg.__path__, str(folder)])
    load_domain.cache_clear()
    yield folder
    load_domain.cache_clear()
    for name in [m for m in sys.modules if m.startswith("tau_emotion.domains.")]:
        if (folder / name.split(".")[2]).exists():
            del sys.modules[name]


def _broken(extra: Path, name: str = "wreck") -> Path:
    """A domain folder whose tools module imports a name that does not exist."""
    root = extra / name
    root.mkdir()
    (root / "policy.md").write_text("# Wreck\n")
    (root / "__init__.py").write_text("from .tools import Tools\n")
    (root / "tools.py").write_text("\nfrom tau_emotion.domains.common import fmtx\n")
    return root


# --- F3: a half-made folder says what it lacks ----------------------------------------------


def test_a_folder_without_policy_md_says_so_not_unknown_domain(extra: Path) -> None:
    step1 = extra / "step1"
    step1.mkdir()
    (step1 / "db.py").write_text("")
    (step1 / "generate.py").write_text("")
    with pytest.raises(DomainError, match=r"has no __init__\.py and no policy\.md"):
        load_domain("step1")
    (step1 / "__init__.py").write_text("")
    with pytest.raises(DomainError, match=r"step1 is no domain yet: it has no policy\.md"):
        resolve_domains("step1")
    line = one_error_line(runner.invoke(app, ["domains", "generate", "step1"]), "policy.md")
    assert "unknown domain" not in line
    # A name that is no folder at all is still an unknown domain.
    with pytest.raises(DomainError, match="unknown domain 'nowhere'"):
        load_domain("nowhere")


def test_a_folder_without_domain_says_which_declaration_is_missing(extra: Path) -> None:
    root = extra / "bare"
    root.mkdir()
    (root / "policy.md").write_text("# Bare\n")
    (root / "__init__.py").write_text("")
    with pytest.raises(DomainLoadError, match=r"__init__\.py must define DOMAIN = domain_package"):
        load_domain("bare")


# --- F9: one broken domain ------------------------------------------------------------------


def test_an_import_error_names_the_domain_the_file_and_the_line(extra: Path) -> None:
    root = _broken(extra)
    with pytest.raises(DomainLoadError) as caught:
        load_domain("wreck")
    message = str(caught.value)
    assert message.startswith("domain wreck failed to load: ")
    assert f"{root / 'tools.py'}:2: ImportError: cannot import name 'fmtx'" in message
    assert "\n" not in message


def test_domains_lists_the_others_and_names_the_broken_one(extra: Path) -> None:
    _broken(extra)
    result = runner.invoke(app, ["domains"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for name in domain_names():
        if name != "wreck":
            assert name in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "domain wreck failed to load" in errors[0], result.output
    assert "tools.py:2" in errors[0]


@pytest.mark.parametrize("command", ["tasks", "run"])
def test_all_domains_refuses_in_one_line_naming_the_broken_one_and_the_others(
    extra: Path, tmp_path: Path, command: str
) -> None:
    _broken(extra)
    args = ["tasks", "--domain", "all"]
    if command == "run":
        args = ["run", "--domain", "all", "--agent", "oracle", "--num-tasks", "3"]
        args += ["--out", str(tmp_path / "run")]
    line = one_error_line(runner.invoke(app, args), "domain wreck failed to load", "tools.py:2")
    others = [n for n in domain_names() if n != "wreck"]
    assert line.endswith(f"name them: --domain {','.join(others)}"), line


def test_a_tool_docs_mismatch_names_the_file(tmp_path: Path) -> None:
    entry = {"name": "find_x", "description": "Find x.", "args": {"phone_number": "The phone."}}
    (tmp_path / DOCS_FILE).write_text(json.dumps([entry]))
    docs = ToolDocs.beside(str(tmp_path / "tools.py"))
    path = tmp_path / DOCS_FILE
    with pytest.raises(ValueError, match=rf"^{path}: find_x: the docs describe \['phone_number'\]"):
        declare("read", docs["find_x"], ["phone"], lambda t, p: p)
    with pytest.raises(KeyError, match=rf"{path} has no tool 'transfer_to_human_agents'"):
        docs["transfer_to_human_agents"]


def test_a_domain_whose_tool_docs_do_not_match_fails_to_load_naming_the_file(
    extra: Path,
) -> None:
    root = extra / "mismatch"
    root.mkdir()
    (root / "policy.md").write_text("# Mismatch\n")
    entry = {"name": "find_x", "description": "Find x.", "args": {"phone_number": "The phone."}}
    (root / DOCS_FILE).write_text(json.dumps([entry]))
    (root / "__init__.py").write_text(
        "from tau_emotion.domains.kit.declare import ToolDocs, declare\n"
        "DOCS = ToolDocs.beside(__file__)\n"
        "find_x = declare('read', DOCS['find_x'], ['phone'], lambda t, p: p)\n"
    )
    with pytest.raises(DomainLoadError, match=rf"{root / DOCS_FILE}: find_x: the docs describe"):
        load_domain("mismatch")


# --- F10: docstring Args that match no parameter ----------------------------------------------


def test_an_args_entry_naming_no_parameter_is_refused() -> None:
    with pytest.raises(TypeError, match=r"tool cancel_hold: .*Args documents 'hold', which is"):

        class Stray(ToolSet):
            @tool("write")
            def cancel_hold(self, hold_id: str) -> str:
                """Cancel a hold.

                Args:
                    hold: The hold id.
                """
                return hold_id


def test_a_parameter_without_an_args_entry_is_refused() -> None:
    with pytest.raises(TypeError, match=r"tool renew: parameter 'loan_id' has no entry"):

        class Bare(ToolSet):
            @tool("write")
            def renew(self, loan_id: str) -> str:
                """Renew a loan."""
                return loan_id


def test_every_shipped_tool_documents_exactly_its_parameters() -> None:
    for name in domain_names():
        assert load_domain(name).toolset.specs  # each built without a TypeError


# --- F11: a gold action naming no tool ------------------------------------------------------


def test_a_gold_action_naming_no_tool_is_refused_when_tasks_load(tmp_path: Path) -> None:
    domain = make_domain(tmp_path / "toy")
    good = credit_task()
    bad = good.model_copy(update={"id": "typo"})
    intent = bad.intents[0]
    actions = [*intent.actions[:-1], Action(name="add_credits", arguments={})]
    bad = bad.model_copy(update={"intents": [intent.model_copy(update={"actions": actions})]})
    path = tmp_path / "toy" / "tasks" / "dev.jsonl"
    write_tasks(path, [good, bad])
    with pytest.raises(TaskFileError) as caught:
        domain.tasks()
    message = str(caught.value)
    assert message.startswith(f"{path}:2: task typo: gold action 'add_credits' is no tool")
    assert "its tools: add_credit, find_customer" in message


def test_the_console_names_the_cause_of_a_framework_error() -> None:
    def episode(task: str, message: str) -> Episode:
        return Episode(
            task_id=task,
            domain="library",
            trial=0,
            seed=0,
            messages=[],
            termination=TerminationReason.FRAMEWORK_ERROR,
            reward=0.0,
            errors=[EpisodeError(kind=ErrorKind.ENVIRONMENT, message=message)],
        )

    cause = "gold action 2 (renew_book) failed: unknown tool 'renew_book'"
    lines = framework_causes([episode("a", cause), episode("b", cause), episode("c", "x\ny")])
    assert lines == [
        f"framework_error: library/a (and 1 more episodes): {cause}",
        "framework_error: library/c: x; y",
    ]
