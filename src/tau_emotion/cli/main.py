"""The `tau-emotion` command. Heavy imports live inside the commands so `--help` stays fast."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tau_emotion.cli.common import choice_enum, fail
from tau_emotion.cli.errors import CliGroup, finish_run
from tau_emotion.cli.options import RunRequest, run_like_command
from tau_emotion.cli.tasks import register as register_tasks
from tau_emotion.emotions.cli import app as emotions_app
from tau_emotion.emotions.space import HEADS
from tau_emotion.report.cli import register as register_report
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.outcome import EXIT_INPUT
from tau_emotion.tracer.cli import app as tracer_app
from tau_emotion.training.cli import register as register_training

if TYPE_CHECKING:
    Breakdown = str
else:
    # `evaluation.metrics.BREAKDOWNS` are the space's heads; from the space, --help needs no
    # numpy import.
    Breakdown = choice_enum("Breakdown", HEADS)

if TYPE_CHECKING:
    from rich.console import Console

    from tau_emotion.data import Episode

app = typer.Typer(
    name="tau-emotion",
    help="Benchmark tool-calling agents serving emotional customers; build training data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=CliGroup,  # bad input anywhere: one line and exit 2, never a traceback
)
domains_app = typer.Typer(help="List domains, or regenerate their databases.")
app.add_typer(domains_app, name="domains")
app.add_typer(emotions_app, name="emotions")
app.add_typer(tracer_app, name="tracer")
register_report(app)
register_training(app)
register_tasks(app)


@domains_app.callback(invoke_without_command=True)
def domains_list(ctx: typer.Context) -> None:
    """List domains: tools (read/write/terminal), DB record counts, tasks per split.

    A domain that fails to load (its code, database or task files) is left out of the table
    and named, with the cause, in one ``error:`` line after it; the exit status is then 2.
    """
    if ctx.invoked_subcommand is not None:
        return
    from rich.table import Table

    from tau_emotion.cli.errors import print_error
    from tau_emotion.cli.tables import make_console
    from tau_emotion.domains import domain_names
    from tau_emotion.errors import TauEmotionError

    table = Table(title="Domains", title_justify="left")
    # Tasks per file: `run` plays one file (test by default, --split train, --task-file dev),
    # so a count across files would match nothing a run plays.
    for col in ("domain", "tools (r/w/t)", "databases: records", "task files: tasks"):
        table.add_column(col)
    broken = []
    for name in domain_names():
        try:
            table.add_row(*_domain_row(name))
        except TauEmotionError as exc:
            # One broken folder (a new domain's import error) must not hide the others.
            broken.append(str(exc) if name in str(exc) else f"domain {name}: {exc}")
    make_console().print(table)
    for line in broken:
        print_error(line)
    if broken:
        raise typer.Exit(EXIT_INPUT)


def _domain_row(name: str) -> tuple[str, str, str, str]:
    """One domain's row of `domains`: raises what loading its code, databases or task files
    raises."""
    from tau_emotion.domains import load_domain
    from tau_emotion.domains.base import load_tasks

    d = load_domain(name)
    kinds = list(d.tool_kinds.values())
    nr, nw, nt = (kinds.count(k) for k in ("read", "write", "terminal"))
    tools = f"{len(kinds)} ({nr}/{nw}/{nt})"
    dbs = []
    for variant in d.databases:
        counts = d.load_db(variant)[0].record_counts()
        dbs.append(f"{variant}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    order = {"test": 0, "train": 1}  # the split files first, then the others
    paths = sorted(d.task_files(), key=lambda f: (order.get(f.stem, 2), f.stem))
    files = [f"{path.stem}: {len(load_tasks(path, list(d.toolset.specs)))}" for path in paths]
    return name, tools, "\n".join(dbs), "\n".join(files)


@domains_app.command("generate")
def domains_generate(
    name: Annotated[str, typer.Argument(help="Domain name, comma list, or 'all'.")],
    check: Annotated[bool, typer.Option(help="Only check the snapshots are up to date.")] = False,
) -> None:
    """Regenerate domain database snapshots from their seeded generators."""
    from tau_emotion.domains import load_domain, resolve_domains
    from tau_emotion.domains.base import write_snapshot
    from tau_emotion.domains.state import db_digest
    from tau_emotion.errors import TauEmotionError

    try:
        names = resolve_domains(name)
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    stale = []
    for n in names:
        d = load_domain(n)
        for variant, spec in d.databases.items():
            db = spec.generate()
            path = d.root / spec.file
            if check:
                current = d.load_db(variant)[1]
                ok = db_digest(db) == current
                typer.echo(f"{n}/{variant}: {'up to date' if ok else 'STALE'}")
                if not ok:
                    stale.append(f"{n}/{variant}")
            else:
                write_snapshot(db, path)
                typer.echo(f"{n}/{variant}: wrote {path}")
    if stale:
        raise typer.Exit(code=1)


def _run(request: RunRequest) -> None:
    from rich.markup import escape

    from tau_emotion.cli.tables import make_console
    from tau_emotion.runner.outcome import outcome_of_run
    from tau_emotion.runner.run import execute_run

    console = make_console()
    config = request.config
    episodes = request.execute(execute_run, console)
    _report(config.out, episodes, console)
    for line in framework_causes(episodes):
        console.print(escape(line), soft_wrap=True)
    finish_run(outcome_of_run(config, episodes))  # exit 3/4/5 when the endpoint failed


SHOWN_CAUSES = 3
"""Distinct framework_error causes a run prints (results.jsonl holds every one)."""


def framework_causes(episodes: list[Episode]) -> list[str]:
    """A line per distinct cause of the run's framework_error episodes (the first few): the
    summary used to give only the word, and the cause (a gold action naming no tool, a
    domain's AttributeError) was left to results.jsonl."""
    from tau_emotion.cli.errors import one_line
    from tau_emotion.data import ERROR_TERMINATION, TerminationReason

    kinds = {k for k, t in ERROR_TERMINATION.items() if t == TerminationReason.FRAMEWORK_ERROR}
    causes: dict[str, list[Episode]] = {}
    for e in episodes:
        if e.termination != TerminationReason.FRAMEWORK_ERROR:
            continue
        error = next((x for x in e.errors if x.kind in kinds), None)
        message = one_line(error.message) if error is not None else "no error recorded"
        causes.setdefault(message, []).append(e)
    lines = []
    for message, hit in list(causes.items())[:SHOWN_CAUSES]:
        more = f" (and {len(hit) - 1} more episodes)" if len(hit) > 1 else ""
        lines.append(f"framework_error: {hit[0].domain}/{hit[0].task_id}{more}: {message}")
    if len(causes) > SHOWN_CAUSES:
        lines.append(f"framework_error: {len(causes) - SHOWN_CAUSES} more causes in results.jsonl")
    return lines


app.command(
    "run",
    help="Run agents against simulated users: by default the benchmark (each domain's "
    "emotional test set); results go to OUT/results.jsonl, then a table and OUT/report.html.",
)(run_like_command(RunConfig, _run, "Run the benchmark."))


def _report(out: Path, episodes: list[Episode], console: Console) -> None:
    from tau_emotion.cli.tables import print_metrics
    from tau_emotion.report.write import REPORT_FILE, write_run_outputs
    from tau_emotion.runner.results import METRICS_FILE

    outputs = write_run_outputs(out, episodes)
    if outputs.metrics is not None:
        print_metrics(outputs.metrics, console)
    where = f"report: {out}/{REPORT_FILE}"
    if outputs.report_problem is not None:  # the results are safe; a report can come later
        where = f"report not written ({outputs.report_problem}); try `tau-emotion report {out}`"
    console.print(f"results: {out}/results.jsonl   metrics: {out}/{METRICS_FILE}   {where}")


@app.command()
def metrics(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    by: Annotated[
        list[Breakdown] | None,
        typer.Option(help="Emotion breakdowns to print (repeatable).", show_default="family"),
    ] = None,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the metrics JSON here (besides RUN/metrics.json)."),
    ] = None,
) -> None:
    """Avg@k, Pass^k, pass@k per domain and per emotion group, with 95% CIs."""

    from tau_emotion.analysis.runs import load_run, run_metrics
    from tau_emotion.cli.tables import make_console, print_metrics, warning_printer
    from tau_emotion.inputs import writable_file
    from tau_emotion.report.write import refuse_run_file
    from tau_emotion.runner.results import METRICS_FILE, RESULTS_FILE
    from tau_emotion.storage import model_json, write_atomic

    path = run_dir / RESULTS_FILE
    if not path.exists():
        raise fail(f"{path} does not exist; is {run_dir} a run directory?")
    if json_out is not None:  # before RUN/metrics.json is written, not after
        writable_file(json_out, "--json")
        refuse_run_file(json_out, "--json", [run_dir], allowed=[METRICS_FILE])
    run = load_run(run_dir)  # the manifest too: it says whether the run finished
    if not run.episodes:
        raise fail(f"{path} holds no episodes")
    report = run_metrics(run)
    text = model_json(report, indent=2)
    for out in (run_dir / METRICS_FILE, *([json_out] if json_out else [])):
        write_atomic(out, text)
    print_metrics(report, make_console(), [str(b) for b in by] if by else None)
    show = warning_printer()  # after the table, where it is read last
    for warning in report.warnings:
        show(warning)


