"""Rich tables for the CLI (printing only; numbers come from `evaluation`)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.evaluation.metrics import Estimate, GroupMetrics, MetricsReport


def _fmt(e: Estimate | None) -> str:
    """A figure over its CI, on two lines, so that four side by side fit in 120 columns."""
    if e is None:
        return "-\n(unaudited)"
    if e.n == 1:  # a bootstrap over one task never varies: [x,x] would claim certainty
        return f"{e.value:.3f}\nn=1, no CI"
    return f"{e.value:.3f}\n[{e.low:.2f},{e.high:.2f}]"


def warning_printer() -> Callable[[str], None]:
    """Print a run warning at once, in yellow on stderr, so that it stands out from progress."""

    def show(message: str) -> None:
        Console(stderr=True).print(f"[bold yellow]warning:[/] {escape(message)}", soft_wrap=True)

    return show


def make_console() -> Console:
    """A console that does not squeeze tables to 80 columns when output is piped."""
    return Console(width=None if sys.stdout.isatty() else 160)


def _row(name: str, g: GroupMetrics, k: int) -> list[str]:
    clean = g.clean_pass_hat[k] if g.clean_pass_hat is not None else None
    return [
        name,
        str(g.tasks),
        str(g.episodes),
        _fmt(g.avg),
        _fmt(g.pass_hat[k]),
        _fmt(g.clean_avg),
        _fmt(clean),
        f"{g.dissatisfied_rate:.3f}",
        str(g.error_count),
    ]


def _table(title: str, first: str, k: int) -> Table:
    # pass@k is left to metrics.json and the report: with the clean columns beside the plain
    # ones, a sixth figure would push the table past 120 columns.
    table = Table(title=title, title_justify="left")
    table.add_column(first, style="bold")
    for col in ("tasks", "episodes", f"Avg@{k}", f"Pass^{k}", f"clean\nAvg@{k}"):
        table.add_column(col, justify="right")
    table.add_column(f"clean\nPass^{k}", justify="right")
    table.add_column("walked\naway", justify="right")
    table.add_column("errors", justify="right")
    return table


ENDING_MEANS = {
    "infra_error": "the endpoint failed",
    "framework_error": "the task's gold replay or a tool broke; unscorable",
    "user_error": "the user simulator broke",
    "agent_error": "the agent broke the protocol",
}
"""What each error ending means, for the line under the table."""


def errors_line(g: GroupMetrics) -> str | None:
    """Which errors the 'errors' column counts, and that each is scored as a failure."""
    if not g.errors:
        return None
    kinds = "; ".join(f"{n} {name} ({ENDING_MEANS.get(name, '')})" for name, n in g.errors.items())
    return (
        f"errors: {g.error_count} of {g.episodes} episodes ended in an error, each scored "
        f"as a failure: {kinds}"
    )


def print_metrics(report: MetricsReport, console: Console, by: list[str] | None = None) -> None:
    k = report.k
    table = _table(
        f"Results (k = {k} trials; [95% bootstrap CI]; clean: success, no hard policy rule broken)",
        "domain",
        k,
    )
    for name, g in report.domains.items():
        table.add_row(*_row(name, g, k))
    if len(report.domains) > 1:
        table.add_section()
        table.add_row(*_row("all (domain mean)", report.overall_equal, k))
        table.add_row(*_row("all (task mean)", report.overall_tasks, k))
    console.print(table)
    overall = report.overall_tasks
    if (line := errors_line(overall)) is not None:
        console.print(escape(line), soft_wrap=True)
    for dim in by or ["family"]:
        groups = report.breakdowns[dim]
        if list(groups) == [NEUTRAL] and not by:
            continue  # a run without emotions has no default breakdown to show
        sub = _table(f"By {dim}", dim, k)
        for name, g in groups.items():
            sub.add_row(*_row(name, g, k))
        console.print(sub)
