"""`tau-emotion tracer ...`: each stage as a command over files, and the whole build.

Heavy imports live inside the commands so that `--help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from tau_emotion.tracer.config import BuildConfig

if TYPE_CHECKING:
    from tau_emotion.data import Split
    from tau_emotion.models.base import ChatModel
    from tau_emotion.tracer.jsonl import StageName
    from tau_emotion.tracer.review import Draft
    from tau_emotion.tracer.stats import DomainStats

app = typer.Typer(
    help="Build tasks from the domains' tools: graph, walks, grounding, feelings, validation.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

DomainOpt = Annotated[str, typer.Option("--domain", help="A domain, a comma list, or 'all'.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Build folder (one subfolder per domain).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the stage (as in `build`).")]
SplitOpt = Annotated[Literal["test", "train"], typer.Option("--split", help="Task split.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", help="No progress bars.")]

DEFAULT_OUT = Path("tracer-out")
BUILD = BuildConfig(domains=[])
"""The build's defaults, which every stage command starts from (seed, workers, the oracle,
and the first round of walks with its test pool and intents): `walk` with its defaults
writes the walks `build` draws first. The later stages do not write `build`'s files: `build`
grounds each split in waves until its target passes and offers policy challenges to a share
of the walks (a `ChallengePlan` decided from the waves before), while `ground` grounds the
walks it is given in one go with the default plan: the same share of challenges, without the
build's per-rule balancing or hunt."""

STAGE_COMMANDS: dict[StageName, str] = {
    "walks": "walk",
    "ground": "ground",
    "feel": "feel",
    "validate": "validate",
}
"""The command that writes each stage's file (named when a later stage finds none)."""


def _domains(spec: str, option: str = "--domain") -> list[str]:
    """Every tracer command spells it the same: a name, a comma list or 'all'."""
    from tau_emotion.domains import resolve_domains
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.inputs import InputError

    try:
        return resolve_domains(spec)
    except TauEmotionError as exc:
        raise InputError(f"{option}: {exc}") from None


def _split(value: str) -> Split:
    from tau_emotion.inputs import InputError

    if value == "test":
        return "test"
    if value == "train":
        return "train"
    raise InputError(f"--split {value!r} must be test or train")


def _stage_files(
    domain: str, out: Path, split: str, reads: StageName, writes: StageName
) -> list[tuple[str, Path, Path]]:
    """Each domain of --domain, with the file a stage of one split reads and the one it
    writes (the walks are one file for both splits). Every input is checked before the
    stage writes anything: with none to read, a stage used to write an empty file and exit
    0, and a later stage or `stats` took that for a finished stage with nothing in it."""
    from tau_emotion.inputs import InputError
    from tau_emotion.tracer.jsonl import stage_path

    files = []
    for name in _domains(domain):
        source = stage_path(out, name, reads, None if reads == "walks" else _split(split))
        if not source.is_file():
            split_opt = "" if reads == "walks" else f" --split {split}"
            before = f"tau-emotion tracer {STAGE_COMMANDS[reads]} --domain {name}{split_opt}"
            problem = "is a folder, not a file" if source.is_dir() else "does not exist"
            raise InputError(f"{source} {problem}: run `{before} --out {out}` first")
        files.append((name, source, stage_path(out, name, writes, _split(split))))
    return files


def _model(name: str | None, base_url: str | None) -> ChatModel | None:
    """The model of --model / --judge-model; --base-url is checked whenever given, so a typo
    fails here, in one line, rather than as a traceback at the first request."""
    from tau_emotion.inputs import check_base_url

    if base_url is not None:
        check_base_url(base_url, "--base-url")
    if name is None:
        return None
    from tau_emotion.models.factory import make_model
    from tau_emotion.models.openai_compat import ModelConfig

    return make_model(ModelConfig(model=name, base_url=base_url))


SHOWN_DIFFERENCES = 5
"""Differences `graph --check` names per domain: one new alias can touch dozens of nodes and
edges, and the first few say what happened (`graph_diff` lists them all)."""


def _first(lines: list[str]) -> str:
    """The first `SHOWN_DIFFERENCES` lines, and how many more there are."""
    shown = "; ".join(lines[:SHOWN_DIFFERENCES])
    more = len(lines) - SHOWN_DIFFERENCES
    return f"{shown}; and {more} more" if more > 0 else shown


