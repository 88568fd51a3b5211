"""Named training mixes: which successful rollouts go into a fine-tuning set.

A mix is declared by a `MixSpec` (built in, or read from a YAML / JSON file) and drawn from
one or more collections. Only successes are eligible (never a rollout that broke a hard policy
rule: `Outcome.VIOLATED`). Selection is deterministic for a given spec and input, whatever
order the rollouts arrive in:

1. keep successes of the spec's domains (and families, when given), and drop exact duplicate
   conversations (the same rollout in two collections; `export.training_digest`), keeping
   the one whose whole record sorts first;
2. optionally keep at most ``max_per_task`` rollouts of any one task (seeded choice);
3. cap each domain (``per_domain_cap``, ``domain_caps``);
4. if ``size`` is set and more remains, down-sample by *water-filling*: every domain keeps
   ``min(available, level)`` for the highest level that fits, so only the domains that
   produced the most successes lose rollouts and small domains keep all of theirs;
5. draw each domain's share with a generator seeded by (seed, domain).

Built-in mixes: ``high`` (every domain, balanced by water-filling) and ``low`` (airline,
retail, telecom and telehealth only); both default to the same size, so comparing models
trained on them isolates the effect of domain diversity from the amount of data.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tau_emotion.analysis.runs import family_of
from tau_emotion.analysis.stats import mean_or_none
from tau_emotion.data import Episode
from tau_emotion.domains import domain_names
from tau_emotion.emotions.space import NEUTRAL
from tau_emotion.errors import TauEmotionError, describe
from tau_emotion.evaluation.metrics import group_by
from tau_emotion.inputs import InputError, read_text
from tau_emotion.storage import model_json, parse_jsonl, write_atomic
from tau_emotion.training.export import (
    DATASET_INFO_FILE,
    SHAREGPT_FILE,
    TRL_FILE,
    distinct_rows,
    read_dataset_info,
)
from tau_emotion.training.outcomes import Outcome, classify, tool_call_count

EPISODES_FILE = "episodes.jsonl"
COMPOSITION_FILE = "composition.json"
DEFAULT_MIX_SIZE = 5000


class MixError(TauEmotionError):
    """A mix spec is invalid, unknown, or names unknown domains."""


class MixSpec(BaseModel):
    """A named, seeded recipe for drawing a training set from successful rollouts."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Mix name (a folder name).")
    description: str = Field(default="", description="What the mix is for.")
    domains: list[str] | Literal["all"] = Field(
        default="all", description="Domains to draw from, or 'all' (every domain present)."
    )
    families: list[str] | None = Field(
        default=None, description=f"Only these emotion families ({NEUTRAL!r} = neutral); None: all."
    )
    size: int | None = Field(
        default=None, ge=1, description="Total rollouts; None keeps all that pass the caps."
    )
    per_domain_cap: int | None = Field(
        default=None, ge=1, description="At most this many rollouts from any one domain."
    )
    domain_caps: dict[str, int] = Field(
        default_factory=dict, description="Per-domain caps that override per_domain_cap."
    )
    max_per_task: int | None = Field(
        default=None, ge=1, description="At most this many rollouts of one task (trials > 1)."
    )
    seed: int = Field(default=0, description="Seed of every random choice in the mix.")


BUILTIN_MIXES: dict[str, MixSpec] = {
    "high": MixSpec(
        name="high",
        description="High diversity: every domain; the most productive domains down-sampled.",
        domains="all",
        size=DEFAULT_MIX_SIZE,
    ),
    "low": MixSpec(
        name="low",
        description="Low diversity: airline, retail, telecom and telehealth only.",
        domains=["airline", "retail", "telecom", "telehealth"],
        size=DEFAULT_MIX_SIZE,
    ),
}


class SpecFile(BaseModel):
    """A spec file: ``{"mixes": [...]}``, or a single mix object."""

    model_config = ConfigDict(extra="forbid")

    mixes: list[MixSpec] = Field(min_length=1, description="The mixes the file declares.")


