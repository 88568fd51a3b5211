"""The statistics report of a build: per domain, what each stage made and dropped, and why.

Graph size, distinct traces, candidates (grounded walks), rejections by reason (each
rejected candidate counted once, under its first failed check), accepted and selected tasks
(and, where a split selected fewer than the build asked of it, how many and why), the
distributions of gold-action length and intents per task, and the emotions of the selected
test tasks. Written as JSON and as Markdown.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field

from tau_emotion.domains.base import load_tasks
from tau_emotion.inputs import InputError, writable_file
from tau_emotion.storage import DamagedFileError, read_model, write_atomic
from tau_emotion.tracer.jsonl import read_jsonl
from tau_emotion.tracer.records import ToolGraph, Verdict, Walk


class SplitStats(BaseModel):
    walks: int = Field(description="Distinct walks (tool sequences) in the split's pool.")
    candidates: int = Field(description="Walks grounding was run on.")
    accepted: int = Field(description="Candidates that passed every check.")
    selected: int = Field(description="Tasks shipped.")
    asked: int | None = Field(
        default=None,
        description="Tasks the build asked of the split (None: a build from before it said).",
    )
    short: str | None = Field(
        default=None, description="Why the split selected fewer than it was asked (None: not)."
    )
    rejections: dict[str, int] = Field(description="Reason -> rejected candidates.")
    gold_length: dict[int, int] = Field(description="Gold actions per task -> tasks.")
    intents: dict[int, int] = Field(description="Intents per task -> tasks.")
    emotions: dict[str, int] = Field(description="Emotion -> selected tasks.")
    families: dict[str, int] = Field(description="Emotion family -> selected tasks.")


class DomainStats(BaseModel):
    domain: str
    nodes: int = Field(description="Tools in the graph.")
    edges: int = Field(description="Edges in the graph.")
    distinct_traces: int = Field(description="Distinct walks over both splits.")
    splits: dict[str, SplitStats]


def _reason(v: Verdict) -> str:
    """The first failed check: each rejected candidate counts once."""
    return v.reasons[0].reason if v.reasons else "unknown"


TARGETS_FILE = "targets.json"
"""Beside the stage files: per domain and split, the tasks the build asked the selection for
(`write_targets`)."""


def write_targets(out: Path, asked: Mapping[str, Mapping[str, int]]) -> None:
    """Record what the build asked of each domain's splits (``OUT/targets.json``)."""
    write_atomic(out / TARGETS_FILE, json.dumps(asked, indent=1, sort_keys=True) + "\n")


def read_targets(out: Path) -> dict[str, dict[str, int]]:
    """What `write_targets` recorded; nothing for a build from before it did."""
    path = out / TARGETS_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DamagedFileError(f"{path} cannot be read: {exc}") from None
    ok = isinstance(data, dict) and all(
        isinstance(d, dict) and all(isinstance(n, int) for n in d.values()) for d in data.values()
    )
    if not ok:
        raise DamagedFileError(f"{path} is not a JSON object of domain -> split -> tasks")
    return {d: dict(splits) for d, splits in data.items()}


UNUSABLE = (
    "repeat an end state or instruction, pass a cap, or, for train, share a test task's gold trace"
)
"""Why accepted tasks are not selected (`select.capped`, `select.held_traces`)."""


def shortfall(split: str, walks: int, candidates: int, accepted: int, selected: int) -> str:
    """Why a split selected fewer tasks than asked, from what each stage made of its pool."""
    dry = candidates >= walks
    grounded = f"all {walks} walks" if dry else f"{candidates} of its {walks} walks"
    return (
        f"{f'its {split} pool ran dry: ' if dry else ''}{grounded} grounded, {accepted} "
        f"accepted, {selected} of them usable (the rest {UNUSABLE})"
    )


def split_stats(
    out: Path, domain: str, split: str, asked: Mapping[str, Mapping[str, int]] | None = None
) -> SplitStats:
    root = out / domain
    walks = [w for w in read_jsonl(root / "walks.jsonl", Walk) if w.split == split]
    verdicts = read_jsonl(root / f"validate-{split}.jsonl", Verdict)
    task_file = out / "tasks" / domain / f"{split}.jsonl"
    tasks = load_tasks(task_file) if task_file.exists() else []
    rejections = Counter(_reason(v) for v in verdicts if not v.accepted)
    emotions = Counter(t.emotion.emotion for t in tasks if t.emotion is not None)
    families = Counter(t.emotion.family for t in tasks if t.emotion is not None)
    target = (asked if asked is not None else read_targets(out)).get(domain, {}).get(split)
    accepted = sum(v.accepted for v in verdicts)
    short = None
    if target is not None and len(tasks) < target:
        short = shortfall(split, len(walks), len(verdicts), accepted, len(tasks))
    return SplitStats(
        walks=len(walks),
        candidates=len(verdicts),
        accepted=accepted,
        selected=len(tasks),
        asked=target,
        short=short,
        rejections=dict(rejections.most_common()),
        gold_length=dict(sorted(Counter(len(t.gold_actions) for t in tasks).items())),
        intents=dict(sorted(Counter(len(t.intents) for t in tasks).items())),
        emotions=dict(emotions.most_common()),
        families=dict(families.most_common()),
    )


