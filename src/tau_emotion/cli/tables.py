"""Rich tables for the CLI (printing only; numbers come from `evaluation`)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tau_emotion.evaluation.metrics import Estimate, GroupMetrics, MetricsReport


def _fmt(e: Estimate) -> str:
    return f"{e.value:.3f} [{e.low:.2f}, {e.high:.2f}]"


def warning_printer() -> Callable[[str], None]:
    """Print a run warning at once, in yellow on stderr, so that it stands out from progress."""

    def show(message: str) -> None:
        Console(stderr=True).print(f"[bold yellow]warning:[/] {escape(message)}", soft_wrap=True)

    return show


def make_console() -> Console:
    """A console that does not squeeze tables to 80 columns when output is piped."""
    return Console(width=None if sys.stdout.isatty() else 160)


def _row(name: str, g: GroupMetrics, k: int) -> list[str]:
    return [
        name,
        str(g.tasks),
        str(g.episodes),
        _fmt(g.avg),
        _fmt(g.pass_hat[k]),
        _fmt(g.pass_at[k]),
        f"{g.dissatisfied_rate:.3f}",
        str(g.infra_errors),
    ]


def _table(title: str, first: str, k: int) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first, style="bold")
    for col in ("tasks (n)", "episodes", f"Avg@{k}", f"Pass^{k}"):
        table.add_column(col, justify="right")
    table.add_column(f"pass@{k}", justify="right")
    table.add_column("dissatisfied", justify="right")
    table.add_column("infra errors", justify="right")
    return table


def print_metrics(report: MetricsReport, console: Console, by: list[str] | None = None) -> None:
    k = report.k
    table = _table(f"Results (k = {k} trials; [95% bootstrap CI])", "domain", k)
    for name, g in report.domains.items():
        table.add_row(*_row(name, g, k))
    if len(report.domains) > 1:
        table.add_section()
        table.add_row(*_row("all (domain mean)", report.overall_equal, k))
        table.add_row(*_row("all (task mean)", report.overall_tasks, k))
    console.print(table)
    for dim in by or ["family"]:
        groups = report.breakdowns[dim]
        if list(groups) == ["none"] and not by:
            continue  # a run without emotions has no default breakdown to show
        sub = _table(f"By {dim}", dim, k)
        for name, g in groups.items():
            sub.add_row(*_row(name, g, k))
        console.print(sub)