@app.command()
def show(
    ref: Annotated[str, typer.Argument(help="domain/task-id, e.g. airline/airline-w00001")],
) -> None:
    """Show a task: instruction, known facts, emotion, gold actions and outputs."""
    import json

    from rich.console import Console
    from rich.panel import Panel

    from tau_emotion.domains import load_domain
    from tau_emotion.errors import TauEmotionError

    if "/" not in ref:
        raise fail(f"expected domain/task-id, got {ref!r}")
    name, task_id = ref.split("/", 1)
    try:
        tasks = [t for t in load_domain(name).tasks() if t.id == task_id]
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    if not tasks:
        raise fail(f"no task {task_id!r} in domain {name}")
    console = Console()
    for t in tasks:
        lines = [
            f"[bold]split[/] {t.split}   [bold]user[/] {t.user_id}   "
            f"[bold]provenance[/] {t.provenance}"
        ]
        lines.append(f"\n[bold]Instruction[/]\n{t.instruction}")
        if t.known_facts:
            lines.append("\n[bold]Known facts[/]")
            lines += [f"  {k}: {v}" for k, v in t.known_facts.items()]
        if t.emotion:
            e = t.emotion
            lines.append(
                f"\n[bold]Emotion[/] {e.condition_id} ({e.family}/{e.emotion}, {e.politeness}, "
                f"{e.urgency} urgency, {e.trust})\n{e.instruction}"
            )
        for i, intent in enumerate(t.intents, start=1):
            lines.append(f"\n[bold]Intent {i}[/]: {intent.request}")
            for a in intent.actions:
                lines.append(f"  - {a.name}({json.dumps(a.arguments)})")
            if intent.outputs:
                lines.append(f"  outputs: {', '.join(intent.outputs)}")
        console.print(Panel("\n".join(lines), title=t.key, expand=False))


if __name__ == "__main__":
    app()