@app.command("graph")
def graph_cmd(
    domain: DomainOpt,
    check: Annotated[
        bool, typer.Option("--check", help="Only compare with the committed graph.")
    ] = False,
    model: Annotated[str | None, typer.Option("--model", help="Let a model propose edges.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Its endpoint.")] = None,
) -> None:
    """Build, review, render and commit a domain's tool graph (domains/<name>/tracer/)."""
    from tau_emotion.tracer.graph import (
        build_graph,
        graph_diff,
        graph_path,
        left_out_writes,
        load_graph,
        policy_problems,
        save_graph,
    )
    from tau_emotion.tracer.graph.render import write_renderings
    from tau_emotion.tracer.profile import load_profile

    chat = _model(model, base_url)  # checked before the first domain's graph is written
    failed = False
    for name in _domains(domain):
        profile = load_profile(name)
        fresh = build_graph(profile)
        if chat is not None:
            from tau_emotion.tracer.llm import propose_graph

            fresh = propose_graph(chat, profile, fresh)
        problems = policy_problems(fresh)
        for tool, why in left_out_writes(fresh, profile.domain.tool_kinds).items():
            # Said here, not only in graph.md: a write left out of the graph gets no task.
            typer.echo(f"warning: {name}: write tool {tool} left out of the graph: {why}", err=True)
        if check:
            diff = (
                graph_diff(load_graph(profile), fresh)
                if graph_path(profile).exists()
                else ["not committed"]
            )
            failed |= bool(diff or problems)
            typer.echo(f"{name}: " + (_first(diff + problems) or "committed graph is current"))
            continue
        path = save_graph(profile, fresh)
        written = write_renderings(fresh, path.parent)
        typer.echo(
            f"{name}: {len(fresh.nodes)} tools, {len(fresh.edges)} edges -> "
            + ", ".join(str(p) for p in [path, *written])
        )
        for p in problems:
            typer.echo(f"  policy problem: {p}")
        failed |= bool(problems)
    if failed:
        raise typer.Exit(1)