def read_spec_file(path: Path) -> dict[str, MixSpec]:
    """Mixes declared in a YAML (.yaml / .yml) or JSON file, by name."""
    try:
        text = read_text(path, "mix spec")  # names the file when it is missing or not UTF-8
    except InputError as exc:
        raise MixError(str(exc)) from None
    raw: Any
    if path.suffix in (".yaml", ".yml"):
        try:
            # Untyped on purpose: PyYAML ships no type stubs, and the check must not depend
            # on whether types-PyYAML is installed.
            yaml: Any = importlib.import_module("yaml")
        except ImportError:
            raise MixError("YAML mix specs need PyYAML (pip install pyyaml); or use JSON") from None
        try:
            raw = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise MixError(f"{path}: not valid YAML: {exc}") from None
    else:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MixError(f"{path}: not valid JSON: {exc}") from None
    try:
        if isinstance(raw, dict) and "mixes" in raw:
            specs = SpecFile.model_validate(raw).mixes
        else:
            specs = [MixSpec.model_validate(raw)]
    except ValidationError as exc:
        # describe: pydantic's own text spans lines and ends in a URL; this is one line.
        raise MixError(f"{path}: not a valid mix spec: {describe(exc)}") from None
    return {s.name: s for s in specs}


def resolve_spec(name: str, spec_file: Path | None = None) -> MixSpec:
    """A mix by name: from the spec file first, then the built-ins."""
    return resolve_specs([name], spec_file)[0]


def resolve_specs(names: Sequence[str], spec_file: Path | None = None) -> list[MixSpec]:
    """Every named mix (spec file first, then the built-ins), or `MixError` naming the
    unknown ones; the file is read once, and nothing is built before all names resolve."""
    declared = read_spec_file(spec_file) if spec_file is not None else {}
    available = BUILTIN_MIXES | declared
    unknown = [n for n in names if n not in available]
    if unknown:
        shown = ", ".join(repr(n) for n in unknown)
        where = f" (in {spec_file} or built in)" if spec_file is not None else ""
        word = "mix" if len(unknown) == 1 else "mixes"
        known = ", ".join(sorted(available))
        raise MixError(f"unknown {word} {shown}{where}; known mixes: {known}")
    return [available[n] for n in names]


def water_fill(available: dict[str, int], size: int) -> dict[str, int]:
    """Shares summing to min(size, total): the largest domains are cut first, evenly."""
    if sum(available.values()) <= size:
        return dict(available)
    lo, hi = 0, max(available.values())
    while lo < hi:  # the highest level whose capped total still fits in `size`
        mid = (lo + hi + 1) // 2
        if sum(min(a, mid) for a in available.values()) <= size:
            lo = mid
        else:
            hi = mid - 1
    shares = {d: min(a, lo) for d, a in available.items()}
    left = size - sum(shares.values())
    # Fewer than one extra each is left for the domains above the level: the largest (then
    # alphabetical first) get them, so the result does not depend on input order.
    above = sorted((d for d, a in available.items() if a > lo), key=lambda d: (-available[d], d))
    for d in above[:left]:
        shares[d] += 1
    return shares


class DomainShare(BaseModel):
    """How one domain fared in a mix."""

    model_config = ConfigDict(extra="forbid")

    successes: int = Field(description="Eligible successes available.")
    duplicates: int = Field(
        default=0, description="Of those, exact duplicates of another's conversation (dropped)."
    )
    after_caps: int = Field(description="Left after per-task and per-domain caps.")
    selected: int = Field(description="In the mix.")


class MixComposition(BaseModel):
    """``composition.json``: what a mix holds and where it came from."""

    model_config = ConfigDict(extra="forbid")

    spec: MixSpec = Field(description="The resolved spec.")
    sources: list[str] = Field(description="Collection directories the mix was drawn from.")
    rollouts_seen: int = Field(description="Rollouts in the sources, all classes.")
    successes: int = Field(description="Eligible successes (spec domains and families).")
    violated: int = Field(
        default=0,
        description="Rollouts of the spec's domains and families that reached the goal but "
        "broke a hard policy rule (never eligible).",
    )
    duplicates_dropped: int = Field(
        default=0,
        description="Eligible successes dropped as exact duplicates of another's conversation.",
    )
    selected: int = Field(description="Rollouts in the mix.")
    shortfall: int = Field(description="How many fewer than the requested size.")
    tasks: int = Field(description="Distinct tasks in the mix.")
    by_domain: dict[str, DomainShare] = Field(description="Per-domain availability and share.")
    by_family: dict[str, int] = Field(description="Selected rollouts per emotion family.")
    mean_tool_calls: float | None = Field(default=None, description="Per selected rollout.")


