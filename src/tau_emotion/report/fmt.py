"""HTML building blocks shared by the report's sections: numbers, cards, legends."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tau_emotion.analysis.stats import Rate
from tau_emotion.evaluation.metrics import Estimate
from tau_emotion.report.charts import Interval, color, pct

FAMILY_ORDER = ("anger", "fear", "disgust", "sadness", "enjoyment")
NEUTRAL = "none"


def families(names: set[str]) -> list[str]:
    """Emotion families in the canonical order, unknown ones after them, neutral last."""
    known = [f for f in FAMILY_ORDER if f in names]
    others = sorted(names - set(FAMILY_ORDER) - {NEUTRAL})
    return known + others + ([NEUTRAL] if NEUTRAL in names else [])


def est(e: Estimate | Rate, block: bool = False) -> str:
    """'62% [50%, 75%]'; `block` puts the interval on its own line (narrow table columns)."""
    cls = "ci block" if block else "ci"
    return f'{pct(e.value)} <span class="{cls}">[{pct(e.low)}, {pct(e.high)}]</span>'


def frac(r: Rate) -> str:
    """'62% (5/8)', or a dash when the denominator is zero."""
    if r.total == 0:
        return '<span class="ci">– (0)</span>'
    return f'{pct(r.value)} <span class="ci">({r.count}/{r.total})</span>'


def pp(value: float | None) -> str:
    """A difference of rates in percentage points; a dash when undefined."""
    return "–" if value is None else f"{value * 100:+.0f} pp"


def iv(e: Estimate | Rate) -> Interval:
    """A chart interval, with the n it is over: tasks for an estimate, episodes for a rate."""
    n = e.n if isinstance(e, Estimate) else e.total
    return Interval(e.value, e.low, e.high, n or None)


def swatch(i: int, fill: str | None = None, round_: bool = False) -> str:
    radius = ";border-radius:50%" if round_ else ""
    return f'<span class="swatch" style="background:{fill or color(i)}{radius}"></span>'


def legend(names: Sequence[str]) -> str:
    items = "".join(f"<span>{swatch(i)}{escape(n)}</span>" for i, n in enumerate(names))
    return f'<div class="legend">{items}</div>'


def section(sid: str, title: str, lead: str, body: str) -> str:
    """A report section; `lead` is trusted HTML written in this package."""
    return f'<section id="{sid}"><h2>{escape(title)}</h2><p class="lead">{lead}</p>{body}</section>'


def card(title: str, body: str, index: int | None = None) -> str:
    mark = swatch(index) if index is not None else ""
    return f'<div class="card"><h3>{mark}{escape(title)}</h3>{body}</div>'


def grid(cards: Sequence[str], empty: str) -> str:
    if not cards:
        return f'<div class="card"><p class="empty">{escape(empty)}</p></div>'
    return f'<div class="grid">{"".join(cards)}</div>'


def stat(value: str, caption: str) -> str:
    return f'<div class="stat"><b>{value}</b>{escape(caption)}</div>'


def table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 99) -> str:
    """A table; columns from `numeric_from` on are right-aligned numbers. Cells are HTML."""

    def cls(i: int) -> str:
        return ' class="num"' if i >= numeric_from else ""

    th = "".join(f"<th{cls(i)}>{h}</th>" for i, h in enumerate(head))
    body = "".join(
        "<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
