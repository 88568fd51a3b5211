"""The report's outcome sections: run cards, leaderboard, per-domain bars, Pass^k curve,
policy-clean success per domain and family, domain x family heatmap and paired
emotional-vs-neutral deltas.

The section functions take the run sections and return HTML; a `*_card` function is one run's
card body, which `fmt.run_section` turns into a section (title and lead from sections.json).
`html.render` puts them in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tau_emotion.analysis.stats import rate
from tau_emotion.evaluation.metrics import Estimate, GroupMetrics
from tau_emotion.report import charts
from tau_emotion.report.build import RunSection
from tau_emotion.report.charts import pct
from tau_emotion.report.fmt import (
    est,
    families,
    family_heatmap,
    iv,
    legend,
    section,
    swatch,
    table,
)


def _clean_pass(g: GroupMetrics, k: int) -> Estimate | None:
    return g.clean_pass_hat[k] if g.clean_pass_hat is not None else None


def _maybe(e: Estimate | None, block: bool = True) -> str:
    """An estimate, or a dash for results whose policy rules were never audited."""
    return '<span class="ci">– (not audited)</span>' if e is None else est(e, block=block)


def kpis(runs: Sequence[RunSection]) -> str:
    out = []
    for i, r in enumerate(runs):
        g, k = r.metrics.overall_equal, r.metrics.k
        clean = _clean_pass(g, k)
        out.append(
            f'<div class="kpi"><div class="name">{swatch(i)}{escape(r.label)}</div>'
            f'<div class="agent">{escape(r.agent)} · user {escape(r.user)}</div>'
            f'<div class="big">{pct(g.avg.value)}</div>'
            f'<div class="sub">Avg@{k} · Pass^{k} {pct(g.pass_hat[k].value)} · '
            f"clean Pass^{k} {'–' if clean is None else pct(clean.value)} · "
            f"walked away {pct(g.dissatisfied_rate)} · {g.episodes} episodes</div></div>"
        )
    return "".join(out)


def task_set_warning(runs: Sequence[RunSection]) -> str:
    """A visible note when ranked runs did not play the same tasks (ranks then mislead)."""
    if len({r.task_set for r in runs}) <= 1:
        return ""
    sizes = ", ".join(f"{escape(r.label)}: {r.metrics.overall_tasks.tasks} tasks" for r in runs)
    return (
        '<p class="warning"><b>These runs used different task sets</b> '
        f"({sizes}), so their ranks compare different questions. Rank runs of the same "
        "task selection (same domains, task file and --num-tasks sample).</p>"
    )


def k_warning(runs: Sequence[RunSection], k: int) -> str:
    """A visible note when ranked runs have different k: their Pass^k columns are then shown
    at the smallest, `k`, which every run has (Pass^j is defined for every j up to its k)."""
    if len({r.metrics.k for r in runs}) <= 1:
        return ""
    ks = ", ".join(f"{escape(r.label)}: k = {r.metrics.k}" for r in runs)
    return (
        '<p class="warning"><b>These runs have different numbers of trials per task</b> '
        f"({ks}). Pass^k, pass@k and clean Pass^k below are all at k = {k}, the smallest, so "
        "that the columns compare; each run's own k is in its tasks cell, its card above and "
        "the Pass^k curve.</p>"
    )


def run_warnings(runs: Sequence[RunSection]) -> str:
    """Each run's warnings (an unfinished run, uneven trials, tasks not found, a judge that
    did not answer), where the ranking is read."""
    return "".join(
        f'<p class="warning"><b>{escape(r.label)}</b>: {escape(w)}</p>'
        for r in runs
        for w in r.warnings
    )


def ranks(values: Sequence[float]) -> list[int]:
    """Competition ranks, best first: equal values share a rank ("1, 1, 1, 4"). Values equal
    to 12 places are equal (the same share reached by another sum of floats)."""
    keys = [round(v, 12) for v in values]
    return [1 + sum(other > key for other in keys) for key in keys]


def _errors(g: GroupMetrics) -> str:
    if not g.errors:
        return "0"
    kinds = ", ".join(f"{n} {escape(name)}" for name, n in g.errors.items())
    return f'{g.error_count}<span class="sub">{kinds}</span>'


def leaderboard(runs: Sequence[RunSection]) -> str:
    order = sorted(range(len(runs)), key=lambda i: -runs[i].metrics.overall_equal.avg.value)
    rank = ranks([runs[i].metrics.overall_equal.avg.value for i in order])
    common = min(r.metrics.k for r in runs)
    rows = []
    for place, i in zip(rank, order, strict=True):
        r = runs[i]
        g, k = r.metrics.overall_equal, r.metrics.k
        walked = rate(round(g.dissatisfied_rate * g.episodes), g.episodes)
        meter = f'<span class="meter"><i style="width:{g.avg.value * 100:.0f}%"></i></span>'
        rows.append(
            [
                str(place),
                f"{swatch(i)} <b>{escape(r.label)}</b>"
                f'<span class="sub">{escape(r.agent)} · user {escape(r.user)}</span>',
                f'{g.tasks}<span class="sub">{g.episodes} episodes, k = {k}</span>',
                pct(g.avg.value) + meter + est(g.avg, block=True).split(" ", 1)[1],
                est(g.pass_hat[common], block=True),
                est(g.pass_at[common], block=True),
                _maybe(g.clean_avg),
                _maybe(_clean_pass(g, common)),
                est(walked, block=True),
                _errors(g),
            ]
        )
    at = "k" if common == max(r.metrics.k for r in runs) else str(common)
    head = ["#", "run (agent · user)", "tasks (n)", "Avg@k", f"Pass^{at}", f"pass@{at}"]
    head += ["clean Avg@k", f"clean Pass^{at}", "walked away", "errors"]
    lead = (
        "Runs ranked by Avg@k (mean success over the k trials of each task, domains weighted "
        "equally); equal Avg@k share a rank. Pass^k: all k trials of a task succeed; pass@k: "
        "at least one does. Clean: "
        "the same for success with no hard policy rule broken (authentication, verification, "
        'an explicit yes before each write; see <a href="#clean">Policy-clean success</a>). '
        "Brackets: 95% bootstrap intervals over the n tasks (a Wilson interval for the walk-away "
        "rate). Errors: episodes that ended in an error (the endpoint, the framework or an "
        "unscorable task, the user simulator, the agent's protocol), each scored as a failure."
    )
    board = table(head, rows, numeric_from=2)
    notes = run_warnings(runs) + task_set_warning(runs) + k_warning(runs, common)
    body = f'{notes}<div class="card leaderboard">{board}</div>'
    return section("leaderboard", "Leaderboard", lead, body)


def domains(runs: Sequence[RunSection]) -> str:
    names = sorted({d for r in runs for d in r.metrics.domains})
    series = [
        (
            r.label,
            [iv(r.metrics.domains[d].avg) if d in r.metrics.domains else None for d in names],
        )
        for r in runs
    ]
    chart = charts.grouped_bars(
        names, series, "Avg@k per domain", y_title="Avg@k", x_title="domain"
    )
    lead = "Mean task success per domain, with 95% bootstrap intervals over the domain's tasks."
    body = f'<div class="card">{legend([r.label for r in runs])}{chart}</div>'
    return section("domains", "Success per domain", lead, body)


def pass_curve(runs: Sequence[RunSection]) -> str:
    series = [
        (r.label, [(k, iv(e)) for k, e in sorted(r.metrics.overall_equal.pass_hat.items())])
        for r in runs
    ]
    chart = charts.line_chart(series, "Pass^k against k", "k (trials that must all succeed)")
    lead = (
        "Reliability: the chance that k trials of a task all succeed. A steep fall means an agent "
        "that succeeds sometimes rather than reliably. Shaded: 95% intervals."
    )
    body = f'<div class="card">{legend([r.label for r in runs])}{chart}</div>'
    return section("passk", "Pass^k against k", lead, body)


def _clean_rows(groups: dict[str, GroupMetrics], k: int, label: str) -> list[list[str]]:
    rows = []
    for name, g in groups.items():
        clean = _clean_pass(g, k)
        gap = "–" if clean is None else f"{(clean.value - g.pass_hat[k].value) * 100:+.0f} pp"
        rows.append(
            [
                f"{label}: {escape(name)}",
                str(g.tasks),
                est(g.avg, block=True),
                _maybe(g.clean_avg),
                est(g.pass_hat[k], block=True),
                _maybe(clean),
                gap,
            ]
        )
    return rows


def clean_card(r: RunSection) -> str:
    m, k = r.metrics, r.metrics.k
    fams = m.breakdowns.get("family", {})
    by_family = {f: fams[f] for f in families(set(fams))}
    rows = _clean_rows({"domain mean": m.overall_equal}, k, "all")
    rows += _clean_rows(m.domains, k, "domain")
    rows += _clean_rows(by_family, k, "family")
    head = ["", "tasks", f"Avg@{k}", f"clean Avg@{k}", f"Pass^{k}", f"clean Pass^{k}"]
    return table([*head, "clean − plain"], rows, numeric_from=1)


def heatmap_card(r: RunSection) -> str:
    title = f"{r.label}: success by domain and emotion family"
    return family_heatmap(
        r.cells,
        lambda c: (c.value, f"{pct(c.value)} over {c.tasks} tasks, {c.episodes} ep."),
        title,
    )


def paired_card(r: RunSection) -> str | None:
    p = r.paired
    if p is None:
        return None
    if p.overall is None:
        text = (
            f"No neutral counterpart was found for any of the {len(p.unpaired)} emotional "
            "tasks. Run the same tasks with <code>--no-emotion</code> and the same agent, or "
            "use tasks with neutral twins, and pass both run directories."
        )
        return f'<p class="empty">{text}</p>'
    order = families(set(p.by_family))
    rows = [("all pairs", iv(p.overall.delta), f"n={p.overall.pairs}")]
    rows += [(f"family: {f}", iv(p.by_family[f].delta), f"n={p.by_family[f].pairs}") for f in order]
    rows += [(f"domain: {d}", iv(g.delta), f"n={g.pairs}") for d, g in p.by_domain.items()]
    worst = sorted(p.pairs, key=lambda t: t.delta)[:15]
    drops = table(
        ["emotional task", "neutral", "emotion", "emotional", "neutral", "Δ"],
        [
            [
                escape(f"{t.domain}/{t.task_id}"),
                escape(t.neutral_task_id),
                escape(t.emotion),
                pct(t.emotional_success),
                pct(t.neutral_success),
                f"{t.delta * 100:+.0f} pp",
            ]
            for t in worst
        ],
        numeric_from=3,
    )
    body = charts.forest(rows, f"{r.label}: emotional minus neutral success")
    body += f"<details><summary>Largest drops ({len(worst)} of {len(p.pairs)} pairs)</summary>"
    body += f"{drops}</details>"
    if p.unpaired:
        body += (
            f'<p class="note">{len(p.unpaired)} emotional tasks had no neutral counterpart '
            "and are not in these figures.</p>"
        )
    return body
