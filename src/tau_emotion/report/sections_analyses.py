"""The report's behaviour sections: empathy, policy violations, failure taxonomy, tool use vs
follow-ups and simulated-user hallucinations. Every rate is printed with its denominator.

Each `*_card` function is one run's card body; `fmt.run_section` makes the section (its title
and lead are in sections.json) and `html.render` puts them in order."""

from __future__ import annotations

import json
from collections import Counter
from html import escape

from tau_emotion.analysis.empathy import EmpathyCell
from tau_emotion.analysis.judge import JudgeUse
from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.evaluation.metrics import Estimate
from tau_emotion.report import charts
from tau_emotion.report.build import RunSection
from tau_emotion.report.fmt import (
    est,
    families,
    family_heatmap,
    frac,
    iv,
    legend,
    one_place,
    pp,
    stat,
    swatch,
    table,
)

FAULT_COLORS = {"environment": "#6c757d", "user": "#c9a227", "agent": "#e0524d"}
UNRESOLVED_COLOR = "#8a63d2"


def _empathy_row(name: str, c: EmpathyCell, overall: Estimate | None) -> list[str]:
    # The group's own success is the metrics' figure (the CLI's), so the two never disagree.
    success = f'{est(overall)} <span class="ci">n={overall.n}</span>' if overall else "–"
    with_, without = frac(c.with_empathy), frac(c.without_empathy)
    return [name, success, str(c.episodes), with_, without, pp(c.difference)]


def empathy_card(r: RunSection) -> str | None:
    e = r.empathy
    groups = [f for f in families(set(e.by_family)) if f != NEUTRAL]
    if not groups:
        return None
    cells = [e.by_family[f] for f in groups]
    series = [
        ("with empathy", [iv(c.with_empathy) if c.with_empathy.total else None for c in cells]),
        (
            "without",
            [iv(c.without_empathy) if c.without_empathy.total else None for c in cells],
        ),
    ]
    title = f"{r.label}: success with / without empathy"
    chart = charts.grouped_bars(groups, series, title, x_title="emotion family")
    by_family = r.metrics.breakdowns.get("family", {})
    rows = [
        _empathy_row(escape(f), e.by_family[f], by_family[f].avg if f in by_family else None)
        for f in groups
    ]
    rows.append(_empathy_row("<b>all emotional</b>", e.emotional, None))
    head = ["family", "success (Avg@k)", "episodes", "with empathy", "without", "Δ"]
    body = legend(["with empathy", "without"]) + chart + table(head, rows, numeric_from=1)
    body += f'<p class="note">Detected by {escape(e.method)}{judged(e.judge)}. '
    body += f"{escape(e.note)}</p>"
    return body


def judged(use: JudgeUse | None) -> str:
    """How the judge fared, after the method: a judge that never answered is not claimed."""
    if use is None or not use.asked:
        return ""
    if not use.failed:
        return f" (the judge answered all {use.asked} cases it was asked)"
    return (
        f" (the judge gave no usable answer for {use.failed} of the {use.asked} cases it was "
        "asked: those rest on the deterministic check alone)"
    )


def policy_card(r: RunSection) -> str:
    p = r.policy
    body = family_heatmap(
        p.by_cell,
        lambda x: (x.value, f"{x.count} of {x.total} episodes with a violation"),
        f"{r.label}: violation rate",
        scale="violation",
    )
    top = [s for s in p.by_rule if s.episodes.count][:10]
    body += "<h3>Most broken rules</h3>"
    if top:
        items = [
            (
                s.rule_id,
                s.episodes.value,
                f"{s.episodes.count}/{s.episodes.total} ep.",
                "#e8793a",
            )
            for s in top
        ]
        body += charts.hbars(items, f"{r.label}: most broken rules")
    else:
        body += '<p class="empty">No rule was broken.</p>'
    if p.skipped:
        body += f'<p class="note">{p.skipped} episodes of unknown domains were not audited.</p>'
    return body


