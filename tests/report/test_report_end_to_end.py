"""The report and view commands on small offline runs, and the report in headless Chromium.

The fixture plays real episodes offline (scripted user, deterministic agents) on the airline
and retail seed tasks: an emotional and a --no-emotion run of the oracle (so emotional and
neutral episodes pair up), and an emotional run of a hasty agent that skips confirmations,
sometimes passes a wrong argument, and sometimes stonewalls the customer until they leave.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tau_emotion.analysis.runs import load_run
from tau_emotion.data import EmotionSpec, Message, RunManifest, Task, ToolCall
from tau_emotion.domains import load_domain
from tau_emotion.environment import Environment
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.report.build import ReportData, build_report
from tau_emotion.report.cli import register
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, ResultsWriter
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
EMOTIONS = [
    ("anger", "frustration", "cold", "high", "skeptical"),
    ("fear", "anxiety", "neutral", "moderate", "cautious"),
    ("sadness", "disappointment", "warm", "low", "trusting"),
    ("enjoyment", "relief", "warm", "low", "trusting"),
]
INVENTED = "ZX4242"


def emotion(i: int) -> EmotionSpec:
    f, e, p, u, t = EMOTIONS[i % len(EMOTIONS)]
    return EmotionSpec.model_validate(
        {
            "condition_id": f"{f}.{e}.{p}.{u}.{t}",
            "family": f,
            "emotion": e,
            "politeness": p,
            "urgency": u,
            "trust": t,
            "instruction": f"You feel {e}.",
        }
    )


class CaringOracle(OracleAgent):
    """The oracle, opening every text turn with an acknowledgment of feelings."""

    async def respond(self, messages: Sequence[Message]) -> Message:
        reply = await super().respond(messages)
        if reply.content:
            text = "I understand how stressful this is. " + reply.content
            return reply.model_copy(update={"content": text})
        return reply


class HastyAgent:
    """Runs the gold actions at once without confirming (optionally one wrong argument)."""

    def __init__(self, setup: EpisodeSetup, corrupt: bool) -> None:
        kinds = setup.domain.tool_kinds
        self._actions = list(setup.task.gold_actions)
        writes = [i for i, a in enumerate(self._actions) if kinds.get(a.name) == "write"]
        if corrupt and writes:
            action = self._actions[writes[-1]]
            keys = [k for k, v in action.arguments.items() if isinstance(v, str) and k != "user_id"]
            if keys:
                args = {**action.arguments, keys[0]: action.arguments[keys[0]] + "X"}
                self._actions[writes[-1]] = action.model_copy(update={"arguments": args})
        self._n = 0

    def system_prompt(self) -> str:
        return "You are a hasty agent."

    async def respond(self, messages: Sequence[Message]) -> Message:
        if self._n < len(self._actions):
            action = self._actions[self._n]
            self._n += 1
            call = ToolCall(id=f"c{self._n}", name=action.name, arguments=dict(action.arguments))
            return Message(role="assistant", tool_calls=[call])
        return Message(role="assistant", content="Done. Is there anything else?")


class StonewallAgent:
    """Never helps, so impatient customers walk away."""

    def system_prompt(self) -> str:
        return "You are an unhelpful agent."

    async def respond(self, messages: Sequence[Message]) -> Message:
        return Message(role="assistant", content="Please describe your request again.")


def seed_tasks(emotional: bool) -> list[Task]:
    tasks = []
    for offset, name in enumerate(("airline", "retail")):
        for i, task in enumerate(load_domain(name).tasks("test")[:3]):
            tasks.append(
                task.model_copy(update={"emotion": emotion(i + offset) if emotional else None})
            )
    return tasks


async def play(out: Path, emotional: bool, hasty: bool, config: dict[str, Any]) -> None:
    out.mkdir(parents=True)
    writer = ResultsWriter(out / RESULTS_FILE, fsync=False)
    envs: dict[str, Environment] = {}
    for ti, task in enumerate(seed_tasks(emotional)):
        domain = load_domain(task.domain)
        env = envs.setdefault(task.domain, Environment(domain, domain.variant_for("test")))
        for trial in range(2):
            setup = EpisodeSetup(task, domain, 1000 * ti + trial, trial)
            agent: Any
            if not hasty:
                agent = CaringOracle(setup) if trial else OracleAgent(setup)
            elif (ti + trial) % 3 == 2:
                agent = StonewallAgent()
            else:
                agent = HastyAgent(setup, corrupt=(ti + trial) % 3 == 1)
            episode = await run_episode(setup, agent, ScriptedUser(setup), env, max_steps=40)
            if hasty and ti == 0 and trial == 1:
                # A simulated user that invents a fact, for the hallucination check.
                first = episode.messages[1]
                invented = first.model_copy(
                    update={"content": f"{first.content} My member id is {INVENTED}."}
                )
                episode = episode.model_copy(
                    update={"messages": [episode.messages[0], invented, *episode.messages[2:]]}
                )
            writer.append(episode)
    writer.close()
    config = {
        "domains": ["airline", "retail"],
        "split": "test",
        "trials": 2,
        "user": "scripted",
        **config,
    }
    manifest = RunManifest(
        config=config, code_version="tau-emotion test", started_at="2026-01-01T00:00:00+00:00"
    )
    (out / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("runs")
    specs: list[tuple[str, bool, bool, dict[str, Any]]] = [
        ("oracle-emotional", True, False, {"agent": "oracle", "no_emotion": False}),
        ("oracle-neutral", False, False, {"agent": "oracle", "no_emotion": True}),
        (
            "hasty-emotional",
            True,
            True,
            {"agent": "tool-calling", "agent_model": {"model": "hasty"}},
        ),
    ]
    for name, emotional, hasty, config in specs:
        asyncio.run(play(root / name, emotional, hasty, config))
    return [root / name for name, *_ in specs]


@pytest.fixture(scope="module")
def report_html(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(
        app(),
        ["report", *map(str, runs), "--out", str(out), "--json", str(out.with_suffix(".json"))],
    )
    assert result.exit_code == 0, result.output
    assert "3 runs, 36 episodes" in result.output
    return out


def app() -> typer.Typer:
    main = typer.Typer()
    register(main)
    return main


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
        if "simulated customer" in system:
            return json.dumps({"flags": []})
        if "acknowledges the customer's feelings" in system or "acknowledges" in system:
            return json.dumps({"turns": []})
        return json.dumps({"fault": "agent", "category": "misread_intent", "explanation": "e"})

    judge = ScriptedModel(reply, name="scripted-judge")
    data = asyncio.run(build_report(runs, judge=judge))
    assert data.judge == "scripted-judge" and judge.requests
    assert data.runs[2].empathy.method == "lexicon+judge"
    assert data.runs[2].hallucinations.method == "rule+judge"
    assert data.runs[2].failures.method == "precheck+judge"


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


@pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} missing (apt-get install -y chromium)"
)
def test_report_in_headless_chromium(report_html: Path, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    data = ReportData.model_validate_json(report_html.with_suffix(".json").read_text())
    walked = sum(e.outcome == "walked_away" for e in data.episodes)
    hasty = [e for e in data.episodes if e.run == "hasty-emotional"]
    category = next(e.failure.category for e in hasty if e.failure and e.outcome == "failed")
    with_category = sum(bool(e.failure and e.failure.category == category) for e in hasty)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(report_html.as_uri())
        # Charts render: every inline SVG has a real size, and each kind of mark is drawn.
        charts = page.locator("svg.chart")
        assert charts.count() >= 15
        for i in range(charts.count()):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["width"] > 50 and box["height"] > 20
        assert page.locator("#leaderboard tbody tr").count() == 3
        assert page.locator("#heatmap rect.cell").count() > 0
        assert page.locator("#paired circle.dot").count() == 1 + 4 + 2  # all, families, domains
        assert page.locator("#failures rect.bar").count() > 0
        assert page.locator("#tooluse circle.pt").count() == 36
        # The episode list: all rows, then filtered by outcome, then by text.
        assert page.inner_text("#episode-count") == "36 of 36 episodes"
        page.select_option("#f-outcome", "walked_away")
        assert page.inner_text("#episode-count") == f"{walked} of 36 episodes"
        badges = page.locator("#episode-rows .badge.walked_away")
        assert badges.count() == walked
        page.select_option("#f-outcome", "")
        page.select_option("#f-run", "hasty-emotional")
        page.fill("#f-search", category)
        rows = page.locator("#episode-rows tr")
        assert rows.count() == with_category
        assert page.inner_text("#episode-count") == f"{with_category} of 36 episodes"
        # Open a conversation: messages, tool calls, results, termination and reward breakdown.
        rows.first.click()
        drawer = page.locator("#drawer.open")
        drawer.wait_for()
        assert page.locator("#drawer-body .msg.user").count() > 0
        assert page.locator("#drawer-body .call").count() > 0
        assert page.locator("#drawer-body .result").count() > 0
        body = page.inner_text("#drawer-body")
        assert "REWARD BREAKDOWN" in body.upper() and category.replace("_", " ") in body
        assert "TERMINATION" in body.upper()
        screenshot = tmp_path / "report.png"
        page.screenshot(path=str(screenshot), full_page=False)
        page.keyboard.press("Escape")
        assert page.locator("#drawer.open").count() == 0
        browser.close()
    assert screenshot.stat().st_size > 10_000
    assert errors == []


@pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} missing (apt-get install -y chromium)"
)
@pytest.mark.parametrize("width", [900, 1100, 1400, 1600])
def test_no_table_is_clipped_from_900_px_up(report_html: Path, width: int) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(report_html.as_uri())
        clipped = page.evaluate(
            """() => [...document.querySelectorAll('.card')]
                .filter(c => c.querySelector('table') && c.scrollWidth > c.clientWidth + 1)
                .map(c => (c.closest('section') || {}).id + ': ' + c.scrollWidth + ' > '
                          + c.clientWidth)"""
        )
        last = page.locator("#leaderboard thead th").last
        box, card = last.bounding_box(), page.locator("#leaderboard .card").bounding_box()
        browser.close()
    assert clipped == []
    assert (
        box is not None
        and card is not None
        and box["x"] + box["width"] <= card["x"] + card["width"]
    )


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
