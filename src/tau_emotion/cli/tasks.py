"""`tau-emotion tasks`: list task ids with a one-line summary, to pick from for `show` and
`run --task-id`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tau_emotion.cli.common import choice_enum, error_text, fail
from tau_emotion.cli.generated import command_option, config_command, error_message
from tau_emotion.cli.options import build_config, config_options
from tau_emotion.emotions.space import NEUTRAL, Family
from tau_emotion.runner.config import RunConfig

if TYPE_CHECKING:
    FamilyChoice = str
else:
    FamilyChoice = choice_enum("FamilyChoice", [*Family, NEUTRAL])  # the families, or neutral


SUMMARY_CHARS = 90


SELECTION = ("domains", "split", "task_file", "tasks")
"""The `RunConfig` fields that choose tasks: `tasks` has `run`'s options for them, generated
from the same fields, so it lists what `run` with the same options would run."""
SELECTION_OPTIONS = [o for o in config_options(RunConfig) if o.path[0] in SELECTION]

FamilyOpt = Annotated[
    list[FamilyChoice] | None,
    typer.Option(help=f"Only this emotion family ({NEUTRAL!r}: neutral; repeatable)."),
]
ChallengeOpt = Annotated[bool, typer.Option(help="Only tasks that carry a policy challenge.")]
_FILTERS = [
    command_option("family", FamilyOpt, None),
    command_option("challenge", ChallengeOpt, False),
]


def _list_tasks(given: dict[str, Any], values: dict[str, Any]) -> None:
    from pydantic import ValidationError

    from tau_emotion.errors import TauEmotionError
    from tau_emotion.runner.tasks import family as family_of
    from tau_emotion.runner.tasks import require_tasks

    try:
        # Any agent will do: the selection does not depend on it, and the oracle needs nothing.
        config = build_config(RunConfig, {**given, "agent": "oracle"}, None)
    except ValidationError as exc:
        raise fail(error_message(exc, SELECTION_OPTIONS)) from None
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    try:
        chosen = require_tasks(config)
    except TauEmotionError as exc:
        raise fail(error_text(exc, config.domains)) from None
    family: list[str] | None = values["family"]
    chosen = [t for t in chosen if family is None or family_of(t) in set(family)]
    chosen = [t for t in chosen if t.challenge is not None or not values["challenge"]]
    for t in chosen:
        feeling = f"{t.emotion.family}/{t.emotion.emotion}" if t.emotion else "neutral"
        request = " ".join(t.intents[0].request.split())
        if len(request) > SUMMARY_CHARS:
            request = request[: SUMMARY_CHARS - 3] + "..."
        extra = f"  [challenge: {t.challenge.rule_id}]" if t.challenge is not None else ""
        typer.echo(f"{t.key}  {feeling}  {len(t.intents)} intent(s)  {request}{extra}")
    typer.secho(f"{len(chosen)} tasks", err=True, dim=True)


tasks = config_command(
    SELECTION_OPTIONS,
    _list_tasks,
    "List task ids (domain/id), emotion, intents and the first request, one task a line.",
    after=_FILTERS,
)


def register(app: typer.Typer) -> None:
    app.command("tasks")(tasks)
