"""Browse a run's episodes in the terminal: a filtered list, then one conversation.

Everything is non-interactive (flags in, text out) so it works in scripts, in CI logs and in
tests. Indices are positions in the run's full episode list (sorted by domain, task,
trial), so an index stays valid whatever filter printed it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console, Group, JustifyMethod
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tau_emotion.analysis.empathy import episode_empathy
from tau_emotion.analysis.failures import precheck
from tau_emotion.analysis.hallucination import check_episode
from tau_emotion.analysis.policy import audit_episode
from tau_emotion.analysis.runs import Run, family_of, task_index, tool_kinds
from tau_emotion.data import Episode
from tau_emotion.errors import TauEmotionError
from tau_emotion.report.episodes import outcome

OUTCOME_STYLE = {"success": "green", "failed": "red", "walked_away": "yellow", "error": "dim"}


class EpisodeNotFoundError(TauEmotionError):
    """No episode matches the selector given to `view --show`."""


def filter_episodes(
    episodes: Sequence[Episode], domain: str | None = None, failed: bool = False
) -> list[tuple[int, Episode]]:
    """(index in the run, episode) for the episodes passing the filters."""
    return [
        (i, e)
        for i, e in enumerate(episodes)
        if (domain is None or e.domain == domain) and (not failed or not e.success)
    ]


def list_table(run: Run, rows: Sequence[tuple[int, Episode]], limit: int) -> Table:
    # Labels, ids and conditions come from files: rich must print them, not read them as
    # markup (a folder 'run[qwen3]' lost its bracket, a task id holding '[/b]' crashed).
    table = Table(
        title=f"{escape(run.label)}: {len(rows)} of {len(run.episodes)} episodes",
        title_justify="left",
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"),
        ("domain", "left"),
        ("task", "left"),
        ("trial", "right"),
        ("emotion", "left"),
        ("outcome", "left"),
        ("reward", "right"),
        ("turns", "right"),
        ("tools", "right"),
        ("termination", "left"),
    )
    for col, justify in columns:
        table.add_column(col, justify=justify)
    for i, e in rows[:limit]:
        kind = outcome(e)
        turns = sum(
            m.role == "user" or (m.role == "assistant" and bool(m.content)) for m in e.messages
        )
        tools = sum(len(m.tool_calls or []) for m in e.messages)
        table.add_row(
            str(i),
            Text(e.domain),
            Text(e.task_id),
            str(e.trial),
            Text(e.emotion.condition_id if e.emotion else "neutral"),
            Text(kind.replace("_", " "), style=OUTCOME_STYLE[kind]),
            f"{e.reward:g}",
            str(turns),
            str(tools),
            e.termination.value,
        )
    if len(rows) > limit:
        table.caption = f"{len(rows) - limit} more; use --limit"
    return table


def select(episodes: Sequence[Episode], selector: str) -> tuple[int, Episode]:
    """An index ('12'), a task id ('cancel_within_24h'), optionally with its domain
    ('airline/cancel_within_24h') and trial ('...#1'); the first match wins."""
    if selector.isdigit():
        index = int(selector)
        if index < len(episodes):
            return index, episodes[index]
        raise EpisodeNotFoundError(f"no episode {index}; the run has {len(episodes)}")
    ref, _, trial = selector.partition("#")
    domain, _, task_id = ref.rpartition("/")
    for i, e in enumerate(episodes):
        same_domain = not domain or e.domain == domain
        if e.task_id == task_id and same_domain and (not trial or str(e.trial) == trial):
            return i, e
    raise EpisodeNotFoundError(f"no episode matches {selector!r}")


def _header(run: Run, index: int, e: Episode) -> Panel:
    kind = outcome(e)
    lines = [
        Text.assemble(
            ("outcome ", "bold"),
            (kind.replace("_", " "), OUTCOME_STYLE[kind]),
            f"   reward {e.reward:g}   ended {e.termination.value}   ",
            f"emotion {e.emotion.condition_id if e.emotion else 'neutral'} ({family_of(e)})",
        )
    ]
    if e.breakdown:
        b = e.breakdown
        missing = ", ".join(b.outputs_missing) or "none"
        lines.append(Text(f"{b.reason}; db match {b.db_match}; outputs missing: {missing}"))
    for err in e.errors:
        lines.append(Text(f"error ({err.kind}): {err.message}", style="red"))
    title = escape(f"#{index} {e.domain}/{e.task_id} trial {e.trial} · {run.label}")
    return Panel(Group(*lines), title=title, title_align="left")


def _notes(run: Run, e: Episode) -> list[Text]:
    """Deterministic notes: policy violations and, for failures, the pre-check label."""
    from tau_emotion.domains import domain_names, load_domain

    notes: list[Text] = []
    if e.domain not in domain_names():
        return notes
    for v in audit_episode(e, load_domain(e.domain)):
        notes.append(Text(f"policy: {v.rule_id} at #{v.message_index}: {v.detail}", style="red"))
    if not e.success:
        task = task_index([e.domain], run.split).get((e.domain, e.task_id))
        empathetic = episode_empathy(e).empathetic
        # The report's pre-check order: a value the customer invented comes before the diff.
        invented = [f.value for f in check_episode(e, task)] if task is not None else []
        fault, category, findings = precheck(e, task, tool_kinds(e.domain), empathetic, invented)
        label = f"{category} (fault: {fault})" if category else "not settled by the pre-checks"
        notes.append(Text(f"failure: {label}", style="bold red"))
        notes.extend(Text(f"  - {f}", style="red") for f in findings)
    return notes


def render_episode(run: Run, index: int, e: Episode, full: bool = False) -> Group:
    empathy = set(episode_empathy(e).turns)
    parts: list[Panel | Text] = [_header(run, index, e)]
    for i, m in enumerate(e.messages):
        if m.role == "system":
            parts.append(Text(f"[{i}] system prompt ({len(m.content or '')} chars)", style="dim"))
            continue
        if m.role == "tool":
            text = m.content or ""
            if not full and len(text) > 300:
                text = text[:300] + f"… ({len(m.content or '')} chars; --full shows all)"
            style = "red" if m.error else "dim"
            parts.append(Text(f"[{i}] ↳ {m.name or 'tool'}: {text}", style=style))
            continue
        if m.content:
            who = "customer" if m.role == "user" else "agent"
            mark = "  ♥ acknowledges feelings" if i in empathy else ""
            style = "cyan" if m.role == "user" else "green"
            parts.append(Text.assemble((f"[{i}] {who}{mark}: ", f"bold {style}"), m.content))
        for call in m.tool_calls or []:
            args = json.dumps(call.arguments, sort_keys=True)
            parts.append(Text(f"[{i}] → {call.name}({args})", style="yellow"))
    parts.extend(_notes(run, e))
    return Group(*parts)


def view(
    run: Run,
    console: Console,
    domain: str | None = None,
    failed: bool = False,
    show: str | None = None,
    limit: int = 50,
    full: bool = False,
) -> None:
    """Print the filtered list, or the one episode `show` selects."""
    if show is None:
        console.print(list_table(run, filter_episodes(run.episodes, domain, failed), limit))
        return
    index, episode = select(run.episodes, show)
    console.print(render_episode(run, index, episode, full))
