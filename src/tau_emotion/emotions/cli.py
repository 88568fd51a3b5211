"""`tau-emotion emotions ...`: list, map, train, eval, plot, and (re)generate anchors.

Mounted by the main CLI with ``app.add_typer(emotions.cli.app, name="emotions")``. This module
holds the sub-app and the commands that build or use the classifier (map, train, eval, plot);
the anchor and condition commands (list, anchors, check-written) live in
`tau_emotion.emotions.cli_anchors`, and all are registered at the bottom, in `--help` order.
Heavy or optional imports (the mapper's arrays, openai, matplotlib, sentence-transformers)
happen inside the commands, so `tau-emotion --help` stays fast.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from tau_emotion.cli.generated import (
    Opt,
    command_option,
    config_command,
    error_message,
    model_options,
)
from tau_emotion.emotions.cli_anchors import (
    anchors_command,
    check_written_command,
    list_conditions,
)
from tau_emotion.emotions.cli_common import fail
from tau_emotion.emotions.settings import EmbedderSettings, MapperSettings
from tau_emotion.models.sanitize import loads_finite

T = TypeVar("T")
S = TypeVar("S", bound=EmbedderSettings)

if TYPE_CHECKING:
    from tau_emotion.emotions.mapper import Mapper

app = typer.Typer(
    help="The 594 emotion conditions, their anchors, and the text -> condition mapper.",
    no_args_is_help=True,
)

# The embedder's and the mapper's options are their settings' fields, spelled once.
EMBEDDER_OPTIONS = model_options(EmbedderSettings)
MAPPER_OPTIONS = model_options(MapperSettings)
EVAL_OPTIONS = model_options(MapperSettings, skip={"seed"})  # no instruction is sampled


# The commands' own options, beside the generated ones.
TextArg = Annotated[str | None, typer.Argument(help="A free-text feeling to map.")]
InputOpt = Annotated[
    Path | None, typer.Option("--input", "-i", help="JSONL with a 'text' field per line.")
]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Where to write JSONL (default stdout).")
]
TrainAnchorsOpt = Annotated[
    Path | None, typer.Option(help="Anchor file (.json.gz); default: the shipped anchors.")
]
OutOpt = Annotated[
    Path | None,
    typer.Option(help="Artifact to write; default: the shipped one for the static embedder."),
]
EvalSetOpt = Annotated[
    Path | None,
    typer.Option(
        help="Independent evaluation folder (descriptions.txt, messages.txt); "
        "default: benchmarks/emotion_eval of the source checkout."
    ),
]
ConfusionOpt = Annotated[
    bool, typer.Option(help="Also print the within-family emotion confusion tables.")
]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="Also write JSON here.")]


def _settings(cls: type[S], given: dict[str, Any], opts: list[Opt]) -> S:
    """The settings from the options given (the rest are the settings' defaults)."""
    from pydantic import ValidationError

    try:
        return cls.model_validate(given)
    except ValidationError as exc:
        raise fail(error_message(exc, opts)) from None


def _building(work: Callable[[], T]) -> T:
    """Run `work`; a setting that cannot be used or an embedder failure (an unreachable
    endpoint) becomes a clean exit 2."""
    from tau_emotion.emotions.embedders import EmbedderError
    from tau_emotion.emotions.settings import MapperSetupError

    try:
        return work()
    except (MapperSetupError, EmbedderError) as exc:
        raise fail(str(exc)) from exc


def _mapper(settings: MapperSettings) -> Mapper:
    """The mapper the settings name, saying so on stderr when a classifier is trained first."""
    from tau_emotion.emotions.settings import build_mapper

    return _building(lambda: build_mapper(settings, on_training=lambda m: typer.echo(m, err=True)))


def _read_feelings(path: Path) -> list[dict[str, Any]]:
    """Parse a JSONL file of objects with a non-empty string `text`; name every bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise fail(f"{path} is not UTF-8 text: {exc}") from exc
    records: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            # NaN, Infinity, 1e999 are refused: the output would not be JSON either.
            record = loads_finite(line)
        except json.JSONDecodeError as exc:
            problems.append(
                f"{path}, line {number}: not valid JSON ({exc.msg} at column {exc.colno})"
            )
            continue
        except ValueError as exc:  # NonFiniteNumber, or too many digits
            problems.append(f"{path}, line {number}: {exc} (the output would not be JSON)")
            continue
        if not isinstance(record, dict):
            problems.append(
                f"{path}, line {number}: expected a JSON object, got {type(record).__name__}"
            )
        elif "text" not in record:
            problems.append(f"{path}, line {number}: missing the 'text' field")
        elif not isinstance(record["text"], str) or not record["text"].strip():
            problems.append(f"{path}, line {number}: 'text' must be a non-empty string")
        else:
            records.append(record)
    if problems:
        shown = "\n  ".join(problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise fail(f"{len(problems)} bad line(s) in {path}, nothing written:\n  {shown}{more}")
    return records


def _warn_unread(mapper: Mapper, texts: list[str]) -> None:
    """Say once on stderr which texts carried no token the static embedder knows: they all
    get the same prior guess, which looks like any other mapping."""
    from tau_emotion.emotions.embedders import StaticEmbedder

    if not isinstance(mapper.embedder, StaticEmbedder):
        return  # another embedder may read scripts and emoji the static vocabulary lacks
    unread = mapper.unread(texts)
    if unread:
        shown = ", ".join(repr(texts[i][:40]) for i in unread[:3])
        more = ", ..." if len(unread) > 3 else ""
        typer.echo(
            f"warning: {len(unread)} text(s) have no word the static embedder knows, so they "
            f"carry no signal the mapper can read and all get its default guess: {shown}{more}",
            err=True,
        )


def _map(given: dict[str, Any], values: dict[str, Any]) -> None:
    text: str | None = values["text"]
    input_path: Path | None = values["input_path"]
    output: Path | None = values["output"]
    if (text is None) == (input_path is None):
        raise fail("give either a TEXT argument or --input FILE")
    if text is not None and not text.strip():  # the rule `--input` applies to its lines
        raise fail("TEXT must be a non-empty string")
    settings = _settings(MapperSettings, given, MAPPER_OPTIONS)
    if output is not None:
        from tau_emotion.inputs import writable_file

        writable_file(output, "--output")  # before the mapping work, not after it
    from tau_emotion.storage import encodable_value, write_atomic

    # Lone surrogates (argv bytes that are not UTF-8, "\ud800" escapes in JSON) cannot be
    # printed or written; they become U+FFFD before anything sees them.
    records = encodable_value(
        [{"text": text}] if input_path is None else _read_feelings(input_path)
    )
    mapper = _mapper(settings)
    texts = [str(r["text"]) for r in records]
    mapped = _building(lambda: mapper.map(texts))
    _warn_unread(mapper, texts)
    lines = [
        json.dumps({**record, **m.model_dump()}, ensure_ascii=False, allow_nan=False)
        for record, m in zip(records, mapped, strict=True)
    ]
    if output is None:
        for line in lines:
            typer.echo(line)
    else:
        write_atomic(output, "".join(line + "\n" for line in lines))
        typer.echo(f"wrote {len(lines)} line(s) to {output}", err=True)


map_command = config_command(
    MAPPER_OPTIONS,
    _map,
    "Map free text to a condition (+ confidences and a sampled instruction).",
    before=[
        command_option("text", TextArg, None),
        command_option("input_path", InputOpt, None),
        command_option("output", OutputOpt, None),
    ],
)


def _train(given: dict[str, Any], values: dict[str, Any]) -> None:
    from tau_emotion.emotions.classifier import artifact_diff
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER
    from tau_emotion.emotions.settings import read_anchors, train_for

    settings = _settings(EmbedderSettings, given, EMBEDDER_OPTIONS)
    out: Path | None = values["out"]
    if out is None:
        # The shipped artifact is the static embedder's, trained on the shipped anchors; any
        # other would break `map` and make `map_feeling` refuse to run.
        if settings.embedder != "static":
            raise fail("--out is required for embedders other than static")
        if values["anchors"] is not None:
            raise fail(
                "--out is required with --anchors (the shipped classifier is trained "
                "on the shipped anchors)"
            )
        out = DEFAULT_CLASSIFIER
    emb = _building(settings.build)
    anchor_set = _building(lambda: read_anchors(values["anchors"]))
    before = out.read_bytes() if out.exists() else None
    previous = out.with_suffix(".previous.npz")
    if before is not None:
        previous.write_bytes(before)
    _building(lambda: train_for(emb, anchor_set, values["anchors"])).save(out)
    after = out.read_bytes()
    digest = hashlib.sha256(after).hexdigest()[:16]
    if before is None:
        typer.echo(f"wrote {out} (sha256 {digest})")
    elif before == after:
        typer.echo(f"wrote {out} (sha256 {digest}): byte-identical to the previous file")
    else:
        typer.echo(
            f"wrote {out} (sha256 {digest}): differs from the previous file, "
            f"largest array difference {artifact_diff(previous, out):.2e}"
        )
    if before is not None:
        previous.unlink()


train_command = config_command(
    EMBEDDER_OPTIONS,
    _train,
    "Train the classifier; with the defaults this reproduces the shipped artifact.",
    before=[command_option("anchors", TrainAnchorsOpt, None), command_option("out", OutOpt, None)],
)


def _eval(given: dict[str, Any], values: dict[str, Any]) -> None:
    from tau_emotion.emotions.evalset import EvalSetError, default_eval_dir, load_eval_set
    from tau_emotion.emotions.training import (
        confusion_text,
        dump_json,
        independent_evaluation,
        report_text,
    )

    settings = _settings(MapperSettings, given, EVAL_OPTIONS)
    folder: Path | None = values["eval_set"] or default_eval_dir()
    if folder is None:
        raise fail(
            "no evaluation set here: pass --eval-set DIR (the repository's "
            "benchmarks/emotion_eval; an installed package does not ship it)"
        )
    try:
        loaded = load_eval_set(folder)
    except EvalSetError as exc:
        raise fail(str(exc)) from exc
    mapper = _mapper(settings)
    reports = _building(lambda: independent_evaluation(mapper, loaded))
    for name, report in reports.items():
        typer.echo(report_text(f"{name} ({folder})", report))
        if values["confusion"]:
            typer.echo(confusion_text(report))
    if values["json_out"] is not None:
        dump_json(reports, values["json_out"])


eval_command = config_command(
    EVAL_OPTIONS,
    _eval,
    "Accuracy per head on the independent evaluation set (never trained on).",
    before=[command_option("eval_set", EvalSetOpt, None)],
    after=[
        command_option("confusion", ConfusionOpt, False),
        command_option("json_out", JsonOpt, None),
    ],
)


def plot_command(
    out: Annotated[Path, typer.Option(help="PNG file to write.")] = Path("anchors.png"),
    classifier: Annotated[Path | None, typer.Option(help="Classifier artifact.")] = None,
) -> None:
    """2-D map (PCA of the learned space) of the anchors, coloured by family."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise fail("plot needs matplotlib: pip install 'tau-emotion[plot]'") from exc
    import numpy as np

    from tau_emotion.emotions.classifier import Artifact
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER
    from tau_emotion.emotions.space import FAMILIES, all_conditions

    path = classifier or DEFAULT_CLASSIFIER
    try:
        artifact = Artifact.load(path)
    except (OSError, ValueError, KeyError) as exc:  # not an npz, or an npz of something else
        raise fail(f"cannot use classifier {path}: {exc}") from exc
    vectors = artifact.anchor_vectors.astype(np.float64)
    centred = vectors - vectors.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    xy = centred @ vt[:2].T
    conditions = all_conditions()
    families = np.array([conditions[i].family for i in artifact.anchor_conditions.astype(int)])
    fig, ax = plt.subplots(figsize=(8, 7))
    for family in FAMILIES:
        mask = families == family
        ax.scatter(xy[mask, 0], xy[mask, 1], s=3, alpha=0.5, label=family)
    ax.set_title(f"{len(vectors)} anchors in the learned space (PCA)")
    ax.legend(markerscale=4)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    typer.echo(f"wrote {out}")


# Typer lists the commands in the order they are added: this is the order of `--help`.
app.command("list")(list_conditions)
app.command("map")(map_command)
app.command("train")(train_command)
app.command("eval")(eval_command)
app.command("plot")(plot_command)
app.command("anchors")(anchors_command)
app.command("check-written")(check_written_command)
