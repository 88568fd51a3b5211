"""The runs and the report every test in this folder reads, built once per session."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from report_runs import app, play
from typer.testing import CliRunner


@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def report_html(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(
        app(),
        ["report", *map(str, runs), "--out", str(out), "--json", str(out.with_suffix(".json"))],
    )
    assert result.exit_code == 0, result.output
    assert "3 runs, 36 episodes" in result.output
    return out