def _sort_key(episode: Episode) -> tuple[str, str, int, str]:
    # Two collections can hold the same (domain, task, trial); a digest of the whole record
    # breaks the tie, so only byte-identical records tie and the order (hence every seeded
    # draw by position) never depends on which source came first.
    digest = hashlib.sha1(model_json(episode).encode(), usedforsecurity=False).hexdigest()
    return (episode.domain, episode.task_id, episode.trial, digest)


def build_mix(
    spec: MixSpec, episodes: Iterable[Episode], sources: list[str] | None = None
) -> tuple[list[Episode], MixComposition]:
    """Select a mix's rollouts (sorted by domain, task, trial) and describe it."""
    known = domain_names()
    wanted = known if spec.domains == "all" else spec.domains
    unknown = sorted(set(wanted) - set(known)) + sorted(set(spec.domain_caps) - set(known))
    if unknown:
        raise MixError(f"mix {spec.name}: unknown domains {', '.join(unknown)}")
    seen = violated = 0
    pool: dict[str, list[Episode]] = defaultdict(list)
    for e in episodes:
        seen += 1
        if e.domain not in wanted:
            continue
        if spec.families is not None and family_of(e) not in spec.families:
            continue
        outcome = classify(e)
        violated += outcome == Outcome.VIOLATED
        if outcome == Outcome.SUCCESS:
            pool[e.domain].append(e)

    capped: dict[str, list[Episode]] = {}
    distinct: dict[str, int] = {}
    for domain in sorted(pool):
        # Sorting first makes every seeded choice, and which copy of a duplicate stays,
        # independent of the input order.
        items, _ = distinct_rows(sorted(pool[domain], key=_sort_key), keep_reasoning=True)
        distinct[domain] = len(items)
        rng = random.Random(f"{spec.seed}:{domain}")
        if spec.max_per_task is not None:
            by_task = group_by(items, lambda e: e.task_id)
            items = sorted(
                (
                    e
                    for task_id in sorted(by_task)
                    for e in rng.sample(
                        by_task[task_id], min(spec.max_per_task, len(by_task[task_id]))
                    )
                ),
                key=_sort_key,
            )
        cap = spec.domain_caps.get(domain, spec.per_domain_cap)
        if cap is not None and len(items) > cap:
            items = sorted(rng.sample(items, cap), key=_sort_key)
        capped[domain] = items

    available = {d: len(items) for d, items in capped.items()}
    shares = water_fill(available, spec.size) if spec.size is not None else available
    selected: list[Episode] = []
    for domain, items in capped.items():
        rng = random.Random(f"{spec.seed}:{domain}:size")
        chosen = items if shares[domain] == len(items) else rng.sample(items, shares[domain])
        selected.extend(sorted(chosen, key=_sort_key))

    by_family: dict[str, int] = defaultdict(int)
    for e in selected:
        by_family[family_of(e)] += 1
    composition = MixComposition(
        spec=spec,
        sources=sources or [],
        rollouts_seen=seen,
        successes=sum(len(v) for v in pool.values()),
        violated=violated,
        duplicates_dropped=sum(len(pool[d]) - n for d, n in distinct.items()),
        selected=len(selected),
        shortfall=max(0, (spec.size or 0) - len(selected)),
        tasks=len({(e.domain, e.task_id) for e in selected}),
        by_domain={
            d: DomainShare(
                successes=len(pool.get(d, [])),
                duplicates=len(pool.get(d, [])) - distinct.get(d, 0),
                after_caps=available.get(d, 0),
                selected=shares.get(d, 0),
            )
            for d in sorted(wanted)
        },
        by_family=dict(sorted(by_family.items())),
        mean_tool_calls=mean_or_none(tool_call_count(e) for e in selected),
    )
    return selected, composition


