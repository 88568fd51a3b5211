"""The training commands: ``collect``, ``mix``, ``export`` and ``train sft``.

`register` mounts them on the main ``tau-emotion`` app. Only typer and the configs the
options are generated from (pydantic models) are imported here; every command imports what
it needs when it runs, so ``tau-emotion --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tau_emotion.cli.common import fail
from tau_emotion.cli.generated import (
    command_option,
    config_command,
    error_message,
    merge,
    model_options,
)
from tau_emotion.cli.options import RunRequest, run_like_command
from tau_emotion.runner.config import CollectConfig
from tau_emotion.training.sft import SFTOptions

DEFAULT_MIXES_DIR = Path("runs/mixes")


def _collect(request: RunRequest) -> None:
    from tau_emotion.cli.errors import finish_run
    from tau_emotion.cli.tables import make_console
    from tau_emotion.runner.outcome import outcome_of_run
    from tau_emotion.training.collect import SUMMARY_FILE
    from tau_emotion.training.collect import collect as run_collection
    from tau_emotion.training.report import print_collect_summary

    console = make_console()
    out = request.config.out
    summary = request.execute(run_collection, console)
    print_collect_summary(summary, console)
    console.print(f"results: {out}/results.jsonl   summary: {out}/{SUMMARY_FILE}")
    finish_run(outcome_of_run(request.config))  # exit 3/4/5 when the endpoint failed


collect = run_like_command(
    CollectConfig,
    _collect,
    "Run the train tasks (once by default) and classify each rollout: success, violated "
    "(a hard policy rule broken), failed, dissatisfied. Writes the run files plus "
    "outcomes.jsonl and collect_summary.json.",
)
"""`collect` has exactly `run`'s options (both are generated from the run config)."""


def mix(
    names: Annotated[
        list[str], typer.Argument(help="Mix names: built-in (high, low) or from --spec.")
    ],
    source: Annotated[
        list[Path], typer.Option("--from", help="A collection directory (repeatable).")
    ],
    spec: Annotated[Path | None, typer.Option(help="YAML or JSON file declaring mixes.")] = None,
    out: Annotated[Path, typer.Option(help="Mixes folder; each mix goes in OUT/<name>.")] = (
        DEFAULT_MIXES_DIR
    ),
    size: Annotated[int | None, typer.Option(help="Override the mix size.")] = None,
    per_domain_cap: Annotated[int | None, typer.Option(help="Override the per-domain cap.")] = None,
    seed: Annotated[int | None, typer.Option(help="Override the mix seed.")] = None,
) -> None:
    """Draw named training mixes from the successes of one or more collections."""
    from pydantic import ValidationError

    from tau_emotion.cli.tables import make_console
    from tau_emotion.data import Episode
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.inputs import writable_folder
    from tau_emotion.runner.results import RESULTS_FILE
    from tau_emotion.training.collect import load_run
    from tau_emotion.training.mixes import (
        MixSpec,
        build_mix,
        resolve_specs,
        stale_exports,
        write_mix,
    )
    from tau_emotion.training.report import print_composition
    from tau_emotion.training.sources import require_train_run

    overrides = {"size": size, "per_domain_cap": per_domain_cap, "seed": seed}
    given = {k: v for k, v in overrides.items() if v is not None}
    # The options a bad override is named by (--size, not the spec's field `size`).
    flags = model_options(MixSpec, skip=set(MixSpec.model_fields) - set(overrides))
    console = make_console()
    try:
        # Everything is read, resolved and built before the first mix is written, so an
        # unknown name or a bad source fails with no mix (re)written.
        specs = [
            MixSpec.model_validate(base.model_dump() | given)
            for base in resolve_specs(list(dict.fromkeys(names)), spec)
        ]
        episodes: list[Episode] = []
        for s in source:
            config, runs = load_run(s)
            require_train_run(s, config.split, "--from")
            if not runs:
                raise fail(f"--from {s}: no rollouts in {s / RESULTS_FILE}")
            episodes += runs
        built = [build_mix(r, episodes, [str(s) for s in source]) for r in specs]
        for _, composition in built:
            if not composition.selected:
                # Refused, not written: an empty mix would replace a good one of that name and
                # fail only later, in export or training.
                froms = ", ".join(f"--from {s}" for s in source)
                why = f"{composition.rollouts_seen} rollouts read"
                if composition.violated:
                    why += f"; {composition.violated} reached the goal but broke a policy rule"
                raise fail(
                    f"mix {composition.spec.name}: no successful rollout of its domains "
                    f"in {froms} ({why})"
                )
        for r in specs:
            folder = out / r.name
            if folder.exists() and not folder.is_dir():
                raise fail(f"mix folder {folder} is a file, not a folder")
            stale_exports(folder)  # a damaged dataset_info.json there fails before any write
        writable_folder(out, "--out")
        for selected, composition in built:
            folder = write_mix(
                out, selected, composition, note=lambda line: console.print(line, markup=False)
            )
            print_composition(composition, console)
            console.print(f"mix: {folder}")
    except ValidationError as exc:
        raise fail(error_message(exc, flags)) from None
    except TauEmotionError as exc:
        raise fail(str(exc)) from None


