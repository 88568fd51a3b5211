"""Command-line options generated from typed configs, so a default lives in one place.

Every field of `RunConfig` becomes one option (``task_ids`` -> ``--task-id``), and every field
of the agent's and the user's `ModelConfig` becomes ``--agent-<field>`` / ``--user-<field>``
(``model`` itself is ``--agent-model``). ``run`` and ``collect`` are built from the same
function, so they cannot drift apart, and a field added to a config is on the command line
with its description and default without an edit here. A value comes from the command line,
else from ``--config FILE`` (TOML holding a whole `RunConfig`), else from the config's own
default, which the help shows: only options whose click parameter source is the command line
override the file. `model_options` and `config_command` do the same for any flat config
(``train sft`` from `SFTOptions`).
"""

from __future__ import annotations

import inspect
import json
import tomllib
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar, Union, get_args, get_origin

import typer
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from tau_emotion.models.factory import LOCAL
from tau_emotion.models.openai_compat import ModelConfig
from tau_emotion.runner.config import RunConfig

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


@dataclass(frozen=True)
class Opt:
    """One generated option: where its value goes in the config, and how typer shows it."""

    param: str
    flag: str
    path: tuple[str, ...]
    annotation: Any
    default: Any
    is_json: bool


def _base(annotation: Any) -> Any:
    """`X | None` -> X."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def _default(key: str, field: FieldInfo) -> Any:
    """The config's default as the option's default (None: not shown, left to the config)."""
    if key in SHOWN_DEFAULTS:
        return SHOWN_DEFAULTS[key]
    default = field.default
    if default is PydanticUndefined or field.default_factory is not None:
        return None
    if isinstance(default, dict | list):
        return json.dumps(default) if default else None
    return default


def _opt(key: str, flag: str, field: FieldInfo, required: bool = False) -> Opt:
    """The option of one field; a `required` one has no default (typer insists on it)."""
    base = _base(field.annotation)
    is_json = get_origin(base) is dict or base is dict
    annotation: Any = str if is_json or key == "domains" else base
    name = flag.removeprefix("--")
    off = name[3:] if name.startswith("no-") else f"no-{name}"  # --no-emotion/--emotion
    decl = f"--{name}/--{off}" if base is bool else flag
    text = HELP.get(key) or field.description or ""
    if is_json:
        text += " (a JSON object)"
    default = inspect.Parameter.empty if required else _default(key, field)
    if default is None:
        annotation = annotation | None
    info = typer.Option(decl, help=text)
    return Opt(
        param=name.replace("-", "_"),
        flag=flag,
        path=tuple(key.split(".")),
        annotation=Annotated[annotation, info],
        default=default,
        is_json=is_json,
    )


def model_options(
    cls: type[BaseModel], renamed: Mapping[str, str] | None = None, skip: Collection[str] = ()
) -> list[Opt]:
    """One option per field of a flat config, ``--field-name`` unless `renamed` gives the
    option another name; the fields in `skip` are left to the command."""
    names = renamed or {}
    return [
        _field_opt(name, field, names)
        for name, field in cls.model_fields.items()
        if name not in skip
    ]


def _field_opt(name: str, field: FieldInfo, renamed: Mapping[str, str]) -> Opt:
    """A top-level field's option: required where the config requires the field (a nested
    model's required field is not: the nested model itself may be left out)."""
    flag = "--" + renamed.get(name, name).replace("_", "-")
    return _opt(name, flag, field, required=field.is_required())


def config_options(cls: type[RunConfig]) -> list[Opt]:
    """One option per config field, the model configs flattened per role."""
    opts: list[Opt] = []
    for name, field in cls.model_fields.items():
        if name in ROLES:
            role = ROLES[name]
            for sub, subfield in ModelConfig.model_fields.items():
                flag = f"--{role}-model" if sub == "model" else f"--{role}-{sub}"
                opts.append(_opt(f"{name}.{sub}", flag.replace("_", "-"), subfield))
        else:
            opts.append(_field_opt(name, field, RENAMED))
    return opts


