"""Which tasks a run plays: the shipped sets, a task file or Tracer build from anywhere, and a
seeded sample stratified by domain and emotion family.

The default is the benchmark: each domain's ``tasks/<split>.jsonl`` (the 580 emotional Tracer
test tasks for ``test``); the hand-written neutral tasks are the ``dev`` set, chosen by name.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from tau_emotion.data import Task
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import load_tasks, unknown_tool
from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.errors import TaskFileError, TauEmotionError, named
from tau_emotion.runner.config import RunConfig


def family(task: Task) -> str:
    return task.emotion.family if task.emotion else NEUTRAL


def _shipped(config: RunConfig, name: str) -> list[Task]:
    domain = load_domain(name)
    wanted = config.task_file or config.split
    if config.task_file is None and wanted not in {f.stem for f in domain.task_files()}:
        # A domain without a benchmark file of its own (e.g. a new one with only dev tasks)
        # runs every task of the split rather than none.
        return domain.tasks(config.split)
    return domain.tasks(config.split, wanted)


def _build_folder_files(root: Path, config: RunConfig) -> list[Path]:
    """A Tracer build folder (OUT or OUT/tasks): <domain>/<file>.jsonl for each domain."""
    base = root / "tasks" if (root / "tasks").is_dir() else root
    name = config.task_file or config.split
    files = [base / d / f"{name}.jsonl" for d in config.domains]
    found = [f for f in files if f.exists()]
    if not found:
        # Say what the folder does hold, so a train build run without --split train (or a
        # build of two domains run against all ten) points at the option to change.
        held = sorted(f"{f.parent.name}/{f.name}" for f in base.glob("*/*.jsonl"))
        if not held:
            raise TaskFileError(
                f"{root} holds no task files (expected a Tracer build folder: "
                "tasks/<domain>/<split>.jsonl)"
            )
        more = " ..." if len(held) > 6 else ""
        raise TaskFileError(
            f"{root} holds no {name}.jsonl for domains {', '.join(config.domains)}; it holds "
            f"{', '.join(held[:6])}{more} (choose with --split, --task-file or --domain)"
        )
    return found


def load_source(path: Path, config: RunConfig) -> list[Task]:
    """Tasks of ``--tasks PATH``, in file order, of the configured domains and split."""
    what = f"{named('--tasks', 'tasks')} {path}"
    if not path.exists():
        raise TaskFileError(f"{what}: no such file or folder")
    files = _build_folder_files(path, config) if path.is_dir() else [path]
    tasks = [t for f in files for t in load_tasks(f)]
    known = set(domain_names())
    unknown = sorted({t.domain for t in tasks} - known)
    if unknown:
        raise TaskFileError(
            f"{what} holds tasks of unknown domain {unknown[0]!r}; known domains: "
            f"{', '.join(sorted(known))}"
        )
    chosen = [t for t in tasks if t.domain in config.domains and t.split == config.split]
    seen: set[tuple[str, str]] = set()
    for t in chosen:
        if (t.domain, t.id) in seen:  # both would be one episode key: one result, two plays
            raise TaskFileError(f"{what} holds task {t.domain}/{t.id} twice")
        seen.add((t.domain, t.id))
    if tasks and not chosen:
        splits = Counter(t.split for t in tasks)
        held = ", ".join(f"{n} {s}" for s, n in sorted(splits.items()))
        raise TaskFileError(
            f"{what} holds {held} tasks but none of split {config.split} in "
            f"domains {', '.join(config.domains)}; pass {named('--split', 'split')} or "
            f"{named('--domain', 'domains')} to match"
        )
    for t in chosen:
        # Fail now, naming the domain or the task, not as a framework_error in every episode.
        problem = unknown_tool(t, list(load_domain(t.domain).toolset.specs))
        if problem is not None:
            raise TaskFileError(f"{what}: task {t.domain}/{t.id}: {problem}")
    return chosen


def _spread(total: int, sizes: Sequence[int]) -> list[int]:
    """Deal `total` picks over groups one at a time, round robin, never past a group's size."""
    picks = [0] * len(sizes)
    left = min(total, sum(sizes))
    while left:
        for i, size in enumerate(sizes):
            if left and picks[i] < size:
                picks[i] += 1
                left -= 1
    return picks


