"""User hallucination: deterministic value check, judge for the rest, exclusion on request."""

from __future__ import annotations

import asyncio
import json

from tau_emotion.analysis.hallucination import (
    check_episode,
    exclude_false_failures,
    false_failures,
    hallucination_analysis,
)
from tau_emotion.data import Episode, Intent, Message, Task, TerminationReason
from tau_emotion.models.scripted import ScriptedModel

TASK = Task(
    id="t",
    domain="d",
    split="test",
    user_id="u",
    instruction="You are Priya. You booked flight LK784 (code 8TQVHG) and want it cancelled.",
    known_facts={"email": "priya@example.net", "date_of_birth": "1990-04-02"},
    intents=[Intent(request="Please cancel 8TQVHG, it departs June 25.")],
)


def ep(user_turns: list[str], ok: bool, trial: int = 0, task_id: str = "t") -> Episode:
    messages = [Message(role="system", content="Refunds are 230 dollars at most.")]
    for i, text in enumerate(user_turns):
        messages.append(Message(role="user", content=text))
        messages.append(
            Message(role="assistant", content=f"Noted. Your refund will be 230. Step {i}?")
        )
    return Episode(
        task_id=task_id,
        domain="d",
        trial=trial,
        seed=0,
        messages=messages,
        termination=TerminationReason.USER_STOP,
        reward=1.0 if ok else 0.0,
    )


def test_flags_values_that_appear_nowhere_once() -> None:
    episode = ep(
        [
            "Cancel 8TQVHG please, my email is priya@example.net, born April 2nd.",  # supported
            "Flight LK784 on 2025-06-25. Is it 230?",  # from the instruction, request, agent
            "Also I was charged $450 on June 3 by agent #A7731.",  # three invented values
            "Again: $450!",  # repeated: flagged once, at its first turn
        ],
        ok=False,
    )
    flags = check_episode(episode, TASK)
    assert [(f.message_index, f.kind, f.value) for f in flags] == [
        (5, "date", "June 3"),
        (5, "code", "A7731"),
        (5, "number", "$450"),
    ]
    assert all(f.source == "rule" for f in flags)


def test_system_prompt_is_not_something_the_user_knows() -> None:
    # 230 is only in the system prompt (and later agent turns): said first by the user, it is invented.
    episode = Episode(
        task_id="t",
        domain="d",
        trial=0,
        seed=0,
        messages=[
            Message(role="system", content="Refunds are 230 dollars."),
            Message(role="user", content="I want my 230 back."),
        ],
        termination=TerminationReason.USER_STOP,
        reward=0.0,
    )
    assert [f.value for f in check_episode(episode, TASK)] == ["230"]


def test_report_counts_and_excludes_only_flagged_failures() -> None:
    clean_fail = ep(["Cancel 8TQVHG."], ok=False, trial=0)
    invented_fail = ep(["My code is ZZ9999."], ok=False, trial=1)
    invented_ok = ep(["My code is ZZ9999."], ok=True, trial=2)
    unknown = ep(["hi"], ok=False, task_id="missing")
    episodes = [clean_fail, invented_fail, invented_ok, unknown]
    report = asyncio.run(hallucination_analysis(episodes, {("d", "t"): TASK}))
    assert (report.checked, report.unchecked, report.method) == (3, 1, "rule")
    assert (report.flagged.count, report.flagged.total) == (2, 3)
    assert (report.flagged_failures.count, report.flagged_failures.total) == (1, 2)
    assert false_failures(report) == {("d", "t", 1)}
    assert exclude_false_failures(episodes, report) == [clean_fail, invented_ok, unknown]


def test_judge_reads_unflagged_failures_only() -> None:
    def reply(messages: object, tools: object) -> str:
        return json.dumps(
            {
                "flags": [
                    {"message_index": 1, "claim": "was promised a voucher"},
                    {"message_index": 2, "claim": "x"},
                ]
            }
        )

    judge = ScriptedModel(reply, name="judge")
    clean_fail = ep(["The agent on the phone promised me a voucher."], ok=False, trial=0)
    clean_ok = ep(["Cancel 8TQVHG."], ok=True, trial=1)
    flagged_fail = ep(["My code is ZZ9999."], ok=False, trial=2)
    report = asyncio.run(
        hallucination_analysis([clean_fail, clean_ok, flagged_fail], {("d", "t"): TASK}, judge)
    )
    assert len(judge.requests) == 1  # not the success, not the one the rule already flagged
    assert report.method == "rule+judge"
    by_trial = {r.trial: r.flags for r in report.episodes}
    # Index 2 is an agent turn: dropped.
    assert [(f.message_index, f.kind, f.source) for f in by_trial[0]] == [(1, "claim", "judge")]
    assert by_trial[2][0].source == "rule"


def test_a_judge_that_never_answers_is_counted_not_claimed() -> None:
    from tau_emotion.errors import ModelError

    def down(messages: object, tools: object) -> ModelError:
        return ModelError("connection refused")

    failed = [ep(["Cancel 8TQVHG."], ok=False, trial=t) for t in range(3)]
    report = asyncio.run(
        hallucination_analysis(failed, {("d", "t"): TASK}, ScriptedModel(down, name="dead"))
    )
    assert report.method == "rule"
    assert report.judge is not None and (report.judge.asked, report.judge.failed) == (3, 3)
    # A reply without a flags list is no answer either; an empty list is one.
    garbled = ScriptedModel(['{"claims": []}', '{"flags": []}', "no json"], name="j")
    mixed = asyncio.run(hallucination_analysis(failed, {("d", "t"): TASK}, garbled, concurrency=1))
    assert mixed.method == "rule+judge"
    assert mixed.judge is not None and (mixed.judge.answered, mixed.judge.failed) == (1, 2)
