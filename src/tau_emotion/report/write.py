"""Build and write the HTML report of one or more runs (the `report` command, and every run's
own OUT/report.html)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_emotion.models.base import ChatModel
from tau_emotion.report.build import ReportData, build_report
from tau_emotion.report.html import render
from tau_emotion.runner.loop_thread import run_in_loop
from tau_emotion.storage import write_atomic

REPORT_FILE = "report.html"


def write_report(
    run_dirs: Sequence[Path],
    out: Path,
    judge: ChatModel | None = None,
    exclude_user_hallucinations: bool = False,
    title: str | None = None,
    seed: int = 0,
) -> ReportData:
    """Write the self-contained HTML report of `run_dirs` to `out`; returns its data."""
    data = run_in_loop(
        build_report(run_dirs, judge, exclude_user_hallucinations, title=title, seed=seed)
    )
    write_atomic(out, render(data))  # surrogates replaced, secrets redacted, never half-written
    return data