def sample_tasks(tasks: Sequence[Task], n: int, seed: int) -> list[Task]:
    """A seeded sample of `n` tasks spread evenly over domains, then over emotion families.

    Within a domain, larger families get the remainder first, so five tasks of one domain
    cover five families. Each (domain, family) stratum is shuffled by its own seeded RNG and
    its first k tasks are taken, so samples are nested: a larger N keeps every task of a
    smaller one, and ``--num-tasks 20 --resume`` after ``--num-tasks 10`` only adds tasks.
    The sample keeps the input order, so it reads like the task file.
    """
    by_domain: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        by_domain[t.domain].append(t)
    domains = list(by_domain)
    chosen: set[tuple[str, str]] = set()
    for domain, share in zip(
        domains, _spread(n, [len(by_domain[d]) for d in domains]), strict=True
    ):
        by_family: dict[str, list[Task]] = defaultdict(list)
        for t in by_domain[domain]:
            by_family[family(t)].append(t)
        families = sorted(by_family, key=lambda f: (-len(by_family[f]), f))
        counts = _spread(share, [len(by_family[f]) for f in families])
        for fam, k in zip(families, counts, strict=True):
            order = list(by_family[fam])
            random.Random(f"tasks/{seed}/{domain}/{fam}").shuffle(order)
            chosen.update((t.domain, t.id) for t in order[:k])
    return [t for t in tasks if (t.domain, t.id) in chosen]


def select_tasks(config: RunConfig) -> list[Task]:
    """The tasks of a run, in order: source, then task ids, then the sample, then no-emotion."""
    if config.tasks is not None:
        tasks = load_source(config.tasks, config)
    else:
        tasks = [t for name in config.domains for t in _shipped(config, name)]
    if config.task_ids:
        tasks = _named_tasks(tasks, config.task_ids, config)
    if config.num_tasks is not None:
        tasks = sample_tasks(tasks, config.num_tasks, config.seed)
    if config.no_emotion:
        tasks = [t.model_copy(update={"emotion": None}) for t in tasks]
    return tasks


def _named_tasks(tasks: list[Task], wanted: list[str], config: RunConfig) -> list[Task]:
    """The tasks `wanted` names, in task order: a bare id (of any domain of the run) or the
    ``domain/id`` key that `tau-emotion tasks` prints and ``show`` takes."""
    ids = {t.id for t in tasks}
    keys = {f"{t.domain}/{t.id}" for t in tasks}
    missing = [w for w in wanted if w not in ids and w not in keys]
    if missing:  # a typo would otherwise shrink the run without a word
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        first = missing[0]
        domain = first.partition("/")[0] if "/" in first else None
        if domain is not None and domain not in config.domains:
            raise TauEmotionError(
                f"task {first!r}{more} is of domain {domain!r}, which this run does not play "
                f"({named('--domain', 'domains')} {','.join(config.domains)})"
            )
        raise TauEmotionError(f"no task {first!r}{more} in {task_source(config)}")
    chosen = set(wanted)
    return [t for t in tasks if t.id in chosen or f"{t.domain}/{t.id}" in chosen]


def require_tasks(config: RunConfig) -> list[Task]:
    """`select_tasks`, refusing an empty selection: options (or a task file) that choose
    nothing are a mistake to name, for `run` and `tasks` alike."""
    tasks = select_tasks(config)
    if not tasks:
        raise TauEmotionError(f"no tasks selected ({task_source(config)})")
    return tasks


def task_source(config: RunConfig) -> str:
    """Where a run's tasks come from, as an error names it."""
    if config.tasks is not None:
        return f"task file {config.tasks}"
    files = f", task file {config.task_file}" if config.task_file else ""
    return f"domains {', '.join(config.domains)}, split {config.split}{files}"
