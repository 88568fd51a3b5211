"""The hand review of a test set: drafts are checked like Tracer tasks before they are filed,
a build applies the reviews to task and twin alike, and a review that no longer fits is
dropped loudly while the writer's text stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tau_emotion.domains.base import load_tasks
from tau_emotion.errors import TaskFileError
from tau_emotion.inputs import InputError
from tau_emotion.tracer.build import run_build
from tau_emotion.tracer.profile import profile_for
from tau_emotion.tracer.review import (
    Draft,
    Review,
    add_drafts,
    apply_reviews,
    gold_digest,
    load_drafts,
    load_reviews,
    review_path,
    write_reviews,
)
from tau_emotion.tracer.select import accepted

from toy_domain import SMALL_BUILD, small_build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    root = tmp_path_factory.mktemp("review")
    return small_build(root)


def _parts(built: tuple[Path, object]):  # type: ignore[no-untyped-def]
    out, toy = built
    profile = profile_for(toy)  # type: ignore[arg-type]
    tasks = load_tasks(out / "toy" / "written-test.jsonl")
    twins = load_tasks(out / "toy" / "written-test_neutral.jsonl")
    candidates = {
        v.candidate.task.id: v.candidate for v in accepted(out, "toy", "test") if v.candidate
    }
    return profile, tasks, twins, candidates


def test_a_draft_is_filed_only_when_the_reviewed_task_passes_every_check(
    built: tuple[Path, object],
) -> None:
    profile, tasks, twins, candidates = _parts(built)
    task = tasks[0]
    good = Draft(
        task_id=task.id,
        after=task.instruction.replace("You are", "You're", 1),
        reason="contraction",
    )
    # The amount of credit is said nowhere any more: the agent could not know it.
    vague = Draft(
        task_id=tasks[1].id,
        after="You want some help.",
        requests=["Hi, I need something." for _ in tasks[1].intents],
        reason="too vague",
    )
    miscounted = Draft(task_id=tasks[2].id, after="x", requests=[], reason="no requests")
    unknown = Draft(task_id="toy-nothing", after="x", reason="x")
    drafts = [good, vague, miscounted, unknown]
    filed, refused = add_drafts(profile, tasks, twins, candidates, drafts, {})
    assert set(filed) == {task.id}
    review = filed[task.id]
    assert review.before == task.instruction and review.gold == gold_digest(task)
    assert review.requests_before == [i.request for i in task.intents]
    assert "underivable" in refused[tasks[1].id]
    assert "0 requests" in refused[tasks[2].id]
    assert "no such task" in refused["toy-nothing"]


def test_reviews_apply_to_task_and_twin_and_stale_ones_are_said(
    built: tuple[Path, object],
) -> None:
    profile, tasks, twins, candidates = _parts(built)
    first, second = tasks[0], tasks[1]
    reviews = {
        first.id: Review(
            task_id=first.id,
            gold=gold_digest(first),
            before=first.instruction,
            after=first.instruction.replace("You are", "You're", 1),
            requests_before=[i.request for i in first.intents],
            requests_after=[f"Hello. {i.request}" for i in first.intents],
            reason="contraction",
        ),
        second.id: Review(
            task_id=second.id,
            gold="0" * 16,  # written against another gold
            before=second.instruction,
            after="You want help.",
            requests_before=[i.request for i in second.intents],
            reason="stale",
        ),
        "toy-gone": Review(
            task_id="toy-gone", gold="0", before="a", after="b", requests_before=[], reason="r"
        ),
    }
    out_tasks, out_twins, outcome = apply_reviews(profile, tasks, twins, candidates, reviews)
    assert outcome.applied == [first.id]
    assert set(outcome.stale) == {second.id} and outcome.orphans == ["toy-gone"]
    assert outcome.missing == [t.id for t in tasks[2:]]
    assert out_tasks[0].instruction.startswith("You're")
    assert out_tasks[0].intents[0].request.startswith("Hello. ")
    twin = next(t for t in out_twins if t.id == first.neutral_twin_id)
    assert twin.instruction == out_tasks[0].instruction and twin.intents == out_tasks[0].intents
    assert out_tasks[1] == second  # the stale review leaves the writer's text
    assert any("stale" in line for line in outcome.lines("toy"))


def test_a_rebuild_reapplies_the_review_byte_for_byte(built: tuple[Path, object]) -> None:
    out, toy = built
    profile, tasks, twins, candidates = _parts(built)
    draft = Draft(
        task_id=tasks[0].id, after=tasks[0].instruction.replace("You are", "You're", 1), reason="r"
    )
    filed, refused = add_drafts(profile, tasks, twins, candidates, [draft], {})
    assert not refused
    path = review_path(toy.root)  # type: ignore[attr-defined]
    write_reviews(path, filed.values())
    assert load_reviews(path) == filed
    final = run_build(SMALL_BUILD, out, show=False, domains=[toy])  # type: ignore[list-item]
    test = load_tasks(final / "toy" / "test.jsonl")
    assert test[0].instruction == draft.after
    assert load_tasks(out / "toy" / "written-test.jsonl") == tasks  # the writer's text is kept
    report = json.loads((out / "toy" / "review.json").read_text())
    assert report["applied"] == [tasks[0].id]
    first = (final / "toy" / "test.jsonl").read_bytes()
    run_build(SMALL_BUILD, out, show=False, domains=[toy])  # type: ignore[list-item]
    assert (final / "toy" / "test.jsonl").read_bytes() == first
    path.unlink()


def test_bad_review_and_draft_files_name_the_line(tmp_path: Path) -> None:
    reviews = tmp_path / "r.jsonl"
    reviews.write_text('{"task_id": "a"}\n')
    with pytest.raises(TaskFileError, match=r"r.jsonl:1: gold"):
        load_reviews(reviews)
    drafts = tmp_path / "d.jsonl"
    drafts.write_text('{"task_id": "a", "after": "x", "reason": "y"}\n{"task_id": "b"}')
    with pytest.raises(TaskFileError, match=r"d.jsonl:2: after"):
        load_drafts(drafts)
    with pytest.raises(TaskFileError, match="does not exist"):
        load_drafts(tmp_path / "none.jsonl")


def test_the_review_command_files_drafts_and_reports(
    built: tuple[Path, object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tau_emotion.tracer import cli

    out, toy = built
    profile, tasks, _, _ = _parts(built)
    monkeypatch.setattr(cli, "_domains", lambda spec: ["toy"])
    monkeypatch.setattr("tau_emotion.tracer.profile.load_profile", lambda name: profile)
    drafts = tmp_path / "drafts.jsonl"
    good = Draft(task_id=tasks[0].id, after=tasks[0].instruction + " Thanks.", reason="r")
    bad = Draft(task_id=tasks[1].id, after="Help.", requests=["Hi."], reason="r")
    drafts.write_text(good.model_dump_json() + "\n" + bad.model_dump_json() + "\n")
    runner = CliRunner()
    result = runner.invoke(cli.app, ["review", str(out), "--domain", "toy", "--add", str(drafts)])
    assert result.exit_code == 1, result.output
    assert "1 of 2 drafts filed" in result.output and f"{tasks[1].id}: refused" in result.output
    result = runner.invoke(cli.app, ["review", str(out), "--domain", "toy"])
    assert result.exit_code == 0, result.output
    assert "review toy: 1 applied" in result.output
    # A review of a task the build no longer selects is dropped by --prune, no other.
    path = review_path(toy.root)  # type: ignore[attr-defined]
    gone = Review(
        task_id="toy-gone", gold="0", before="a", after="b", requests_before=[], reason="r"
    )
    write_reviews(path, [*load_reviews(path).values(), gone])
    result = runner.invoke(cli.app, ["review", str(out), "--domain", "toy", "--prune"])
    assert result.exit_code == 0 and "pruned 1 reviews" in result.output, result.output
    assert set(load_reviews(path)) == {tasks[0].id}
    path.unlink()


@pytest.fixture
def review_file(built: tuple[Path, object]):  # type: ignore[no-untyped-def]
    """The toy domain's review file, removed after the test (the build is shared)."""
    path = review_path(built[1].root)  # type: ignore[attr-defined]
    yield path
    path.unlink(missing_ok=True)


