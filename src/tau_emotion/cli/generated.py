"""Typer commands whose options are generated from a pydantic config, so a default, a
bound and a description live in one place: the config's field.

`model_options` makes one ``--field-name`` option per field of a flat config,
`config_command` a command with those options around the command's own (`command_option`),
and `error_message` names the option, not the field, when the config refuses a value. Only
the options given on the command line reach the config; it fills in the rest itself, so a
command and a Python caller get the same defaults. `cli.options` builds ``run`` and
``collect`` on these; the emotions and training commands use them as they are. This module
imports only typer and pydantic, so a sub-app's ``--help`` stays fast.
"""

from __future__ import annotations

import inspect
import json
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

import typer
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined


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


def _default(field: FieldInfo, shown: Any) -> Any:
    """The config's default as the option's default (None: not shown, left to the config);
    `shown` stands in for one that a default factory or a validator supplies."""
    if shown is not None:
        return shown
    default = field.default
    if default is PydanticUndefined or field.default_factory is not None:
        return None
    if isinstance(default, dict | list):
        return json.dumps(default) if default else None
    return default


def field_option(
    key: str,
    flag: str,
    field: FieldInfo,
    required: bool = False,
    *,
    help: str | None = None,
    shown: Any = None,
    as_text: bool = False,
) -> Opt:
    """The option of the field at `key` (``agent_model.model``: dotted for a nested one); a
    `required` one has no default (typer insists on it). `help` replaces the description,
    `shown` is the default to show where the config computes it, and an `as_text` option
    takes the text the config parses (``--domain airline,retail``)."""
    base = _base(field.annotation)
    is_json = get_origin(base) is dict or base is dict
    annotation: Any = str if is_json or as_text else base
    name = flag.removeprefix("--")
    off = name[3:] if name.startswith("no-") else f"no-{name}"  # --no-emotion/--emotion
    decl = f"--{name}/--{off}" if base is bool else flag
    text = help or field.description or ""
    if is_json:
        text += " (a JSON object)"
    default = inspect.Parameter.empty if required else _default(field, shown)
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
    return field_option(name, flag, field, required=field.is_required())


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


def _given(ctx: typer.Context, values: dict[str, Any], opts: list[Opt]) -> dict[str, Any]:
    """The option values that came from the command line (not from their defaults)."""

    def typed(name: str) -> bool:
        # By name: typer carries its own copy of click, with its own ParameterSource enum.
        source = ctx.get_parameter_source(name)
        return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")

    return {o.param: values[o.param] for o in opts if typed(o.param)}


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
