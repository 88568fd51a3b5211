"""The run-like commands' options: generated from the config, shared, documented, validated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.cli.options import build_config
from tau_emotion.domains import domain_names
from tau_emotion.runner.config import CollectConfig, RunConfig

runner = CliRunner()
WIDE = {"TERMINAL_WIDTH": "240", "COLUMNS": "240"}


# typer carries its own copy of click, so commands and options are recognised by shape.
def is_group(cmd: Any) -> bool:
    return hasattr(cmd, "list_commands")


def is_option(param: Any) -> bool:
    return getattr(param, "param_type_name", "") == "option"


def subcommand(group: Any, name: str) -> Any:
    found = group.get_command(None, name)
    assert found is not None, name
    return found


def command(name: str) -> Any:
    cmd: Any = typer.main.get_command(app)
    for part in name.split():
        cmd = subcommand(cmd, part)
    return cmd


def every_command() -> list[str]:
    out: list[str] = []

    def walk(cmd: Any, prefix: str) -> None:
        if is_group(cmd):
            for sub in cmd.list_commands(None):
                walk(subcommand(cmd, sub), f"{prefix} {sub}".strip())
        else:
            out.append(prefix)

    walk(typer.main.get_command(app), "")
    return out


def flags(name: str) -> set[str]:
    return {o for p in command(name).params if is_option(p) for o in p.opts}


def help_text(name: str) -> str:
    result = runner.invoke(app, [*name.split(), "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.replace("│", " ").split())


def test_run_and_collect_have_one_option_set_generated_from_the_config() -> None:
    assert flags("run") == flags("collect")
    run = flags("run")
    for field in RunConfig.model_fields:
        if field not in ("agent_model", "user_model", "domains", "task_ids"):
            assert "--" + field.replace("_", "-") in run, field
    for knob in ("max-tokens", "top-p", "seed", "timeout-s", "max-retries", "extra-body"):
        assert {f"--agent-{knob}", f"--user-{knob}"} <= run
    assert {"--agent-send-reasoning", "--user-send-reasoning", "--config", "--tasks"} <= run
    assert {"--domain", "--task-id", "--no-emotion", "--verify-attempts"} <= run


def test_help_shows_defaults_and_choices() -> None:
    run, collect = help_text("run"), help_text("collect")
    assert "[default: test]" in run and "[default: train]" in collect
    assert "[default: 200]" in run and "[default: 50]" in collect
    assert "[default: all]" in run and "[default: local]" in run
    # the agent kinds outgrow the option column, which wraps after the first few
    assert "<tool-calling|react|act|few-shot|oracle|human|do-nothing|transfer" in run
    assert "<record|replay|auto>" in run and "<train|test>" in run
    assert "[default: user-exit]" in run and "--no-emotion --emotion" in run
    metrics = help_text("metrics")
    assert "family|emotion|politeness|urgency|trust" in metrics
    assert "[default: (family)]" in metrics


def test_no_help_text_loses_its_brackets_to_markup() -> None:
    """Rich markup swallowed '[default: ...]' written into help strings; none may vanish."""
    for name in every_command():
        text = help_text(name)
        for param in command(name).params:
            help_ = getattr(param, "help", None) or ""
            if "[" in help_:
                inner = help_[help_.index("[") : help_.index("]", help_.index("[")) + 1]
                assert " ".join(inner.split()) in text, (name, param.name)


def test_tracer_commands_spell_domain_one_way() -> None:
    for name in every_command():
        if name.startswith("tracer "):
            visible = {
                o for p in command(name).params if is_option(p) and not p.hidden for o in p.opts
            }
            assert "--domains" not in visible, name
    assert "--domain" in flags("tracer build") and "--domain" in flags("tracer walk")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--concurrency", "0"], "--concurrency:"),
        (["--max-steps", "0"], "--max-steps:"),
        (
            ["--agent", "tool-calling", "--agent-model", "m", "--agent-max-retries", "-1"],
            "--agent-max-retries:",
        ),
        (["--trials", "0"], "--trials:"),
        (["--num-tasks", "0"], "--num-tasks:"),
        (["--agent-extra-body", "{nope"], "--agent-extra-body: not valid JSON"),
        (["--user-temperature", "0.5"], "--user-temperature need --user-model"),
        (["--domain", "zoo"], "--domain: unknown domain 'zoo'"),
    ],
)
def test_senseless_options_are_refused_naming_the_option(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    result = runner.invoke(app, ["run", "--agent", "oracle", "--out", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
    assert not (tmp_path / "results.jsonl").exists()


def test_config_file_then_command_line(tmp_path: Path) -> None:
    config = tmp_path / "run.toml"
    config.write_text(
        'domains = ["airline", "retail"]\nagent = "oracle"\ntrials = 2\nnum_tasks = 2\nseed = 5\n'
    )
    out = tmp_path / "run"
    args = ["run", "--config", str(config), "--trials", "1", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    stored = json.loads((out / "manifest.json").read_text())["config"]
    assert stored["domains"] == ["airline", "retail"] and stored["seed"] == 5
    assert stored["trials"] == 1 and stored["num_tasks"] == 2  # the flag beat the file
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("trials = [\n")
    broken = runner.invoke(app, ["run", "--config", str(bad), "--out", str(tmp_path / "b")])
    assert broken.exit_code == 2 and "not valid TOML" in broken.output
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("speed = 3\n")
    refused = runner.invoke(app, ["run", "--config", str(unknown), "--out", str(tmp_path / "u")])
    assert refused.exit_code == 2 and "speed" in refused.output


def test_python_config_has_the_command_line_defaults() -> None:
    embedded = RunConfig()
    assert embedded.domains == domain_names()  # every domain found, in name order
    assert embedded.agent_model is not None and embedded.agent_model.model == "local"
    assert (embedded.concurrency, embedded.max_steps, embedded.user) == (1, 40, "scripted")
    endpoint = RunConfig(agent_model={"model": "m", "base_url": "http://x/v1"})  # type: ignore[arg-type]
    assert (endpoint.concurrency, endpoint.max_steps) == (8, 200)
    assert RunConfig(agent="oracle").agent_model is None
    assert RunConfig(user_model={"model": "u"}).user == "llm"  # type: ignore[arg-type]
    assert CollectConfig(agent="oracle").max_steps == 50
    assert CollectConfig(agent="oracle").split == "train"
    assert RunConfig(agent="oracle", max_steps=7).max_steps == 7
    resolved = RunConfig(agent="oracle")
    assert RunConfig.model_validate(resolved.model_dump()) == resolved  # a manifest reloads


def test_python_config_fills_what_the_command_line_used_to() -> None:
    """Defaults live in RunConfig: agent settings without a model tune the embedded one, and
    a model may be named alone, from Python, a --config file or the command line alike."""
    tuned = RunConfig(agent_model={"temperature": 0.3})  # type: ignore[arg-type]
    assert tuned.agent_model is not None
    assert (tuned.agent_model.model, tuned.agent_model.temperature) == ("local", 0.3)
    named = RunConfig(agent_model="m", user_model="u")  # type: ignore[arg-type]
    assert named.agent_model is not None and named.agent_model.model == "m"
    assert named.user_model is not None and named.user_model.model == "u"
    assert named.user == "llm"


def test_agent_settings_alone_on_the_command_line_tune_the_embedded_model() -> None:
    given = {"agent_temperature": 0.3}
    config = build_config(RunConfig, given, None)
    assert config.agent_model is not None
    assert (config.agent_model.model, config.agent_model.temperature) == ("local", 0.3)


def test_tasks_chooses_tasks_with_the_options_of_run() -> None:
    """`tasks` lists what `run` with the same selection options would run: the options are
    the same ones, generated from the same config fields."""
    run = {p.name: p for p in command("run").params}
    shared = [p for p in command("tasks").params if p.name in run]
    assert {o for p in shared for o in p.opts} == {"--domain", "--split", "--task-file", "--tasks"}
    for p in shared:
        same = run[p.name]
        assert (p.opts, p.default, p.help) == (same.opts, same.default, same.help), p.name
    bad = runner.invoke(app, ["tasks", "--split", "dev"])
    assert bad.exit_code == 2 and "--split" in bad.output


def test_model_options_for_a_role_that_calls_no_model_are_named_as_ignored(
    tmp_path: Path,
) -> None:
    base = ["run", "--domain", "airline", "--num-tasks", "1", "--out", str(tmp_path / "a")]
    oracle = runner.invoke(app, [*base, "--agent", "oracle", "--agent-model", "m"])
    assert oracle.exit_code == 0, oracle.output
    assert "--agent-model ignored: the oracle agent calls no model" in oracle.output
    scripted = [*base[:-1], str(tmp_path / "b"), "--agent", "oracle", "--user", "scripted"]
    user = runner.invoke(app, [*scripted, "--user-model", "u", "--user-temperature", "0.2"])
    assert user.exit_code == 0, user.output
    assert "--user-model, --user-temperature ignored: the scripted user" in user.output
    plain = runner.invoke(app, [*base[:-1], str(tmp_path / "c"), "--agent", "oracle"])
    assert plain.exit_code == 0 and "ignored" not in plain.output
