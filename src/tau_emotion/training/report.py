"""Rich tables for collection summaries, mix compositions and exports (printing only)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from tau_emotion.training.export import ExportReport
from tau_emotion.training.mixes import MixComposition
from tau_emotion.training.outcomes import ClassCounts, CollectSummary


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _counts_row(name: str, c: ClassCounts) -> tuple[str, ...]:
    # One row shape for the groups and the "all" total, so the columns always line up.
    return (
        name,
        str(c.total),
        str(c.success),
        str(c.violated),
        str(c.failed),
        str(c.dissatisfied),
        f"{c.success_rate:.3f}",
    )


def _counts_table(title: str, first: str, groups: dict[str, ClassCounts]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first, style="bold")
    for col in ("rollouts", "success", "violated", "failed", "dissatisfied", "success rate"):
        table.add_column(col, justify="right")
    for name, c in groups.items():
        table.add_row(*_counts_row(name, c))
    return table


def print_collect_summary(summary: CollectSummary, console: Console) -> None:
    exit_note = "user may walk away" if summary.user_exit else "dissatisfied exit DISABLED"
    # The settings go on their own line: a table title wraps to the table's width.
    console.print(
        f"Collection: {summary.tasks} tasks x {summary.trials} trial(s), "
        f"max {summary.max_steps} steps, {exit_note}"
    )
    by_domain = _counts_table("By domain", "domain", summary.by_domain)
    if len(summary.by_domain) > 1:
        by_domain.add_section()
        by_domain.add_row(*_counts_row("all", summary.overall))
    console.print(by_domain)
    console.print(_counts_table("By emotion family", "family", summary.by_family))
    console.print(
        f"tool calls per successful rollout: {_fmt(summary.mean_tool_calls_success)}   "
        f"reference (gold actions) of the same tasks: {_fmt(summary.mean_gold_actions_success)}"
        f"   of all tasks: {_fmt(summary.mean_gold_actions_all)}"
    )
    if summary.overall.violated:
        console.print(
            f"[yellow]{summary.overall.violated} rollouts reached the goal but broke a hard "
            "policy rule (violated: kept out of mixes and exports)"
        )
    if summary.with_errors:
        console.print(f"[yellow]{summary.with_errors} rollouts recorded errors (counted failed)")


def print_composition(composition: MixComposition, console: Console) -> None:
    spec = composition.spec
    size = f"size {spec.size}" if spec.size is not None else "no size limit"
    table = Table(
        title=f"Mix {spec.name}: {composition.selected} rollouts, {composition.tasks} tasks "
        f"({size}, seed {spec.seed})",
        title_justify="left",
    )
    table.add_column("domain", style="bold")
    for col in ("successes", "after caps", "selected", "share"):
        table.add_column(col, justify="right")
    for name, share in composition.by_domain.items():
        part = share.selected / composition.selected if composition.selected else 0.0
        table.add_row(
            name, str(share.successes), str(share.after_caps), str(share.selected), f"{part:.3f}"
        )
    console.print(table)
    families = ", ".join(f"{f} {n}" for f, n in composition.by_family.items()) or "-"
    console.print(f"by family: {families}")
    console.print(f"mean tool calls per rollout: {_fmt(composition.mean_tool_calls)}")
    # Always printed: a silent 0 and a forgotten check look the same.
    console.print(
        f"duplicate conversations dropped: {composition.duplicates_dropped}   "
        f"policy violations kept out: {composition.violated}"
    )
    if composition.shortfall:
        console.print(
            f"[yellow]{composition.shortfall} short of the requested size: "
            "collect more successes or lower --size"
        )


def print_export(report: ExportReport, console: Console) -> None:
    skipped = report.skipped_malformed + report.skipped_shape + report.skipped_duplicate
    notes = [f"{report.rows} rows", "reasoning kept" if report.reasoning else "reasoning dropped"]
    if skipped:
        notes.append(
            f"skipped {skipped} ({report.skipped_malformed} malformed call, "
            f"{report.skipped_shape} shape, {report.skipped_duplicate} duplicate)"
        )
    if report.dropped_texts:
        notes.append(f"{report.dropped_texts} texts beside tool calls dropped")
    console.print(f"{report.format}: {report.path}  ({'; '.join(notes)})")
