"""HTML building blocks shared by the report's sections: numbers, cards, legends."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from html import escape
from importlib.resources import files
from typing import Protocol, TypeVar

from tau_emotion.analysis.stats import Rate
from tau_emotion.emotions.space import FAMILIES, NEUTRAL
from tau_emotion.evaluation.metrics import Estimate
from tau_emotion.report.charts import Interval, color, heatmap, pct

FAMILY_ORDER: tuple[str, ...] = tuple(FAMILIES)
"""The space's families, in its canonical order (plain strings, as the runs record them)."""


def families(names: set[str]) -> list[str]:
    """Emotion families in the canonical order, unknown ones after them, neutral last."""
    known = [f for f in FAMILY_ORDER if f in names]
    others = sorted(names - set(FAMILY_ORDER) - {NEUTRAL})
    return known + others + ([NEUTRAL] if NEUTRAL in names else [])


T = TypeVar("T")


def family_heatmap(
    by_cell: Mapping[str, Mapping[str, T]],
    cell: Callable[[T], tuple[float, str]],
    title: str,
    scale: str = "success",
) -> str:
    """A domain x emotion family heatmap of nested cells (domain -> family -> cell); `cell`
    gives a cell's value in [0, 1] and its hover text, which the domain and family lead."""
    cols = families({f for fams in by_cell.values() for f in fams})
    cells: dict[tuple[str, str], tuple[float, str]] = {}
    for domain, fams in by_cell.items():
        for family, x in fams.items():
            value, tip = cell(x)
            cells[(domain, family)] = (value, f"{domain} · {family}: {tip}")
    return heatmap(sorted(by_cell), cols, cells, title, scale=scale)


def no_interval(e: Estimate | Rate) -> bool:
    """An estimate over one task: its bootstrap never varies, so its "interval" (zero wide)
    would claim certainty that one task cannot give. A Wilson rate always has a real one."""
    return isinstance(e, Estimate) and e.n == 1


def est(e: Estimate | Rate, block: bool = False) -> str:
    """'62% [50%, 75%]'; `block` puts the interval on its own line (narrow table columns)."""
    cls = "ci block" if block else "ci"
    if no_interval(e):
        why = "no interval: a bootstrap over one task never varies"
        return f'{pct(e.value)} <span class="{cls}" title="{why}">(1 task)</span>'
    return f'{pct(e.value)} <span class="{cls}">[{pct(e.low)}, {pct(e.high)}]</span>'


def frac(r: Rate) -> str:
    """'62% (5/8)', or a dash when the denominator is zero."""
    if r.total == 0:
        return '<span class="ci">– (0)</span>'
    return f'{pct(r.value)} <span class="ci">({r.count}/{r.total})</span>'


def one_place(value: float | None) -> str:
    """A mean to one decimal place; a dash for the mean of no episodes."""
    return "–" if value is None else f"{value:.1f}"


def pp(value: float | None) -> str:
    """A difference of rates in percentage points; a dash when undefined."""
    return "–" if value is None else f"{value * 100:+.0f} pp"


def iv(e: Estimate | Rate) -> Interval:
    """A chart interval, with the n it is over: tasks for an estimate, episodes for a rate."""
    n = e.n if isinstance(e, Estimate) else e.total
    if no_interval(e):
        return Interval(e.value, None, None, n)
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


class _Labelled(Protocol):
    @property
    def label(self) -> str: ...


R = TypeVar("R", bound=_Labelled)


def run_cards(runs: Sequence[R], body: Callable[[R], str | None]) -> list[str]:
    """One card per run, titled with its label and colour; a run whose body is None (nothing
    to show for it) gets no card, and the others keep their colours."""
    cards = []
    for i, run in enumerate(runs):
        html = body(run)
        if html is not None:
            cards.append(card(run.label, html, i))
    return cards


@cache
def section_texts() -> dict[str, dict[str, str]]:
    """Title, lead and empty-note of each per-run section, by section id (sections.json):
    prose kept as data, so the section functions hold only what differs between them."""
    text = files("tau_emotion.report").joinpath("sections.json").read_text(encoding="utf-8")
    texts: dict[str, dict[str, str]] = json.loads(text)
    return texts


def run_section(
    sid: str,
    runs: Sequence[R],
    body: Callable[[R], str | None],
    *,
    stacked: bool = False,
    **values: str,
) -> str:
    """A section of one card per run, with its texts from `section_texts`; `values` fill the
    lead's {name} marks, and `stacked` gives each card the full width instead of a grid."""
    text = section_texts()[sid]
    lead = text["lead"]
    for name, value in values.items():
        lead = lead.replace("{" + name + "}", value)
    cards = run_cards(runs, body)
    inner = "".join(cards) if stacked and cards else grid(cards, text["empty"])
    return section(sid, text["title"], lead, inner)


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