def export(
    source: Annotated[
        Path, typer.Argument(help="A mix folder, a collection directory or an episodes JSONL.")
    ],
    fmt: Annotated[str, typer.Option("--format", help="trl, sharegpt or all.")] = "all",
    out: Annotated[
        Path | None, typer.Option(help="Output folder.", show_default="the source folder")
    ] = None,
    reasoning: Annotated[
        bool, typer.Option(help="Keep the agent's reasoning content (--no-reasoning drops it).")
    ] = True,
    name: Annotated[
        str | None,
        typer.Option(
            help="Dataset name in dataset_info.json.", show_default="tau_emotion_<source>"
        ),
    ] = None,
) -> None:
    """Export successful rollouts as TRL tool-calling rows and/or LLaMA-Factory sharegpt."""
    from tau_emotion.cli.tables import make_console
    from tau_emotion.errors import TauEmotionError
    from tau_emotion.inputs import writable_folder
    from tau_emotion.training.export import FORMATS, export_all
    from tau_emotion.training.report import print_export
    from tau_emotion.training.sources import load_source

    if fmt not in ("trl", "sharegpt", "all"):
        raise fail(f"--format must be trl, sharegpt or all, not {fmt!r}")
    console = make_console()
    try:
        episodes, source_name = load_source(source)
        folder = out or (source if source.is_dir() else source.parent)
        writable_folder(folder, "--out" if out is not None else "output folder")
        formats = FORMATS if fmt == "all" else (fmt,)
        dataset = name or f"tau_emotion_{source_name}"
        reports = export_all(episodes, folder, formats, dataset, reasoning)
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    for report in reports:
        print_export(report, console)


train_app = typer.Typer(help="Fine-tune models on exported mixes.", no_args_is_help=True)


def _training_data(
    mix_ref: str, mixes_dir: Path, reasoning: bool | None
) -> tuple[Path, bool | None]:
    """TRL rows for --mix (a file, a mix folder, or a mix name under --mixes-dir) and whether
    they keep the agent's reasoning (None: cannot be told).

    A mix folder without ``trl.jsonl`` is exported first, so ``mix`` then ``train sft`` work
    without a separate ``export``. An existing ``trl.jsonl`` is compared with the mix's
    episodes exported both ways: it is used when it matches the --reasoning given (or either,
    with no flag), and refused when it was exported the other way; training on it would
    silently ignore the flag.
    """
    from tau_emotion.training.export import TRL_FILE, export_trl, trl_export
    from tau_emotion.training.mixes import EPISODES_FILE, MixError
    from tau_emotion.training.sft_checks import check_data, rows_hold_reasoning

    path = Path(mix_ref)
    if path.is_file():
        check_data(path)  # a TRL export of train rollouts, or refused before anything else
        kept = True if rows_hold_reasoning(path) else None
        if reasoning is False and kept:
            raise MixError(
                f"--mix {path} keeps the agent's reasoning, but --no-reasoning was given: "
                f"export it without (tau-emotion export MIX --format trl --no-reasoning)"
            )
        return path, kept if reasoning is None else reasoning
    folder = path if path.is_dir() else mixes_dir / mix_ref
    trl = folder / TRL_FILE
    if (folder / EPISODES_FILE).exists():
        from tau_emotion.training.sources import load_source

        episodes, _ = load_source(folder)
        texts = {keep: trl_export(episodes, trl, keep)[0] for keep in (True, False)}
        if trl.is_file():
            existing = trl.read_text(encoding="utf-8")
            made = [keep for keep in (True, False) if texts[keep] == existing]
            if not made:
                raise MixError(
                    f"{trl} is not an export of {folder / EPISODES_FILE}: re-export it "
                    f"(tau-emotion export {folder} --format trl)"
                )
            if reasoning is None:
                return trl, made[0]
            if reasoning in made:
                return trl, reasoning
            flag, other = ("--reasoning", "--no-reasoning")[:: 1 if reasoning else -1]
            raise MixError(
                f"{trl} was exported with {other}, but {flag} was given: re-export it "
                f"(tau-emotion export {folder} --format trl {flag}) or leave {flag} out"
            )
        keep = True if reasoning is None else reasoning
        export_trl(episodes, trl, keep)
        return trl, keep
    if trl.exists():
        check_data(trl)
        kept = True if rows_hold_reasoning(trl) else None
        if reasoning is False and kept:
            raise MixError(f"{trl} keeps the agent's reasoning, but --no-reasoning was given")
        return trl, kept if reasoning is None else reasoning
    raise MixError(
        f"no mix {mix_ref!r}: not a file, and no {TRL_FILE} or {EPISODES_FILE} in {folder}; "
        "run `tau-emotion mix` first"
    )


