"""The benchmark scripts run (quick mode) and report what they promise; the figures
themselves are checked by reading them, not by timing assertions here."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loopback import bypass_proxies
from tau_emotion.domains import domain_names

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
    # --quick plays 3 test tasks of each domain found (30 for the ten shipped ones)
    assert {r["tasks"] for r in rows.values()} == {3 * len(domain_names())}
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


# A bad argument is argparse's usage error (exit 2, naming it) before any work: no traceback
# from deep in a run, no table printed first, no figures that silently mean something else.
# "{file}" is an existing file and "{dir}" an existing folder, both made per test.
BAD_ARGUMENTS = [
    ("engine_overhead.py", ["--repeats", "0"], "--repeats"),
    ("engine_overhead.py", ["--repeats", "-2"], "--repeats"),
    ("oracle_patience.py", ["--stride", "0"], "--stride"),
    ("oracle_patience.py", ["--stride", "-1"], "--stride"),
    ("oracle_patience.py", ["--stride", "595"], "--stride"),
    ("oracle_patience.py", ["--domains", "nosuch"], "--domains"),
    ("throughput.py", ["--latency", "0"], "--latency"),
    ("throughput.py", ["--latency", "nan"], "--latency"),
    ("throughput.py", ["--concurrency", "1", "0"], "--concurrency"),
    ("throughput.py", ["--max-steps", "1"], "--max-steps"),
    ("throughput.py", ["--lengths", "6", "1"], "--lengths"),
    ("throughput.py", ["--json", "{dir}"], "--json"),
    ("throughput.py", ["--quick", "--json", "{file}/x/y.json"], "--json"),
    ("gaming_agents.py", ["--domains", "nosuch"], "--domains"),
    ("gaming_agents.py", ["--domains", ","], "--domains"),
    ("gaming_agents.py", ["--quick", "--json", "{file}/x/y.json"], "--json"),
    ("gaming_agents.py", ["--quick", "--json", "{dir}"], "--json"),
    ("task_stats.py", ["--domains", "nosuch"], "--domains"),
    ("task_stats.py", ["--json", "{dir}"], "--json"),
    ("task_stats.py", ["--quick", "--json", ""], "--json"),
    ("tracer_build.py", ["--quick", "--workers", "-5"], "--workers"),
    ("tracer_build.py", ["--quick", "--out", "{file}"], "--out"),
    ("tracer_build.py", ["--quick", "--out", "{file}/build"], "--out"),
    ("scripted_endpoint.py", ["--port", "70000"], "--port"),
    ("scripted_endpoint.py", ["--port", "-1"], "--port"),
    ("scripted_endpoint.py", ["--latency", "-1"], "--latency"),
    ("emotions_mapper.py", ["--texts", "0"], "--texts"),
    ("emotions_mapper.py", ["--folds", "1"], "--folds"),
    ("emotions_mapper.py", ["--eval-set", "{dir}"], "--eval-set"),
    ("emotions_mapper.py", ["--json", "{dir}"], "--json"),
    ("emotions_mapper.py", ["--endpoint-url", "not a url"], "--endpoint-url"),
    # --quick skips what these set, so they are refused with it rather than ignored
    ("emotions_mapper.py", ["--quick", "--folds", "3"], "--folds"),
    (
        "emotions_mapper.py",
        ["--quick", "--endpoint-url", "http://127.0.0.1:1/v1"],
        "--endpoint-url",
    ),
]


@pytest.mark.parametrize(
    ("script", "arguments", "named"),
    BAD_ARGUMENTS,
    ids=[f"{s}:{' '.join(a)}" for s, a, _ in BAD_ARGUMENTS],
)
def test_a_bad_argument_is_refused_by_argparse_before_any_work(
    script: str, arguments: list[str], named: str, tmp_path: Path
) -> None:
    existing_file = tmp_path / "a-file"
    existing_file.write_text("")
    given = [a.format(file=existing_file, dir=tmp_path) for a in arguments]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *given],
        capture_output=True,
        text=True,
        timeout=120,
    )
    elapsed = time.perf_counter() - started
    assert done.returncode == 2, done.stderr[-3000:]
    assert f"argument {named}:" in done.stderr and "usage:" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing measured or printed first
    # Each refused run would take from seconds (--quick) to hours; start-up is well under 1 s.
    assert elapsed < 15, elapsed
    assert existing_file.read_text() == ""


def test_quick_honours_an_explicitly_given_value() -> None:
    out = run("oracle_patience.py", "--quick", "--domains", "airline", "--stride", "297")
    assert "2 seed tasks, every 297th of 594 conditions per task" in out
    out = run("engine_overhead.py", "--quick", "--repeats", "2")
    assert "x 2 passes" in out
    # every script with a --quick says the rule in its --help (wrapped to the terminal width)
    for script in sorted(p.name for p in BENCHMARKS.glob("*.py")):
        text = " ".join(run(script, "--help").split())
        if "--quick" in text:
            assert "--quick only changes defaults: a value given explicitly is honoured" in text


def test_an_output_file_gets_its_missing_folders(tmp_path: Path) -> None:
    figures_path = tmp_path / "new" / "folder" / "figures.json"
    run("task_stats.py", "--quick", "--json", str(figures_path))
    assert json.loads(figures_path.read_text())["test"]["tasks"]["values"]["overall"] == 20
