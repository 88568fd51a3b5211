"""The hand review of the test set: every shipped test instruction read, and rewritten where
it is not what a customer would say.

A domain's reviews live beside its set, in ``<domain>/tracer/test_review.jsonl``, one line a
task: its id, a digest of its gold, the instruction the writer wrote (`before`), the reviewed
one (`after`), the opening requests before and (when they changed) after, and why. A build
applies each review after the selection, to the task and its neutral twin alike, when the task
is still selected with the same gold and the same written text; it validates the reviewed task
with every check of the validate stage (the oracle with the scripted user included) and keeps
the writer's text, saying which task and why, for a review that no longer fits or fails a
check. So a rebuild re-applies the review byte for byte, and a task whose gold changed loses
its review loudly.

Reviewers write drafts (`Draft`: the id, the new text, why); `add_drafts` checks each against
a build and files the ones that pass (`tau-emotion tracer review`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tau_emotion.data import Task
from tau_emotion.errors import TaskFileError
from tau_emotion.storage import file_lock, parse_jsonl
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import Candidate, Felt
from tau_emotion.tracer.select import accepted
from tau_emotion.tracer.validate import check

M = TypeVar("M", bound=BaseModel)

REVIEW_FILE = Path("tracer") / "test_review.jsonl"
"""Where a domain keeps the reviews of its test set, under the domain folder."""


class Review(BaseModel):
    """One reviewed test task."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str = Field(description="The test task.")
    gold: str = Field(description="`gold_digest` of the task when it was reviewed.")
    before: str = Field(description="The instruction as the writer wrote it.")
    after: str = Field(min_length=1, description="The reviewed instruction.")
    requests_before: list[str] = Field(description="The intents' opening requests, as written.")
    requests_after: list[str] | None = Field(
        default=None, description="The reviewed requests, one per intent; None: as written."
    )
    reason: str = Field(min_length=1, description="Why it was rewritten (or kept).")

    @model_validator(mode="after")
    def _one_request_per_intent(self) -> Review:
        if self.requests_after is not None and len(self.requests_after) != len(
            self.requests_before
        ):
            raise ValueError(
                f"{self.task_id}: {len(self.requests_after)} reviewed requests for "
                f"{len(self.requests_before)} intents"
            )
        return self


class Draft(BaseModel):
    """What a reviewer writes for one task; `add_drafts` fills in the rest from the build."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str = Field(description="The test task.")
    after: str = Field(min_length=1, description="The reviewed instruction.")
    requests: list[str] | None = Field(
        default=None, description="Reviewed opening requests, one per intent (None: keep)."
    )
    reason: str = Field(min_length=1, description="Why it was rewritten (or kept).")


def gold_digest(task: Task) -> str:
    """What a review was written against: the gold actions, the outputs and the challenge."""
    payload = {
        "gold": [a.model_dump(mode="json") for a in task.gold_actions],
        "outputs": task.required_outputs,
        "challenge": task.challenge.model_dump(mode="json") if task.challenge else None,
    }
    data = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def review_path(root: Path) -> Path:
    return root / REVIEW_FILE


def _records(path: Path, model: type[M]) -> list[tuple[int, M]]:
    """Every line of a JSONL file as `model`, with its line number; any bad line (the last
    one too: these files are written by hand) raises `TaskFileError` naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFileError(f"{path} cannot be read: {exc}") from None
    return parse_jsonl(text, model, lambda n, problem: TaskFileError(f"{path}:{n}: {problem}"))


def load_reviews(path: Path) -> dict[str, Review]:
    """A review file by task id (empty when there is none)."""
    if not path.exists():
        return {}
    reviews: dict[str, Review] = {}
    for lineno, review in _records(path, Review):
        if review.task_id in reviews:
            raise TaskFileError(f"{path}:{lineno}: a second review of {review.task_id}")
        reviews[review.task_id] = review
    return reviews


def load_drafts(path: Path) -> list[Draft]:
    """A reviewer's drafts; a task drafted twice keeps its last draft."""
    if not path.exists():
        raise TaskFileError(f"{path} does not exist")
    drafts = {d.task_id: d for _, d in _records(path, Draft)}
    if not drafts:
        raise TaskFileError(f"{path} holds no drafts")
    return list(drafts.values())