def test_a_draft_is_judged_without_the_requests_help(built: tuple[Path, object]) -> None:
    """The LLM customer sees only the instruction and the known facts, so a draft that drops
    the goal ("Please help me.") or contradicts it was filed while the unchanged requests
    still said every value. Filed reviews keep the old rule (12 shipped ones need it)."""
    profile, tasks, twins, candidates = _parts(built)
    task = tasks[0]
    assert "50.00" in task.instruction and all("50.00" in i.request for i in task.intents[:1])
    empty = Draft(task_id=task.id, after="Please help me.", reason="shorter")
    wrong = Draft(
        task_id=tasks[1].id,
        after=tasks[1].instruction.replace("50.00", "20.00"),
        reason="contradicts the gold",
    )
    filed, refused = add_drafts(profile, tasks, twins, candidates, [empty, wrong], {})
    assert filed == {}
    assert refused[task.id].startswith("underivable:add_credit.amount")
    assert refused[tasks[1].id].startswith("underivable:add_credit.amount")
    review = Review(
        task_id=task.id,
        gold=gold_digest(task),
        before=task.instruction,
        after=empty.after,
        requests_before=[i.request for i in task.intents],
        reason="r",
    )
    _, _, outcome = apply_reviews(profile, tasks, twins, candidates, {task.id: review})
    assert outcome.applied == [task.id]


