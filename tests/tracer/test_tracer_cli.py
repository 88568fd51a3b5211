"""The `tau-emotion tracer` commands run each stage over files, resumably."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tau_emotion.tracer.cli import app
from tau_emotion.tracer.config import BuildConfig
from tau_emotion.tracer.jsonl import read_jsonl, stage_path
from tau_emotion.tracer.profile import load_profile
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


def test_graph_check_names_the_first_differences(monkeypatch: pytest.MonkeyPatch) -> None:
    """A committed graph whose edge weights lag the derivation is not current (the check
    once compared names and edges only), and the line names what differs, the first few."""
    from tau_emotion.tracer import graph

    def stale(profile: object) -> object:
        fresh = graph.build_graph(profile)  # type: ignore[arg-type]
        edges = [e.model_copy(update={"weight": e.weight + 1}) for e in fresh.edges]
        return fresh.model_copy(update={"edges": edges})

    monkeypatch.setattr(graph, "load_graph", stale)
    result = CliRunner().invoke(app, ["graph", "--domain", "retail", "--check"])
    assert result.exit_code == 1, result.output
    first = graph.build_graph(load_profile("retail")).edges[0]
    assert f"edge {first.source} -> {first.target} weight: " in result.output
    assert result.output.count("weight: ") == 5 and "more" in result.output


class _Stop(Exception):
    """Raised by a recording stand-in once it has what the test needs."""


def test_the_walk_command_draws_the_builds_first_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stage by stage with the defaults, the walks are the ones `tracer build` draws first:
    the same samples, seed, test pool and intents (the command once drew 5000 walks with a
    test pool of 500 and the train pool's intents)."""
    from tau_emotion.tracer import build, walks

    calls: list[tuple[object, ...]] = []

    def record(*args: object) -> list[object]:
        profile, _graph, _path, n, seed, test_walks, config = args[:7]
        calls.append((getattr(profile, "name", None), n, seed, test_walks, config))
        raise _Stop

    monkeypatch.setattr(build, "run_walks", record)
    monkeypatch.setattr(walks, "run_walks", record)
    profile = load_profile("telecom")
    config = BuildConfig(domains=["telecom"])
    with pytest.raises(_Stop):
        build.build_split(config, tmp_path, profile, "test", 10, None, show=False)  # type: ignore[arg-type]
    result = CliRunner().invoke(app, ["walk", "--domain", "telecom", "--out", str(tmp_path)])
    assert isinstance(result.exception, _Stop)
    assert len(calls) == 2 and calls[0] == calls[1]
    assert calls[1][1:4] == (config.first_samples(config.test_walks_of(profile)), 7, 1600)


@pytest.mark.parametrize(
    ("command", "option", "field"),
    [
        ("walk", "seed", "seed"),
        ("ground", "seed", "seed"),
        ("ground", "workers", "workers"),
        ("feel", "seed", "seed"),
        ("validate", "oracle", "run_oracle"),
        ("build", "seed", "seed"),
        ("build", "workers", "workers"),
        ("build", "train_total", "train_total"),
    ],
)
def test_stage_defaults_are_the_build_configs(command: str, option: str, field: str) -> None:
    click_command = typer.main.get_command(app).get_command(None, command)  # type: ignore[attr-defined]
    param = next(p for p in click_command.params if p.name == option)
    assert param.default == BuildConfig.model_fields[field].default
