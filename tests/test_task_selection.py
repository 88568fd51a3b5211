"""Which tasks a run plays: the benchmark by default, a stratified sample, tasks from anywhere,
and the `tasks` listing."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shipped_domains import SHIPPED_DOMAINS
from tau_emotion.cli.main import app
from tau_emotion.data import Challenge
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import write_tasks
from tau_emotion.errors import TaskFileError, TauEmotionError
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.tasks import family, sample_tasks, select_tasks

runner = CliRunner()


def pick(**kw: object) -> list[str]:
    return [t.key for t in select_tasks(RunConfig(agent="oracle", **kw))]  # type: ignore[arg-type]


def test_the_default_run_is_the_emotional_test_set() -> None:
    tasks = select_tasks(RunConfig(agent="oracle"))
    assert all(t.emotion is not None for t in tasks)
    assert {t.domain for t in tasks} == set(domain_names())
    # The shipped benchmark's ten domains hold 580 test tasks (docs/tracer.md); a domain
    # added since adds its own test set to the default run.
    assert sum(t.domain in SHIPPED_DOMAINS for t in tasks) == 580
    dev = select_tasks(RunConfig(agent="oracle", task_file="dev"))
    assert dev and all(t.emotion is None and t.provenance == "seed" for t in dev)


def test_num_tasks_is_a_seeded_sample_spread_over_domains_and_families() -> None:
    five = select_tasks(RunConfig(domains="airline", num_tasks=5, agent="oracle"))
    assert len(five) == 5 and len({family(t) for t in five}) == 5
    assert pick(domains="airline", num_tasks=5) == [t.key for t in five]  # seeded
    assert pick(domains="airline", num_tasks=5, seed=1) != [t.key for t in five]
    two_each = select_tasks(RunConfig(num_tasks=2 * len(domain_names()), agent="oracle"))
    assert Counter(t.domain for t in two_each) == dict.fromkeys(domain_names(), 2)
    order = [t.key for t in load_domain("airline").tasks("test", "test")]
    assert [t.key for t in five] == sorted((t.key for t in five), key=order.index)
    # Nested: a larger sample keeps every task of a smaller one (so --resume only adds).
    for n in (1, 7, 23):
        assert set(pick(num_tasks=n)) <= set(pick(num_tasks=n + 5))
    everything = select_tasks(RunConfig(domains="airline", agent="oracle"))
    assert sample_tasks(everything, 10_000, 0) == everything


def test_tasks_from_a_file_or_a_build_folder(tmp_path: Path) -> None:
    airline = load_domain("airline").tasks("test", "test")[:3]
    retail = load_domain("retail").tasks("test", "test")[:2]
    write_tasks(tmp_path / "mine.jsonl", [*airline, *retail])
    assert pick(tasks=tmp_path / "mine.jsonl") == [t.key for t in [*airline, *retail]]
    assert pick(tasks=tmp_path / "mine.jsonl", domains="retail") == [t.key for t in retail]
    build = tmp_path / "build"
    write_tasks(build / "tasks" / "airline" / "test.jsonl", airline)
    write_tasks(build / "tasks" / "airline" / "test_neutral.jsonl", retail)  # not picked
    assert pick(tasks=build) == [t.key for t in airline]
    assert pick(tasks=build / "tasks") == [t.key for t in airline]
    with pytest.raises(TaskFileError, match="none of split train"):
        pick(tasks=tmp_path / "mine.jsonl", split="train")
    with pytest.raises(TaskFileError, match="no such file"):
        pick(tasks=tmp_path / "missing.jsonl")
    with pytest.raises(TaskFileError, match=r"no train\.jsonl"):
        pick(tasks=build, split="train")


def test_run_takes_tasks_from_a_build_folder(tmp_path: Path) -> None:
    tasks = load_domain("telecom").tasks("test", "test")[:2]
    write_tasks(tmp_path / "build" / "tasks" / "telecom" / "test.jsonl", tasks)
    out = tmp_path / "run"
    args = ["run", "--tasks", str(tmp_path / "build"), "--agent", "oracle", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert len((out / "results.jsonl").read_text().splitlines()) == 2


def test_tasks_lists_ids_filtered_by_domain_family_and_challenge(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tasks", "--domain", "airline", "--family", "anger"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if x.startswith("airline/")]
    expected = [t for t in load_domain("airline").tasks("test", "test") if family(t) == "anger"]
    assert [x.split()[0] for x in lines] == [t.key for t in expected]
    assert all(" anger/" in x and "intent" in x for x in lines)
    first = lines[0].split()[0]
    assert runner.invoke(app, ["show", first]).exit_code == 0  # ids are what `show` takes
    dev = runner.invoke(app, ["tasks", "--domain", "telecom", "--task-file", "dev"])
    assert "telecom/pay_overdue_bill  neutral" in dev.output
    first_task = load_domain("airline").tasks("test", "test")[0]
    write = next(a for a in first_task.gold_actions if a.name != "find_user_by_email")
    challenge = Challenge(
        intent=0, rule_id="airline.refund_rule", forbidden=[write], settles_for="refusal"
    )
    challenged = first_task.model_copy(update={"challenge": challenge})
    plain = next(t for t in load_domain("airline").tasks("test", "test")[1:] if not t.challenge)
    write_tasks(tmp_path / "t.jsonl", [challenged, plain])
    only = runner.invoke(app, ["tasks", "--tasks", str(tmp_path / "t.jsonl"), "--challenge"])
    assert only.exit_code == 0, only.output
    listed = [x for x in only.output.splitlines() if x.startswith("airline/")]
    assert len(listed) == 1 and listed[0].startswith(challenged.key)
    assert "[challenge: airline.refund_rule]" in listed[0]
    bad = runner.invoke(app, ["tasks", "--family", "mood"])
    assert bad.exit_code == 2 and "anger" in bad.output


def test_task_ids_take_the_keys_tasks_prints_and_comma_lists(tmp_path: Path) -> None:
    """`tasks` prints domain/id; `run --task-id` refused that key and read a comma list as one
    id, though its help offered a list."""
    airline, retail = (load_domain(d).tasks("test", "test") for d in ("airline", "retail"))
    a, b, r = airline[0], airline[5], retail[0]
    both = "airline,retail"
    assert pick(domains=both, task_ids=[a.key]) == [a.key]
    assert pick(domains=both, task_ids=[f"{r.key},{a.id}"]) == [a.key, r.key]  # task order
    assert pick(domains=both, task_ids=f"{a.id}, {b.key}") == [a.key, b.key]
    with pytest.raises(TauEmotionError, match=r"task 'retail/.*' is of domain 'retail'.*--domain"):
        pick(domains="airline", task_ids=[r.key])
    with pytest.raises(TauEmotionError, match="no task 'airline/nope'"):
        pick(domains="airline", task_ids=[a.key, "airline/nope"])
    out = tmp_path / "run"
    args = ["run", "--agent", "oracle", "--domain", "airline", "--out", str(out)]
    result = runner.invoke(app, [*args, "--task-id", f"{a.key},{b.id}"])
    assert result.exit_code == 0, result.output
    assert "2 of 2 episodes ran" in result.output
    words = runner.invoke(app, ["run", "--help"]).output.split()
    help_text = " ".join(w for w in words if w != "│")  # the help's box, unwrapped
    assert "domain/id" in help_text and "comma list" in help_text
