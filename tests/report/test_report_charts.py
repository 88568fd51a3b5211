"""The inline SVG charts: well-formed, sized, escaped, and drawing what they are given."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tau_emotion.report import charts
from tau_emotion.report.charts import Interval

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("viewBox") and "chart" in (root.get("class") or "")
    return root


def count(root: ET.Element, tag: str, cls: str | None = None) -> int:
    return sum(
        1 for el in root.iter(f"{NS}{tag}") if cls is None or cls in (el.get("class") or "").split()
    )


def test_grouped_bars_with_whiskers_and_gaps() -> None:
    svg = charts.grouped_bars(
        ["airline", "retail <&>"],
        [
            ("run a", [Interval(0.5, 0.4, 0.6), None]),
            ("run b", [Interval(1.0), Interval(0.25, 0.1, 0.4)]),
        ],
        "success",
    )
    root = parse(svg)
    assert count(root, "rect", "bar") == 3  # the missing value draws nothing
    assert count(root, "path", "ci") == 2  # only bars with an interval get whiskers
    assert "retail &lt;&amp;&gt;" in svg


def test_line_chart_band_and_points() -> None:
    root = parse(
        charts.line_chart(
            [
                (
                    "a",
                    [
                        (1, Interval(0.8, 0.7, 0.9)),
                        (2, Interval(0.6, 0.5, 0.7)),
                        (3, Interval(0.5, 0.3, 0.6)),
                    ],
                )
            ],
            "pass^k",
            "k",
        )
    )
    assert count(root, "polyline", "line") == 1
    assert count(root, "polygon", "band") == 1
    assert count(root, "circle", "dot") == 3


def test_heatmap_cells_and_empty_cells() -> None:
    root = parse(
        charts.heatmap(
            ["airline", "retail"], ["anger", "none"], {("airline", "anger"): (0.25, "tip")}, "h"
        )
    )
    assert count(root, "rect", "cell") == 4
    assert count(root, "rect", "empty") == 3
    labels = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "cell-label"]
    assert labels == ["25%"]


def test_forest_hbars_and_scatter() -> None:
    forest = parse(
        charts.forest(
            [("all", Interval(-0.2, -0.4, 0.0), "n=4"), ("anger", Interval(0.1), "n=1")], "f"
        )
    )
    assert count(forest, "circle", "dot") == 2
    bars = parse(charts.hbars([("missing action", 0.5, "2/4", "#f00")], "b"))
    assert count(bars, "rect", "bar") == 1 and count(bars, "rect", "track") == 1
    scatter = parse(charts.scatter([(1, 3, True, "a"), (2, 0, False, "b")], "s", "x", "y"))
    assert count(scatter, "circle", "ok") == 1 and count(scatter, "circle", "ko") == 1
    assert count(scatter, "line", "diagonal") == 1


def test_charts_are_deterministic() -> None:
    points = [(i % 3, i % 5, i % 2 == 0, str(i)) for i in range(20)]
    assert charts.scatter(points, "s", "x", "y") == charts.scatter(points, "s", "x", "y")
