"""Inline SVG charts, generated in Python so the report needs no chart library or CDN.

Every chart is a string holding one `<svg class="chart">` with a viewBox, so it scales to its
container; colours come from the arguments, fonts and axis styling from the report's CSS.
Hover text uses SVG `<title>` elements, which every browser shows without any script.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

SERIES_COLORS = (
    "#4f6bed",
    "#e8793a",
    "#2a9d8f",
    "#c2417b",
    "#8a63d2",
    "#c9a227",
    "#5b8c5a",
    "#6c757d",
)
SUCCESS, FAILURE = "#2a9d8f", "#e0524d"


@dataclass(frozen=True)
class Interval:
    """A value with an optional 95% interval, as the charts draw it."""

    value: float
    low: float | None = None
    high: float | None = None
    n: int | None = None
    """What the value is over (tasks or episodes), shown beside it."""


def color(i: int) -> str:
    return SERIES_COLORS[i % len(SERIES_COLORS)]


def _t(x: float) -> str:
    """Compact coordinates: SVG files stay small and diffs stay readable."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _svg(width: int, height: int, body: Sequence[str], label: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" style="max-width:{width}px" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>{''.join(body)}</svg>"
    )


def _text(
    x: float, y: float, text: str, cls: str = "", anchor: str = "middle", extra: str = ""
) -> str:
    return (
        f'<text x="{_t(x)}" y="{_t(y)}" text-anchor="{anchor}" class="{cls}" {extra}>'
        f"{escape(text)}</text>"
    )


def pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _y_axis(
    x0: float,
    x1: float,
    y_of: Callable[[float], float],
    ticks: Sequence[float],
    fmt: Callable[[float], str],
) -> list[str]:
    out = []
    for tick in ticks:
        y = y_of(tick)
        out.append(f'<line class="grid" x1="{_t(x0)}" x2="{_t(x1)}" y1="{_t(y)}" y2="{_t(y)}"/>')
        out.append(_text(x0 - 6, y + 4, fmt(tick), "tick", "end"))
    return out


def _y_title(x: float, y: float, text: str) -> str:
    """A vertical axis title, read bottom to top."""
    return _text(x, y, text, "axis-label", extra=f'transform="rotate(-90 {_t(x)} {_t(y)})"')


def _whisker(x: float, y_low: float, y_high: float, horizontal: bool = False) -> str:
    if horizontal:  # x is the row centre y here, y_* are x positions
        return (
            f'<path class="ci" d="M{_t(y_low)},{_t(x)}H{_t(y_high)}M{_t(y_low)},{_t(x - 4)}'
            f'V{_t(x + 4)}M{_t(y_high)},{_t(x - 4)}V{_t(x + 4)}"/>'
        )
    return (
        f'<path class="ci" d="M{_t(x)},{_t(y_low)}V{_t(y_high)}M{_t(x - 4)},{_t(y_low)}'
        f'H{_t(x + 4)}M{_t(x - 4)},{_t(y_high)}H{_t(x + 4)}"/>'
    )


