"""Every `tau-emotion` command in the README's and docs' shell blocks, and the example in
`show`'s help, runs as written.

Each document's commands run in order in one fresh folder, so later commands find what earlier
ones wrote. Commands that would call a model are played by the oracle agent and the scripted
user (on 10 tasks where the command names several domains: `FAST`): the command line itself is the one in the docs, with those
options appended (the last value of an option wins). Commands that need a GPU, a hosted model
or many minutes (`PARSE_ONLY`) are parsed by the real command, which checks every option name,
type and choice, without running; a `tracer build` leaves a small stand-in build behind so
that the commands after it have their input.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import write_tasks

ROOT = Path(__file__).parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FAST = ["--agent", "oracle", "--user", "scripted", "--trials", "1", "--concurrency", "4"]
FAST += ["--executor", "local"]
PARSE_ONLY = (
    ("tracer",),
    ("train",),
    ("emotions", "anchors"),
    ("emotions", "train"),
    ("emotions", "eval"),
    ("emotions", "plot"),
    ("emotions", "map", "--classifier"),
    ("emotions", "map", "--input"),
    ("report", "--judge-model"),
)

runner = CliRunner()


def shell_commands(text: str) -> list[list[str]]:
    """`tau-emotion` command lines of the fenced shell blocks, continuations joined."""
    blocks: list[str] = []
    fence: str | None = None  # the language of the open fence; None outside one
    for line in text.splitlines():
        if line.startswith("```"):
            if fence is None:
                fence = line[3:].strip()
                blocks.append("")
            else:
                fence = None
        elif fence in ("", "bash", "sh"):
            blocks[-1] += line + "\n"
    commands = []
    for block in blocks:
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line.strip())
            if line.startswith("tau-emotion "):
                commands.append(shlex.split(line)[1:])
    return commands


def parse_only(args: list[str]) -> bool:
    return any(all(word in args for word in rule) and args[0] == rule[0] for rule in PARSE_ONLY)


def fast(args: list[str]) -> list[str]:
    if args[0] not in ("run", "collect"):
        return args
    extra = list(FAST)
    domain = args[args.index("--domain") + 1] if "--domain" in args else "all"
    several = "," in domain or domain == "all"  # one domain's tasks play in seconds; ten not
    if several and "--num-tasks" not in args and "--tasks" not in args:
        extra += ["--num-tasks", "10"]
    return [*args, *extra]


def parse(args: list[str]) -> None:
    command: Any = typer.main.get_command(app)
    words = list(args)
    while hasattr(command, "list_commands") and words:  # typer's own click: duck-typed
        command = command.get_command(None, words.pop(0))
        assert command is not None, args
    ctx = command.make_context("tau-emotion", words, resilient_parsing=False)
    ctx.close()


def stand_in_build(args: list[str]) -> None:
    out = Path(args[args.index("--out") + 1]) if "--out" in args else Path("tracer-out")
    for name in domain_names():
        write_tasks(
            out / "tasks" / name / "test.jsonl", load_domain(name).tasks("test", "test")[:1]
        )


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_doc_commands_run_as_written(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = shell_commands(doc.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").symlink_to(ROOT / "src")  # the docs run from a checkout of the repository
    for args in commands:
        if parse_only(args):
            parse(args)
            if args[:2] == ["tracer", "build"]:
                stand_in_build(args)
            continue
        result = runner.invoke(app, fast(args))
        assert result.exit_code == 0, f"{doc.name}: tau-emotion {shlex.join(args)}\n{result.output}"


def test_the_readme_and_docs_hold_commands() -> None:
    found = {doc.name: len(shell_commands(doc.read_text(encoding="utf-8"))) for doc in DOCS}
    assert found["README.md"] >= 12 and found["training.md"] >= 6 and found["report.md"] >= 8


def test_the_example_in_show_help_runs() -> None:
    help_text = runner.invoke(app, ["show", "--help"], env={"TERMINAL_WIDTH": "200"}).output
    example = re.search(r"e\.g\. (\S+)", help_text)
    assert example is not None
    result = runner.invoke(app, ["show", example.group(1)])
    assert result.exit_code == 0, result.output
