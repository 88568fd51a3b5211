"""Readable renderings of a tool graph: Markdown always, a PNG when matplotlib is installed.

The PNG lays tools out in columns by how many calls they are from an identity lookup (the
shortest walk), colours them by role, and draws the edges that carry data darker than the
behavioural ones. matplotlib is an optional extra (`pip install matplotlib`).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from tau_emotion.tracer.records import ToolGraph

ROLE_COLOURS = {"auth": "#8fb8de", "read": "#d9e6c3", "write": "#f4c28b", "terminal": "#e89a9a"}


def to_markdown(graph: ToolGraph) -> str:
    lines = [
        f"# Tool graph: {graph.domain}",
        "",
        f"{len(graph.nodes)} tools, {len(graph.edges)} edges; proposed by {graph.proposed_by}, "
        "reviewed. Entries (identity lookups): " + ", ".join(f"`{e}`" for e in graph.entries),
        "",
        "| tool | role | needs (entities it acts on) | its outputs fill |",
        "|---|---|---|---|",
    ]
    for n in graph.nodes:
        needs = ", ".join(n.needs) or "-"
        produces = ", ".join(n.produces) or "-"
        lines.append(f"| `{n.name}` | {n.role} | {needs} | {produces} |")
    if graph.requires or graph.requires_any or graph.limits:
        lines += ["", "## Policy order", ""]
        for tool, before in graph.requires.items():
            lines.append(f"- `{tool}` only after " + ", ".join(f"`{b}`" for b in before))
        for tool, alts in graph.requires_any.items():
            if not alts:
                lines.append(f"- `{tool}` is exempt from the rule for every write")
                continue
            options = " or ".join(" + ".join(f"`{t}`" for t in alt) for alt in alts)
            subject = "every write" if tool == "*write" else f"`{tool}`"
            lines.append(f"- {subject} only after {options}")
        for tool, cap in graph.limits.items():
            lines.append(f"- `{tool}` at most {cap} time(s) per task")
    lines += ["", "## Edges", ""]
    by_source: dict[str, list[str]] = defaultdict(list)
    for e in graph.edges:
        why = "; ".join(e.reasons)
        by_source[e.source].append(f"`{e.target}` ({why})")
    for source in sorted(by_source):
        lines.append(f"- `{source}` -> " + ", ".join(by_source[source]))
    if graph.excluded:
        lines += ["", "## Left out", ""]
        lines += [f"- `{t}`: {why}" for t, why in graph.excluded.items()]
    if graph.review:
        lines += ["", "## Review", ""]
        lines += [f"- {note}" for note in graph.review]
    return "\n".join(lines) + "\n"


def _layers(graph: ToolGraph) -> dict[str, int]:
    depth = {e: 0 for e in graph.entries}
    frontier = list(graph.entries)
    while frontier:
        nxt: list[str] = []
        for node in frontier:
            for e in graph.successors(node):
                if e.target not in depth:
                    depth[e.target] = depth[node] + 1
                    nxt.append(e.target)
        frontier = nxt
    for n in graph.nodes:
        depth.setdefault(n.name, max(depth.values(), default=0) + 1)
    return depth


def render_png(graph: ToolGraph, path: Path) -> bool:
    """Draw the graph; False when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    depth = _layers(graph)
    columns: dict[int, list[str]] = defaultdict(list)
    for n in graph.nodes:
        columns[depth[n.name]].append(n.name)
    pos: dict[str, tuple[float, float]] = {}
    tallest = max(len(c) for c in columns.values())
    for col, names in sorted(columns.items()):
        for row, name in enumerate(sorted(names)):
            pos[name] = (col * 4.0, (len(names) - 1) / 2 - row)
    fig, ax = plt.subplots(figsize=(4 + 3.2 * len(columns), 1.5 + 0.55 * tallest))
    for e in graph.edges:
        (x0, y0), (x1, y1) = pos[e.source], pos[e.target]
        data = any(r.startswith("interface") for r in e.reasons)
        ax.annotate(
            "",
            xy=(x1, y1),
            xytext=(x0, y0),
            arrowprops={
                "arrowstyle": "-|>",
                "color": "#555555" if data else "#c8c8c8",
                "lw": 0.6,
                "alpha": 0.6,
                "shrinkA": 14,
                "shrinkB": 14,
                "connectionstyle": "arc3,rad=0.08",
            },
        )
    roles = {n.name: n.role for n in graph.nodes}
    for name, (x, y) in pos.items():
        ax.text(
            x,
            y,
            name,
            ha="center",
            va="center",
            fontsize=7,
            bbox={"boxstyle": "round", "fc": ROLE_COLOURS[roles[name]], "ec": "#666666"},
        )
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker="s", ls="", color=c, label=r) for r, c in ROLE_COLOURS.items()]
    ax.legend(handles=handles, loc="upper right", fontsize=7, frameon=False)
    ax.set_title(f"{graph.domain}: {len(graph.nodes)} tools, {len(graph.edges)} edges", fontsize=9)
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    ax.set_xlim(min(xs) - 2.2, max(xs) + 2.2)
    ax.set_ylim(min(ys) - 1, max(ys) + 1)
    ax.axis("off")
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return True


def write_renderings(graph: ToolGraph, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / "graph.md"
    md.write_text(to_markdown(graph), encoding="utf-8")
    written = [md]
    png = folder / "graph.png"
    if render_png(graph, png):
        written.append(png)
    return written
