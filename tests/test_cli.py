from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.domains import load_domain

runner = CliRunner()


def test_domains_lists_every_domain_with_counts() -> None:
    result = runner.invoke(app, ["domains"])
    assert result.exit_code == 0, result.output
    for name in ("airline", "retail", "telecom", "telehealth", "school", "bank"):
        assert name in result.output
    assert "reservations" in result.output and "eval:" in result.output
    # Tasks are counted per file, as a run picks them: the airline test set is its own 70.
    airline = load_domain("airline")
    assert f"test: {len(airline.tasks(task_file='test'))}" in result.output
    assert f"dev: {len(airline.tasks(task_file='dev'))}" in result.output


def test_show_a_task_and_clear_errors() -> None:
    task = load_domain("airline").tasks("test")[0]
    result = runner.invoke(app, ["show", f"airline/{task.id}"])
    assert result.exit_code == 0 and task.intents[0].actions[0].name in result.output
    bad = runner.invoke(app, ["show", "airline/no-such-task"])
    assert bad.exit_code == 2 and "no task 'no-such-task'" in bad.output
    unknown = runner.invoke(app, ["show", "zoo/x"])
    assert unknown.exit_code == 2 and "unknown domain 'zoo'" in unknown.output


def test_run_then_metrics_and_resume_rules(tmp_path: Path) -> None:
    # Neutral, so the oracle solves every task: an emotional customer may walk away, and
    # which one the sample draws moves with the shipped set.
    out = tmp_path / "run"
    args = [
        "run",
        "--no-emotion",
        "--domain",
        "airline,retail",
        "--num-tasks",
        "2",
        "--agent",
        "oracle",
        "--trials",
        "2",
        "--out",
        str(out),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Avg@2" in result.output and "all (domain mean)" in result.output
    report = json.loads((out / "metrics.json").read_text())
    assert report["overall_tasks"]["pass_hat"]["2"]["value"] == 1.0
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "--resume" in again.output
    assert runner.invoke(app, [*args, "--resume"]).exit_code == 0
    metrics = runner.invoke(app, ["metrics", str(out), "--by", "urgency"])
    assert metrics.exit_code == 0 and "Pass^2" in metrics.output


def test_run_input_errors_are_clear(tmp_path: Path) -> None:
    no_model = runner.invoke(
        app, ["run", "--agent-base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path)]
    )
    assert no_model.exit_code == 2 and "--agent-base-url needs --agent-model" in no_model.output
    bad_domain = runner.invoke(
        app, ["run", "--domain", "zoo", "--agent", "oracle", "--out", str(tmp_path)]
    )
    assert bad_domain.exit_code == 2 and "unknown domain 'zoo'" in bad_domain.output
    bad_agent = runner.invoke(app, ["run", "--agent", "wizard", "--out", str(tmp_path)])
    assert bad_agent.exit_code == 2 and "agent" in bad_agent.output
    missing = runner.invoke(app, ["metrics", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_unreachable_endpoint_is_recorded_on_every_episode(tmp_path: Path) -> None:
    out = tmp_path / "down"
    result = runner.invoke(
        app,
        [
            "run",
            "--domain",
            "airline",
            "--num-tasks",
            "2",
            "--agent-model",
            "m",
            "--agent-base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            str(out),
        ],
    )
    # Every episode is recorded, and CI learns that not one request got through (exit 5).
    assert result.exit_code == 5, result.output
    assert "no model request succeeded" in result.output
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and {e["termination"] for e in lines} == {"infra_error"}
    # The table's errors column counts them, and the line under it says which they are.
    assert "2 of 2 episodes ended in an error" in " ".join(result.output.split())
    assert "2 infra_error" in result.output


def test_resume_on_a_folder_with_no_run_says_it_starts_one(tmp_path: Path) -> None:
    out = tmp_path / "typo"
    args = ["run", "--domain", "airline", "--num-tasks", "1", "--agent", "oracle"]
    first = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert first.exit_code == 0, first.output
    assert f"--resume: {out} holds no run yet; starting a new one there" in first.output
    again = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert again.exit_code == 0 and "holds no run yet" not in again.output  # a real resume
