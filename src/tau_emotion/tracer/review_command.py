"""The work of `tau-emotion tracer review`: which domains of a build it reviews, filing new
drafts (`--add`), and checking the filed reviews against the build (`--prune`).

Apart from the command's options (`tracer/cli.py`) so that the command module stays a list
of commands; heavy imports stay inside the functions, as there, so `--help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from tau_emotion.tracer.review import Draft


def reviewed_domains(out: Path, names: list[str], domain: str) -> list[str]:
    """The domains of --domain whose test selection `out` holds, checked before anything is
    read or written: a mistyped build folder used to look like a clean review (exit 0)."""
    from tau_emotion.inputs import InputError
    from tau_emotion.tracer.review import WRITTEN
    from tau_emotion.tracer.stats import build_domains

    build_domains(out)  # the folder exists and is a build, or one line naming it
    present = [n for n in names if (out / n / WRITTEN).is_file()]
    missing = [n for n in names if n not in present]
    if missing and domain != "all":
        first = out / missing[0] / WRITTEN
        raise InputError(f"{first} does not exist: build the test split first")
    if not present:
        raise InputError(
            f"{out} holds no test selection of --domain {domain} (no <domain>/{WRITTEN}): "
            "build the test split first"
        )
    return present


def file_drafts(
    out: Path, present: list[str], names: list[str], domain: str, drafts: list[Draft]
) -> None:
    """`review --add`: check every draft of every domain, then file the ones that pass.

    Nothing is written before everything is checked: a domain missing from the build used
    to stop the command with an error after the domains before it had been filed."""
    from tau_emotion.domains.base import load_tasks
    from tau_emotion.inputs import InputError
    from tau_emotion.tracer.profile import load_profile
    from tau_emotion.tracer.review import (
        WRITTEN,
        WRITTEN_TWINS,
        Review,
        add_drafts,
        load_reviews,
        locked,
        review_path,
        test_candidates,
        write_reviews,
    )

    owner = {
        d.task_id: next((n for n in names if d.task_id.startswith(f"{n}-")), "") for d in drafts
    }
    mine = {n: [d for d in drafts if owner[d.task_id] == n] for n in names}
    # A draft of no selected domain (a typo in its id, another domain's task) used to be
    # dropped without a word.
    stray = [task_id for task_id, name in owner.items() if not name]
    for name in names:
        if mine[name] and name not in present:
            raise InputError(
                f"{out / name / WRITTEN} does not exist: build the test split first "
                f"(the drafts hold {len(mine[name])} of {name})"
            )
    checked: list[tuple[str, Path, dict[str, Review], dict[str, str]]] = []
    for name in (n for n in present if mine[n]):
        profile = load_profile(name)
        path = review_path(profile.domain.root)
        load_reviews(path)  # a damaged review file stops the command here, before any filing
        filed, refused = add_drafts(
            profile,
            load_tasks(out / name / WRITTEN),
            load_tasks(out / name / WRITTEN_TWINS),
            test_candidates(out, name),
            mine[name],
            {},
        )
        checked.append((name, path, filed, refused))
    for name, path, filed, refused in checked:
        if filed:
            with locked(path):  # reviewers of one domain may file at the same time
                write_reviews(path, {**load_reviews(path), **filed}.values())
        typer.echo(f"{name}: {len(filed)} of {len(mine[name])} drafts filed in {path}")
        for task_id, why in refused.items():
            typer.echo(f"  {task_id}: refused: {why}")
    for task_id in stray:
        typer.echo(f"{task_id}: refused: no domain of --domain {domain} holds this task id")
    if stray or any(refused for *_, refused in checked):
        raise typer.Exit(1)


def check_reviews(out: Path, present: list[str], prune: bool) -> None:
    """`review` (and `--prune`): how each domain's reviews apply to the build. The exit
    status is 1 while any review fails or is stale, after a prune too (it used to be 0 with
    failing reviews left)."""
    from tau_emotion.domains.base import load_tasks
    from tau_emotion.tracer.profile import load_profile
    from tau_emotion.tracer.review import (
        WRITTEN,
        WRITTEN_TWINS,
        apply_reviews,
        load_reviews,
        locked,
        review_path,
        test_candidates,
        write_reviews,
    )

    refused_any = False
    for name in present:
        profile = load_profile(name)
        tasks = load_tasks(out / name / WRITTEN)
        twins = load_tasks(out / name / WRITTEN_TWINS)
        path = review_path(profile.domain.root)
        candidates = test_candidates(out, name)
        _, _, outcome = apply_reviews(profile, tasks, twins, candidates, load_reviews(path))
        for line in outcome.lines(name):
            typer.echo(line)
        dropped = {*outcome.stale, *outcome.orphans} if prune else set()
        if dropped:
            with locked(path):
                kept = [r for r in load_reviews(path).values() if r.task_id not in dropped]
                write_reviews(path, kept)
            typer.echo(f"  pruned {len(dropped)} reviews from {path}")
        refused_any |= bool(outcome.failed) or bool(set(outcome.stale) - dropped)
    if refused_any:
        raise typer.Exit(1)
