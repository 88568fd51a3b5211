"""The `tau-emotion tracer` commands run each stage over files, resumably."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tau_emotion.tracer.cli import app
from tau_emotion.tracer.jsonl import read_jsonl, stage_path
from tau_emotion.tracer.records import Felt, GroundResult, Verdict


def test_stage_commands_over_files(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "build"

    def run(*args: str) -> str:
        result = runner.invoke(app, [*args, "--out", str(out), "--quiet"])
        assert result.exit_code == 0, result.output
        return result.output

    assert "distinct traces" in run(
        "walk", "--domain", "telecom", "--n", "80", "--test-walks", "10"
    )
    assert "walks grounded" in run("ground", "--domain", "telecom", "--split", "test")
    assert "felt" in run("feel", "--domain", "telecom", "--split", "test")
    assert "accepted" in run("validate", "--domain", "telecom", "--split", "test", "--no-oracle")
    grounded = read_jsonl(stage_path(out, "telecom", "ground", "test"), GroundResult)
    felt = read_jsonl(stage_path(out, "telecom", "feel", "test"), Felt)
    verdicts = read_jsonl(stage_path(out, "telecom", "validate", "test"), Verdict)
    assert len(grounded) == len(felt) == len(verdicts) == 10
    assert any(v.accepted for v in verdicts)
    # Resuming does nothing new.
    run("ground", "--domain", "telecom", "--split", "test")
    assert len(read_jsonl(stage_path(out, "telecom", "ground", "test"), GroundResult)) == 10
    stats = runner.invoke(app, ["stats", str(out)])
    assert stats.exit_code == 0 and "telecom" in stats.output
    assert (out / "stats.md").exists()


def test_graph_check_reports_a_current_graph() -> None:
    result = CliRunner().invoke(app, ["graph", "--domain", "retail", "--check"])
    assert result.exit_code == 0, result.output
    assert "current" in result.output
