"""The Python API: `evaluate` in scripts and inside a running loop, results as data, and the
notebook example of docs/python.md run as written inside a running event loop."""

from __future__ import annotations

import ast
import asyncio
import re
import sys
from pathlib import Path

import pytest

import tau_emotion
from tau_emotion.runner.results import RESULTS_FILE

DOC = Path(__file__).parents[1] / "docs" / "python.md"


def test_evaluate_returns_episodes_metrics_and_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tau_emotion.evaluate(
        domains="airline", num_tasks=3, agent="oracle", out=tmp_path / "run"
    )
    assert len(results.episodes()) == 3 and results.out == tmp_path / "run"
    assert results.metrics().overall_tasks.avg.n == 3
    rows = results.records()
    assert {r["family"] for r in rows} <= {"anger", "fear", "disgust", "sadness", "enjoyment"}
    assert all(r["tool_calls"] > 0 for r in rows)
    loaded = tau_emotion.Results.load(tmp_path / "run")
    assert loaded.records() == rows and loaded.config == results.config
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    with pytest.raises(ImportError, match="pip install pandas"):
        results.to_pandas()


def test_evaluate_works_inside_a_running_loop(tmp_path: Path) -> None:
    async def notebook_cell() -> tuple[int, int]:
        sync = tau_emotion.evaluate(
            domains="retail", num_tasks=2, agent="oracle", out=tmp_path / "a"
        )
        awaited = await tau_emotion.evaluate_async(
            domains="retail", num_tasks=2, agent="oracle", out=tmp_path / "b"
        )
        return len(sync.episodes()), len(awaited.episodes())

    assert asyncio.run(notebook_cell()) == (2, 2)


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_notebook_example_runs_as_written_inside_a_running_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 4 and any("await tau_emotion.evaluate_async" in b for b in blocks)
    monkeypatch.chdir(tmp_path)  # the examples write under runs/
    namespace: dict[str, object] = {}

    async def notebook() -> None:
        asyncio.get_running_loop()  # as in Jupyter: every cell runs inside this loop
        for i, block in enumerate(blocks):
            code = compile(block, f"{DOC.name}[{i}]", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
            result = eval(code, namespace)
            if asyncio.iscoroutine(result):
                await result

    asyncio.run(notebook())
    for run in ("notebook", "notebook-async"):
        assert len((tmp_path / "runs" / run / RESULTS_FILE).read_text().splitlines()) in (3, 5)
    assert "results" in namespace and "report" in namespace
