"""Build and write the HTML report of one or more runs (the `report` command, and every run's
own OUT/report.html), and the files every finished run gets beside its results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_emotion.analysis.runs import read_progress, with_unfinished_warning
from tau_emotion.data import Episode
from tau_emotion.errors import TauEmotionError
from tau_emotion.evaluation.metrics import MetricsReport, compute_metrics
from tau_emotion.inputs import InputError
from tau_emotion.models.base import ChatModel
from tau_emotion.report.build import ReportData, build_report
from tau_emotion.report.html import render
from tau_emotion.runner.loop_thread import run_in_loop
from tau_emotion.runner.results import MANIFEST_FILE, METRICS_FILE, RESULTS_FILE
from tau_emotion.storage import model_json, write_atomic

REPORT_FILE = "report.html"
RUN_FILES = (RESULTS_FILE, MANIFEST_FILE, METRICS_FILE, REPORT_FILE)
"""What a run folder holds (besides its lock files): the records and what is built from them."""


def refuse_run_file(
    path: Path, option: str, run_dirs: Sequence[Path], allowed: Sequence[str] = ()
) -> None:
    """`InputError` when `path` is one of the run folders' own files (other than `allowed`,
    the file the command writes there anyway): an output named there would silently replace
    the run's episodes or manifest."""
    target = path.resolve()
    for run_dir in run_dirs:
        name = target.name
        if target.parent != run_dir.resolve() or name in allowed:
            continue
        if name in RUN_FILES or (name.startswith(".") and name.endswith(".lock")):
            raise InputError(
                f"{option} {path} is the run's own {name} in {run_dir}: writing there would "
                "replace it; choose another file"
            )


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


@dataclass(frozen=True)
class RunOutputs:
    """What `write_run_outputs` wrote: the run's metrics, and why the report is missing (None
    when it was written)."""

    metrics: MetricsReport | None
    report_problem: str | None


def write_run_outputs(out: Path, episodes: Sequence[Episode]) -> RunOutputs:
    """OUT/metrics.json and OUT/report.html, which `tau-emotion run` and `evaluate` alike
    write after a run. The report is a convenience: when it cannot be built the results and
    the metrics are safe, and `report_problem` says why (``tau-emotion report OUT`` retries)."""
    if not episodes:  # a run that played nothing has no metrics to write
        return RunOutputs(None, "the run holds no episodes")
    # As `tau-emotion metrics` computes them: a run stopped by --fail-on-error says so.
    metrics = with_unfinished_warning(
        compute_metrics(list(episodes)), read_progress(out), len(episodes)
    )
    write_atomic(out / METRICS_FILE, model_json(metrics, indent=2))
    try:
        write_report([out], out / REPORT_FILE)
    except TauEmotionError as exc:
        return RunOutputs(metrics, str(exc))
    return RunOutputs(metrics, None)