def _flag_of(opts: list[Opt], loc: tuple[Any, ...]) -> str | None:
    path = tuple(str(x) for x in loc)
    return next((o.flag for o in opts if o.path == path[: len(o.path)]), None)


def error_message(exc: ValidationError, opts: list[Opt]) -> str:
    """A pydantic error as one line that names the command-line option, not the field."""
    parts = []
    for e in exc.errors():
        message = str(e["msg"]).removeprefix("Value error, ")
        loc = tuple(e["loc"])
        # A field no option names (a typo in a --config file) is named by its path.
        where = _flag_of(opts, loc) or ".".join(map(str, loc))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def read_config_file(path: Path) -> dict[str, Any]:
    """A ``--config`` file: TOML holding `RunConfig` fields (model configs as tables)."""
    from tau_emotion.inputs import read_text

    text = read_text(path, "--config")  # names a missing, folder or non-UTF-8 file
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"--config {path}: not valid TOML ({exc})") from None


def merge(base: dict[str, Any], given: dict[str, Any], opts: list[Opt]) -> dict[str, Any]:
    """The config file's fields (`base`), overridden by the options given on the command
    line; the result is the config's data, ready to validate."""
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for opt in opts:
        if opt.param not in given:
            continue
        value = given[opt.param]
        if opt.is_json:
            try:
                value = json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{opt.flag}: not valid JSON ({exc})") from None
        if len(opt.path) == 1:
            data[opt.path[0]] = value
        else:
            data.setdefault(opt.path[0], {})[opt.path[1]] = value
    return data


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


def _given(ctx: typer.Context, values: dict[str, Any], opts: list[Opt]) -> dict[str, Any]:
    """The option values that came from the command line (not from their defaults)."""

    def typed(name: str) -> bool:
        # By name: typer carries its own copy of click, with its own ParameterSource enum.
        source = ctx.get_parameter_source(name)
        return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")

    return {o.param: values[o.param] for o in opts if typed(o.param)}


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
        from tau_emotion.cli.common import fail
        from tau_emotion.cli.tables import warning_printer
        from tau_emotion.errors import TauEmotionError
        from tau_emotion.runner.progress import progress_display

        try:
            with progress_display(console) as hook:
                return run(
                    self.config,
                    resume=self.resume,
                    progress=hook,
                    retry_errors=self.retry_errors,
                    on_warning=warning_printer(),
                )
        except TauEmotionError as exc:
            raise fail(str(exc)) from None


def command_option(
    name: str, annotation: Any, default: Any = inspect.Parameter.empty
) -> inspect.Parameter:
    """A command's own option for `config_command`'s `before` / `after`: `annotation` is
    ``Annotated[type, typer.Option(...)]``; without a default the option is required."""
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def config_command(
    opts: list[Opt],
    body: Callable[[dict[str, Any], dict[str, Any]], None],
    doc: str,
    before: Sequence[inspect.Parameter] = (),
    after: Sequence[inspect.Parameter] = (),
) -> Callable[..., None]:
    """A typer command whose options are `opts`, between the command's own options
    `before` and `after` (made with `command_option`).

    `body` gets the config options given on the command line (by parameter name: defaults
    are the config's to fill in) and every parameter's value.
    """

    def command(ctx: typer.Context, **kwargs: Any) -> None:
        body(_given(ctx, kwargs, opts), kwargs)

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("ctx", kw, annotation=typer.Context), *before]
    params += [
        inspect.Parameter(o.param, kw, default=o.default, annotation=o.annotation) for o in opts
    ]
    params += after
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = doc
    return command


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
        body(RunRequest(config, bool(values["resume"]), bool(values["retry_errors"])))

    own = [
        command_option("config", ConfigFileOpt, None),
        command_option("resume", ResumeOpt, False),
        command_option("retry_errors", RetryErrorsOpt, False),
    ]
    return config_command(opts, run, doc, after=own)