def grouped_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[Interval | None]]],
    label: str,
    y_max: float = 1.0,
    fmt: Callable[[float], str] = pct,
    y_title: str = "success",
    x_title: str = "",
) -> str:
    """Vertical bars, one group per category and one bar per series, with CI whiskers.

    Each bar carries its value (and n, where known) above it when the bar is wide enough to
    hold the text, and always in its hover title.
    """
    width, height, left, bottom, top = 760, 320, 64, 70, 28
    plot_w, plot_h = width - left - 12, height - bottom - top

    def y_of(v: float) -> float:
        return top + plot_h * (1 - max(0.0, min(v, y_max)) / y_max)

    body = _y_axis(left, width - 12, y_of, [y_max * i / 4 for i in range(5)], fmt)
    group_w = plot_w / max(len(categories), 1)
    bar_w = min(36.0, group_w * 0.8 / max(len(series), 1))
    for ci, category in enumerate(categories):
        gx = left + group_w * ci + (group_w - bar_w * len(series)) / 2
        for si, (name, values) in enumerate(series):
            v = values[ci] if ci < len(values) else None
            if v is None:
                continue
            x, y = gx + si * bar_w, y_of(v.value)
            tip = f"{name} · {category}: {fmt(v.value)}"
            if v.low is not None and v.high is not None:
                tip += f" [{fmt(v.low)}, {fmt(v.high)}]"
            if v.n is not None:
                tip += f" · n = {v.n}"
            body.append(
                f'<rect class="bar" x="{_t(x + 1)}" y="{_t(y)}" width="{_t(bar_w - 2)}" '
                f'height="{_t(top + plot_h - y)}" rx="2" fill="{color(si)}">'
                f"<title>{escape(tip)}</title></rect>"
            )
            if v.low is not None and v.high is not None:
                body.append(_whisker(x + bar_w / 2, y_of(v.low), y_of(v.high)))
            if bar_w >= 26:
                above = min(y, y_of(v.high) if v.high is not None else y) - 4
                body.append(_text(x + bar_w / 2, above, fmt(v.value), "value"))
        label_y = top + plot_h + 16
        body.append(_text(left + group_w * (ci + 0.5), label_y, category, "tick"))
        sizes = {v.n for _, values in series if ci < len(values) and (v := values[ci])}
        if len(sizes) == 1 and None not in sizes:
            body.append(
                _text(left + group_w * (ci + 0.5), label_y + 14, f"n={sizes.pop()}", "tick")
            )
    body.append(
        f'<line class="axis" x1="{left}" x2="{width - 12}" '
        f'y1="{_t(top + plot_h)}" y2="{_t(top + plot_h)}"/>'
    )
    body.append(_y_title(16, top + plot_h / 2, y_title))
    if x_title:
        body.append(_text(left + plot_w / 2, height - 8, x_title, "axis-label"))
    return _svg(width, height, body, label)


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[int, Interval]]]],
    label: str,
    x_label: str,
    y_max: float = 1.0,
    y_label: str = "Pass^k",
) -> str:
    """Lines over integer x (e.g. Pass^k against k) with shaded 95% bands."""
    width, height, left, bottom, top, right = 560, 300, 64, 44, 16, 16
    plot_w, plot_h = width - left - right, height - bottom - top
    xs = sorted({x for _, points in series for x, _ in points}) or [1]
    x_lo, x_hi = xs[0], max(xs[-1], xs[0] + 1)

    def x_of(x: float) -> float:
        return left + plot_w * (x - x_lo) / (x_hi - x_lo)

    def y_of(v: float) -> float:
        return top + plot_h * (1 - max(0.0, min(v, y_max)) / y_max)

    body = _y_axis(left, width - right, y_of, [y_max * i / 4 for i in range(5)], pct)
    for x in xs:
        body.append(_text(x_of(x), top + plot_h + 16, str(x), "tick"))
    body.append(_text(left + plot_w / 2, height - 6, x_label, "axis-label"))
    body.append(_y_title(16, top + plot_h / 2, y_label))
    for si, (name, points) in enumerate(series):
        if not points:
            continue
        band = [p for p in points if p[1].low is not None and p[1].high is not None]
        if len(band) > 1:
            upper = " ".join(f"{_t(x_of(x))},{_t(y_of(v.high or 0))}" for x, v in band)
            lower = " ".join(f"{_t(x_of(x))},{_t(y_of(v.low or 0))}" for x, v in reversed(band))
            body.append(f'<polygon class="band" points="{upper} {lower}" fill="{color(si)}"/>')
        path = " ".join(f"{_t(x_of(x))},{_t(y_of(v.value))}" for x, v in points)
        body.append(f'<polyline class="line" points="{path}" stroke="{color(si)}"/>')
        for x, v in points:
            body.append(
                f'<circle class="dot" cx="{_t(x_of(x))}" cy="{_t(y_of(v.value))}" r="4" '
                f'fill="{color(si)}"><title>{escape(f"{name} · k={x}: {pct(v.value)}")}</title>'
                "</circle>"
            )
    return _svg(width, height, body, label)


def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


