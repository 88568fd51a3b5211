"""The benchmark scripts run (quick mode) and report what they promise; the figures
themselves are checked by reading them, not by timing assertions here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from loopback import bypass_proxies

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_engine_overhead_quick_measures_episodes_that_end_as_they_do_now() -> None:
    out = run("engine_overhead.py", "--quick")
    assert "framework CPU per agent step" in out
    assert "succeeded" in out and "walked away" in out


def test_throughput_quick_reports_cpu_rates_and_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bypass_proxies(monkeypatch)
    figures_path = tmp_path / "figures.json"
    out = run("throughput.py", "--quick", "--json", str(figures_path))
    assert "% of ideal" in out and "load average" in out
    figures = json.loads(figures_path.read_text())
    assert [r["concurrency"] for r in figures["rates"]] == [1, 8]
    for row in figures["rates"]:
        assert row["requests"] > 0 and row["cpu_ms_per_request"] > 0
        assert 0 < row["rate"] <= row["ideal_rate"] * 1.5
        assert row["peak_rss_mb"] > 10
    assert [r["max_steps"] for r in figures["lengths"]] == [6, 24]
    assert all(r["requests"] > 0 for r in figures["lengths"])


def test_emotions_mapper_quick_scores_the_independent_set(tmp_path: Path) -> None:
    figures_path = tmp_path / "figures.json"
    out = run("emotions_mapper.py", "--quick", "--json", str(figures_path))
    assert "descriptions" in out and "texts/s" in out
    figures = json.loads(figures_path.read_text())
    (default,) = figures["options"].values()
    assert set(default) == {"descriptions", "messages", "negation and contrast"}
    assert default["descriptions"]["n"] > 0 and not figures["speed"]["torch_loaded"]


def test_gaming_agents_quick_scores_every_strategy_beside_the_oracle(tmp_path: Path) -> None:
    figures_path = tmp_path / "figures.json"
    out = run("gaming_agents.py", "--quick", "--json", str(figures_path))
    assert "| agent | condition | Pass^1 | clean |" in out and "per domain" in out
    rows = {(r["agent"], r["condition"]): r for r in json.loads(figures_path.read_text())["rows"]}
    strategies = ("oracle", "do-nothing", "transfer", "yes-man", "no-confirm", "say-everything")
    assert set(rows) == {(a, c) for a in strategies for c in ("emotion", "no emotion")}
    assert {r["tasks"] for r in rows.values()} == {30}  # 3 of each of the 10 domains
    # Without emotion the oracle solves every shipped test task; with it, the scripted
    # customer walks away from some (87.8% of the full set pass), never from most.
    assert rows[("oracle", "no emotion")]["passed"]["value"] == 1.0
    assert rows[("oracle", "emotion")]["passed"]["value"] >= 0.7
    for condition in ("emotion", "no emotion"):
        assert rows[("do-nothing", condition)]["passed"]["value"] < 0.1
        assert rows[("transfer", condition)]["writes_passed"]["k"] == 0
        # skipping the consent can never be policy-clean where there is a write to consent to
        assert rows[("no-confirm", condition)]["writes_clean"]["k"] == 0
        assert rows[("no-confirm", condition)]["writes_passed"]["n"] > 0
    for r in rows.values():  # a share of no challenge task is no figure, not a zero
        assert (r["challenge_passed"]["value"] is None) == (r["challenge_passed"]["n"] == 0)


def test_oracle_patience_quick_compares_the_oracle_with_a_fixed_apology() -> None:
    out = run("oracle_patience.py", "--quick")
    assert "| all | all |" in out and "success, fixed apology" in out
    assert "fixed apology:" in out and "points of success" in out


def test_tracer_build_quick_runs_every_stage_on_a_small_build() -> None:
    out = run("tracer_build.py", "--quick")
    assert "selected: 4 test tasks (+ twins), 0 train tasks" in out
    assert "wall time:" in out and "CPU time" in out
    assert "identical to the shipped sets" not in out  # a small build is never compared


def test_task_stats_quick_prints_every_figure_with_its_target(tmp_path: Path) -> None:
    figures_path = tmp_path / "figures.json"
    out = run("task_stats.py", "--quick", "--json", str(figures_path))
    assert "| figure | airline | overall | target | |" in out and "test targets missed:" in out
    test = json.loads(figures_path.read_text())["test"]
    assert test["tasks"]["values"]["overall"] == 20
    for key in ("writes_mean", "reason", "skeletons", "overlapping", "challenge_worst"):
        assert test[key]["target"] is not None and isinstance(test[key]["met"], bool)
    assert test["verbatim"]["target"] is None  # reported, not a target
