"""The options of ``run`` and ``collect``, generated from `RunConfig`, so a default lives in
one place.

Every field of `RunConfig` becomes one option (``task_ids`` -> ``--task-id``), and every field
of the agent's and the user's `ModelConfig` becomes ``--agent-<field>`` / ``--user-<field>``
(``model`` itself is ``--agent-model``). ``run`` and ``collect`` are built from the same
function, so they cannot drift apart, and a field added to a config is on the command line
with its description and default without an edit here. A value comes from the command line,
else from ``--config FILE`` (TOML holding a whole `RunConfig`), else from the config's own
default, which the help shows: only options whose click parameter source is the command line
override the file. The machinery is `cli.generated`'s, which other commands use for their
own configs (``train sft`` from `SFTOptions`, ``emotions map`` from `MapperSettings`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from tau_emotion.cli.generated import (
    Opt,
    command_option,
    config_command,
    error_message,
    field_option,
    merge,
)
from tau_emotion.models.factory import LOCAL
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.outcome import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from rich.console import Console

    from tau_emotion.runner.run import ProgressHook


ROLES = {"agent_model": "agent", "user_model": "user"}
RENAMED = {"domains": "domain", "task_ids": "task_id"}
"""Fields whose option is singular: ``--domain airline,retail``, ``--task-id X`` (repeatable)."""
SHOWN_DEFAULTS = {"domains": "all", "agent_model.model": LOCAL}
"""Defaults that a default factory or a validator supplies, as the help should show them
(shown only: the config supplies them)."""
HELP = {
    "agent_model.model": "Agent model: 'local' (embedded SmolLM2), 'local:/path.gguf', "
    "'litellm:<provider/model>', or a model name served at --agent-base-url.",
    "user_model.model": "User simulator model (as for --agent-model); giving one makes the "
    "default user 'llm'.",
}


def _run_option(key: str, flag: str, field: FieldInfo, required: bool = False) -> Opt:
    return field_option(
        key,
        flag,
        field,
        required,
        help=HELP.get(key),
        shown=SHOWN_DEFAULTS.get(key),
        as_text=key == "domains",  # "airline,retail": RunConfig splits it
    )


def config_options(cls: type[RunConfig]) -> list[Opt]:
    """One option per config field, the model configs flattened per role."""
    opts: list[Opt] = []
    for name, field in cls.model_fields.items():
        if name in ROLES:
            role = ROLES[name]
            for sub, subfield in ModelConfig.model_fields.items():
                flag = f"--{role}-model" if sub == "model" else f"--{role}-{sub}"
                opts.append(_run_option(f"{name}.{sub}", flag.replace("_", "-"), subfield))
        else:
            flag = "--" + RENAMED.get(name, name).replace("_", "-")
            opts.append(_run_option(name, flag, field, required=field.is_required()))
    return opts


def read_config_file(path: Path) -> dict[str, Any]:
    """A ``--config`` file: TOML holding `RunConfig` fields (model configs as tables)."""
    from tau_emotion.inputs import read_text

    text = read_text(path, "--config")  # names a missing, folder or non-UTF-8 file
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"--config {path}: not valid TOML ({exc})") from None


def build_config(cls: type[RunConfig], given: dict[str, Any], config_file: Path | None) -> Any:
    """The validated config from the options given (and the file); ValueError/ValidationError.

    `given` holds only the options that were given on the command line.
    """
    opts = config_options(cls)
    base = read_config_file(config_file) if config_file is not None else {}
    data = merge(base, given, opts)
    # Agent settings without --agent-model tune the embedded model: RunConfig fills it in.
    user = data.get("user_model")
    if isinstance(user, dict) and "model" not in user:
        given_flags = [o.flag for o in opts if o.path[0] == "user_model" and o.path[1] in user]
        raise ValueError(f"{', '.join(given_flags) or 'user settings'} need --user-model")
    return cls.model_validate(data)


def ignored_model_flags(config: RunConfig, given: dict[str, Any]) -> str | None:
    """A warning naming the model options given on the command line for a role that calls
    no model (the oracle agent, a scripted user), or None. They are accepted, so that one
    command line can try every agent, but whoever typed them should know they did nothing."""
    opts = config_options(type(config))
    parts = []
    for role, kind in (("agent_model", config.agent), ("user_model", config.user)):
        if kind.needs_model:
            continue
        named = [o.flag for o in opts if o.path[0] == role and o.param in given]
        if named:
            parts.append(f"{', '.join(named)} ignored: the {kind} {ROLES[role]} calls no model")
    return "; ".join(parts) or None


ConfigFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="TOML file with RunConfig fields (\\[agent_model] / \\[user_model] tables for the "
        "models); options given on the command line override it.",
    ),
]
ResumeOpt = Annotated[bool, typer.Option(help="Finish an interrupted run in --out.")]
RetryErrorsOpt = Annotated[
    bool, typer.Option(help="With --resume, also re-run episodes that recorded errors.")
]


T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


class RunFunction(Protocol[T_co]):
    """What a run-like command runs: `runner.run.execute_run`, `training.collect.collect`."""

    def __call__(
        self,
        config: RunConfig,
        *,
        resume: bool,
        progress: ProgressHook,
        retry_errors: bool,
        on_warning: Callable[[str], None],
    ) -> T_co: ...


@dataclass(frozen=True)
class RunRequest:
    """What a run-like command was asked: the config plus the flags that are not config."""

    config: RunConfig
    resume: bool
    retry_errors: bool

    def execute(self, run: RunFunction[T], console: Console) -> T:
        """`run` this request with a progress display and warnings on `console`'s terminal;
        a `TauEmotionError` becomes the one-line error and exit status 2."""
        from tau_emotion.cli.common import error_text, fail
        from tau_emotion.cli.tables import warning_printer
        from tau_emotion.errors import TauEmotionError
        from tau_emotion.runner.progress import progress_display
        from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE

        out = self.config.out
        if self.resume and not any((out / f).exists() for f in (MANIFEST_FILE, RESULTS_FILE)):
            # Not an error, so that "start or go on" scripts can always pass --resume (as a
            # notebook passes resume=True); said, because a mistyped --out would otherwise
            # start a second run without a word.
            warning_printer()(f"--resume: {out} holds no run yet; starting a new one there")
        try:
            # A live bar redraws its line many times a second and would erase what a human
            # participant types at the prompt: plain lines then, between episodes.
            live = False if self.config.has_human else None
            with progress_display(console, interactive=live) as hook:
                return run(
                    self.config,
                    resume=self.resume,
                    progress=hook,
                    retry_errors=self.retry_errors,
                    on_warning=warning_printer(),
                )
        except TauEmotionError as exc:
            raise fail(error_text(exc, self.config.domains)) from None
        except KeyboardInterrupt as exc:
            # The episodes played so far are in the results file and the manifest says how
            # many: say how to go on rather than leave a bare "Aborted!". The end of a human
            # participant's input (Ctrl-D) stops the run the same way.
            from tau_emotion.cli.errors import print_error
            from tau_emotion.simulation.human import InputEnded

            why = "input ended" if isinstance(exc, InputEnded) else "interrupted"
            print_error(f"{why}; the episodes finished so far are in {out}: --resume goes on")
            raise typer.Exit(EXIT_INTERRUPTED) from None


def run_like_command(
    cls: type[RunConfig], body: Callable[[RunRequest], None], doc: str
) -> Callable[..., None]:
    """A typer command whose options are `cls`'s fields, calling `body` with the config."""
    opts = config_options(cls)

    def run(given: dict[str, Any], values: dict[str, Any]) -> None:
        from tau_emotion.cli.common import fail

        try:
            config = build_config(cls, given, values.get("config"))
        except ValidationError as exc:
            raise fail(error_message(exc, opts)) from None
        except ValueError as exc:
            raise fail(str(exc)) from None
        ignored = ignored_model_flags(config, given)
        if ignored is not None:
            from tau_emotion.cli.tables import warning_printer

            warning_printer()(ignored)
        body(RunRequest(config, bool(values["resume"]), bool(values["retry_errors"])))

    own = [
        command_option("config", ConfigFileOpt, None),
        command_option("resume", ResumeOpt, False),
        command_option("retry_errors", RetryErrorsOpt, False),
    ]
    return config_command(opts, run, doc, after=own)
