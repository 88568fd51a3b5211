from __future__ import annotations

from tau_emotion.data import Message, ToolCall
from tau_emotion.domains import Domain
from tau_emotion.domains.checks import (
    Trajectory,
    confirmation_before_writes,
    is_affirmative,
    one_customer,
    run_checks,
)


def call(i: str, name: str, **args: object) -> Message:
    return Message(role="assistant", tool_calls=[ToolCall(id=i, name=name, arguments=dict(args))])


def result(i: str, error: bool = False) -> Message:
    return Message(role="tool", tool_call_id=i, content="ok", error=error)


def say(role: str, text: str) -> Message:
    return Message(role=role, content=text)  # type: ignore[arg-type]


def test_affirmative_detection() -> None:
    assert is_affirmative("Yes, please go ahead.")
    assert is_affirmative("ok do it")
    assert not is_affirmative("No, don't do that.")
    assert not is_affirmative("What would that cost?")
    assert not is_affirmative(None)


def test_clean_trajectory_passes(toy: Domain) -> None:
    messages = [
        say("user", "I want credit"),
        call("1", "find_customer", email="ana@example.com"),
        result("1"),
        say("assistant", "I will add 5. Proceed?"),
        say("user", "yes"),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2"),
    ]
    assert run_checks(toy.checks, Trajectory(messages, toy.tool_kinds)) == []


def test_write_without_yes_and_without_auth_are_caught(toy: Domain) -> None:
    messages = [
        say("user", "I want credit"),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2"),
    ]
    rules = sorted(v.rule_id for v in run_checks(toy.checks, Trajectory(messages, toy.tool_kinds)))
    assert rules == ["toy.auth", "toy.confirm"]


def test_one_yes_covers_one_write_only(toy: Domain) -> None:
    messages = [
        call("1", "find_customer", email="ana@example.com"),
        result("1"),
        say("assistant", "Add 5?"),
        say("user", "yes"),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2"),
        call("3", "add_credit", customer_id="c1", amount=5),
        result("3"),
    ]
    violations = confirmation_before_writes("r").run(Trajectory(messages, toy.tool_kinds))
    assert [v.message_index for v in violations] == [6]


def test_refused_write_and_no_are_handled(toy: Domain) -> None:
    messages = [
        call("1", "find_customer", email="ana@example.com"),
        result("1"),
        say("assistant", "Add 5?"),
        say("user", "no, wait"),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2", error=True),
    ]
    # a refused write changed nothing, so it is not a violation; a successful one would be
    assert run_checks(toy.checks, Trajectory(messages, toy.tool_kinds)) == []
    messages[-1] = result("2")
    assert [v.rule_id for v in run_checks(toy.checks, Trajectory(messages, toy.tool_kinds))] == [
        "toy.confirm"
    ]


def test_one_customer(toy: Domain) -> None:
    check = one_customer("toy.one", "customer_id")
    messages = [
        call("1", "get_credit", customer_id="c1"),
        result("1"),
        call("2", "get_credit", customer_id="c2"),
        result("2"),
    ]
    assert len(check.run(Trajectory(messages, toy.tool_kinds))) == 1
    assert check.run(Trajectory(messages[:2], toy.tool_kinds)) == []
