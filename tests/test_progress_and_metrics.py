"""Batch-friendly progress lines; metrics whose intervals mean something; `metrics` options."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import EmotionSpec, Episode, Message, TerminationReason
from tau_emotion.evaluation.metrics import MetricsReport, compute_metrics
from tau_emotion.runner.progress import PlainProgress

runner = CliRunner()


def emotion(family: str) -> EmotionSpec:
    return EmotionSpec(
        condition_id=f"{family}.x.cold.high.skeptical",
        family=family,
        emotion="x",
        politeness="cold",
        urgency="high",
        trust="skeptical",
        instruction="",
    )


def episode(domain: str, task: str, reward: float, family: str = "disgust") -> Episode:
    ended = TerminationReason.USER_UNSATISFIED if reward < 0 else TerminationReason.USER_STOP
    return Episode(
        task_id=task,
        domain=domain,
        trial=0,
        seed=0,
        emotion=emotion(family),
        messages=[Message(role="user", content="hi")],
        termination=ended,
        reward=reward,
    )


def test_plain_progress_prints_every_n_episodes_or_m_seconds() -> None:
    lines: list[str] = []
    now = [0.0]
    hook = PlainProgress(lines.append, every_episodes=3, every_seconds=10, clock=lambda: now[0])
    rewards = [1.0, 0.0, -1.0, 1.0, 1.0, 1.0, 1.0]
    for i, r in enumerate(rewards, start=1):
        now[0] = {5: 30.0}.get(i, now[0] + 1)  # the 5th episode comes after a long wait
        hook(episode("airline", f"t{i}", r), i, len(rewards))
    assert [line.split()[1] for line in lines] == ["3/7", "5/7", "7/7"]
    assert lines[0].startswith("episodes 3/7  success 0.333  walked away 1  errors 0")
    assert "episodes/min" in lines[0] and "ETA" in lines[0] and lines[-1].endswith("ETA 0m00s")


def test_a_run_without_a_tty_logs_progress_lines(tmp_path: Path) -> None:
    args = ["run", "--domain", "airline", "--num-tasks", "30", "--agent", "oracle"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if x.startswith("episodes ")]
    assert [x.split()[1] for x in lines] == ["25/30", "30/30"]
    assert all("success 0." in x or "success 1.000" in x for x in lines)


def test_a_cell_from_one_small_stratum_still_has_an_interval() -> None:
    # 34 tasks of one family, one per (domain, task): before, each was its own stratum of one
    # task and the bootstrap never varied ("0.971 [0.97, 0.97]").
    episodes = [episode(f"d{i % 10}", f"t{i}", 0.0 if i == 0 else 1.0) for i in range(34)]
    report = compute_metrics(episodes)
    cell = report.breakdowns["family"]["disgust"].avg
    assert round(cell.value, 3) == 0.971 and cell.n == 34
    assert cell.low < 0.95 < cell.high and cell.high == 1.0
    assert report.overall_tasks.avg.low < report.overall_tasks.avg.high
    # Where every domain has enough tasks, the domain mix stays fixed (stratified).
    many = [episode(f"d{i % 2}", f"t{i}", float(i % 3 == 0)) for i in range(40)]
    assert compute_metrics(many).breakdowns["family"]["disgust"].avg.n == 40


def test_metrics_refuses_unknown_breakdowns_and_json_writes_both(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--domain", "airline", "--num-tasks", "5", "--agent", "oracle"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    (out / "metrics.json").unlink()
    bad = runner.invoke(app, ["metrics", str(out), "--by", "mood"])
    assert bad.exit_code == 2
    assert "mood" in bad.output and "family" in bad.output and "urgency" in bad.output
    extra = tmp_path / "copy.json"
    good = runner.invoke(app, ["metrics", str(out), "--by", "urgency", "--json", str(extra)])
    assert good.exit_code == 0, good.output
    assert "By urgency" in good.output and "By family" not in good.output
    assert json.loads(extra.read_text()) == json.loads((out / "metrics.json").read_text())


def test_the_report_shows_the_cli_numbers(tmp_path: Path) -> None:
    from tau_emotion.report.build import ReportData

    out = tmp_path / "run"
    args = ["run", "--domain", "airline,retail", "--num-tasks", "12", "--agent", "oracle"]
    assert runner.invoke(app, [*args, "--trials", "2", "--out", str(out)]).exit_code == 0
    data = tmp_path / "report.json"
    result = runner.invoke(
        app, ["report", str(out), "--out", str(tmp_path / "r.html"), "--json", str(data)]
    )
    assert result.exit_code == 0, result.output
    shown = ReportData.model_validate_json(data.read_text()).runs[0].metrics
    assert shown == MetricsReport.model_validate_json((out / "metrics.json").read_text())
    import tau_emotion

    assert tau_emotion.Results.load(out).metrics() == shown


def test_the_results_table_shows_clean_success_within_120_columns() -> None:
    from rich.console import Console

    from tau_emotion.cli.tables import print_metrics
    from tau_emotion.data import RewardBreakdown

    def scored(domain: str, task: str, trial: int, broken: list[str]) -> Episode:
        breakdown = RewardBreakdown(
            db_match=True,
            final_hash="h",
            gold_hash="h",
            dissatisfied=False,
            reason="-",
            policy_violations=broken,
        )
        e = episode(domain, task, 1.0, "anger")
        return e.model_copy(update={"trial": trial, "breakdown": breakdown})

    names = [f"domain{i:02d}" for i in range(10)]
    episodes = [
        scored(d, f"t{j}", trial, ["x.confirm_before_write"] if j == trial == 0 else [])
        for d in names
        for j in range(6)
        for trial in range(4)
    ]
    console = Console(width=300, record=True)
    print_metrics(compute_metrics(episodes), console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 120
    assert "clean" in text and "Pass^4" in text and "By family" in text
    # one clean-success miss per domain: Pass^4 1.000, clean Pass^4 (5/6 tasks) 0.833
    row = next(line for line in text.splitlines() if line.startswith("│ domain00"))
    assert [cell.strip() for cell in row.split("│")[4:8]] == ["1.000", "1.000", "0.958", "0.833"]
    # results written before the audit show no clean figures rather than wrong ones
    old = [episode("a", f"t{i}", 1.0) for i in range(3)]
    console = Console(width=300, record=True)
    print_metrics(compute_metrics(old), console)
    assert "unaudited" in console.export_text()
