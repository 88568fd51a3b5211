"""What the metrics and a run's outcome say beyond the figures: every error ending counted,
warnings for unfinished runs and uneven trials, no interval where one task cannot give one,
an interrupted run told apart from an error-budget stop, and no output over a run's files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from run_folders import episode, episodes, write_run
from tau_emotion.cli.main import app
from tau_emotion.cli.tables import print_metrics
from tau_emotion.evaluation.metrics import GroupMetrics, MetricsReport, compute_metrics
from tau_emotion.runner import outcome as codes  # by module: a missing code fails one test
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.outcome import EXIT_OK, EXIT_STOPPED, outcome_of_run, run_outcome

runner = CliRunner()


def test_every_error_ending_is_counted_and_still_scored_as_a_failure() -> None:
    stored = episodes({"a": "SSX", "b": "SIU", "c": "SGS"})
    report = compute_metrics(stored)
    g = report.overall_tasks
    # Scoring is unchanged: errors stay in every denominator as failures (tau-bench's rule).
    assert g.avg.value == pytest.approx((2 / 3 + 1 / 3 + 2 / 3) / 3)
    assert g.episodes == 9 and g.infra_errors == 1
    assert g.errors == {
        "agent_error": 1,
        "user_error": 1,
        "infra_error": 1,
        "framework_error": 1,
    }
    assert g.error_count == 4
    # metrics.json files written before the field existed still load.
    old = g.model_dump(mode="json")
    del old["errors"]
    assert GroupMetrics.model_validate(old).errors == {}


def test_the_table_and_the_run_summary_name_every_error(tmp_path: Path) -> None:
    out = write_run(tmp_path / "run", episodes({"a": "SX", "b": "SS"}))
    result = runner.invoke(app, ["metrics", str(out)])
    assert result.exit_code == 0, result.output
    assert "errors" in result.output and "infra errors" not in result.output
    assert "1 of 4 episodes ended in an error" in result.output
    assert "1 framework_error" in result.output
    saved = json.loads((out / "metrics.json").read_text())
    assert saved["overall_tasks"]["errors"] == {"framework_error": 1}
    # The run's last line may say "no infra errors", never leaving the others unsaid.
    stored = episodes({"a": "SX", "b": "SG"})
    outcome = run_outcome(stored, 4)
    assert outcome.code == EXIT_OK
    assert outcome.summary == (
        "4 of 4 episodes ran, no infra errors; 2 ended in another error "
        "(agent_error 1, framework_error 1), scored as failures"
    )
    clean = run_outcome(episodes({"a": "SS"}), 2)
    assert clean.summary == "2 of 2 episodes ran, no infra errors"


def test_metrics_warns_of_an_unfinished_run_and_uneven_trials(tmp_path: Path) -> None:
    out = write_run(tmp_path / "cut", episodes({"a": "SSS", "b": "S"}), finished=False, total=12)
    result = runner.invoke(app, ["metrics", str(out)])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "the run is unfinished: 4 of 12 planned episodes are recorded" in flat
    assert "1 of 2 tasks ran only 1 trial" in flat and "k = 1, the smallest" in flat
    saved = MetricsReport.model_validate_json((out / "metrics.json").read_text())
    assert len(saved.warnings) == 2 and saved.warnings[0].startswith("the run is unfinished")
    # A finished run of even trials has nothing to warn about.
    done = write_run(tmp_path / "done", episodes({"a": "SSF", "b": "SFF"}))
    again = runner.invoke(app, ["metrics", str(done)])
    assert again.exit_code == 0 and "warning" not in again.output
    assert MetricsReport.model_validate_json((done / "metrics.json").read_text()).warnings == []


def test_a_one_task_cell_prints_no_interval() -> None:
    console = Console(width=160, record=True)
    print_metrics(compute_metrics(episodes({"a": "SSF"})), console)
    text = console.export_text()
    assert "n=1, no CI" in text and "[0.67,0.67]" not in text


def test_an_interrupted_run_is_not_blamed_on_fail_on_error(tmp_path: Path) -> None:
    stored = episodes({"a": "SS"})
    out = write_run(tmp_path / "cut", stored, finished=False, total=4)
    outcome = outcome_of_run(RunConfig(agent="oracle", out=out), stored)
    assert outcome.code == codes.EXIT_INTERRUPTED
    assert "interrupted after 2 of 4 episodes" in outcome.summary
    assert "fail-on-error" not in outcome.summary
    # A spent error budget is still what it was.
    failed = [episode("a", 0, "S"), episode("a", 1, "I")]
    out = write_run(tmp_path / "stopped", failed, finished=False, total=4)
    stopped = outcome_of_run(RunConfig(agent="oracle", out=out, fail_on_error=0), failed)
    assert stopped.code == EXIT_STOPPED and "--fail-on-error" in stopped.summary


def test_results_load_of_an_interrupted_run(tmp_path: Path) -> None:
    import tau_emotion

    def stop(_: object, done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt  # Ctrl-C in a notebook

    out = tmp_path / "notebook"
    with pytest.raises(KeyboardInterrupt):
        tau_emotion.evaluate(
            domains="airline", num_tasks=4, agent="oracle", concurrency=1, out=out, progress=stop
        )
    results = tau_emotion.Results.load(out)
    outcome = results.outcome
    assert outcome is not None and outcome.code == codes.EXIT_INTERRUPTED, outcome
    assert "fail-on-error" not in outcome.summary
    # Said to a Python caller in its own terms: no command-line option it never typed.
    assert "resume=True finishes it" in outcome.summary and "--" not in outcome.summary
    # Its metrics say it is unfinished, as `tau-emotion metrics` and metrics.json do.
    assert any("unfinished" in w for w in results.metrics().warnings), results.metrics().warnings


@pytest.mark.parametrize(
    "name", ["results.jsonl", "manifest.json", "report.html", ".results.jsonl.lock"]
)
def test_metrics_json_never_replaces_the_runs_own_files(tmp_path: Path, name: str) -> None:
    out = write_run(tmp_path / "run", episodes({"a": "SS"}))
    (out / "report.html").write_text("<html></html>")
    (out / ".results.jsonl.lock").write_text("")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = runner.invoke(app, ["metrics", str(out), "--json", str(out / name)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "--json" in lines[0] and f"run's own {name}" in lines[0]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # Through another spelling of the same path, too.
    sneaky = out / ".." / out.name / name
    assert runner.invoke(app, ["metrics", str(out), "--json", str(sneaky)]).exit_code == 2


def test_metrics_json_may_name_the_runs_metrics_file(tmp_path: Path) -> None:
    out = write_run(tmp_path / "run", episodes({"a": "SS"}))
    result = runner.invoke(app, ["metrics", str(out), "--json", str(out / "metrics.json")])
    assert result.exit_code == 0, result.output
    MetricsReport.model_validate_json((out / "metrics.json").read_text())


def test_report_outputs_never_replace_a_runs_records(tmp_path: Path) -> None:
    out = write_run(tmp_path / "run", episodes({"a": "SS"}))
    before = (out / "results.jsonl").read_bytes()
    html = runner.invoke(app, ["report", str(out), "--out", str(out / "results.jsonl")])
    assert html.exit_code == 2 and "--out" in html.output, html.output
    data = runner.invoke(
        app,
        [
            "report",
            str(out),
            "--out",
            str(tmp_path / "r.html"),
            "--json",
            str(out / "manifest.json"),
        ],
    )
    assert data.exit_code == 2 and "--json" in data.output, data.output
    assert (out / "results.jsonl").read_bytes() == before