def _graph(out: Path, domain: str) -> ToolGraph:
    """The graph the build walked (stored with it); an older build's: the domain's own."""
    path = out / domain / "graph.json"
    if path.exists():
        return read_model(path, ToolGraph)  # a damaged one is named, not a bare traceback
    from tau_emotion.tracer.profile import load_profile

    return load_profile(domain).graph


def idle_writes(out: Path, domain: str, split: str) -> dict[str, str]:
    """The write tools no task of `split` in build `out` uses, each with why where the build's
    graph says (' (left out of the graph: <reason>)', else ''). The writes are the installed
    domain's where it is installed (a write the graph left out is one to name), else the
    graph's. A write left out of the graph is always named (no build can give it a task);
    another only when the split holds at least as many tasks as the domain has writes, since
    a smaller split must leave some unused. Read only for warnings: the statistics files do
    not change."""
    from tau_emotion.domains import domain_names, load_domain
    from tau_emotion.tracer.graph import left_out_writes

    graph = _graph(out, domain)
    if domain in domain_names():
        kinds = load_domain(domain).tool_kinds
    else:
        kinds = {n.name: n.kind for n in graph.nodes}
    writes = [tool for tool, kind in kinds.items() if kind == "write"]
    task_file = out / "tasks" / domain / f"{split}.jsonl"
    tasks = load_tasks(task_file) if task_file.exists() else []
    used = {a.name for t in tasks for a in t.gold_actions}
    left_out = left_out_writes(graph, kinds)
    enough = len(tasks) >= len(writes)
    return {
        tool: f" (left out of the graph: {left_out[tool]})" if tool in left_out else ""
        for tool in writes
        if tool not in used and (tool in left_out or enough)
    }


def domain_stats(
    out: Path, domain: str, asked: Mapping[str, Mapping[str, int]] | None = None
) -> DomainStats:
    graph = _graph(out, domain)
    walks = read_jsonl(out / domain / "walks.jsonl", Walk)
    targets = asked if asked is not None else read_targets(out)
    splits = {
        s: split_stats(out, domain, s, targets)
        for s in ("test", "train")
        if (out / domain / f"validate-{s}.jsonl").exists()
    }
    return DomainStats(
        domain=domain,
        nodes=len(graph.nodes),
        edges=len(graph.edges),
        distinct_traces=len({w.trace for w in walks}),
        splits=splits,
    )


def build_domains(out: Path) -> list[str]:
    """The domains a build folder holds (each has its walks), or `InputError`: a folder that
    is not a build used to get empty statistics files written into it, and exit 0."""
    if not out.is_dir():
        problem = "is a file, not a folder" if out.exists() else "does not exist"
        raise InputError(f"build folder {out} {problem}")
    domains = sorted(p.name for p in out.iterdir() if (p / "walks.jsonl").is_file())
    if not domains:
        raise InputError(
            f"{out} is not a Tracer build: no <domain>/walks.jsonl in it "
            f"(make one with `tau-emotion tracer build --out {out}`)"
        )
    return domains


def build_stats(out: Path) -> list[DomainStats]:
    domains = build_domains(out)
    asked = read_targets(out)
    return [domain_stats(out, d, asked) for d in domains]


def _dist(d: dict[int, int] | dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in d.items()) or "-"


def to_markdown(stats: list[DomainStats]) -> str:
    lines = ["# Tracer statistics", ""]
    lines += [
        "| domain | graph (nodes/edges) | distinct traces | split | candidates | accepted "
        "| selected |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in stats:
        for name, s in d.splits.items():
            lines.append(
                f"| {d.domain} | {d.nodes}/{d.edges} | {d.distinct_traces} | {name} "
                f"| {s.candidates} | {s.accepted} | {s.selected} |"
            )
    totals: Counter[str] = Counter()
    for d in stats:
        for name, s in d.splits.items():
            totals[name] += s.selected
    lines += ["", "Selected in all: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items()))]
    for d in stats:
        lines += ["", f"## {d.domain}", ""]
        for name, s in d.splits.items():
            selected = f"{s.selected} selected"
            if s.short is not None:
                # The counts are on the line already; say only why they fall short.
                dry = "the pool ran dry; " if s.candidates >= s.walks else ""
                selected += f" of {s.asked} asked ({dry}the other accepted tasks {UNUSABLE})"
            lines += [
                f"**{name}**: {s.walks} walks in the pool, {s.candidates} grounded, "
                f"{s.accepted} accepted, {selected}.",
                "",
                f"- rejections: {_dist(s.rejections)}",
                f"- gold actions per task: {_dist(s.gold_length)}",
                f"- intents per task: {_dist(s.intents)}",
            ]
            if s.emotions:
                lines.append(f"- emotion families: {_dist(s.families)}")
                lines.append(f"- emotions: {_dist(s.emotions)}")
            lines.append("")
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip() + "\n"


def write_stats(out: Path, markdown: Path | None = None) -> list[DomainStats]:
    """Write OUT/stats.json, OUT/stats.md and `markdown`. Every input is read and checked
    first, so a bad one (--markdown a folder, a damaged stage file) leaves nothing written;
    each file is replaced whole."""
    stats = build_stats(out)
    if markdown is not None:
        writable_file(markdown, "--markdown")
    text = to_markdown(stats)
    write_atomic(
        out / "stats.json", "[\n" + ",\n".join(s.model_dump_json() for s in stats) + "\n]\n"
    )
    write_atomic(out / "stats.md", text)
    if markdown is not None:
        write_atomic(markdown, text)
    return stats