SFT_FLAGS = {"per_device_batch_size": "batch_size", "gradient_accumulation_steps": "grad_accum"}
"""`SFTOptions` fields whose option has a shorter name (``--batch-size``, ``--grad-accum``)."""
SFT_OPTIONS = model_options(SFTOptions, SFT_FLAGS, skip={"data"})
"""One option per `SFTOptions` field, defaults and help from the field; the data comes from
--mix, which the command resolves (and exports) itself."""

MixOpt = Annotated[
    str, typer.Option("--mix", help="Mix name (under --mixes-dir), mix folder or trl.jsonl.")
]
MixesDirOpt = Annotated[Path, typer.Option(help="Where named mixes live.")]
ReasoningOpt = Annotated[
    bool | None,
    typer.Option(
        "--reasoning/--no-reasoning",
        help="Train with (or without) the agent's reasoning: exports the mix on the fly, and "
        "refuses a trl.jsonl exported the other way.",
        show_default="as exported",
    ),
]
_MIX_OPTIONS = [
    command_option("mix_ref", MixOpt),
    command_option("mixes_dir", MixesDirOpt, DEFAULT_MIXES_DIR),
    command_option("reasoning", ReasoningOpt, None),
]
"""Which data to train on: `train sft`'s own options, before the generated ones."""


def _train_sft(given: dict[str, Any], values: dict[str, Any]) -> None:
    from pydantic import ValidationError

    from tau_emotion.errors import TauEmotionError
    from tau_emotion.training.sft import train_sft as run_sft
    from tau_emotion.training.sft_checks import check_out

    try:
        # The options are checked before --mix is resolved (which may export the mix), and
        # train_sft checks the data and --base-model before it imports torch.
        fields = merge({"data": Path(values["mix_ref"])}, given, SFT_OPTIONS)
        options = SFTOptions.model_validate(fields)  # the defaults are the config's own
        # --out first: a file there or an earlier run must fail before a mix is exported.
        check_out(options.out, options.overwrite)
        data, reasoning = _training_data(
            values["mix_ref"], values["mixes_dir"], values["reasoning"]
        )
        summary = run_sft(
            options.model_copy(update={"data": data}),
            reasoning=reasoning,
            note=lambda line: typer.echo(line, err=True),
        )
    except ValidationError as exc:
        raise fail(error_message(exc, SFT_OPTIONS)) from None
    except TauEmotionError as exc:
        raise fail(str(exc)) from None
    loss = f"{summary.train_loss:.4f}" if summary.train_loss is not None else "-"
    typer.echo(
        f"trained {summary.steps} steps on {summary.examples} rollouts "
        f"(loss {loss}, {summary.runtime_s:.0f} s): {summary.saved_to}"
    )


train_app.command("sft")(
    config_command(
        SFT_OPTIONS,
        _train_sft,
        "Supervised fine-tuning with TRL's SFTTrainer (assistant-only loss; LoRA optional).\n\n"
        "Multi-GPU: accelerate launch --config_file CONFIG -m tau_emotion.training train sft ...",
        before=_MIX_OPTIONS,
    )
)


def training_app() -> typer.Typer:
    """The training commands on their own (``python -m tau_emotion.training``), behind the
    same error handler as ``tau-emotion``: a bad input is one line and exit 2 in every
    process accelerate starts, not a traceback."""
    from tau_emotion.cli.errors import CliGroup

    app = typer.Typer(
        name="tau-emotion-training",
        help="Collect rollouts, build mixes, export and fine-tune.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        cls=CliGroup,
    )
    register(app)
    return app


def register(app: typer.Typer) -> None:
    """Mount collect, mix, export and the train group on the main app."""
    app.command("collect")(collect)
    app.command("mix")(mix)
    app.command("export")(export)
    app.add_typer(train_app, name="train")
