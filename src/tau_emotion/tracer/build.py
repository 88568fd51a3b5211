"""All stages end to end: graph -> walks -> ground -> feel -> validate -> select -> export.

Per domain and split, walks are grounded in waves (sized from the acceptance rate so far)
until enough tasks pass validation; every stage appends to its own file in the output
folder, so a killed build resumes where it stopped. Test tasks come from the first test
walks, train tasks only from train walks (the walk stage keeps the two pools' tool
sequences apart). The test set then gets full emotion coverage, and the selection is
written as task files (and, with ``install``, into the domain folders).

Each domain's `Profile` is made once, here, and handed to every stage; the worker processes
get them when the build's pool starts.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from multiprocessing.pool import Pool
from pathlib import Path

from tau_emotion.data import Split, Task
from tau_emotion.domains import Domain, load_domain
from tau_emotion.domains.base import write_tasks
from tau_emotion.inputs import InputError, writable_folder
from tau_emotion.tracer.config import BuildConfig
from tau_emotion.tracer.feel import FeelingMapper, default_mapper, feel_settings, run_feel
from tau_emotion.tracer.feel.coverage import enforce_coverage
from tau_emotion.tracer.ground import ground_settings, run_ground, worker_pool
from tau_emotion.tracer.ground.challenge import CHALLENGE_SHARE, ChallengePlan
from tau_emotion.tracer.jsonl import (
    Settings,
    StageName,
    check_settings,
    read_jsonl,
    stage_path,
)
from tau_emotion.tracer.profile import Profile, profile_for
from tau_emotion.tracer.records import GroundResult
from tau_emotion.tracer.review import (
    WRITTEN,
    WRITTEN_TWINS,
    apply_reviews,
    load_reviews,
    review_path,
    test_candidates,
)
from tau_emotion.tracer.select import (
    Selection,
    admissible,
    capped,
    challenge_quota,
    challenge_rule,
    install_tasks,
    is_challenge,
    select,
)
from tau_emotion.tracer.stats import write_targets
from tau_emotion.tracer.validate import run_validate, validate_settings
from tau_emotion.tracer.walks import run_walks, walk_settings


def _grounded_ids(out: Path, domain: str, split: Split) -> set[str]:
    return {r.walk_id for r in read_jsonl(stage_path(out, domain, "ground", split), GroundResult)}


def build_split(
    config: BuildConfig,
    out: Path,
    profile: Profile,
    split: Split,
    target: int,
    mapper: FeelingMapper,
    show: bool = True,
    pool: Pool | None = None,
) -> int:
    """Ground, feel and validate walks of one split in waves until `target` tasks pass."""
    domain = profile.name
    graph = profile.graph
    walk_config = config.walk_config()
    walks_path = stage_path(out, domain, "walks")
    test_walks = config.test_walks_of(profile)
    first_samples = config.first_samples(test_walks)
    samples = first_samples
    walks = run_walks(
        profile, graph, walks_path, samples, config.seed, test_walks, walk_config, show
    )
    done = _grounded_ids(out, domain, split)
    installed = holds_installed(config)
    kept, held = _kept(out, profile.domain, split, target, installed)
    empty = 0
    # The test pool is fixed and cheap to ground: all of it is, so the selection has every
    # rule any of its walks can challenge to choose from. Train grounds until it has enough.
    exhaust = split == "test"
    while exhaust or kept < target or sum(held.values()) < challenge_quota(target):
        todo = [w for w in walks if w.split == split and w.id not in done]
        if not todo:
            if split == "test" or samples >= first_samples * 8:
                break  # the test pool is fixed; train stops after a few extensions
            samples *= 2
            walks = run_walks(
                profile,
                graph,
                walks_path,
                samples,
                config.seed,
                test_walks,
                walk_config,
                show,
            )
            continue
        rate = max(kept / len(done), 0.1) if done else 0.4
        size = max(40, int((target - kept) / rate * 1.15))
        if exhaust:
            size = max(size, EXHAUST_WAVE)
        if not done:
            size = min(size, FIRST_WAVE)  # a first look, so later waves know the rules held
        batch = {w.id for w in todo[:size]}
        # A wave for challenges alone (the split has its tasks, not its quota of challenges)
        # offers one to every walk; otherwise the share keeps the split mostly plain work.
        alone = kept >= target and not exhaust
        plan = ChallengePlan(share=1.0 if alone else CHALLENGE_SHARE, held=held, hunt=exhaust)
        ground = stage_path(out, domain, "ground", split)
        run_ground(
            profile,
            walks_path,
            ground,
            config.seed,
            config.workers,
            split,
            only=batch,
            show=show,
            pool=pool,
            plan=plan,
            settings=_ground_settings(config, profile, split),
        )
        felt = stage_path(out, domain, "feel", split)
        run_feel(ground, felt, config.seed, mapper, show)
        run_validate(
            profile, felt, stage_path(out, domain, "validate", split), config.run_oracle, None, show
        )
        done |= batch
        had = sum(held.values())
        kept, held = _kept(out, profile.domain, split, target, installed)
        if kept >= target and alone:
            empty = empty + 1 if sum(held.values()) == had else 0
            if empty >= EMPTY_CHALLENGE_WAVES:
                break  # waves for challenges alone keep finding none: this pool has no more
    return kept


EMPTY_CHALLENGE_WAVES = 6
"""Waves for challenges alone (40 walks each) that may find none in a row before a split
gives up on its challenge quota: a domain with few forbidden writes finds one in a hundred
walks or so."""


EXHAUST_WAVE = 200
"""Walks per wave at least while a test pool is ground to its end."""

FIRST_WAVE = 80
"""Walks in a split's first wave at most: the waves after it try the rules it held least
first (`ChallengePlan`)."""


def holds_installed(config: BuildConfig) -> bool:
    """Whether the build's train splits are also held apart from the domains' installed test
    sets (`held_traces`): when the build makes no test split of its own."""
    return "test" not in config.splits


def _kept(
    out: Path, domain: Domain, split: Split, target: int, installed: bool
) -> tuple[int, Counter[str]]:
    """Accepted tasks a selection of `target` could use so far, and the policy challenges
    among them by rule id."""
    verdicts = capped(admissible(out, domain, split, installed), target, domain.tool_kinds)
    return len(verdicts), Counter(challenge_rule(v) for v in verdicts if is_challenge(v))


def _ground_settings(config: BuildConfig, profile: Profile, split: Split) -> Settings:
    """A build's ground files: made in waves; the test split's plans follow its target."""
    target = config.test_target(profile) if split == "test" else None
    return ground_settings(config.seed, "build", target)


def _check_reuse(
    config: BuildConfig, out: Path, profiles: dict[str, Profile], mapper: FeelingMapper
) -> None:
    """Every stage file the build would resume was made with the build's settings, checked
    before anything is written (`InputError` naming the first that was not): a rerun with
    another seed used to keep the old walks, feelings and verdicts, redo only the coverage,
    and record the new seed in the manifest."""
    for name, profile in profiles.items():
        pool = config.test_walks_of(profile)
        walks = walk_settings(profile.graph, config.seed, pool, config.walk_config())
        check_settings(stage_path(out, name, "walks"), walks)
        for split in config.splits:
            stages: dict[StageName, Settings] = {
                "ground": _ground_settings(config, profile, split),
                "feel": feel_settings(config.seed, mapper),
                "validate": validate_settings(config.run_oracle),
            }
            for stage, settings in stages.items():
                check_settings(stage_path(out, name, stage, split), settings)


def train_shares(total: int, domains: Sequence[str]) -> dict[str, int]:
    """Each domain's first train target: an equal share of `total`, and one more each for
    the first domains (in the build's order) while a remainder is left, so that the targets
    add up to `total` (a share rounded up asked for 4 tasks of a total of 3 over two
    domains). A total the domains divide, like the default 7,600 over ten, is split as
    before."""
    share, extra = divmod(total, len(domains))
    return {d: share + (i < extra) for i, d in enumerate(domains)}


def _build_all(
    config: BuildConfig,
    out: Path,
    profiles: dict[str, Profile],
    mapper: FeelingMapper,
    show: bool,
    pool: Pool | None,
) -> dict[str, int]:
    """Build every domain and split; returns the train target each domain ended with."""
    targets = train_shares(config.train_total, config.domains)
    kept: dict[str, int] = {}
    # Every test split first: it is what gets reviewed, and no split depends on another
    # domain's (a train split reads only its own domain's test split).
    for split in config.splits:
        for domain in config.domains:
            profile = profiles[domain]
            target = config.test_target(profile) if split == "test" else targets[domain]
            got = build_split(config, out, profile, split, target, mapper, show, pool)
            if split == "train":
                kept[domain] = got
    if "train" in config.splits:
        # Domains that ran short of walks leave a gap; the others fill it. The gap is
        # rounded up per domain (the shipped train sets were built so: 7,601 of 7,600).
        short = config.train_total - sum(min(k, targets[d]) for d, k in kept.items())
        full = [d for d in config.domains if kept.get(d, 0) >= targets[d]]
        for domain in full if short > 0 else []:
            targets[domain] += -(-short // len(full))
            build_split(config, out, profiles[domain], "train", targets[domain], mapper, show, pool)
    return targets


def _reviewed(
    out: Path, profile: Profile, tasks: list[Task], twins: list[Task], show: bool
) -> tuple[list[Task], list[Task]]:
    """The test selection with the domain's hand review applied (see `tracer.review`). The
    writer's own text is kept beside it (``<domain>/written-test*.jsonl``), for reviewing a
    build; what could not be applied is said, and listed in ``<domain>/review.json``."""
    write_tasks(out / profile.name / WRITTEN, tasks)
    write_tasks(out / profile.name / WRITTEN_TWINS, twins)
    reviews = load_reviews(review_path(profile.domain.root))
    candidates = test_candidates(out, profile.name)
    tasks, twins, outcome = apply_reviews(profile, tasks, twins, candidates, reviews)
    report = out / profile.name / "review.json"
    report.write_text(json.dumps(asdict(outcome), indent=1) + "\n", encoding="utf-8")
    if show and reviews:
        for line in outcome.lines(profile.name):
            print(line, file=sys.stderr)
    return tasks, twins


MANIFEST = "manifest.json"
"""The resolved `BuildConfig` of a build's last run, in its folder."""


def _is_tracer_folder(out: Path) -> bool:
    """A build's folder (its manifest a `BuildConfig`) or a stage command's (a domain's
    walks in it)."""
    if any((p / "walks.jsonl").is_file() for p in out.iterdir() if p.is_dir()):
        return True
    try:
        BuildConfig.model_validate_json((out / MANIFEST).read_bytes())
    except (OSError, ValueError):  # missing, unreadable, not JSON, not a config
        return False
    return True


def check_build_folder(out: Path, what: str = "build folder") -> None:
    """`out` can take a build (created if needed): a new or empty folder, or one a Tracer
    build or stage wrote (a build resumes it), else `InputError` naming it. A build used
    to write its manifest, graphs and statistics into any folder, over files of the same
    name, and `--out` a file was only ``error: ...: File exists``."""
    if out.is_dir() and any(out.iterdir()) and not _is_tracer_folder(out):
        held = sorted(p.name for p in out.iterdir())
        shown = ", ".join(held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
        raise InputError(
            f"{what} {out} holds {shown} and is not a Tracer build (no build {MANIFEST}, no "
            "<domain>/walks.jsonl): use a new or empty folder"
        )
    writable_folder(out, what)


def run_build(
    config: BuildConfig,
    out: Path,
    install: bool = False,
    show: bool = True,
    domains: Sequence[Domain] = (),
) -> Path:
    """The whole pipeline; returns the folder with the selected task files. `domains` gives
    the `Domain` objects of `config.domains` (a test's own); the rest are loaded by name."""
    given = {d.name: d for d in domains}
    profiles = {n: profile_for(given.get(n) or load_domain(n)) for n in config.domains}
    mapper = default_mapper(config.seed)
    check_build_folder(out)
    _check_reuse(config, out, profiles, mapper)
    (out / MANIFEST).write_text(config.model_dump_json(indent=1) + "\n", encoding="utf-8")
    for name, profile in profiles.items():
        # The build folder keeps the graph it walked (the statistics read it there).
        (out / name).mkdir(exist_ok=True)
        (out / name / "graph.json").write_text(
            profile.graph.model_dump_json(indent=1) + "\n", encoding="utf-8"
        )
    with worker_pool(list(profiles.values()), config.workers) as pool:
        targets = _build_all(config, out, profiles, mapper, show, pool)
    selected: dict[tuple[str, Split], Selection] = {}
    asked: dict[str, dict[str, int]] = {}
    for domain in config.domains:
        for split in config.splits:
            target = config.test_target(profiles[domain]) if split == "test" else targets[domain]
            selected[(domain, split)] = select(
                out, profiles[domain].domain, split, target, holds_installed(config)
            )
            asked.setdefault(domain, {})[split] = target
    tests = [sel for (_, s), sel in sorted(selected.items()) if s == "test"]
    test = [t for ts, _, _, _ in tests for t in ts]
    situations = {k: v for _, _, _, sit in tests for k, v in sit.items()}
    covered = {t.id: t for t in enforce_coverage(test, situations, mapper, config.seed)}
    final = out / "tasks"
    for (domain, split), (tasks, twins, hashes, _) in sorted(selected.items()):
        if split == "test":
            tasks = [covered.get(t.id, t) for t in tasks]
            tasks, twins = _reviewed(out, profiles[domain], tasks, twins, show)
        write_tasks(final / domain / f"{split}.jsonl", tasks)
        if split == "test":
            write_tasks(final / domain / "test_neutral.jsonl", twins)
        if install:
            install_tasks(profiles[domain].domain, split, tasks, twins, hashes)
    (out / "mapper.json").write_text(json.dumps({"mapper": mapper.name}) + "\n", encoding="utf-8")
    # What each split was asked for beside what it got: a split that ran short (a train pool
    # that ran dry, a total the domains could not fill) used to leave fewer tasks with exit
    # 0 and no word. The statistics and the command's summary read it from here.
    write_targets(out, asked)
    return final