def _review_cli(built: tuple[Path, object], monkeypatch: pytest.MonkeyPatch, names: list[str]):  # type: ignore[no-untyped-def]
    """The review command over the toy build, with `names` as the domains --domain gives."""
    from tau_emotion.tracer import cli

    profile = _parts(built)[0]
    monkeypatch.setattr(cli, "_domains", lambda spec: names)
    monkeypatch.setattr("tau_emotion.tracer.profile.load_profile", lambda name: profile)

    def invoke(*args: str):  # type: ignore[no-untyped-def]
        return CliRunner().invoke(cli.app, ["review", str(built[0]), *args])

    return invoke


def test_add_on_a_partial_build_skips_domains_without_drafts_and_checks_before_writing(
    built: tuple[Path, object],
    review_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the default --domain all, a domain the build lacks stopped `--add` with an error,
    after the domains before it had been filed."""
    tasks = _parts(built)[1]
    invoke = _review_cli(built, monkeypatch, ["toy", "airline"])
    good = Draft(task_id=tasks[0].id, after=tasks[0].instruction + " Thanks.", reason="r")
    drafts = tmp_path / "drafts.jsonl"
    drafts.write_text(good.model_dump_json() + "\n")
    result = invoke("--add", str(drafts))
    assert result.exit_code == 0, result.output
    assert "toy: 1 of 1 drafts filed" in result.output
    review_file.unlink()
    airline = Draft(task_id="airline-w00003", after="x", reason="r")
    drafts.write_text(good.model_dump_json() + "\n" + airline.model_dump_json() + "\n")
    result = invoke("--add", str(drafts))
    assert isinstance(result.exception, InputError), result.output  # one line, exit 2
    assert "airline/written-test.jsonl does not exist" in str(result.exception)
    assert not review_file.exists()  # nothing filed before the error


def test_drafts_of_no_selected_domain_are_refused(
    built: tuple[Path, object],
    review_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = _parts(built)[1]
    invoke = _review_cli(built, monkeypatch, ["toy"])
    good = Draft(task_id=tasks[0].id, after=tasks[0].instruction + " Thanks.", reason="r")
    typos = [Draft(task_id=t, after="x", reason="r") for t in ("tyo-w00003", "TOY-w00003")]
    drafts = tmp_path / "drafts.jsonl"
    drafts.write_text("".join(d.model_dump_json() + "\n" for d in [good, *typos]))
    result = invoke("--add", str(drafts))
    assert result.exit_code == 1, result.output
    assert "toy: 1 of 1 drafts filed" in result.output
    assert "tyo-w00003: refused" in result.output and "TOY-w00003: refused" in result.output
    assert set(load_reviews(review_file)) == {tasks[0].id}


def test_prune_exits_nonzero_while_failing_reviews_remain(
    built: tuple[Path, object], review_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = _parts(built)[1]
    invoke = _review_cli(built, monkeypatch, ["toy"])
    first, second = tasks[0], tasks[1]
    failing = Review(
        task_id=first.id,
        gold=gold_digest(first),
        before=first.instruction,
        after="You want some help.",
        requests_before=[i.request for i in first.intents],
        requests_after=["Hi, I need something." for _ in first.intents],
        reason="too vague",
    )
    old = Review(
        task_id=second.id,
        gold="0" * 16,
        before=second.instruction,
        after="x",
        requests_before=[i.request for i in second.intents],
        reason="stale",
    )
    write_reviews(review_file, [failing, old])
    result = invoke("--prune")
    assert "pruned 1 reviews" in result.output, result.output
    assert result.exit_code == 1, result.output  # the failing review is still there
    assert set(load_reviews(review_file)) == {first.id}
    assert invoke().exit_code == 1
