"""The report and view commands on small offline runs (see report_runs.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from report_runs import INVENTED, app
from typer.testing import CliRunner

from tau_emotion.analysis.hallucination import (
    EpisodeHallucination,
    HallucinationFlag,
    HallucinationReport,
)
from tau_emotion.analysis.runs import load_run
from tau_emotion.analysis.stats import rate
from tau_emotion.data import Message
from tau_emotion.domains import load_domain
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.report.build import ReportData, RunSection, build_report
from tau_emotion.report.sections_analyses import HALLUCINATION_ROWS, hallucinations_card
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE


def test_report_data_holds_every_analysis(report_html: Path) -> None:
    data = ReportData.model_validate_json(report_html.with_suffix(".json").read_text())
    oracle, neutral, hasty = data.runs
    assert [r.label for r in data.runs] == ["oracle-emotional", "oracle-neutral", "hasty-emotional"]
    assert len(data.episodes) == 36 and data.judge is None
    # Emotional oracle episodes pair with the --no-emotion run of the same agent only.
    assert oracle.paired is not None and oracle.paired.overall is not None
    assert oracle.paired.overall.pairs == 6 and not oracle.paired.unpaired
    assert neutral.paired is None
    assert (
        hasty.paired is not None
        and hasty.paired.overall is None
        and len(hasty.paired.unpaired) == 6
    )
    assert set(oracle.cells["airline"]) == {"anger", "fear", "sadness"}
    assert neutral.cells["retail"]["none"].value == 1.0
    # The hasty agent never confirms its writes, and everything it does fails.
    assert hasty.policy.by_domain["airline"].count > 0
    assert oracle.policy.by_domain["airline"].count == 0
    hasty_failed = sum(e.outcome != "success" for e in data.episodes if e.run == hasty.label)
    assert hasty.failures.failed == hasty_failed >= 4  # at least every stonewalled one
    assert sum(r.count for r in hasty.failures.by_category.values()) == hasty_failed
    assert "ignored_emotion" in hasty.failures.by_category  # the stonewalled customers
    assert hasty.hallucinations.flagged.count == 1
    assert hasty.hallucinations.episodes[0].flags[0].value == INVENTED
    assert oracle.empathy.emotional.with_empathy.total == 6  # the caring trials
    assert len(hasty.tool_use.trajectories) == 12
    views = {(e.run, e.task_id, e.trial): e for e in data.episodes}
    walked = [e for e in data.episodes if e.outcome == "walked_away"]
    assert walked and all(e.failure is not None for e in walked)
    assert views[("oracle-emotional", oracle_first_task(data), 1)].empathy_turns


def oracle_first_task(data: ReportData) -> str:
    return data.episodes[0].task_id


def test_report_excludes_user_hallucinations_on_request(runs: list[Path]) -> None:
    data = asyncio.run(build_report(runs, exclude_user_hallucinations=True))
    hasty = data.runs[2]
    assert data.excluded_user_hallucinations
    assert (hasty.failures.failed, hasty.failures.excluded) == (11, 1)
    assert hasty.metrics.overall_tasks.episodes == 11
    assert len(data.episodes) == 35


def test_report_with_a_scripted_judge(runs: list[Path]) -> None:
    def reply(messages: Sequence[Message], tools: object) -> str:
        system = messages[0].content or ""
        if "diagnose failed" in system:
            return json.dumps({"fault": "agent", "category": "misread_intent", "explanation": "e"})
        if "simulated customer" in system:
            return json.dumps({"flags": []})
        if "acknowledges the customer's feelings" in system or "acknowledges" in system:
            return json.dumps({"turns": []})
        raise AssertionError(f"unexpected judge prompt: {system[:60]}")

    judge = ScriptedModel(reply, name="scripted-judge")
    data = asyncio.run(build_report(runs, judge=judge))
    assert data.judge == "scripted-judge" and judge.requests
    assert data.runs[2].empathy.method == "lexicon+judge"
    assert data.runs[2].hallucinations.method == "rule+judge"
    # The pre-checks settle every failure of these runs: the judge, asked nothing there, is
    # not claimed (tests/analysis/test_analysis_failures.py drives its labels).
    failures = data.runs[2].failures
    assert failures.method == "precheck" and failures.by_source == {"precheck": failures.failed}
    assert failures.judge is not None and failures.judge.asked == 0
    for analysis in (data.runs[2].empathy, data.runs[2].hallucinations):
        assert analysis.judge is not None
        assert analysis.judge.asked > 0 and analysis.judge.failed == 0
    assert not any("judge" in w for w in data.runs[2].warnings)


def test_report_rejects_a_folder_without_results(tmp_path: Path) -> None:
    result = CliRunner().invoke(app(), ["report", str(tmp_path), "--out", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert "results.jsonl" in result.output


def test_view_lists_filters_and_shows(runs: list[Path]) -> None:
    hasty = str(runs[2])
    listed = CliRunner().invoke(app(), ["view", hasty])
    assert listed.exit_code == 0, listed.output
    assert "hasty-emotional: 12 of 12 episodes" in listed.output
    retail = CliRunner().invoke(app(), ["view", str(runs[1]), "--domain", "retail", "--failed"])
    assert "0 of 12 episodes" in retail.output  # the neutral oracle never fails
    failed = CliRunner().invoke(app(), ["view", hasty, "--failed", "--limit", "50"])
    n_failed = sum(not e.success for e in load_run(runs[2]).episodes)
    assert f"{n_failed} of 12 episodes" in failed.output and "walked away" in failed.output
    shown = CliRunner().invoke(app(), ["view", hasty, "--show", "1"])
    assert shown.exit_code == 0, shown.output
    assert "#1 airline/" in shown.output and "customer" in shown.output and "→" in shown.output
    assert "policy: airline.confirm_before_write" in shown.output
    assert "failure:" in shown.output
    task_id = load_domain("retail").tasks("test")[0].id
    by_id = CliRunner().invoke(app(), ["view", hasty, "--show", f"retail/{task_id}#1", "--full"])
    assert by_id.exit_code == 0 and f"retail/{task_id} trial 1" in by_id.output
    missing = CliRunner().invoke(app(), ["view", hasty, "--show", "no-such-task"])
    assert missing.exit_code == 2 and "no episode matches" in missing.output


def test_view_labels_each_failure_as_the_report_does(runs: list[Path], report_html: Path) -> None:
    data = ReportData.model_validate_json(report_html.with_suffix(".json").read_text())
    failed = [e for e in data.episodes if e.run == "hasty-emotional" and e.failure is not None]
    assert failed
    for e in failed:
        assert e.failure is not None
        selector = f"{e.domain}/{e.task_id}#{e.trial}"
        shown = CliRunner().invoke(app(), ["view", str(runs[2]), "--show", selector])
        assert shown.exit_code == 0, shown.output
        label = e.failure.category
        expected = "not settled by the pre-checks" if label == "unresolved" else label
        assert f"failure: {expected}" in shown.output, (selector, shown.output)
        if INVENTED in json.dumps([m.content for m in e.messages]):
            assert f"unsupported values: {INVENTED}" in shown.output


def test_view_prints_labels_and_ids_as_written(runs: list[Path], tmp_path: Path) -> None:
    # A run folder (its label) and a task id with brackets: text, not terminal markup.
    copy = tmp_path / "run[qwen3]"
    copy.mkdir()
    (copy / MANIFEST_FILE).write_bytes((runs[1] / MANIFEST_FILE).read_bytes())
    lines = (runs[1] / RESULTS_FILE).read_text().splitlines()
    first = json.loads(lines[0])
    first["task_id"] = "odd[/bold]id"
    (copy / RESULTS_FILE).write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    listed = CliRunner().invoke(app(), ["view", str(copy)])
    assert listed.exit_code == 0, listed.output
    assert "run[qwen3]: 12 of 12 episodes" in listed.output
    index = next(i for i, e in enumerate(load_run(copy).episodes) if e.task_id == "odd[/bold]id")
    shown = CliRunner().invoke(app(), ["view", str(copy), "--show", str(index)])
    assert shown.exit_code == 0, shown.output
    assert "odd[/bold]id trial 0 · run[qwen3]" in shown.output


def test_cli_module_imports_nothing_heavy() -> None:
    code = "import sys, tau_emotion.report.cli; print(sorted(m for m in ('numpy', 'tau_emotion.analysis') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_html_is_self_contained(report_html: Path) -> None:
    html = report_html.read_text()
    assert (
        "<script src" not in html
        and "<link" not in html
        and "http://"
        not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
            "http://127.0.0.1", ""
        )
    )
    for section in (
        "leaderboard",
        "domains",
        "passk",
        "heatmap",
        "paired",
        "empathy",
        "policy",
        "failures",
        "tooluse",
        "hallucination",
        "episodes",
    ):
        assert f'id="{section}"' in html


def test_charts_have_axis_titles_values_and_n(report_html: Path) -> None:
    html = report_html.read_text(encoding="utf-8")
    domains = html[
        html.index('id="domains"') : html.index("</section>", html.index('id="domains"'))
    ]
    assert '<text x="16"' in domains and ">Avg@k</text>" in domains and ">domain</text>" in domains
    assert 'class="value"' in domains and ">n=3</text>" in domains  # 3 tasks per domain
    assert "emotional minus neutral success (percentage points)" in html
    empathy = html[html.index('id="empathy"') :]
    assert "success (Avg@k)" in empathy and "n=" in empathy


def test_ranking_runs_of_different_task_sets_warns(tmp_path: Path) -> None:
    from tau_emotion.cli.main import app as main_app

    runner = CliRunner()
    for name, n in (("small", "2"), ("large", "4")):
        args = ["run", "--domain", "airline", "--num-tasks", n, "--agent", "oracle"]
        assert runner.invoke(main_app, [*args, "--out", str(tmp_path / name)]).exit_code == 0
    assert "different task sets" not in (tmp_path / "small" / "report.html").read_text()
    out = tmp_path / "both.html"
    both = [str(tmp_path / "small"), str(tmp_path / "large")]
    result = runner.invoke(main_app, ["report", *both, "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "These runs used different task sets" in html
    assert "small: 2 tasks" in html and "large: 4 tasks" in html


def test_report_shows_clean_success_beside_the_plain_figures(report_html: Path) -> None:
    data = ReportData.model_validate_json(report_html.with_suffix(".json").read_text())
    oracle, _, hasty = data.runs
    k = oracle.metrics.k
    clean = oracle.metrics.overall_equal.clean_pass_hat
    assert clean is not None and clean[k] == oracle.metrics.overall_equal.pass_hat[k]
    # the hasty agent never confirms a write: none of its successes, if any, is clean
    hasty_clean = hasty.metrics.overall_equal.clean_avg
    assert hasty_clean is not None and hasty_clean.value == 0.0
    assert all(
        e.breakdown is not None and e.breakdown.policy_violations
        for e in data.episodes
        if e.run == hasty.label and e.breakdown is not None and e.breakdown.db_match
    )
    html = report_html.read_text(encoding="utf-8")
    assert '<section id="clean">' in html and 'href="#clean"' in html
    assert "clean Pass^k" in html and "family: anger" in html and "domain: retail" in html


def test_a_long_hallucination_list_lists_failures_first_and_says_it_is_cut() -> None:
    flagged = [
        EpisodeHallucination(
            domain="airline",
            task_id=f"t{i:02d}",
            trial=0,
            family="anger",
            success=i % 5 != 0,
            flags=[HallucinationFlag(message_index=1, value=f"Z{i}", kind="id", source="rule")],
        )
        for i in range(25)
    ]
    report = HallucinationReport(
        method="rule",
        checked=30,
        unchecked=0,
        flagged=rate(25, 30),
        flagged_failures=rate(5, 6),
        episodes=flagged,
    )
    html = hallucinations_card(cast(RunSection, SimpleNamespace(hallucinations=report)))
    rows = html.split("<tbody>")[1].split("</tbody>")[0].count("<tr>")
    assert rows == HALLUCINATION_ROWS == 20
    assert "The first 20 of 25 flagged episodes, failures first" in html
    # the five failures (t00, t05 ... t20) come before any success
    assert html.index("airline/t20#0") < html.index("airline/t01#0")