def failures_card(r: RunSection) -> str:
    f = r.failures
    if not f.failed:
        return '<p class="empty">No failed episodes.</p>'
    items = []
    for category, share in sorted(f.by_category.items(), key=lambda kv: -kv[1].count):
        # The category's most common fault (a judge category may hold more than one).
        owners = Counter(lb.fault or "" for lb in f.labels if lb.category == category)
        fill = FAULT_COLORS.get(owners.most_common(1)[0][0], UNRESOLVED_COLOR)
        note = f"{share.count}/{share.total}"
        items.append((category.replace("_", " "), share.value, note, fill))
    chips = " ".join(
        '<button class="badge" type="button" data-filter=\''
        + escape(json.dumps({"run": r.label, "category": c}))
        + f"'>{escape(c.replace('_', ' '))}</button>"
        for c in f.by_category
    )
    faults = " · ".join(f"{escape(name)} {frac(x)}" for name, x in f.by_fault.items())
    sources = ", ".join(f"{n} by {s}" for s, n in sorted(f.by_source.items()))
    note = (
        f"{f.failed} failed of {f.episodes} episodes ({escape(sources)}{judged(f.judge)}); "
        f"shares below are of these {f.failed}."
    )
    if f.excluded:
        note += f" {f.excluded} failed episodes were excluded as user hallucinations."
    body = f'<p class="note">{note}</p>' + charts.hbars(items, f"{r.label}: failure categories")
    body += f'<p class="note">Fault: {faults}</p><p class="note">Browse: {chips}</p>'
    return body


def tool_use_card(r: RunSection) -> str:
    t = r.tool_use
    points = [
        (
            row.follow_ups,
            row.tool_calls,
            row.success,
            f"{row.domain}/{row.task_id}#{row.trial}: {row.tool_calls} tool calls, "
            f"{row.follow_ups} follow-ups, {'success' if row.success else 'failure'}",
        )
        for row in t.trajectories
    ]
    title = f"{r.label}: tool calls against follow-ups"
    chart = charts.scatter(points, title, "follow-up questions to the customer", "tool calls")
    stats = [
        stat(frac(t.more_tools), "more tool calls than follow-ups"),
        stat(frac(t.success_more_tools), "success when tools > follow-ups"),
        stat(frac(t.success_other), "success otherwise"),
        stat(
            f"{one_place(t.mean_tools_success)} / {one_place(t.mean_tools_failure)}",
            "tool calls: ok / fail",
        ),
        stat(
            f"{one_place(t.mean_follow_ups_success)} / {one_place(t.mean_follow_ups_failure)}",
            "follow-ups: ok / fail",
        ),
        stat(frac(t.with_lookupable), "with a lookupable ask"),
        stat(frac(t.success_with_lookupable), "success with one"),
        stat(frac(t.success_without_lookupable), "success without"),
    ]
    key = (
        f'<div class="legend"><span>{swatch(0, charts.SUCCESS, True)}success</span>'
        f"<span>{swatch(0, charts.FAILURE, True)}failure</span>"
        "<span>- - - tool calls = follow-ups</span></div>"
    )
    return key + chart + f'<div class="stats">{"".join(stats)}</div>'


HALLUCINATION_ROWS = 20
"""Flagged episodes listed per run; the episode browser's notes filter finds every one."""


def hallucinations_card(r: RunSection) -> str:
    h = r.hallucinations
    # Failures first: a flagged failure is a candidate false failure, the row that matters.
    flagged = sorted(h.episodes, key=lambda e: e.success)
    rows = [
        [
            escape(f"{e.domain}/{e.task_id}#{e.trial}"),
            "success" if e.success else "failure",
            escape(", ".join(f"#{f.message_index} {f.kind}: {f.value}" for f in e.flags)),
        ]
        for e in flagged[:HALLUCINATION_ROWS]
    ]
    body = '<div class="stats">' + stat(frac(h.flagged), "episodes with invented facts")
    body += stat(frac(h.flagged_failures), "failures with invented facts") + "</div>"
    if rows:
        body += table(["episode", "outcome", "flags (message, kind: value)"], rows)
    if len(flagged) > len(rows):
        body += (
            f'<p class="note">The first {len(rows)} of {len(flagged)} flagged episodes, '
            "failures first; filter the episodes below by <i>with user hallucinations</i> "
            "for all of them.</p>"
        )
    body += f'<p class="note">Checked by {escape(h.method)}{judged(h.judge)}'
    body += (
        f"; {h.unchecked} episodes of unknown tasks not checked.</p>" if h.unchecked else ".</p>"
    )
    return body


def hallucination_state(excluded: bool) -> str:
    """How the hallucination section's lead ends: whether flagged failures are in the figures."""
    if excluded:
        return "are left out of every figure above"
    return (
        "are included above; build with <code>--exclude-user-hallucinations</code> to leave "
        "them out"
    )
