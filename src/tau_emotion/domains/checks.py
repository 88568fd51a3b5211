"""Policy checks: rules audited over a finished trajectory, each with a stable rule id.

A domain lists its checks as `PolicyCheck` objects. Each check is a function from a
`Trajectory` to violation details (empty when the rule held). The generic checks below cover
rules every domain shares (authentication and confirmation before writes, one customer per
conversation); domains add their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from tau_emotion.data import Frozen, Message, ToolCall
from tau_emotion.domains.tools import ToolKind

_AFFIRMATIVE = re.compile(
    r"\b(yes|yeah|yep|yup|sure|confirm(?:ed)?|go ahead|proceed|please do|do it|do that|"
    r"ok(?:ay)?|correct|that'?s right|sounds good|fine|absolutely|definitely|approved?)\b",
    re.I,
)
_NEGATIVE = re.compile(r"\b(no|nope|don'?t|do not|wait|stop|cancel that|hold on|not yet)\b", re.I)


def is_affirmative(text: str | None) -> bool:
    """Whether a user message explicitly agrees (and does not also say no)."""
    if not text:
        return False
    return bool(_AFFIRMATIVE.search(text)) and not _NEGATIVE.search(text)


@dataclass(frozen=True)
class CallRecord:
    """One tool call in a trajectory, with its outcome and what the user said before it."""

    message_index: int
    call: ToolCall
    kind: ToolKind | None
    ok: bool
    result: str
    confirmed: bool
    """An agent text turn followed by an affirmative user reply came after the previous write."""


class Trajectory:
    """A finished conversation, indexed for policy checks."""

    def __init__(self, messages: Sequence[Message], kinds: dict[str, ToolKind]) -> None:
        self.messages = list(messages)
        results: dict[str, Message] = {
            m.tool_call_id: m for m in self.messages if m.role == "tool" and m.tool_call_id
        }
        self.calls: list[CallRecord] = []
        asked = False  # an agent text turn since the last write
        confirmed = False
        for index, message in enumerate(self.messages):
            if message.role == "assistant" and message.content and not message.tool_calls:
                asked, confirmed = True, False
            elif message.role == "user" and asked:
                confirmed = is_affirmative(message.content)
            for call in message.tool_calls or []:
                result = results.get(call.id)
                kind = kinds.get(call.name)
                ok = result is not None and not result.error
                self.calls.append(
                    CallRecord(
                        index, call, kind, ok, result.content or "" if result else "", confirmed
                    )
                )
                if kind == "write" and ok:
                    asked = confirmed = False

    def successful(self, kind: ToolKind | None = None) -> list[CallRecord]:
        return [c for c in self.calls if c.ok and (kind is None or c.kind == kind)]


class Violation(Frozen):
    """One broken rule in one trajectory."""

    rule_id: str = Field(description="Stable id of the rule, e.g. 'airline.confirm_before_write'.")
    detail: str = Field(description="What happened.")
    message_index: int | None = Field(default=None, description="Message where it happened.")


CheckFn = Callable[[Trajectory], Iterable[tuple[str, int | None]]]


@dataclass(frozen=True)
class PolicyCheck:
    """A rule with a stable id, a one-line description and the function that audits it."""

    rule_id: str
    description: str
    fn: CheckFn

    def run(self, trajectory: Trajectory) -> list[Violation]:
        return [
            Violation(rule_id=self.rule_id, detail=detail, message_index=index)
            for detail, index in self.fn(trajectory)
        ]


def confirmation_before_writes(rule_id: str) -> PolicyCheck:
    """Every successful write follows an agent turn answered by an explicit yes."""

    def fn(t: Trajectory) -> Iterable[tuple[str, int | None]]:
        for c in t.successful("write"):
            if not c.confirmed:
                yield f"{c.call.name} ran without an explicit yes from the user", c.message_index

    return PolicyCheck(rule_id, "Get an explicit yes from the user before every write.", fn)


def authentication_before(
    rule_id: str, auth_tools: Sequence[str], guarded: Callable[[CallRecord], bool] | None = None
) -> PolicyCheck:
    """Guarded calls (default: every write) need a prior successful authentication lookup."""
    auth = set(auth_tools)
    is_guarded = guarded or (lambda c: c.kind == "write")

    def fn(t: Trajectory) -> Iterable[tuple[str, int | None]]:
        authenticated = False
        for c in t.calls:
            if c.call.name in auth and c.ok:
                authenticated = True
            elif c.ok and is_guarded(c) and not authenticated:
                yield f"{c.call.name} ran before the user was authenticated", c.message_index

    return PolicyCheck(rule_id, "Authenticate the user with an identity lookup before acting.", fn)


def one_customer(rule_id: str, argument: str = "user_id") -> PolicyCheck:
    """All successful calls that name a customer name the same one."""

    def fn(t: Trajectory) -> Iterable[tuple[str, int | None]]:
        seen: Any = None
        for c in t.successful():
            value = c.call.arguments.get(argument)
            if value is None:
                continue
            if seen is None:
                seen = value
            elif value != seen:
                yield f"{c.call.name} acted on {argument}={value} after {seen}", c.message_index

    return PolicyCheck(rule_id, "Serve one customer per conversation.", fn)


def run_checks(checks: Sequence[PolicyCheck], trajectory: Trajectory) -> list[Violation]:
    return [v for check in checks for v in check.run(trajectory)]