SCALES = {"success": ("#eef1fd", "#2f46c4"), "violation": ("#fff4ea", "#c2410c")}


def heatmap(
    rows: Sequence[str],
    cols: Sequence[str],
    cells: Mapping[tuple[str, str], tuple[float, str]],
    label: str,
    scale: str = "success",
) -> str:
    """Rows x columns of coloured cells; each cell is (value in [0, 1], hover text)."""
    cell_w, cell_h, left, top = 92, 34, 110, 30
    width, height = left + cell_w * len(cols) + 8, top + cell_h * len(rows) + 8
    lo, hi = SCALES[scale]
    body = [_text(left + cell_w * (i + 0.5), top - 10, c, "tick") for i, c in enumerate(cols)]
    for r, row in enumerate(rows):
        y = top + cell_h * r
        body.append(_text(left - 8, y + cell_h / 2 + 4, row, "tick", "end"))
        for c, col in enumerate(cols):
            x = left + cell_w * c
            cell = cells.get((row, col))
            if cell is None:
                body.append(
                    f'<rect class="cell empty" x="{x + 1}" y="{y + 1}" width="{cell_w - 2}" '
                    f'height="{cell_h - 2}" rx="4"><title>no episodes</title></rect>'
                )
                continue
            value, tip = cell
            fill = _mix(lo, hi, max(0.0, min(value, 1.0)))
            ink = "#ffffff" if value > 0.55 else "#1f2430"
            body.append(
                f'<rect class="cell" x="{x + 1}" y="{y + 1}" width="{cell_w - 2}" '
                f'height="{cell_h - 2}" rx="4" fill="{fill}"><title>{escape(tip)}</title></rect>'
            )
            body.append(
                _text(
                    x + cell_w / 2,
                    y + cell_h / 2 + 4,
                    pct(value),
                    "cell-label",
                    extra=f'fill="{ink}"',
                )
            )
    return _svg(width, height, body, label)


def forest(
    rows: Sequence[tuple[str, Interval, str]],
    label: str,
    span: float = 1.0,
) -> str:
    """Point estimates with CIs around a zero line (paired differences); rows: (name, est, note)."""
    row_h, left, right, top = 28, 140, 56, 26
    width, height = 560, top + row_h * len(rows) + 46
    plot_w = width - left - right

    def x_of(v: float) -> float:
        return left + plot_w * (max(-span, min(v, span)) + span) / (2 * span)

    body = []
    for tick in (-span, -span / 2, 0.0, span / 2, span):
        x = x_of(tick)
        cls = "axis" if tick == 0 else "grid"
        body.append(
            f'<line class="{cls}" x1="{_t(x)}" x2="{_t(x)}" y1="{top - 6}" y2="{height - 40}"/>'
        )
        body.append(_text(x, height - 24, f"{tick * 100:+.0f} pp" if tick else "0", "tick"))
    title = "emotional minus neutral success (percentage points)"
    body.append(_text(left + plot_w / 2, height - 6, title, "axis-label"))
    body.append(_text(x_of(-span / 2), 14, "← emotional worse", "axis-label"))
    body.append(_text(x_of(span / 2), 14, "emotional better →", "axis-label"))
    for i, (name, est, note) in enumerate(rows):
        y = top + row_h * (i + 0.5)
        body.append(_text(left - 10, y + 4, name, "tick" + (" strong" if i == 0 else ""), "end"))
        fill = SUCCESS if est.value > 0 else FAILURE if est.value < 0 else "#6c757d"
        if est.low is not None and est.high is not None:
            body.append(_whisker(y, x_of(est.low), x_of(est.high), horizontal=True))
        tip = f"{name}: {est.value * 100:+.1f} pp"
        if est.low is not None and est.high is not None:
            tip += f" [{est.low * 100:+.1f}, {est.high * 100:+.1f}]"
        body.append(
            f'<circle class="dot" cx="{_t(x_of(est.value))}" cy="{_t(y)}" r="6" fill="{fill}">'
            f"<title>{escape(tip + ' · ' + note)}</title></circle>"
        )
        body.append(_text(width - right + 8, y + 4, note, "tick", "start"))
    return _svg(width, height, body, label)


