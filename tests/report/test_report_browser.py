"""The report in headless Chromium: charts drawn, filters, the conversation drawer, layout."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from report_runs import CHROMIUM, CHROMIUM_ARGS, app
from typer.testing import CliRunner

from tau_emotion.report.build import ReportData
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE

NEEDS_CHROMIUM = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} missing (apt-get install -y chromium)"
)


@contextmanager
def opened_page(html: Path, width: int = 1280) -> Iterator[tuple[Any, list[str]]]:
    """`html` open in headless Chromium, and the page errors it raised (a list that fills as
    the page runs; the browser closes when the block ends)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(html.as_uri())
        try:
            yield page, errors
        finally:
            browser.close()


@NEEDS_CHROMIUM
def test_report_in_headless_chromium(report_html: Path, tmp_path: Path) -> None:
    data = ReportData.model_validate_json(report_html.with_suffix(".json").read_text())
    walked = sum(e.outcome == "walked_away" for e in data.episodes)
    hasty = [e for e in data.episodes if e.run == "hasty-emotional"]
    category = next(e.failure.category for e in hasty if e.failure and e.outcome == "failed")
    with_category = sum(bool(e.failure and e.failure.category == category) for e in hasty)
    with opened_page(report_html) as (page, errors):
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
    assert screenshot.stat().st_size > 10_000
    assert errors == []


@NEEDS_CHROMIUM
@pytest.mark.parametrize("width", [900, 1100, 1400, 1600])
def test_no_table_is_clipped_from_900_px_up(report_html: Path, width: int) -> None:
    with opened_page(report_html, width) as (page, _):
        clipped = page.evaluate(
            """() => [...document.querySelectorAll('.card')]
                .filter(c => c.querySelector('table') && c.scrollWidth > c.clientWidth + 1)
                .map(c => (c.closest('section') || {}).id + ': ' + c.scrollWidth + ' > '
                          + c.clientWidth)"""
        )
        last = page.locator("#leaderboard thead th").last
        box, card = last.bounding_box(), page.locator("#leaderboard .card").bounding_box()
    assert clipped == []
    assert (
        box is not None
        and card is not None
        and box["x"] + box["width"] <= card["x"] + card["width"]
    )


@NEEDS_CHROMIUM
def test_browser_links_chips_and_steps_show_exactly_what_they_name(
    runs: list[Path], tmp_path: Path
) -> None:
    """A failure chip shows its category's episodes whatever was filtered before (and not the
    ones that merely mention the word); names keep their underscores; a link to an episode
    works in an open page and Back closes it; reasoning is shown and searchable; stepping
    from an episode the filters hide goes to its nearest neighbour either way."""
    run = tmp_path / "hasty_emotional_v2"
    run.mkdir()
    (run / MANIFEST_FILE).write_bytes((runs[2] / MANIFEST_FILE).read_bytes())
    episodes = [json.loads(line) for line in (runs[2] / RESULTS_FILE).read_text().splitlines()]
    # Every customer uses the category's name (a text search for it would list them all),
    # and one agent turn carries reasoning.
    for e in episodes:
        first_user = next(m for m in e["messages"] if m["role"] == "user")
        first_user["content"] += " Is this ignored_emotion, unresolved, for weeks now?"
    agent_turn = next(m for m in episodes[0]["messages"] if m["role"] == "assistant")
    agent_turn["reasoning"] = "PLAN-MARKER: look the customer up first."
    (run / RESULTS_FILE).write_text("".join(json.dumps(e) + "\n" for e in episodes))
    out = tmp_path / "report.html"
    built = CliRunner().invoke(
        app(), ["report", str(run), "--out", str(out), "--json", str(tmp_path / "r.json")]
    )
    assert built.exit_code == 0, built.output
    data = ReportData.model_validate_json((tmp_path / "r.json").read_text())
    views = data.episodes
    category = "ignored_emotion"
    expected = [e.id for e in views if e.failure and e.failure.category == category]
    assert expected and len(views) > len(expected)
    thinking = next(e.id for e in views if any(m.reasoning for m in e.messages))
    with opened_page(out) as (page, errors):
        assert page.locator("#f-run option").all_inner_texts()[1] == "hasty_emotional_v2"

        def listed() -> list[int]:
            ids = page.locator("#episode-rows tr").evaluate_all(
                "rows => rows.map(r => Number(r.dataset.id))"
            )
            return [int(i) for i in ids]

        # Filters a chip does not name are cleared; the chip filters by category, not text.
        page.select_option("#f-outcome", "walked_away")
        page.fill("#f-search", "zzz-no-such-text")
        page.locator(f"#failures button[data-filter*='{category}']").click()
        assert listed() == expected
        assert page.input_value("#f-search") == "" and page.input_value("#f-outcome") == ""
        assert page.input_value("#f-category") == category
        # Reasoning is searchable and shown in the conversation.
        page.select_option("#f-category", "")
        page.fill("#f-search", "plan-marker")
        assert listed() == [thinking]
        page.fill("#f-search", "")
        # An episode link works in the open page; Back closes the conversation.
        page.evaluate(f"location.hash = '#episode-{thinking}'")
        page.locator("#drawer.open").wait_for()
        assert "agent reasoning" in page.inner_text("#drawer-body")  # collapsed, by default
        assert "PLAN-MARKER" in (page.locator("#drawer-body .reasoning").text_content() or "")
        page.evaluate("location.hash = '#episode-3'")
        page.wait_for_function(
            "document.getElementById('drawer-title').textContent.includes('trial')"
        )
        assert page.evaluate("location.hash") == "#episode-3"
        page.keyboard.press("Escape")
        page.locator("#episode-rows tr").nth(2).click()
        page.locator("#drawer.open").wait_for()
        page.go_back()
        page.wait_for_function("!document.getElementById('drawer').classList.contains('open')")
        # Stepping from an episode the filters now hide: the nearest shown one on each side.
        middle = expected[len(expected) // 2] if len(expected) > 1 else expected[0]
        hidden = next(e.id for e in views if e.id not in expected and e.id != middle)
        page.evaluate(f"location.hash = '#episode-{hidden}'")
        page.locator("#drawer.open").wait_for()
        page.select_option("#f-category", category)
        before = [i for i in expected if i < hidden]
        after = [i for i in expected if i > hidden]
        page.keyboard.press("ArrowLeft")
        assert page.evaluate("location.hash") == f"#episode-{before[-1] if before else hidden}"
        page.evaluate(f"location.hash = '#episode-{hidden}'")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("location.hash") == f"#episode-{after[0] if after else hidden}"
    assert errors == []
