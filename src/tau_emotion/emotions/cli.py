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
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from tau_emotion.emotions.cli_anchors import (
    anchors_command,
    check_written_command,
    list_conditions,
)
from tau_emotion.emotions.cli_common import KeyEnvOpt, fail
from tau_emotion.emotions.defaults import (
    DEFAULT_EMBEDDER,
    DEFAULT_K,
    DEFAULT_KEY_ENV,
    DEFAULT_LEXICAL_WEIGHT,
    DEFAULT_SEED,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from tau_emotion.emotions.embedders import Embedder
    from tau_emotion.emotions.mapper import Mapper

app = typer.Typer(
    help="The 594 emotion conditions, their anchors, and the text -> condition mapper.",
    no_args_is_help=True,
)

EmbedderOpt = Annotated[
    str, typer.Option("--embedder", help="static (default, numpy), minilm, or openai.")
]
EmbedModelOpt = Annotated[
    str | None,
    typer.Option("--embed-model", help="Model for --embedder openai (or a local ST model path)."),
]
BaseUrlOpt = Annotated[
    str | None, typer.Option("--embed-base-url", help="Base URL for --embedder openai.")
]


def _embedder(kind: str, model: str | None, base_url: str | None, key_env: str) -> Embedder:
    from tau_emotion.emotions.embedders import make_embedder
    from tau_emotion.redact import register_key_variables

    register_key_variables([key_env])  # hidden from any error line that quotes it
    try:
        return make_embedder(kind, model=model, base_url=base_url, api_key_env=key_env)
    except (ValueError, ModuleNotFoundError) as exc:
        raise fail(str(exc)) from exc


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tau-emotion" / "emotions"


def _mapper(
    embedder: Embedder,
    classifier: Path | None,
    k: int,
    seed: int,
    anchors_path: Path | None = None,
    lexical_weight: float = DEFAULT_LEXICAL_WEIGHT,
) -> Mapper:
    """The mapper for an embedder: shipped artifact for static, else a trained-and-cached one."""
    from tau_emotion.emotions.anchors import default_anchor_set, read_anchor_set
    from tau_emotion.emotions.classifier import Artifact
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER, Mapper
    from tau_emotion.emotions.training import train_artifact

    try:
        anchors = default_anchor_set() if anchors_path is None else read_anchor_set(anchors_path)
    except (OSError, ValueError) as exc:  # ValueError: a pydantic error, bad gzip or JSON
        from tau_emotion.cli.errors import describe

        raise fail(f"cannot use anchors {anchors_path}: {describe(exc) or exc}") from exc
    if classifier is None and embedder.name == _static_name() and anchors_path is None:
        classifier = DEFAULT_CLASSIFIER
    if classifier is None:
        # Embedding ~10k anchors through MiniLM or an API is slow or costs money: do it once.
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", embedder.name)
        classifier = _cache_dir() / f"classifier-{slug}-{anchors.digest()}.npz"
        if not classifier.exists():
            typer.echo(
                f"training a classifier for {embedder.name} (cached at {classifier})", err=True
            )
            _embedding(lambda: train_artifact(embedder, anchors)).save(classifier)
    try:
        artifact = Artifact.load(classifier)
        if artifact.meta.get("anchors_digest") != anchors.digest():
            # The instruction is sampled from the anchors the classifier voted with.
            raise ValueError("it was trained on other anchors; pass the same file with --anchors")
        return Mapper(embedder, artifact, anchors, k=k, seed=seed, lexical_weight=lexical_weight)
    except (OSError, ValueError, KeyError) as exc:
        raise fail(f"cannot use classifier {classifier}: {exc}") from exc


def _embedding(work: Callable[[], T]) -> T:
    """Run `work`; an embedder failure (e.g. an unreachable endpoint) becomes a clean exit 2."""
    from tau_emotion.emotions.embedders import EmbedderError

    try:
        return work()
    except EmbedderError as exc:
        raise fail(str(exc)) from exc


def _static_name() -> str:
    from tau_emotion.emotions.embedders import default_embedder

    return default_embedder().name


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
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(
                f"{path}, line {number}: not valid JSON ({exc.msg} at column {exc.colno})"
            )
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


LexicalWeightOpt = Annotated[
    float,
    typer.Option(
        min=0.0,
        max=1.0,
        help="Weight of the n-gram model against the embedding side (0 = embeddings only).",
    ),
]
# The options of the commands that build a mapper (`map`, `eval`), spelled once.
NeighboursOpt = Annotated[int, typer.Option(help="Neighbouring anchors that vote.")]
ClassifierOpt = Annotated[
    Path | None, typer.Option(help="Classifier artifact (default: shipped or cached).")
]
MapperAnchorsOpt = Annotated[
    Path | None, typer.Option(help="Anchors the classifier was trained on (default: shipped).")
]


def map_command(
    text: Annotated[str | None, typer.Argument(help="A free-text feeling to map.")] = None,
    input_path: Annotated[
        Path | None, typer.Option("--input", "-i", help="JSONL with a 'text' field per line.")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Where to write JSONL (default stdout).")
    ] = None,
    k: NeighboursOpt = DEFAULT_K,
    seed: Annotated[int, typer.Option(help="Seed for choosing the instruction.")] = DEFAULT_SEED,
    lexical_weight: LexicalWeightOpt = DEFAULT_LEXICAL_WEIGHT,
    embedder: EmbedderOpt = DEFAULT_EMBEDDER,
    embed_model: EmbedModelOpt = None,
    embed_base_url: BaseUrlOpt = None,
    api_key_env: KeyEnvOpt = DEFAULT_KEY_ENV,
    classifier: ClassifierOpt = None,
    anchors: MapperAnchorsOpt = None,
) -> None:
    """Map free text to a condition (+ confidences and a sampled instruction)."""
    if (text is None) == (input_path is None):
        raise fail("give either a TEXT argument or --input FILE")
    if k < 1:
        raise fail("--k must be at least 1")
    if output is not None:
        from tau_emotion.inputs import writable_file

        writable_file(output, "--output")  # before the mapping work, not after it
    from tau_emotion.storage import encodable_value, write_atomic

    # Lone surrogates (argv bytes that are not UTF-8, "\ud800" escapes in JSON) cannot be
    # printed or written; they become U+FFFD before anything sees them.
    records = encodable_value(
        [{"text": text}] if input_path is None else _read_feelings(input_path)
    )
    mapper = _mapper(
        _embedder(embedder, embed_model, embed_base_url, api_key_env),
        classifier,
        k,
        seed,
        anchors,
        lexical_weight,
    )
    mapped = _embedding(lambda: mapper.map([str(r["text"]) for r in records]))
    lines = [
        json.dumps({**record, **m.model_dump()}, ensure_ascii=False)
        for record, m in zip(records, mapped, strict=True)
    ]
    if output is None:
        for line in lines:
            typer.echo(line)
    else:
        write_atomic(output, "".join(line + "\n" for line in lines))
        typer.echo(f"wrote {len(lines)} line(s) to {output}", err=True)


def train_command(
    anchors: Annotated[
        Path | None, typer.Option(help="Anchor file (.json.gz); default: the shipped anchors.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Artifact to write; default: the shipped one for the static embedder."),
    ] = None,
    embedder: EmbedderOpt = DEFAULT_EMBEDDER,
    embed_model: EmbedModelOpt = None,
    embed_base_url: BaseUrlOpt = None,
    api_key_env: KeyEnvOpt = DEFAULT_KEY_ENV,
) -> None:
    """Train the classifier; with the defaults this reproduces the shipped artifact."""
    from tau_emotion.emotions.anchors import default_anchor_set, read_anchor_set
    from tau_emotion.emotions.classifier import artifact_diff
    from tau_emotion.emotions.mapper import DEFAULT_CLASSIFIER
    from tau_emotion.emotions.training import train_artifact

    emb = _embedder(embedder, embed_model, embed_base_url, api_key_env)
    anchor_set = default_anchor_set() if anchors is None else read_anchor_set(anchors)
    if out is None:
        if embedder != "static":  # the shipped artifact is the static embedder's
            raise fail("--out is required for embedders other than static")
        out = DEFAULT_CLASSIFIER
    before = out.read_bytes() if out.exists() else None
    previous = out.with_suffix(".previous.npz")
    if before is not None:
        previous.write_bytes(before)
    _embedding(lambda: train_artifact(emb, anchor_set)).save(out)
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


def eval_command(
    eval_set: Annotated[
        Path | None,
        typer.Option(
            help="Independent evaluation folder (descriptions.txt, messages.txt); "
            "default: benchmarks/emotion_eval of the source checkout."
        ),
    ] = None,
    k: NeighboursOpt = DEFAULT_K,
    lexical_weight: LexicalWeightOpt = DEFAULT_LEXICAL_WEIGHT,
    embedder: EmbedderOpt = DEFAULT_EMBEDDER,
    embed_model: EmbedModelOpt = None,
    embed_base_url: BaseUrlOpt = None,
    api_key_env: KeyEnvOpt = DEFAULT_KEY_ENV,
    classifier: ClassifierOpt = None,
    anchors: MapperAnchorsOpt = None,
    confusion: Annotated[
        bool, typer.Option(help="Also print the within-family emotion confusion tables.")
    ] = False,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write JSON here.")] = None,
) -> None:
    """Accuracy per head on the independent evaluation set (never trained on)."""
    from tau_emotion.emotions.evalset import EvalSetError, default_eval_dir, load_eval_set
    from tau_emotion.emotions.training import (
        confusion_text,
        dump_json,
        independent_evaluation,
        report_text,
    )

    folder = eval_set or default_eval_dir()
    if folder is None:
        raise fail(
            "no evaluation set here: pass --eval-set DIR (the repository's "
            "benchmarks/emotion_eval; an installed package does not ship it)"
        )
    try:
        loaded = load_eval_set(folder)
    except EvalSetError as exc:
        raise fail(str(exc)) from exc
    emb = _embedder(embedder, embed_model, embed_base_url, api_key_env)
    mapper = _mapper(emb, classifier, k, 0, anchors, lexical_weight)
    reports = _embedding(lambda: independent_evaluation(mapper, loaded))
    for name, report in reports.items():
        typer.echo(report_text(f"{name} ({folder})", report))
        if confusion:
            typer.echo(confusion_text(report))
    if json_out is not None:
        dump_json(reports, json_out)


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

    artifact = Artifact.load(classifier or DEFAULT_CLASSIFIER)
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
