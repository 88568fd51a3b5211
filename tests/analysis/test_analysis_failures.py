"""Failure taxonomy: each deterministic pre-check, the judge for the rest, and proportions."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from tau_emotion.analysis.failures import FailureReport, failure_analysis, precheck
from tau_emotion.analysis.hallucination import hallucination_analysis
from tau_emotion.data import (
    Action,
    EmotionSpec,
    Episode,
    EpisodeError,
    Intent,
    Message,
    RewardBreakdown,
    Task,
    TerminationReason,
    ToolCall,
)
from tau_emotion.domains.tools import ToolKind
from tau_emotion.models.base import ChatModel
from tau_emotion.models.scripted import ScriptedModel

KINDS: dict[str, ToolKind] = {"find_user": "read", "cancel": "write", "refund": "write"}
TASK = Task(
    id="t",
    domain="d",
    split="test",
    user_id="u1",
    instruction="You are Kim (kim@example.com). Cancel booking ABC123 and get a refund.",
    known_facts={"email": "kim@example.com"},
    intents=[
        Intent(
            request="Cancel ABC123 please.",
            actions=[
                Action(name="find_user", arguments={"email": "kim@example.com"}),
                Action(name="cancel", arguments={"booking": "ABC123"}),
                Action(name="refund", arguments={"booking": "ABC123", "amount": 230}),
            ],
            outputs=["230"],
        )
    ],
)
FEAR = EmotionSpec(
    condition_id="fear.anxiety.neutral.high.cautious",
    family="fear",
    emotion="anxiety",
    politeness="neutral",
    urgency="high",
    trust="cautious",
    instruction="x",
)


def calls(*specs: tuple[str, dict[str, Any]], error: bool = False) -> list[Message]:
    out: list[Message] = []
    for i, (name, args) in enumerate(specs):
        out.append(
            Message(role="assistant", tool_calls=[ToolCall(id=f"c{i}", name=name, arguments=args)])
        )
        out.append(Message(role="tool", tool_call_id=f"c{i}", name=name, content="{}", error=error))
    return out


def ep(
    body: Sequence[Message] = (),
    *,
    trial: int = 0,
    db_match: bool = False,
    missing: Sequence[str] = (),
    termination: TerminationReason = TerminationReason.USER_STOP,
    emotional: bool = False,
    errors: Sequence[EpisodeError] = (),
    user_text: str = "Cancel ABC123 please.",
) -> Episode:
    walked = termination == TerminationReason.USER_UNSATISFIED
    return Episode(
        task_id="t",
        domain="d",
        trial=trial,
        seed=0,
        emotion=FEAR if emotional else None,
        messages=[
            Message(role="system", content="s"),
            Message(role="user", content=user_text),
            *body,
        ],
        termination=termination,
        reward=-1.0 if walked else 0.0,
        breakdown=RewardBreakdown(
            db_match=db_match,
            final_hash="f",
            gold_hash="g",
            outputs_missing=list(missing),
            dissatisfied=walked,
            reason="r",
        ),
        errors=list(errors),
    )


def label(
    episode: Episode, empathetic: bool = False, invented: Sequence[str] = ()
) -> tuple[Any, Any]:
    fault, category, _ = precheck(episode, TASK, KINDS, empathetic, invented)
    return fault, category


FIND = ("find_user", {"email": "kim@example.com"})
CANCEL = ("cancel", {"booking": "ABC123"})
REFUND = ("refund", {"booking": "ABC123", "amount": 230.0})  # 230.0 == 230


def test_error_endings_are_labelled_as_the_metrics_count_them() -> None:
    infra = ep(
        termination=TerminationReason.INFRA_ERROR,
        errors=[EpisodeError(kind="infra", message="503")],
    )
    assert label(infra) == ("environment", "infra_error")
    assert label(ep(termination=TerminationReason.USER_ERROR)) == ("user", "user_error")
    # A gold replay that failed: the task could not be scored, which is no endpoint failure.
    unscored = ep(
        termination=TerminationReason.FRAMEWORK_ERROR,
        errors=[EpisodeError(kind="environment", message="gold replay failed: no ZZZZZZ")],
    ).model_copy(update={"breakdown": None})
    fault, category, findings = precheck(unscored, TASK, KINDS, False)
    assert (fault, category) == ("environment", "framework_error")
    assert findings[0] == "ended with framework_error" and "gold replay failed" in findings[1]


def test_walk_away_without_empathy_is_ignored_emotion() -> None:
    walked = ep(calls(FIND), termination=TerminationReason.USER_UNSATISFIED, emotional=True)
    assert label(walked) == ("agent", "ignored_emotion")
    # With an acknowledging turn the walk-away is judged on the actions instead.
    assert label(walked, empathetic=True) == ("agent", "missing_action")
    # A neutral customer's walk-away is not about ignored emotion.
    neutral = ep(calls(FIND), termination=TerminationReason.USER_UNSATISFIED)
    assert label(neutral) == ("agent", "missing_action")


def test_write_diffs_against_gold() -> None:
    assert label(ep(calls(FIND, CANCEL))) == ("agent", "missing_action")
    wrong = ep(calls(FIND, CANCEL, ("refund", {"booking": "ABC123", "amount": 200})))
    fault, category, findings = precheck(wrong, TASK, KINDS, False)
    assert (fault, category) == ("agent", "wrong_arguments")
    assert any("amount: gold 230, got 200" in f for f in findings)
    # A refused attempt with other arguments is also the right tool with wrong arguments.
    refused = ep([*calls(FIND, CANCEL), *calls(("refund", {"booking": "X"}), error=True)])
    assert label(refused) == ("agent", "wrong_arguments")
    extra = ep(calls(FIND, CANCEL, REFUND, ("cancel", {"booking": "ZZZ999"})))
    assert label(extra) == ("agent", "extra_action")
    reordered = ep(calls(FIND, REFUND, CANCEL))
    assert label(reordered) == ("agent", "wrong_action_order")


def test_outputs_missing_and_unsettled() -> None:
    assert label(ep(calls(FIND, CANCEL, REFUND), db_match=True, missing=["230"])) == (
        "agent",
        "incomplete_resolution",
    )
    # The writes match the gold and yet the state differs: nothing settles it.
    assert label(ep(calls(FIND, CANCEL, REFUND))) == (None, None)


def test_invented_value_that_reached_a_tool_is_the_user() -> None:
    episode = ep(calls(FIND, ("cancel", {"booking": "QQQ777"})), user_text="Cancel QQQ777.")
    assert label(episode, invented=["QQQ777"]) == ("user", "user_hallucination")
    # An invented value the agent never used is only evidence.
    _, category, findings = precheck(episode, TASK, KINDS, False, ["555-000-1111"])
    assert category == "wrong_arguments" and any("unsupported" in f for f in findings)


def test_an_invented_value_inside_a_longer_argument_is_not_the_users() -> None:
    # The user invents seat 72; the agent's extra write names flight LK722, a value the
    # user never said: 72 is part of a longer token, not the argument's value.
    extra = ("refund", {"booking": "ABC123", "amount": 230, "flight": "LK722"})
    episode = ep(calls(FIND, CANCEL, REFUND, extra), user_text="My seat was 72 last time.")
    fault, category, findings = precheck(episode, TASK, KINDS, False, ["72"])
    assert (fault, category) == ("agent", "extra_action")
    assert any("unsupported values: 72" in f for f in findings)
    # Equal by normal form is equal: "$230.00" said by the user is the argument 230.
    paid = ep(calls(FIND, ("cancel", {"booking": "QQQ777", "amount": 230})))
    assert label(paid, invented=["$230.00"]) == ("user", "user_hallucination")


def test_a_refused_write_with_the_gold_arguments_is_missing_not_wrong() -> None:
    refused = ep([*calls(FIND, CANCEL), *calls(REFUND, error=True)])
    fault, category, findings = precheck(refused, TASK, KINDS, False)
    assert (fault, category) == ("agent", "missing_action")
    assert "refund was called with the gold arguments and refused" in findings
    assert not any(f.startswith("wrong arguments") for f in findings)
    # Refused once with the gold arguments and once with others: the arguments were right.
    both = ep([*calls(FIND, CANCEL), *calls(REFUND, ("refund", {"booking": "X"}), error=True)])
    assert label(both) == ("agent", "missing_action")


def judged_once(judge: ChatModel) -> FailureReport:
    """The failure analysis of one episode the pre-checks leave open, with `judge`."""
    return asyncio.run(
        failure_analysis(
            [ep(calls(FIND, CANCEL, REFUND))],
            {("d", "t"): TASK},
            kinds_for=lambda _: KINDS,
            judge=judge,
        )
    )


@pytest.mark.parametrize(
    ("fault", "category", "kept"),
    [
        ("environment", "ignored_emotion", False),
        ("user", "missing_action", False),
        ("agent", "user_hallucination", False),
        ("agent", "ignored_emotion", True),
        ("user", "user_hallucination", True),
        ("user", "misread_intent", True),  # a customer who changed their goal
        ("agent", "policy_violation", True),
    ],
)
def test_a_verdict_whose_fault_contradicts_its_category_is_unusable(
    fault: str, category: str, kept: bool
) -> None:
    reply = json.dumps({"fault": fault, "category": category})
    judge = ScriptedModel([reply], name="judge")
    report = judged_once(judge)
    got = report.labels[0]
    if kept:
        assert (got.fault, got.category, got.source) == (fault, category, "judge")
    else:
        assert (got.fault, got.category, got.source) == (None, "unresolved", "none")


def test_a_judge_that_never_answers_is_counted_not_claimed() -> None:
    from tau_emotion.errors import ModelError

    def down(messages: object, tools: object) -> ModelError:
        return ModelError("connection refused")

    report = asyncio.run(
        failure_analysis(
            [ep(calls(FIND, CANCEL, REFUND)), ep(calls(FIND, CANCEL, REFUND), trial=1)],
            {("d", "t"): TASK},
            kinds_for=lambda _: KINDS,
            judge=ScriptedModel(down, name="dead"),
        )
    )
    assert report.method == "precheck"
    assert report.judge is not None and (report.judge.asked, report.judge.failed) == (2, 2)


def test_report_proportions_judge_and_exclusion() -> None:
    success = ep(calls(FIND, CANCEL, REFUND), db_match=True).model_copy(
        update={"reward": 1.0, "trial": 9}
    )
    episodes = [
        success,
        ep(calls(FIND, CANCEL), trial=1),  # missing_action
        ep(calls(FIND, CANCEL, REFUND), trial=2),  # unsettled -> judge
        ep(calls(FIND, ("cancel", {"booking": "QQQ777"})), trial=3, user_text="It is QQQ777."),
    ]
    tasks = {("d", "t"): TASK}

    def judge_reply(messages: Sequence[Message], tools: object) -> str:
        assert "Automatic findings" in (messages[-1].content or "")
        return json.dumps({"fault": "agent", "category": "misread_intent", "explanation": "why"})

    hall = asyncio.run(hallucination_analysis(episodes, tasks))
    assert hall.flagged_failures.count == 1
    report = asyncio.run(
        failure_analysis(episodes, tasks, kinds_for=lambda _: KINDS, hallucinations=hall)
    )
    assert (report.failed, report.episodes, report.excluded) == (3, 4, 0)
    assert {c: (r.count, r.total) for c, r in report.by_category.items()} == {
        "missing_action": (1, 3),
        "user_hallucination": (1, 3),
        "unresolved": (1, 3),
    }
    assert report.by_fault["unresolved"].count == 1
    assert report.by_source == {"precheck": 2, "none": 1}

    judge = ScriptedModel(judge_reply, name="judge")
    judged = asyncio.run(
        failure_analysis(
            episodes, tasks, kinds_for=lambda _: KINDS, judge=judge, hallucinations=hall
        )
    )
    assert len(judge.requests) == 1  # only the unsettled one
    by_trial = {lb.trial: lb for lb in judged.labels}
    assert (by_trial[2].category, by_trial[2].source, by_trial[2].explanation) == (
        "misread_intent",
        "judge",
        "why",
    )
    assert judged.method == "precheck+judge"

    excluded = asyncio.run(
        failure_analysis(
            episodes,
            tasks,
            kinds_for=lambda _: KINDS,
            hallucinations=hall,
            exclude_hallucinated=True,
        )
    )
    assert (excluded.failed, excluded.episodes, excluded.excluded) == (2, 3, 1)
    assert "user_hallucination" not in excluded.by_category


@pytest.mark.parametrize(
    "reply", ["no json", '{"fault": "agent", "category": "bad_category"}', '{"fault": "nobody"}']
)
def test_unusable_judge_answers_leave_it_unresolved(reply: str) -> None:
    judge = ScriptedModel([reply], name="judge")
    report = judged_once(judge)
    assert report.labels[0].category == "unresolved" and report.labels[0].source == "none"
