"""A finished conversation, indexed for policy checks: each tool call with its result, its kind
and whether the customer had consented to it, and the database as it stood before each write.

The policy checks (`checks`) read a `Trajectory`; the episode loop, the Tracer and the
analyses build one from the messages. Pairing a call with its result and reading consent are
done here once, so that every rule agrees on what happened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tau_emotion.data import Message, ToolCall
from tau_emotion.domains.consent import asks_confirmation, describes, is_affirmative
from tau_emotion.domains.tools import ToolKind, ToolSet
from tau_emotion.errors import ToolError


def _pair_results(messages: Sequence[Message]) -> dict[tuple[int, int], Message]:
    """Each call's result, keyed by (message index, position of the call in it).

    The results of an assistant turn's calls are the tool messages right after it, as the
    episode loop appends them. Ids are matched only within that block: a backend that gives
    id-less calls per-response ids ("call_0" in every turn) repeats them across turns, and a
    map over the whole conversation would hand every call the last result. Where the ids do
    not tell the calls apart, the block's order does.
    """
    paired: dict[tuple[int, int], Message] = {}
    for index, message in enumerate(messages):
        calls = message.tool_calls or [] if message.role == "assistant" else []
        if not calls:
            continue
        block: list[Message] = []
        for following in messages[index + 1 :]:
            if following.role != "tool":
                break
            block.append(following)
        call_ids = [c.id for c in calls]
        by_id = {m.tool_call_id: m for m in block if m.tool_call_id}
        if (
            len(set(call_ids)) == len(call_ids)
            and len(by_id) == len(block)
            and all(i in by_id for i in call_ids)
        ):
            for position, c in enumerate(calls):
                paired[(index, position)] = by_id[c.id]
        else:
            for position, result in enumerate(block[: len(calls)]):
                paired[(index, position)] = result
    return paired


@dataclass(frozen=True)
class CallRecord:
    """One tool call in a trajectory, with its outcome and what the user said before it."""

    message_index: int
    call: ToolCall
    kind: ToolKind | None
    ok: bool
    result: str
    confirmed: bool
    """An agent question followed by an affirmative user reply came after the previous write,
    and the agent's text from that write up to the question named this call (`describes`)."""


FreshTools = Callable[[], ToolSet]
"""Builds the domain's tools over a fresh copy of the database the conversation started from
(`Domain.fresh_tools`), so judged checks can replay the writes and see each one's "before"."""


class Trajectory:
    """A finished conversation, indexed for policy checks.

    `fresh_tools` is needed only by judged checks (`judged`), which look at the database as it
    stood before each write; the identity and consent checks read the messages alone.
    """

    def __init__(
        self,
        messages: Sequence[Message],
        kinds: dict[str, ToolKind],
        fresh_tools: FreshTools | None = None,
    ) -> None:
        self.messages = list(messages)
        self._fresh_tools = fresh_tools
        self._before: list[tuple[CallRecord, ToolSet]] | None = None
        results = _pair_results(self.messages)
        self.calls: list[CallRecord] = []
        # Consent is a yes to a question: an agent turn that only states what it could do
        # ("What I can do instead is ...") and a customer who answers "Fine, then do that" have
        # not yet agreed on the details, so only a turn that asks opens a confirmation. And it
        # is consent to what the agent said: the yes confirms a write only if the agent's text
        # since the previous write, up to the question answered, named that write; a yes to
        # "Is there anything else?" confirms nothing.
        asked = False  # the agent asked something since the last write
        confirmed = False
        said: list[str] = []  # agent text since the last successful write
        consented_to = ""  # the agent text the yes answered
        for index, message in enumerate(self.messages):
            if message.role == "assistant" and message.content:
                said.append(message.content)
                if not message.tool_calls:
                    asked, confirmed = asks_confirmation(message.content), False
            elif message.role == "user" and asked:
                confirmed = is_affirmative(message.content)
                consented_to = "\n".join(said)
            for position, call in enumerate(message.tool_calls or []):
                result = results.get((index, position))
                kind = kinds.get(call.name)
                ok = result is not None and not result.error
                self.calls.append(
                    CallRecord(
                        index,
                        call,
                        kind,
                        ok,
                        result.content or "" if result else "",
                        confirmed and describes(consented_to, call),
                    )
                )
                if kind == "write" and ok:
                    asked = confirmed = False
                    said = []

    def successful(self, kind: ToolKind | None = None) -> list[CallRecord]:
        return [c for c in self.calls if c.ok and (kind is None or c.kind == kind)]

    def writes_with_state(self) -> list[tuple[CallRecord, ToolSet]]:
        """Each successful write, with the domain's tools over the database as it stood just
        before it: the earlier writes are replayed once on a fresh copy (reads change nothing)
        and every judged check of the trajectory shares the result."""
        if self._before is None:
            self._before = self._replay_writes()
        return self._before

    def _replay_writes(self) -> list[tuple[CallRecord, ToolSet]]:
        if self._fresh_tools is None:
            raise ValueError(
                "a judged policy check needs the database before each write: build the "
                "Trajectory with fresh_tools=domain.fresh_tools(variant)"
            )
        tools = self._fresh_tools()
        before: list[tuple[CallRecord, ToolSet]] = []
        for call in self.successful("write"):
            # A fork per write (an overlay copy): the replay goes on past it.
            before.append((call, type(tools)(tools.state.fork())))
            try:
                # It succeeded on this very state in the episode, and tools are deterministic.
                tools.invoke(call.call.name, dict(call.call.arguments))
            except ToolError:
                # Only a trajectory that did not come from these tools gets here (a test's
                # canned result, an episode stored under older tools): the states after this
                # write are unknown, so nothing after it is judged rather than misjudged.
                break
        return before


def result_json(call: CallRecord) -> Any:
    """A call's result parsed as JSON; None for plain text (refusals, confirmations)."""
    try:
        return json.loads(call.result)
    except ValueError:
        return None


def result_dict(call: CallRecord) -> dict[str, Any]:
    """A call's result as a JSON object; empty when it is text or another JSON value."""
    data = result_json(call)
    return data if isinstance(data, dict) else {}


def result_field(call: CallRecord, field: str) -> str | None:
    """A string field of a call's JSON-object result (e.g. the customer_id a lookup found)."""
    value = result_dict(call).get(field)
    return value if isinstance(value, str) else None