@app.command("walk")
def walk_cmd(
    domain: DomainOpt,
    out: OutOpt = DEFAULT_OUT,
    n: Annotated[
        int | None,
        typer.Option(
            "--n",
            min=1,
            help="Walks to sample; default: as `build`'s first round, the larger of "
            f"{BUILD.walk_samples} and twice the test walks.",
        ),
    ] = None,
    seed: SeedOpt = BUILD.seed,
    test_walks: Annotated[
        int | None,
        typer.Option(
            "--test-walks",
            min=1,
            help="Distinct walks for test; default: the domain's own number (its "
            f"TracerSpec.test_walks), else {BUILD.test_walks}.",
        ),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Sample walks over the committed graph; repeated tool sequences are dropped."""
    from tau_emotion.inputs import writable_folder
    from tau_emotion.tracer.jsonl import check_settings, stage_path
    from tau_emotion.tracer.profile import load_profile
    from tau_emotion.tracer.walks import run_walks, walk_settings

    names = _domains(domain)
    writable_folder(out, "--out")
    todo = []
    for name in names:
        profile = load_profile(name)
        pool = test_walks if test_walks is not None else BUILD.test_walks_of(profile)
        path = stage_path(out, name, "walks")
        # Every domain's file is checked before the first is written.
        check_settings(path, walk_settings(profile.graph, seed, pool, BUILD.walk_config()))
        todo.append((name, profile, pool, path))
    for name, profile, pool, path in todo:
        samples = n if n is not None else BUILD.first_samples(pool)
        walks = run_walks(
            profile, profile.graph, path, samples, seed, pool, BUILD.walk_config(), not quiet
        )
        # Counted by trace, not by line: a file from before settings were recorded may hold
        # another run's walks, which repeat traces.
        traces = len({w.trace for w in walks})
        test = sum(w.split == "test" for w in walks)
        line = f"{name}: {traces} distinct traces ({test} test, {len(walks) - test} train)"
        if traces < len(walks):
            line += f"; {len(walks) - traces} walks repeat an earlier trace"
        typer.echo(line)


@app.command("ground")
def ground_cmd(
    domain: DomainOpt,
    split: SplitOpt = "test",
    out: OutOpt = DEFAULT_OUT,
    seed: SeedOpt = BUILD.seed,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="First N walks only.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes.")] = BUILD.workers,
    quiet: QuietOpt = False,
) -> None:
    """Ground walks on the split's database: gold actions, final hash, the customer's side.

    Unlike `build`, which grounds in waves and balances the policy challenges it offers by
    rule, this grounds the walks in one go and offers challenges at the default share, so
    its file is not the one `build` writes."""
    from tau_emotion.tracer.ground import ground_settings, run_ground
    from tau_emotion.tracer.jsonl import check_settings
    from tau_emotion.tracer.profile import load_profile

    files = _stage_files(domain, out, split, "walks", "ground")
    for _, _, grounded in files:
        check_settings(grounded, ground_settings(seed))  # all before the first is written
    for name, walks, grounded in files:
        profile = load_profile(name)
        results = run_ground(profile, walks, grounded, seed, workers, split, limit, show=not quiet)
        ok = sum(r.candidate is not None for r in results)
        typer.echo(f"{name}/{split}: {ok} of {len(results)} walks grounded")


@app.command("feel")
def feel_cmd(
    domain: DomainOpt,
    split: SplitOpt = "test",
    out: OutOpt = DEFAULT_OUT,
    seed: SeedOpt = BUILD.seed,
    quiet: QuietOpt = False,
) -> None:
    """Write each candidate's feeling and map it to an emotion condition (twins for test)."""
    from tau_emotion.tracer.feel import default_mapper, feel_settings, run_feel
    from tau_emotion.tracer.jsonl import check_settings

    mapper = default_mapper(seed)
    files = _stage_files(domain, out, split, "ground", "feel")
    for _, _, felt_path in files:
        check_settings(felt_path, feel_settings(seed, mapper))  # all before the first is written
    for name, grounded, felt_path in files:
        felt = run_feel(grounded, felt_path, seed, mapper, show=not quiet)
        kept = sum(f.candidate is not None for f in felt)
        typer.echo(f"{name}/{split}: {kept} felt ({mapper.name})")


@app.command("validate")
def validate_cmd(
    domain: DomainOpt,
    split: SplitOpt = "test",
    out: OutOpt = DEFAULT_OUT,
    oracle: Annotated[bool, typer.Option(help="Also run the oracle episode.")] = BUILD.run_oracle,
    judge: Annotated[str | None, typer.Option("--judge-model", help="LLM judge.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Its endpoint.")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Keep candidates that pass every check; record why the others failed."""
    from tau_emotion.tracer.jsonl import check_settings
    from tau_emotion.tracer.profile import load_profile
    from tau_emotion.tracer.validate import run_validate, validate_settings

    judge_model = _model(judge, base_url)
    files = _stage_files(domain, out, split, "feel", "validate")
    for _, _, validated in files:
        # All before the first is written.
        check_settings(validated, validate_settings(oracle, judge_model))
    for name, felt, validated in files:
        profile = load_profile(name)
        verdicts = run_validate(profile, felt, validated, oracle, judge_model, show=not quiet)
        kept = sum(v.accepted for v in verdicts)
        typer.echo(f"{name}/{split}: {kept} of {len(verdicts)} accepted")


@app.command("build")
def build_cmd(
    domain: Annotated[
        # None, shown as 'all': a --domain given with --domains must be told from the default.
        str | None,
        typer.Option("--domain", help="A domain, a comma list, or 'all'.", show_default="all"),
    ] = None,
    domains_alias: Annotated[
        str | None, typer.Option("--domains", hidden=True, help="Old spelling of --domain.")
    ] = None,
    split: Annotated[
        Literal["test", "train", "both"], typer.Option("--split", help="Splits to build.")
    ] = "both",
    out: OutOpt = DEFAULT_OUT,
    seed: SeedOpt = BUILD.seed,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Processes for grounding.")
    ] = BUILD.workers,
    train_total: Annotated[
        int, typer.Option(min=0, help="Train tasks over all domains.")
    ] = BUILD.train_total,
    install: Annotated[
        bool,
        typer.Option(
            help="Also write the task files into the installed domain folders (for shipping "
            "a new benchmark; to use a build, pass --tasks OUT to run / collect instead)."
        ),
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Every stage end to end; writes OUT/tasks/<domain>/{test,test_neutral,train}.jsonl."""
    from tau_emotion.inputs import InputError
    from tau_emotion.tracer.build import check_build_folder, run_build
    from tau_emotion.tracer.config import TRAIN_ONLY_NONE
    from tau_emotion.tracer.stats import write_stats

    if domain is not None and domains_alias is not None:
        # The old spelling used to win without a word, so a build ran other domains.
        raise InputError(
            f"--domain {domain!r} and --domains {domains_alias!r} both given: "
            "use --domain alone (--domains is its old spelling)"
        )
    if split == "train" and train_total == 0:
        raise InputError(f"--train-total 0 with --split train: {TRAIN_ONLY_NONE}")
    splits: list[Split] = ["test", "train"] if split == "both" else [_split(split)]
    # Only a missing --domain means all: an empty one (a script's unset "$D") used to start
    # a build of every domain, where the stage commands refuse it.
    names = (
        _domains(domains_alias, "--domains")
        if domains_alias is not None
        else _domains(domain if domain is not None else "all")
    )
    check_build_folder(out, "--out")  # before the domains' profiles take their time
    config = BuildConfig(
        domains=names,
        splits=splits,
        seed=seed,
        workers=workers,
        train_total=train_total,
    )
    final = run_build(config, out, install=install, show=not quiet)
    stats = write_stats(out)
    _say_shortfalls(config, out, stats)
    _say_idle_writes(out, stats)
    typer.echo(f"tasks in {final}; statistics in {out / 'stats.md'}")
    typer.echo(_run_hint(out, splits))


def _run_hint(out: Path, splits: list[Split]) -> str:
    """The command that runs what the build made: `run` reads the test split unless told
    otherwise, so a train-only build's hint without --split train failed."""
    if splits == ["train"]:
        return f"run them with: tau-emotion run --tasks {out} --split train"
    hint = f"run them with: tau-emotion run --tasks {out}"
    if "train" in splits:
        hint += " (the train tasks: add --split train)"
    return hint


def _say_shortfalls(config: BuildConfig, out: Path, stats: list[DomainStats]) -> None:
    """On stderr, each split that selected fewer tasks than the build asked of it, and
    why: a build that ran short used to say only where its tasks were."""
    from tau_emotion.tracer.stats import read_targets

    short = False
    for d in stats:
        for name, s in d.splits.items():
            if s.short is not None:
                short = True
                line = f"{d.domain}: {name}: {s.selected} of {s.asked} asked; {s.short}"
                typer.echo(line, err=True)
    if config.train_total > 0:
        # A total smaller than the domains leaves some none (`train_shares`); such a split
        # grounds nothing, so the statistics do not list it.
        over = f"--train-total {config.train_total} over {len(config.domains)} domains"
        for domain, splits in read_targets(out).items():
            if splits.get("train") == 0:
                typer.echo(f"{domain}: train: none asked ({over})", err=True)
    if short and "train" in config.splits and len(config.domains) > 1:
        got = sum(d.splits["train"].selected for d in stats if "train" in d.splits)
        gap = config.train_total - got
        how = "the other domains filled the gap" if gap <= 0 else f"{gap} short"
        typer.echo(f"train: {got} of {config.train_total} asked in all ({how})", err=True)


@app.command("stats")
def stats_cmd(
    out: Annotated[Path, typer.Argument(help="A build folder.")],
    markdown: Annotated[Path | None, typer.Option("--markdown", help="Also write here.")] = None,
) -> None:
    """Per-domain statistics of a build (Markdown + JSON in the folder)."""
    from tau_emotion.tracer.stats import write_stats

    stats = write_stats(out, markdown)
    for d in stats:
        parts = [f"{s}: {x.selected} selected of {x.candidates}" for s, x in d.splits.items()]
        typer.echo(f"{d.domain}: {d.nodes} tools, {d.distinct_traces} traces; " + "; ".join(parts))
    _say_idle_writes(out, stats)


def _say_idle_writes(out: Path, stats: list[DomainStats]) -> None:
    """On stderr, each write tool of a domain that no task of a built split uses, and why
    where the graph says: a write the graph left out used to get no task without a word."""
    from tau_emotion.tracer.stats import idle_writes

    for d in stats:
        for split in d.splits:
            for tool, why in idle_writes(out, d.domain, split).items():
                typer.echo(
                    f"warning: {d.domain}: {split}: write tool {tool} is in no task{why}", err=True
                )


@app.command(
    "review",
    help="Check a build's test selection against the domains' hand reviews, or file new "
    "ones.\n\nWithout --add: how each domain's tracer/test_review.jsonl applies to the build "
    "(applied, unreviewed, stale, failing). With --add: the drafts are checked like a Tracer "
    "task (every value derivable from the instruction and known facts alone, no internal id, "
    "the twin identical but for the emotion, the oracle with the scripted user succeeds), all "
    "of them before anything is written, and the ones that pass are written into the review "
    "files.",
)
def review_cmd(
    out: Annotated[Path, typer.Argument(help="A build folder (its test selection is reviewed).")],
    domain: DomainOpt = "all",
    add: Annotated[
        Path | None,
        typer.Option(
            "--add",
            help="A JSONL file of drafts ({task_id, after, requests?, reason}): each that "
            "passes every check of the validate stage is filed in its domain's review file.",
        ),
    ] = None,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Drop the reviews the build can no longer use (stale, or of tasks it no "
            "longer selects) from the review files.",
        ),
    ] = False,
) -> None:
    """The hand review of a build's test selection (see the command's help)."""
    from tau_emotion.errors import TaskFileError
    from tau_emotion.inputs import InputError
    from tau_emotion.tracer.review import load_drafts
    from tau_emotion.tracer.review_command import check_reviews, file_drafts, reviewed_domains

    names = _domains(domain)
    drafts: list[Draft] = []
    if add is not None:
        try:
            drafts = load_drafts(add)
        except TaskFileError as exc:
            raise InputError(f"--add {exc}") from None
    present = reviewed_domains(out, names, domain)
    if add is not None:
        file_drafts(out, present, names, domain, drafts)
    else:
        check_reviews(out, present, prune)
