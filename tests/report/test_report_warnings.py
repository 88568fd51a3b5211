"""What the report says beside its figures: each run's warnings (unfinished, uneven trials, a
k lowered by exclusion, its task source not found, a judge that never answered), ranks that
tie, runs of different k compared at one k, every error ending, and no interval from one
task. Runs are written by hand (`run_folders`), so every case is chosen, not played."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from report_runs import app
from typer.testing import CliRunner

from run_folders import episodes, write_run
from tau_emotion.data import Episode, Intent, Message, Task
from tau_emotion.domains.base import write_tasks
from tau_emotion.errors import ModelError
from tau_emotion.evaluation.metrics import Estimate
from tau_emotion.models.base import ChatModel
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.report import sections  # by module: a missing helper fails one test
from tau_emotion.report.build import ReportData, build_report
from tau_emotion.report.fmt import est, iv
from tau_emotion.report.sections import leaderboard


def report(*paths: Path, judge: ChatModel | None = None, exclude: bool = False) -> ReportData:
    return asyncio.run(build_report(list(paths), judge, exclude_user_hallucinations=exclude))


def board(data: ReportData) -> str:
    return leaderboard(data.runs)


def test_equal_figures_share_a_rank() -> None:
    assert sections.ranks([1.0, 1.0, 1.0, 5 / 6, 5 / 6, 0.5]) == [1, 1, 1, 4, 4, 6]
    # The same share reached by another sum of floats is the same share.
    assert sections.ranks([0.1 + 0.2, 0.3]) == [1, 1]


def test_tied_runs_share_their_rank_on_the_leaderboard(tmp_path: Path) -> None:
    spec = {"a": "SS", "b": "SF"}
    runs = [write_run(tmp_path / name, episodes(spec)) for name in ("x", "y")]
    runs.append(write_run(tmp_path / "z", episodes({"a": "FF", "b": "SF"})))
    html = board(report(*runs))
    assert [row.split("</td>")[0] for row in html.split("<tr><td>")[1:]] == ["1", "1", "3"]
    assert "equal Avg@k share a rank" in html


def test_runs_of_different_k_are_compared_at_the_smallest(tmp_path: Path) -> None:
    three = write_run(tmp_path / "three", episodes({"a": "SSF", "b": "SSS"}))
    one = write_run(tmp_path / "one", episodes({"a": "S", "b": "SSS"}))
    data = report(three, one)
    html = board(data)
    assert "different numbers of trials per task" in html and "k = 1, the smallest" in html
    assert "<th" in html and "Pass^1</th>" in html and "Pass^k</th>" not in html
    # The k = 3 run's Pass column shows its Pass^1, which the k = 1 run has too.
    g = data.runs[0].metrics.overall_equal
    assert data.runs[0].metrics.k == 3 and est(g.pass_hat[1], block=True) in html
    assert est(g.pass_hat[3], block=True) not in html
    # Runs of one k keep the plain headers and no note.
    same = board(report(three, write_run(tmp_path / "same", episodes({"a": "SFF", "b": "SSS"}))))
    assert "Pass^k</th>" in same and "different numbers of trials" not in same


def test_unfinished_and_uneven_runs_warn_in_data_html_and_output(tmp_path: Path) -> None:
    out = write_run(tmp_path / "cut", episodes({"a": "SSS", "b": "S"}), finished=False, total=9)
    data = report(out)
    warnings = data.runs[0].warnings
    assert warnings[0].startswith("the run is unfinished: 4 of 9 planned episodes")
    assert "1 of 2 tasks ran only 1 trial" in warnings[1]
    assert data.runs[0].metrics.warnings == warnings  # metrics.json says the same
    html = board(data)
    assert html.count('class="warning"') == 2 and "<b>cut</b>: the run is unfinished" in html
    result = CliRunner().invoke(app(), ["report", str(out), "--out", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert "warning: cut: the run is unfinished" in " ".join(result.output.split())


def test_the_leaderboard_counts_every_error_ending(tmp_path: Path) -> None:
    data = report(write_run(tmp_path / "run", episodes({"a": "SX", "b": "SU", "c": "SS"})))
    html = board(data)
    assert "errors</th>" in html and "infra errors" not in html
    assert "1 user_error, 1 framework_error" in html


def test_one_task_gives_a_figure_without_an_interval() -> None:
    one = Estimate(value=2 / 3, low=2 / 3, high=2 / 3, n=1)
    assert "(1 task)" in est(one) and "no interval" in est(one) and "[67%, 67%]" not in est(one)
    assert (iv(one).low, iv(one).high, iv(one).n) == (None, None, 1)
    many = Estimate(value=0.5, low=0.2, high=0.8, n=4)
    assert est(many).endswith("[20%, 80%]</span>") and iv(many).low == 0.2


def _tasks(path: Path) -> Path:
    """An emotional task and its neutral twin with ids no domain ships, as a Tracer build
    writes them."""
    base = Task(
        id="airline-q00001",
        domain="airline",
        split="test",
        user_id="u",
        instruction="You are Kim. Cancel booking ABC123.",
        intents=[Intent(request="Cancel ABC123.")],
        neutral_twin_id="airline-q00001-neutral",
    )
    twin = base.model_copy(update={"id": "airline-q00001-neutral", "neutral_twin_id": None})
    write_tasks(path, [base, twin])
    return path


def _twin_run(out: Path, tasks: str, said: str = "Cancel ABC123.") -> Path:
    stored = [
        *episodes({"airline-q00001": "SF"}),
        *(
            e.model_copy(update={"emotion": None})
            for e in episodes({"airline-q00001-neutral": "SS"})
        ),
    ]
    stored = [
        e.model_copy(update={"messages": [Message(role="user", content=said), *e.messages[1:]]})
        for e in stored
    ]
    return write_run(out, stored, config={"tasks": tasks, "out": out.name})


def test_a_run_is_read_with_its_own_task_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = tmp_path / "project"
    _tasks(started / "built.jsonl")
    run = _twin_run(started / "twins", "built.jsonl")  # --tasks and --out relative to there
    monkeypatch.chdir(tmp_path)  # the report is built from elsewhere
    section = report(run).runs[0]
    assert section.paired is not None and [p.task_id for p in section.paired.pairs] == [
        "airline-q00001"
    ]
    assert section.hallucinations.unchecked == 0 and section.hallucinations.checked == 4
    assert section.warnings == []


def test_a_task_source_not_found_is_named(tmp_path: Path) -> None:
    moved = _twin_run(tmp_path / "elsewhere" / "twins", "gone.jsonl")
    section = report(moved).runs[0]
    assert section.paired is not None and section.paired.pairs == []
    assert section.hallucinations.unchecked == 4
    (warning,) = section.warnings
    assert "task source (--tasks gone.jsonl) is not found" in warning
    assert "paired with a neutral twin" in warning


def test_excluding_hallucinations_says_when_k_fell(tmp_path: Path) -> None:
    _tasks(tmp_path / "built.jsonl")
    run = _twin_run(tmp_path / "twins", str(tmp_path / "built.jsonl"))
    invented = Episode.model_validate_json((run / "results.jsonl").read_text().splitlines()[1])
    lines = (run / "results.jsonl").read_text().splitlines()
    said = Message(role="user", content="My member id is ZX4242.")
    lines[1] = invented.model_copy(
        update={"messages": [said, *invented.messages[1:]]}
    ).model_dump_json()
    (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    section = report(run, exclude=True).runs[0]
    assert section.metrics.k == 1
    assert any("k fell from 2 to 1" in w for w in section.warnings)


def test_a_judge_that_never_answers_is_reported(tmp_path: Path) -> None:
    def down(messages: object, tools: object) -> ModelError:
        return ModelError("connection refused")

    _tasks(tmp_path / "built.jsonl")
    run = _twin_run(tmp_path / "twins", str(tmp_path / "built.jsonl"))
    section = report(run, judge=ScriptedModel(down, name="dead")).runs[0]
    assert section.empathy.method == "lexicon" and section.hallucinations.method == "rule"
    assert any("the judge gave no usable answer for" in w for w in section.warnings)
