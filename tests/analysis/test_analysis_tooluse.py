"""Tool calls vs follow-ups and lookupable asks, on constructed trajectories."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tau_emotion.analysis.tooluse import (
    is_follow_up,
    lookupable_asks,
    tool_use_analysis,
    trajectory_tool_use,
)
from tau_emotion.data import Episode, Message, TerminationReason, ToolCall
from tau_emotion.domains.tools import ToolKind

KINDS: dict[str, ToolKind] = {
    "find_user": "read",
    "get_booking": "read",
    "cancel": "write",
}


def agent(text: str) -> Message:
    return Message(role="assistant", content=text)


def user(text: str) -> Message:
    return Message(role="user", content=text)


def call(call_id: str, name: str, result: dict[str, Any], **arguments: Any) -> list[Message]:
    return [
        Message(
            role="assistant", tool_calls=[ToolCall(id=call_id, name=name, arguments=arguments)]
        ),
        Message(role="tool", tool_call_id=call_id, name=name, content=json.dumps(result)),
    ]


def episode(messages: list[Message], ok: bool = True) -> Episode:
    return Episode(
        task_id="t",
        domain="d",
        trial=0,
        seed=0,
        messages=[Message(role="system", content="s"), *messages],
        termination=TerminationReason.USER_STOP,
        reward=1.0 if ok else 0.0,
    )


CONVERSATION = [
    user("Hi, I need to cancel my booking."),
    agent("Sure. What is your email?"),  # 2: needed to authenticate: not lookupable
    user("It is kim@example.com"),
    *call("c1", "find_user", {"user_id": "kim_1", "bookings": ["ABC123"]}, email="kim@example.com"),
    agent("Which booking code do you want to cancel?"),  # 6: ABC123 was in the result at 5
    user("ABC123"),
    agent("Shall I cancel booking ABC123?"),  # 8: a confirmation naming the value
    user("yes"),
    *call("c2", "cancel", {"status": "cancelled"}, booking="ABC123"),
    agent("Done. Is there anything else I can help you with?"),  # closing: not a follow-up
    user("No, thanks. ###STOP###"),
]


def test_counts_and_lookupable_asks() -> None:
    row = trajectory_tool_use(episode(CONVERSATION), KINDS)
    assert (row.tool_calls, row.read_calls, row.write_calls) == (2, 1, 1)
    assert row.follow_ups == 3
    assert [(a.message_index, a.value, a.reason) for a in row.lookupable] == [
        (6, "ABC123", "earlier_result")
    ]


def test_value_a_read_tool_returns_later_is_lookupable() -> None:
    messages = [
        user("Hi, my booking is ABC123."),
        agent("What date is your flight?"),
        user("June 25"),
        *call("c1", "get_booking", {"code": "ABC123", "date": "2025-06-25"}, code="ABC123"),
    ]
    asks = lookupable_asks(episode(messages).messages, KINDS)
    assert [(a.value, a.reason) for a in asks] == [("June 25", "read_tool")]


def test_value_used_as_the_lookup_key_is_not_lookupable() -> None:
    messages = [
        user("Hi."),
        agent("What is your booking code?"),
        user("ABC123"),
        *call("c1", "get_booking", {"code": "ABC123"}, code="ABC123"),
        *call("c2", "cancel", {"code": "ABC123"}, code="ABC123"),  # a write result: not a read
    ]
    assert lookupable_asks(episode(messages).messages, KINDS) == []


def test_follow_up_detection() -> None:
    assert is_follow_up(agent("What is your name?"))
    assert not is_follow_up(agent("Anything else I can do for you?"))
    assert not is_follow_up(agent("Your booking is cancelled."))
    assert not is_follow_up(user("Why?"))


def test_aggregates_relate_tool_use_to_success() -> None:
    tool_heavy = episode(
        [user("hi"), *call("c1", "find_user", {}, email="a@b.co"), *call("c2", "get_booking", {})]
    )
    asking = episode(
        [user("hi"), agent("Name?"), user("Kim"), agent("Email?"), user("k@x.io")], ok=False
    )
    mixed = episode([user("hi"), agent("Name?"), user("Kim"), *call("c1", "find_user", {})])
    report = tool_use_analysis([tool_heavy, asking, mixed], kinds_for=lambda _: KINDS)
    assert (report.more_tools.count, report.more_tools.total) == (1, 3)
    assert (report.success_more_tools.count, report.success_more_tools.total) == (1, 1)
    assert (report.success_other.count, report.success_other.total) == (1, 2)
    assert report.mean_tools_success == pytest.approx(1.5)
    assert report.mean_tools_failure == 0.0
    assert report.mean_follow_ups_success == pytest.approx(0.5)
    assert report.mean_follow_ups_failure == 2.0
    assert report.with_lookupable.count == 0
    assert report.success_without_lookupable.total == 3
    # No failed episode: their means are undefined, not 0 calls and 0 follow-ups.
    all_ok = tool_use_analysis([tool_heavy, mixed], kinds_for=lambda _: KINDS)
    assert all_ok.mean_tools_failure is None and all_ok.mean_follow_ups_failure is None
    assert all_ok.mean_tools_success == pytest.approx(1.5)