class StaleExports(BaseModel):
    """What an earlier export left in a mix folder that a rewrite of the mix would make stale."""

    model_config = ConfigDict(extra="forbid")

    files: list[Path] = Field(default_factory=list, description="trl.jsonl, sharegpt.json.")
    entries: list[str] = Field(
        default_factory=list, description="dataset_info.json entries naming sharegpt.json."
    )
    dataset_info: dict[str, Any] = Field(
        default_factory=dict, description="The dataset_info.json entries that stay."
    )

    def describe(self) -> str:
        """One line naming what goes ('' when nothing does)."""
        parts = [p.name for p in self.files]
        if self.entries:
            names = ", ".join(self.entries)
            parts.append(f"{DATASET_INFO_FILE} entry {names}")
        return ", ".join(parts)


def stale_exports(folder: Path) -> StaleExports:
    """The exports of an earlier mix in `folder`; `ExportError` naming a damaged
    ``dataset_info.json`` (read here, before anything is written)."""
    files = [folder / f for f in (TRL_FILE, SHAREGPT_FILE) if (folder / f).is_file()]
    info = read_dataset_info(folder)
    # Only the entries that point at sharegpt.json: others there declare other datasets.
    stale = [
        name
        for name, entry in info.items()
        if isinstance(entry, dict) and entry.get("file_name") == SHAREGPT_FILE
    ]
    rest = {name: entry for name, entry in info.items() if name not in stale}
    return StaleExports(files=files, entries=stale, dataset_info=rest)


def remove_exports(folder: Path, stale: StaleExports) -> None:
    """Delete the stale export files and dataset_info.json entries `stale` lists."""
    for path in stale.files:
        path.unlink(missing_ok=True)
    if stale.entries:
        info = folder / DATASET_INFO_FILE
        if stale.dataset_info:
            write_atomic(info, json.dumps(stale.dataset_info, indent=2) + "\n")
        else:  # it declared only this mix's dataset
            info.unlink(missing_ok=True)


def write_mix(
    out: Path,
    episodes: list[Episode],
    composition: MixComposition,
    note: Callable[[str], None] | None = None,
) -> Path:
    """Write ``OUT/<name>/episodes.jsonl`` and ``composition.json``; returns the mix folder.

    The exports of an earlier mix there (``trl.jsonl``, ``sharegpt.json`` and their
    ``dataset_info.json`` entries) are removed first, and `note` is told what went: left
    behind, they would hold the old mix, and ``train sft --mix`` uses an existing
    ``trl.jsonl`` as it is. The episodes file holds ordinary episode records, so it also works
    as a few-shot file.
    """
    folder = out / composition.spec.name
    stale = stale_exports(folder)
    # Removed before the new files are written: a write that fails half-way then leaves the
    # old episodes without exports (re-exported from them on demand), never new episodes
    # beside old exports.
    remove_exports(folder, stale)
    if note is not None and stale.describe():
        note(f"removed the previous mix's exports from {folder}: {stale.describe()}")
    # Each file replaced whole: a failed or killed write leaves the previous mix's file, not
    # half of a new one that a later export or `train sft` would read as a smaller mix.
    write_atomic(folder / EPISODES_FILE, "".join(model_json(e) + "\n" for e in episodes))
    write_atomic(folder / COMPOSITION_FILE, model_json(composition, indent=2) + "\n")
    return folder


def read_episodes(path: Path) -> list[Episode]:
    """Episode records from a JSONL file (a mix's ``episodes.jsonl`` or a ``results.jsonl``)."""
    try:
        text = read_text(path, "episodes file")  # names the file when it is not UTF-8
    except InputError as exc:
        raise MixError(str(exc)) from None

    def refuse(lineno: int, problem: str) -> MixError:
        return MixError(f"{path}:{lineno}: not an episode record ({problem})")

    return [episode for _, episode in parse_jsonl(text, Episode, refuse)]
