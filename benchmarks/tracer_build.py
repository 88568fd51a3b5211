"""Time the whole offline Tracer pipeline and check it regenerates the shipped sets.

    python benchmarks/tracer_build.py                # build into a temp folder, time it, compare
    python benchmarks/tracer_build.py --out DIR      # keep the build folder
    python benchmarks/tracer_build.py --install      # also write the sets into the domains
    python benchmarks/tracer_build.py --quick        # a few airline test tasks; the suite runs it

The figure to reach: the shipped test and train sets in 30 minutes or less on 2 cores,
byte-identical to the committed files (every stage is seeded). Not a test: it takes minutes.
`--quick` runs every stage on a small airline test build, so the script cannot rot; a build of
another size is not the shipped set, so it is timed but not compared.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from bench_args import QUICK_RULE, fill_defaults, output_folder, positive_int

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.tracer.build import BuildConfig, run_build
from tau_emotion.tracer.stats import write_stats

QUICK_TEST_TASKS = 4


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def compare(final: Path) -> list[str]:
    """Files of the build that differ from the ones committed in the domain folders."""
    differ: list[str] = []
    for name in domain_names():
        root = load_domain(name).root
        pairs = [
            (final / name / "test.jsonl", root / "tasks" / "test.jsonl"),
            (final / name / "train.jsonl", root / "tasks" / "train.jsonl"),
            (final / name / "test_neutral.jsonl", root / "tracer" / "test_neutral.jsonl"),
        ]
        for built, shipped in pairs:
            if not shipped.exists() or built.read_bytes() != shipped.read_bytes():
                differ.append(str(shipped))
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    parser.add_argument(
        "--out",
        type=output_folder,
        default=None,
        help="Build folder to keep (default: a temp one).",
    )
    # The build's own defaults: the shipped sets were built with them. The worker count is
    # checked here so that a bad one is a usage error, not BuildConfig's validation dump.
    defaults = BuildConfig(domains=[])
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help=f"Grounding processes (default {defaults.workers}; 1 under --quick).",
    )
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--install", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="A few airline test tasks, not compared."
    )
    args = parser.parse_args()
    if args.quick and args.install:
        parser.error("--quick builds a small set; it cannot be installed over the shipped one")
    fill_defaults(args, {"workers": defaults.workers}, quick={"workers": 1})
    out = args.out or Path(tempfile.mkdtemp(prefix="tracer-build-"))
    config = BuildConfig(domains=domain_names(), seed=args.seed, workers=args.workers)
    if args.quick:
        config = BuildConfig(
            domains=["airline"],
            splits=["test"],
            seed=args.seed,
            test_targets={"airline": QUICK_TEST_TASKS},
            walk_samples=200,
            test_walks=40,
            workers=args.workers,
        )
    wall, cpu = time.perf_counter(), cpu_seconds()
    final = run_build(config, out, install=args.install, show=False)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    stats = write_stats(out)
    test = sum(s.splits["test"].selected for s in stats if "test" in s.splits)
    train = sum(s.splits["train"].selected for s in stats if "train" in s.splits)
    print(f"build folder: {out}")
    print(f"selected: {test} test tasks (+ twins), {train} train tasks")
    print(
        f"wall time: {wall / 60:.1f} min ({wall:.0f} s); "
        f"CPU time (all processes): {cpu / 60:.1f} min ({cpu:.0f} s)"
    )
    if args.quick:
        return
    differ = compare(final)
    print("identical to the shipped sets" if not differ else "differs: " + ", ".join(differ))


if __name__ == "__main__":
    main()
