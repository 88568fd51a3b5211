"""The `tau-emotion` command. Heavy imports live inside the commands so `--help` stays fast."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tau_emotion.cli.common import (
    TaskFileOpt,
    fail,
    participant_config,
    task_selection,
    timestamped_dir,
    validation_message,
)
from tau_emotion.emotions.cli import app as emotions_app
from tau_emotion.report.cli import register as register_report
from tau_emotion.tracer.cli import app as tracer_app
from tau_emotion.training.cli import register as register_training

if TYPE_CHECKING:
    from rich.console import Console

    from tau_emotion.data import Episode

app = typer.Typer(
    name="tau-emotion",
    help="Benchmark tool-calling agents serving emotional customers; build training data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
domains_app = typer.Typer(help="List domains, or regenerate their databases.")
app.add_typer(domains_app, name="domains")
app.add_typer(emotions_app, name="emotions")
app.add_typer(tracer_app, name="tracer")
register_report(app)
register_training(app)


EMBEDDED_MAX_STEPS = 40


def default_max_steps(agent: str, agent_model: str) -> int:
    """The embedded 135M model rarely finishes; 40 messages show the loop without a long wait."""
    from tau_emotion.models.factory import is_local
    from tau_emotion.simulation.loop import DEFAULT_MAX_STEPS

    model_agent = agent not in ("oracle", "human")
    return EMBEDDED_MAX_STEPS if model_agent and is_local(agent_model) else DEFAULT_MAX_STEPS


def default_concurrency(
    agent: str, agent_model: str, user: str | None, user_model: str | None
) -> int:
    """8 episodes in flight, or 1 with an embedded model or a human at the keyboard."""
    from tau_emotion.models.factory import is_local

    model_agent = agent not in ("oracle", "human")
    embedded = (model_agent and is_local(agent_model)) or bool(user_model and is_local(user_model))
    return 1 if embedded or agent == "human" or user == "human" else 8


@domains_app.callback(invoke_without_command=True)
def domains_list(ctx: typer.Context) -> None:
    """List domains: tools (read/write/terminal), DB record counts, tasks per split."""
    if ctx.invoked_subcommand is not None:
        return
    from rich.table import Table

    from tau_emotion.cli.tables import make_console
    from tau_emotion.domains import domain_names, load_domain

    table = Table(title="Domains", title_justify="left")
    for col in ("domain", "tools (r/w/t)", "databases: records", "tasks (test/train)"):
        table.add_column(col)
    for name in domain_names():
        d = load_domain(name)
        kinds = list(d.tool_kinds.values())
        nr, nw, nt = (kinds.count(k) for k in ("read", "write", "terminal"))
        tools = f"{len(kinds)} ({nr}/{nw}/{nt})"
        dbs = []
        for variant in d.databases:
            counts = d.load_db(variant)[0].record_counts()
            dbs.append(f"{variant}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        tasks = d.tasks()
        test = sum(t.split == "test" for t in tasks)
        table.add_row(name, tools, "\n".join(dbs), f"{test}/{len(tasks) - test}")
    make_console().print(table)


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


@app.command()
def run(
    out: Annotated[
        Path | None, typer.Option(help="Run directory [default: runs/run-<UTC time>].")
    ] = None,
    domain: Annotated[str, typer.Option(help="A domain, a comma list, or 'all'.")] = "all",
    split: Annotated[str, typer.Option(help="test or train.")] = "test",
    num_tasks: Annotated[int | None, typer.Option(help="First N tasks per domain.")] = None,
    task_file: TaskFileOpt = None,
    task_id: Annotated[
        list[str] | None, typer.Option(help="Only this task id (repeatable).")
    ] = None,
    trials: Annotated[int, typer.Option(help="Trials per task.")] = 1,
    agent: Annotated[
        str,
        typer.Option(help="tool-calling, react, act, few-shot, oracle or human."),
    ] = "tool-calling",
    agent_model: Annotated[
        str,
        typer.Option(
            help="Agent model: 'local' (embedded SmolLM2), 'local:/path.gguf', "
            "'litellm:<provider/model>', or a model name at --agent-base-url."
        ),
    ] = "local",
    agent_base_url: Annotated[str | None, typer.Option(help="Agent endpoint base URL.")] = None,
    agent_api_key_env: Annotated[str, typer.Option(help="Env var with the agent API key.")] = (
        "OPENAI_API_KEY"
    ),
    agent_temperature: Annotated[float, typer.Option(help="Agent temperature.")] = 0.0,
    agent_send_reasoning: Annotated[
        bool,
        typer.Option(
            help="Send earlier reasoning back as reasoning_content (if the backend needs it)."
        ),
    ] = False,
    few_shot_file: Annotated[
        Path | None, typer.Option(help="few-shot: JSONL of conversations ('messages').")
    ] = None,
    few_shot_k: Annotated[int, typer.Option(help="few-shot: examples per prompt.")] = 3,
    user: Annotated[
        str | None,
        typer.Option(
            help="scripted, llm, react, verify, reflection or human "
            "[default: llm with --user-model, else scripted]."
        ),
    ] = None,
    user_model: Annotated[str | None, typer.Option(help="User simulator model.")] = None,
    user_base_url: Annotated[str | None, typer.Option(help="User endpoint base URL.")] = None,
    user_api_key_env: Annotated[str, typer.Option(help="Env var with the user API key.")] = (
        "OPENAI_API_KEY"
    ),
    user_temperature: Annotated[float, typer.Option(help="User temperature.")] = 0.0,
    verify_attempts: Annotated[
        int, typer.Option(help="verify / reflection users: checks per turn.")
    ] = 2,
    user_exit: Annotated[
        bool, typer.Option(help="Allow the user to walk away dissatisfied.")
    ] = True,
    no_emotion: Annotated[bool, typer.Option(help="Run tasks as their neutral twins.")] = False,
    concurrency: Annotated[
        int | None,
        typer.Option(
            help="Episodes in flight at once [default: 8; 1 with an embedded local model, "
            "which serves one call at a time and reuses its prompt cache only in sequence]."
        ),
    ] = None,
    max_retries: Annotated[
        int, typer.Option(help="Retries per model call on 429 / 5xx / timeouts (backoff doubles).")
    ] = 5,
    executor: Annotated[
        str, typer.Option(help="local (this process) or ray (spread over a Ray cluster).")
    ] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address ('auto'); default: a local Ray.")
    ] = None,
    max_steps: Annotated[
        int | None,
        typer.Option(
            help="Max messages per episode [default: 200; 40 for the embedded local agent, "
            "which is there to exercise the loop offline, not to score]."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    cache_dir: Annotated[
        Path | None, typer.Option(help="Request cache folder (record / replay model calls).")
    ] = None,
    cache_mode: Annotated[str, typer.Option(help="record, replay or auto.")] = "auto",
    resume: Annotated[bool, typer.Option(help="Finish an interrupted run in --out.")] = False,
    retry_errors: Annotated[
        bool, typer.Option(help="With --resume, also re-run episodes that recorded errors.")
    ] = False,
) -> None:
    """Run agents against simulated users; results go to OUT/results.jsonl, then a table."""
    from pydantic import ValidationError

    from tau_emotion.cli.tables import make_console
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.runner.config import RunConfig
    from tau_emotion.runner.progress import progress_bar
    from tau_emotion.runner.run import execute_run

    console = make_console()
    out = out or timestamped_dir("run")
    try:
        config = RunConfig(
            **task_selection(
                domain=domain,
                split=split,
                num_tasks=num_tasks,
                task_id=task_id,
                task_file=task_file,
            ),
            trials=trials,
            **participant_config(
                agent=agent,
                agent_model=agent_model,
                agent_base_url=agent_base_url,
                agent_api_key_env=agent_api_key_env,
                agent_temperature=agent_temperature,
                user=user,
                user_model=user_model,
                user_base_url=user_base_url,
                user_api_key_env=user_api_key_env,
                user_temperature=user_temperature,
                max_retries=max_retries,
                agent_send_reasoning=agent_send_reasoning,
            ),
            few_shot_file=few_shot_file,
            few_shot_k=few_shot_k,
            verify_attempts=verify_attempts,
            user_exit=user_exit,
            no_emotion=no_emotion,
            concurrency=concurrency or default_concurrency(agent, agent_model, user, user_model),
            executor=executor,
            ray_address=ray_address,
            max_steps=max_steps or default_max_steps(agent, agent_model),
            seed=seed,
            out=out,
            cache_dir=cache_dir,
            cache_mode=cache_mode,
        )
        with progress_bar(console) as hook:
            episodes = execute_run(config, resume=resume, progress=hook, retry_errors=retry_errors)
    except ValidationError as exc:
        raise fail(validation_message(exc)) from None
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    _report(out, episodes, console)


def _report(out: Path, episodes: list[Episode], console: Console) -> None:
    from tau_emotion.cli.tables import print_metrics
    from tau_emotion.evaluation.metrics import compute_metrics
    from tau_emotion.runner.results import METRICS_FILE

    report = compute_metrics(episodes)
    (out / METRICS_FILE).write_text(report.model_dump_json(indent=2))
    print_metrics(report, console)
    console.print(f"results: {out}/results.jsonl   metrics: {out}/{METRICS_FILE}")


@app.command()
def metrics(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    by: Annotated[
        list[str] | None,
        typer.Option(help="Breakdowns: family, emotion, politeness, urgency, trust (repeatable)."),
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write JSON here.")] = None,
) -> None:
    """Avg@k, Pass^k, pass@k per domain and per emotion group, with 95% CIs."""

    from tau_emotion.cli.tables import make_console, print_metrics
    from tau_emotion.evaluation.metrics import compute_metrics
    from tau_emotion.runner.results import METRICS_FILE, RESULTS_FILE, load_episodes

    path = run_dir / RESULTS_FILE
    if not path.exists():
        raise fail(f"{path} does not exist; is {run_dir} a run directory?")
    episodes = list(load_episodes(path).values())
    if not episodes:
        raise fail(f"{path} holds no episodes")
    report = compute_metrics(episodes)
    (json_out or run_dir / METRICS_FILE).write_text(report.model_dump_json(indent=2))
    print_metrics(report, make_console(), by)


@app.command()
def show(ref: Annotated[str, typer.Argument(help="domain/task-id, e.g. airline/seed-001")]) -> None:
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
