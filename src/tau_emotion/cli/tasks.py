"""`tau-emotion tasks`: list task ids with a one-line summary, to pick from for `show` and
`run --task-id`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from tau_emotion.cli.common import choice_enum, fail
from tau_emotion.emotions.space import NEUTRAL, Family

if TYPE_CHECKING:
    FamilyChoice = str
else:
    FamilyChoice = choice_enum("FamilyChoice", [*Family, NEUTRAL])  # the families, or neutral


SUMMARY_CHARS = 90


def tasks(
    domain: Annotated[
        str, typer.Option(help="A domain, a comma list, or 'all'.", show_default="all")
    ] = "all",
    split: Annotated[Literal["test", "train"], typer.Option(help="Task split.")] = "test",
    task_file: Annotated[
        str | None,
        typer.Option(
            help="A tasks/NAME.jsonl of each domain, e.g. dev.", show_default="the split's"
        ),
    ] = None,
    task_source: Annotated[
        Path | None, typer.Option("--tasks", help="A task JSONL or Tracer build folder.")
    ] = None,
    family: Annotated[
        list[FamilyChoice] | None,
        typer.Option(help=f"Only this emotion family ({NEUTRAL!r}: neutral; repeatable)."),
    ] = None,
    challenge: Annotated[
        bool, typer.Option(help="Only tasks that carry a policy challenge.")
    ] = False,
) -> None:
    """List task ids (domain/id), emotion, intents and the first request, one task a line."""
    from pydantic import ValidationError

    from tau_emotion.cli.options import config_options, error_message
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.runner.config import RunConfig
    from tau_emotion.runner.tasks import family as family_of
    from tau_emotion.runner.tasks import select_tasks

    try:
        config = RunConfig(
            domains=domain, split=split, task_file=task_file, tasks=task_source, agent="oracle"
        )
        chosen = select_tasks(config)
    except ValidationError as exc:
        raise fail(error_message(exc, config_options(RunConfig))) from None
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    chosen = [t for t in chosen if family is None or family_of(t) in set(family)]
    chosen = [t for t in chosen if t.challenge is not None or not challenge]
    for t in chosen:
        feeling = f"{t.emotion.family}/{t.emotion.emotion}" if t.emotion else "neutral"
        request = " ".join(t.intents[0].request.split())
        if len(request) > SUMMARY_CHARS:
            request = request[: SUMMARY_CHARS - 3] + "..."
        extra = f"  [challenge: {t.challenge.rule_id}]" if t.challenge is not None else ""
        typer.echo(f"{t.key}  {feeling}  {len(t.intents)} intent(s)  {request}{extra}")
    typer.secho(f"{len(chosen)} tasks", err=True, dim=True)


def register(app: typer.Typer) -> None:
    app.command("tasks")(tasks)
