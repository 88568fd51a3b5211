"""The `report` and `view` commands, mounted on the main app with `register(app)`.

Heavy imports (numpy, the analyses, rich rendering) live inside the commands so that
`tau-emotion --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tau_emotion.inputs import check_base_url, check_key_variable, writable_file
from tau_emotion.models.openai_compat import ModelConfig

if TYPE_CHECKING:
    from tau_emotion.models.base import ChatModel

JUDGE_KEY_ENV: str = ModelConfig.model_fields["api_key_env"].default
"""The judge reads its key where every model config does unless told otherwise."""


def _fail(message: str) -> typer.Exit:
    from tau_emotion.storage import safe_text  # a judge endpoint's error may quote the key

    typer.secho(f"error: {safe_text(message)}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)


def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (one or more).")],
    out: Annotated[Path, typer.Option(help="HTML file to write.")] = Path("report.html"),
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the report data as JSON here.")
    ] = None,
    title: Annotated[str | None, typer.Option(help="Report title.")] = None,
    judge_model: Annotated[
        str | None,
        typer.Option(help="LLM judge for failures, empathy and user hallucinations (optional)."),
    ] = None,
    judge_base_url: Annotated[str | None, typer.Option(help="Judge endpoint base URL.")] = None,
    judge_api_key_env: Annotated[
        str, typer.Option(help="Env var with the judge API key.")
    ] = JUDGE_KEY_ENV,
    exclude_user_hallucinations: Annotated[
        bool,
        typer.Option(help="Leave out failed episodes where the simulated user invented facts."),
    ] = False,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
) -> None:
    """Build a self-contained HTML report (charts, analyses, episode browser) from runs."""
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.report.write import REPORT_FILE, refuse_run_file, write_report

    try:
        # Every output and the judge's endpoint are checked before the (long) analysis, so a
        # bad --json cannot fail after the HTML is written.
        writable_file(out, "--out")
        refuse_run_file(out, "--out", run_dirs, allowed=[REPORT_FILE])
        if json_out is not None:
            writable_file(json_out, "--json")
            refuse_run_file(json_out, "--json", run_dirs)
        judge = _judge(judge_model, judge_base_url, judge_api_key_env)
        data = write_report(run_dirs, out, judge, exclude_user_hallucinations, title, seed)
    except TauEmotionError as exc:
        raise _fail(str(exc)) from None
    if json_out is not None:
        from tau_emotion.storage import model_json, write_atomic

        write_atomic(json_out, model_json(data, indent=1))
    typer.echo(f"wrote {out} ({len(data.runs)} runs, {len(data.episodes)} episodes)")
    for run in data.runs:  # also at the top of the report; here so a script's log has them
        for warning in run.warnings:
            typer.secho(f"warning: {run.label}: {warning}", fg=typer.colors.YELLOW, err=True)


def _judge(model: str | None, base_url: str | None, key_env: str) -> ChatModel | None:
    """The LLM judge, if one is named; `InputError` for a base URL no request could reach."""
    if not model:
        return None
    from tau_emotion.models.factory import make_model
    from tau_emotion.redact import register_key_variables

    if base_url is not None:
        check_base_url(base_url, "--judge-base-url")
    check_key_variable(key_env, "--judge-api-key-env")
    register_key_variables([key_env])  # the report may quote judge errors
    config = ModelConfig(model=model, base_url=base_url, api_key_env=key_env, temperature=0.0)
    return make_model(config)


def view(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    domain: Annotated[str | None, typer.Option(help="Only this domain.")] = None,
    failed: Annotated[bool, typer.Option("--failed", help="Only failed episodes.")] = False,
    show: Annotated[
        str | None,
        typer.Option(help="Show one episode: its index, or \\[domain/]task-id\\[#trial]."),
    ] = None,
    limit: Annotated[int, typer.Option(help="Rows in the list.")] = 50,
    full: Annotated[bool, typer.Option("--full", help="Do not shorten tool results.")] = False,
) -> None:
    """Browse a run's episodes in the terminal: list them, or show one conversation."""
    import sys

    from rich.console import Console

    from tau_emotion.analysis.runs import load_run
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.report import viewer
    from tau_emotion.runner.results import RESULTS_FILE

    if limit < 1:
        raise _fail(f"--limit {limit}: give at least 1 row")
    console = Console(width=None if sys.stdout.isatty() else 140, highlight=False)
    try:
        run = load_run(run_dir)
        if not run.episodes:  # as `metrics` and `report` say, not an empty table
            raise _fail(f"{run_dir / RESULTS_FILE} holds no episodes")
        viewer.view(run, console, domain, failed, show, limit, full)
    except TauEmotionError as exc:
        raise _fail(str(exc)) from None


def register(app: typer.Typer) -> None:
    """Add `report` and `view` to the main app."""
    app.command("report")(report)
    app.command("view")(view)