def write_reviews(path: Path, reviews: Iterable[Review]) -> None:
    """The whole file, one review a line, by task id (so a rebuild diffs cleanly)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [r.model_dump_json() + "\n" for r in sorted(reviews, key=lambda r: r.task_id)]
    path.write_text("".join(lines), encoding="utf-8")


def locked(path: Path) -> AbstractContextManager[None]:
    """Hold an exclusive lock on a review file while it is read and rewritten."""
    return file_lock(path)


def reviewed(task: Task, review: Review) -> Task:
    """The task (or its twin) with the reviewed text."""
    intents = task.intents
    if review.requests_after is not None:
        intents = [
            intent.model_copy(update={"request": request})
            for intent, request in zip(task.intents, review.requests_after, strict=True)
        ]
    return task.model_copy(update={"instruction": review.after, "intents": intents})


def stale(task: Task, review: Review) -> str:
    """Why a review no longer fits the task the writer wrote ("" when it does)."""
    if review.gold != gold_digest(task):
        return "its gold changed since the review"
    if review.before != task.instruction:
        return "the writer's instruction changed since the review"
    if review.requests_before != [i.request for i in task.intents]:
        return "the writer's requests changed since the review"
    return ""


@dataclass
class ReviewOutcome:
    """What applying a domain's reviews did."""

    applied: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Selected tasks without a review."""
    stale: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    """Reviews whose text fails a check of the validate stage, with the checks."""
    orphans: list[str] = field(default_factory=list)
    """Reviews of tasks the selection no longer holds."""

    def lines(self, domain: str) -> list[str]:
        """A summary line, then one line per review the build could not use."""
        out = [
            f"review {domain}: {len(self.applied)} applied, {len(self.missing)} unreviewed, "
            f"{len(self.stale)} stale, {len(self.failed)} failed, {len(self.orphans)} orphaned"
        ]
        out += [f"  {t}: stale, {why}; the writer's text is kept" for t, why in self.stale.items()]
        out += [f"  {t}: fails {why}; the writer's text is kept" for t, why in self.failed.items()]
        out += [f"  {t}: no longer selected" for t in self.orphans]
        return out


def checked_review(
    profile: Profile,
    candidate: Candidate,
    task: Task,
    twin: Task | None,
    review: Review,
    requests_said: bool = True,
) -> tuple[Task, Task | None, str]:
    """The task and its twin with the review's text, and the checks of the validate stage
    they fail ("" when none). `requests_said=False` judges the reviewed instruction without
    the requests' help (`validate.check`): how a new draft is judged."""
    new_task = reviewed(task, review)
    new_twin = reviewed(twin, review) if twin is not None else None
    felt = Felt(
        walk_id=candidate.walk_id,
        candidate=candidate.model_copy(update={"task": new_task}),
        twin=new_twin,
    )
    failures = check(profile, felt, run_oracle=True, requests_said=requests_said)
    failing = "; ".join(f"{r.reason} ({r.detail})" if r.detail else r.reason for r in failures)
    return new_task, new_twin, failing


WRITTEN = "written-test.jsonl"
WRITTEN_TWINS = "written-test_neutral.jsonl"
"""The writer's test selection and its twins, before the review, in a build's domain folder."""


def test_candidates(out: Path, domain: str) -> dict[str, Candidate]:
    """Each accepted test task's validated candidate in a build (the checks read its
    mentions), by task id."""
    verdicts = accepted(out, domain, "test")
    return {v.candidate.task.id: v.candidate for v in verdicts if v.candidate is not None}


def apply_reviews(
    profile: Profile,
    tasks: Sequence[Task],
    twins: Sequence[Task],
    candidates: Mapping[str, Candidate],
    reviews: Mapping[str, Review],
) -> tuple[list[Task], list[Task], ReviewOutcome]:
    """The selected test tasks and twins with their reviews applied, and what happened.
    `candidates` holds each task's validated candidate (for the mentions the checks read)."""
    twin_of = {t.neutral_twin_id: t for t in twins}
    outcome = ReviewOutcome()
    out_tasks: list[Task] = []
    out_twins: dict[str, Task] = {}
    for task in tasks:
        twin = twin_of.get(task.id)
        review = reviews.get(task.id)
        if review is None:
            outcome.missing.append(task.id)
        elif why := stale(task, review):
            outcome.stale[task.id] = why
        else:
            new_task, new_twin, failing = checked_review(
                profile, candidates[task.id], task, twin, review
            )
            if failing:
                outcome.failed[task.id] = failing
            else:
                outcome.applied.append(task.id)
                task, twin = new_task, new_twin
        out_tasks.append(task)
        if twin is not None:
            out_twins[twin.id] = twin
    held = {t.id for t in tasks}
    outcome.orphans = sorted(r for r in reviews if r not in held)
    return out_tasks, [out_twins.get(t.id, t) for t in twins], outcome


def add_drafts(
    profile: Profile,
    tasks: Sequence[Task],
    twins: Sequence[Task],
    candidates: Mapping[str, Candidate],
    drafts: Sequence[Draft],
    reviews: Mapping[str, Review],
) -> tuple[dict[str, Review], dict[str, str]]:
    """The domain's reviews with each draft that passes every check filed (a new draft of a
    task replaces its review), and the drafts that did not, with why.

    A draft is judged without the requests' help: the LLM customer is shown only the
    instruction and the known facts, so a draft that drops or contradicts the goal the
    requests still state ("Please help me.") must not be filed. The filed reviews are
    applied with the requests counted (`apply_reviews`), since 12 of the 580 shipped ones
    would fail the stricter rule (measured on 2026-12-05 against a test-split build of
    the shipped sources) and a rebuild must re-apply them byte for byte."""
    by_id = {t.id: t for t in tasks}
    twin_of = {t.neutral_twin_id: t for t in twins}
    filed = dict(reviews)
    refused: dict[str, str] = {}
    for draft in drafts:
        task = by_id.get(draft.task_id)
        if task is None:
            refused[draft.task_id] = "no such task in the build's test selection"
            continue
        requests = [i.request for i in task.intents]
        if draft.requests is not None and len(draft.requests) != len(requests):
            refused[draft.task_id] = f"{len(draft.requests)} requests for {len(requests)} intents"
            continue
        review = Review(
            task_id=task.id,
            gold=gold_digest(task),
            before=task.instruction,
            after=draft.after,
            requests_before=requests,
            requests_after=draft.requests,
            reason=draft.reason,
        )
        _, _, failing = checked_review(
            profile, candidates[task.id], task, twin_of.get(task.id), review, requests_said=False
        )
        if failing:
            refused[draft.task_id] = failing
        else:
            filed[task.id] = review
    return filed, refused