def hbars(items: Sequence[tuple[str, float, str, str]], label: str) -> str:
    """Horizontal bars (name, share in [0, 1], right-hand note, colour), e.g. a taxonomy."""
    row_h, left, right, top = 28, 190, 80, 8
    width, height = 560, top + row_h * len(items) + 8
    plot_w = width - left - right
    body = []
    for i, (name, share, note, fill) in enumerate(items):
        y = top + row_h * i
        body.append(_text(left - 10, y + row_h / 2 + 4, name, "tick", "end"))
        body.append(
            f'<rect class="track" x="{left}" y="{y + 5}" width="{plot_w}" '
            f'height="{row_h - 10}" rx="4"/>'
        )
        body.append(
            f'<rect class="bar" x="{left}" y="{y + 5}" width="{_t(max(plot_w * share, 2))}" '
            f'height="{row_h - 10}" rx="4" fill="{fill}">'
            f"<title>{escape(f'{name}: {note}')}</title></rect>"
        )
        body.append(_text(left + plot_w + 8, y + row_h / 2 + 4, note, "tick", "start"))
    return _svg(width, height, body, label)


def scatter(
    points: Sequence[tuple[float, float, bool, str]],
    label: str,
    x_label: str,
    y_label: str,
) -> str:
    """Points (x, y, success, hover text) with deterministic jitter and the y = x diagonal."""
    width, height, left, bottom, top, right = 560, 340, 52, 46, 14, 16
    plot_w, plot_h = width - left - right, height - bottom - top
    # Half a unit of headroom so jittered points at the largest count stay inside the plot.
    x_max = max([p[0] for p in points] + [1.0]) + 0.5
    y_max = max([p[1] for p in points] + [1.0]) + 0.5
    x_step, y_step = _step(x_max), _step(y_max)
    x_max, y_max = math.ceil(x_max / x_step) * x_step, math.ceil(y_max / y_step) * y_step

    def x_of(v: float) -> float:
        return left + plot_w * v / x_max

    def y_of(v: float) -> float:
        return top + plot_h * (1 - v / y_max)

    body = _y_axis(left, width - right, y_of, _ticks(y_max, y_step), lambda v: f"{v:g}")
    for tick in _ticks(x_max, x_step):
        body.append(_text(x_of(tick), top + plot_h + 16, f"{tick:g}", "tick"))
    body.append(_text(left + plot_w / 2, height - 6, x_label, "axis-label"))
    body.append(
        _text(
            14,
            top + plot_h / 2,
            y_label,
            "axis-label",
            extra=f'transform="rotate(-90 14 {_t(top + plot_h / 2)})"',
        )
    )
    d = min(x_max, y_max)
    body.append(
        f'<line class="diagonal" x1="{_t(x_of(0))}" y1="{_t(y_of(0))}" '
        f'x2="{_t(x_of(d))}" y2="{_t(y_of(d))}">'
        "<title>tool calls = follow-ups</title></line>"
    )
    for i, (x, y, ok, tip) in enumerate(points):
        # Counts are integers and pile up; a fixed pseudo-random offset keeps them visible
        # and the picture identical between builds.
        jx = ((i * 7919) % 13 - 6) / 6 * 0.22
        jy = ((i * 104729) % 11 - 5) / 5 * 0.22
        body.append(
            f'<circle class="pt {"ok" if ok else "ko"}" cx="{_t(x_of(max(0, x + jx)))}" '
            f'cy="{_t(y_of(max(0, y + jy)))}" r="4" fill="{SUCCESS if ok else FAILURE}">'
            f"<title>{escape(tip)}</title></circle>"
        )
    return _svg(width, height, body, label)


def _step(top: float) -> float:
    """A 1-2-5 tick step giving about five ticks; at least 1, since the axes count things."""
    raw = top / 5
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return max(1.0, float(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)))


def _ticks(top: float, step: float) -> list[float]:
    return [step * i for i in range(round(top / step) + 1)]
