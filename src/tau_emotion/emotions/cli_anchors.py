"""`tau-emotion emotions list | anchors | check-written`: the conditions and their anchors.

These commands name, build and check the anchor texts; none of them loads the mapper. They are
registered on the sub-app by `tau_emotion.emotions.cli` (which fixes the order `--help` lists
them in). Heavy imports happen inside the commands, so `tau-emotion --help` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tau_emotion.emotions.cli_common import KeyEnvOpt, fail
from tau_emotion.emotions.defaults import (
    DEFAULT_CONCURRENCY,
    DEFAULT_KEY_ENV,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_PER_CONDITION,
    DEFAULT_SEED,
    DEFAULT_TEMPERATURE,
    MINIMUM_ANCHORS,
)

if TYPE_CHECKING:
    from tau_emotion.emotions.anchors import AnchorSet


def list_conditions(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """Print the 594 conditions (ids, or JSON lines with their parts)."""
    from tau_emotion.emotions.space import all_conditions

    for c in all_conditions():
        if as_json:
            parts = {h: c.label(h) for h in ("family", "emotion", "politeness", "urgency", "trust")}
            typer.echo(json.dumps({"condition_id": c.id, **parts}))
        else:
            typer.echo(c.id)


# How an LLM writes anchors (--model); their defaults are the writer's own.
ConcurrencyOpt = Annotated[int, typer.Option(min=1, help="Parallel requests (--model).")]
RoundsOpt = Annotated[
    int, typer.Option(min=1, help="Retry rounds for conditions left short (--model).")
]
TemperatureOpt = Annotated[float, typer.Option(help="Sampling temperature, 0 to 2 (--model).")]


def anchors_command(
    model: Annotated[
        str | None,
        typer.Option(help="Chat model to write anchors; without it the written files are built."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1")
    ] = None,
    api_key_env: KeyEnvOpt = DEFAULT_KEY_ENV,
    out: Annotated[
        Path | None, typer.Option(help="Output .json.gz (default: the shipped anchors file).")
    ] = None,
    written: Annotated[
        Path | None,
        typer.Option(help="Folder of hand-written anchor files (default: the shipped ones)."),
    ] = None,
    templates_only: Annotated[
        bool,
        typer.Option(help="Only the phrase-bank generator (the pre-written-anchor behaviour)."),
    ] = False,
    per_condition: Annotated[
        int, typer.Option(min=1, help="Anchors per condition (--model, --templates-only).")
    ] = DEFAULT_PER_CONDITION,
    only: Annotated[
        list[str] | None,
        typer.Option(help="Only conditions whose id starts with this (repeatable; --model)."),
    ] = None,
    concurrency: ConcurrencyOpt = DEFAULT_CONCURRENCY,
    max_rounds: RoundsOpt = DEFAULT_MAX_ROUNDS,
    temperature: TemperatureOpt = DEFAULT_TEMPERATURE,
    seed: Annotated[int, typer.Option(help="Seed of the template generator.")] = DEFAULT_SEED,
    partial: Annotated[
        bool, typer.Option(help="Write the file even if some conditions fall short.")
    ] = False,
) -> None:
    """Build the anchors: the hand-written files (default), the templates, or an LLM endpoint."""
    from tau_emotion.emotions.anchors import DEFAULT_ANCHORS, coverage_problems, write_anchor_set
    from tau_emotion.emotions.space import all_conditions

    conditions = [c for c in all_conditions() if not only or any(c.id.startswith(p) for p in only)]
    if not conditions:
        raise fail(f"no condition id starts with {', '.join(only or [])}")
    if model is None:
        if only:
            raise fail("--only applies to LLM generation (--model)")
        if templates_only and per_condition < MINIMUM_ANCHORS and not partial:
            raise fail(  # said before generating, not as 594 problems after
                f"--per-condition {per_condition}: an anchor set needs {MINIMUM_ANCHORS} "
                "distinct anchors a condition (use --partial to write a smaller one)"
            )
        anchor_set = _offline_anchor_set(written, templates_only, per_condition, seed)
        short = coverage_problems(anchor_set, minimum=MINIMUM_ANCHORS)
        if short and not partial:
            raise fail(
                f"{len(short)} problem(s), e.g. {short[0]}; nothing written "
                "(use --partial to write anyway)",
                code=1,
            )
        target = out or DEFAULT_ANCHORS
        write_anchor_set(anchor_set, target)
        typer.echo(f"wrote {sum(len(v) for v in anchor_set.anchors.values())} anchors to {target}")
        return
    from tau_emotion.emotions.llm_anchors import generate_with_llm, openai_complete

    if out is None:
        raise fail("--out is required with --model (the shipped file is hand-written)")
    # Said before any request: an endpoint refuses these only after the run has begun.
    if not 0.0 <= temperature <= 2.0:
        raise fail(f"--temperature {temperature} is outside [0, 2]")
    if per_condition < MINIMUM_ANCHORS and not partial:
        raise fail(
            f"--per-condition {per_condition}: an anchor set needs {MINIMUM_ANCHORS} "
            "distinct anchors a condition (use --partial to write a smaller one)"
        )
    from tau_emotion.inputs import InputError, check_base_url, check_key_variable

    try:
        if base_url is not None:
            check_base_url(base_url, "--base-url")
        check_key_variable(api_key_env, "--api-key-env")
    except InputError as exc:
        raise fail(str(exc)) from None
    api_key = os.environ.get(api_key_env) or "EMPTY"
    complete = openai_complete(model, base_url, api_key, temperature=temperature)
    # What the client resolves when no --base-url is given, so the error names the endpoint.
    endpoint = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"

    def progress(done: int, total: int) -> None:
        print(f"\r  {done}/{total} conditions", end="", file=sys.stderr, flush=True)

    try:
        anchor_set, report = generate_with_llm(
            complete,
            conditions,
            per_condition=per_condition,
            max_rounds=max_rounds,
            concurrency=concurrency,
            source=f"llm:{model}",
            progress=progress,
        )
    except Exception as exc:  # the endpoint's errors are many; report them as one line
        raise fail(
            f"generation failed at {endpoint} (model {model!r}): {type(exc).__name__}: {exc}",
            code=1,
        ) from exc
    print(file=sys.stderr)
    rejected = ", ".join(f"{n} {why}" for why, n in sorted(report.rejected.items())) or "none"
    typer.echo(f"{report.requests} requests, {report.accepted} accepted; rejected: {rejected}")
    if report.short and not partial:
        raise fail(
            f"{len(report.short)} condition(s) below {per_condition} anchors "
            f"(e.g. {', '.join(report.short[:5])}); nothing written (use --partial to keep them)",
            code=1,
        )
    write_anchor_set(anchor_set, out)
    typer.echo(f"wrote {report.accepted} anchors for {len(conditions)} conditions to {out}")


def _offline_anchor_set(
    written: Path | None, templates_only: bool, per_condition: int, seed: int
) -> AnchorSet:
    """The anchors `emotions anchors` builds without a model; errors name the bad input."""
    from tau_emotion.emotions.generator import generate_anchor_set
    from tau_emotion.emotions.written import WRITTEN_DIR, WrittenFormatError, written_anchor_set

    if templates_only:
        if written is not None:
            raise fail("--templates-only takes no --written folder")
        return generate_anchor_set(per_condition, seed=seed)
    folder = written or WRITTEN_DIR
    if not folder.is_dir():
        raise fail(f"--written {folder}: not a folder")
    if not any(folder.glob("*.txt")):
        raise fail(f"--written {folder}: no written anchor files (*.txt) in it")
    try:
        return written_anchor_set(folder)
    except WrittenFormatError as exc:
        raise fail(str(exc)) from exc


def check_written_command(
    paths: Annotated[list[Path], typer.Argument(help="Written .txt files or folders of them.")],
    first_person: Annotated[
        bool,
        typer.Option(help="Texts are first-person customer messages (shape checks only)."),
    ] = False,
    minimum: Annotated[
        int,
        typer.Option(
            min=0,
            help="Texts each condition needs (0: no count check); without --emotion, every "
            "one of the 594 conditions, as `anchors` requires.",
        ),
    ] = 0,
    emotion: Annotated[
        list[str] | None,
        typer.Option(help="Check the count for every condition of this emotion (repeatable)."),
    ] = None,
) -> None:
    """Check hand-written anchors or evaluation texts: format, rules, shared sentences."""
    from tau_emotion.emotions.space import EMOTIONS, all_conditions
    from tau_emotion.emotions.written import WrittenFormatError, check_written, read_written

    for path in paths:
        if not path.exists():
            raise fail(f"{path}: no such file or folder")
    unknown = [e for e in emotion or [] if e not in EMOTIONS]
    if unknown:  # else the filter would be empty, which checks every condition
        raise fail(f"--emotion {unknown[0]!r} is not an emotion; one of {', '.join(EMOTIONS)}")
    try:
        texts = read_written(paths)
    except WrittenFormatError as exc:
        raise fail(str(exc)) from exc
    if not texts:
        raise fail(f"no written texts in {', '.join(map(str, paths))} (a folder's *.txt files)")
    # Without a filter the count covers all 594 conditions, not only those in the files: a
    # condition with no text at all is what `anchors` refuses first.
    wanted = [c.id for c in all_conditions() if not emotion or c.emotion in emotion]
    problems = check_written(
        texts, second_person=not first_person, minimum_per_condition=minimum, conditions=wanted
    )
    for problem in problems:
        typer.echo(problem)
    negations = sum(t.negation for t in texts)
    conditions = len({t.condition_id for t in texts})
    typer.echo(
        f"{len(texts)} texts over {conditions} conditions ({negations} marked negation/contrast); "
        f"{len(problems)} problem(s)"
    )
    if problems:
        raise typer.Exit(1)
