"""Helpers the domain tests share: a desk to call one environment's tools, an autouse fixture
that gives every test a fresh state, and a conversation builder for policy-check tests.

The generic properties every domain must have (schemas, oracle runs of the seed tasks,
generator determinism, train/eval disjointness) are tested once, for all domains, in
``tests/test_domains_contract.py``; a domain's own test file tests its tools and its checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tau_emotion.data import Message, ToolCall
from tau_emotion.domains import Domain, load_domain
from tau_emotion.domains.checks import Offer, PolicyCheck, run_checks
from tau_emotion.domains.tools import to_text
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError


class Desk:
    """One database of a domain and the calls tests make on it."""

    def __init__(self, domain: str | Domain, variant: str = "main") -> None:
        self.domain = load_domain(domain) if isinstance(domain, str) else domain
        self.env = Environment(self.domain, variant)

    @property
    def db(self) -> Any:
        """The pristine database (typed `Any` so a test can read its domain's tables)."""
        return self.env.state.db

    def call(self, name: str, /, **arguments: Any) -> Any:
        """Run a tool; its result comes back as the tool returned it."""
        return self.env.call(name, arguments)

    def call_json(self, name: str, /, **arguments: Any) -> Any:
        """Run a tool; a structured result comes back as the agent reads it (parsed JSON,
        amounts as '120.00'), text as is."""
        result = self.env.call(name, arguments)
        return result if isinstance(result, str) else json.loads(to_text(result))

    def refuses(self, match: str, name: str, /, **arguments: Any) -> str:
        """Assert the tool refuses with a message matching the regex `match`, and that the
        refusal left the state as it was (tools check everything before they write)."""
        before = self.env.hash()
        with pytest.raises(ToolError, match=match) as refusal:
            self.env.call(name, arguments)
        assert self.env.hash() == before, f"{name} changed the state before refusing"
        return str(refusal.value)

    def breaks(self, rule_id: str, name: str, /, **arguments: Any) -> str:
        """Assert that judgement rule `rule_id` forbids this write on the state as it is now,
        that its check flags the write in a conversation, and that the tool carries it out all
        the same (the tools enforce integrity, not the policy). Returns the rule's reason."""
        check = self._judged(rule_id)
        reason = check.forbids(self.env.tools, name, arguments)
        assert reason is not None, f"{rule_id} allows {name} {arguments}"
        flagged = check.run(self._one_write(name, arguments))
        assert [v.rule_id for v in flagged] == [rule_id], flagged
        before = self.env.hash()
        self.env.call(name, arguments)
        assert self.env.hash() != before, f"{name} left the state as it was"
        return reason

    def offers(self, rule_id: str, name: str, /, **arguments: Any) -> Offer:
        """Assert that judgement rule `rule_id` forbids this write and offers an alternative
        that no judgement rule forbids and the tool carries out (on a fork: the state stays as
        it is). Returns the offer."""
        check = self._judged(rule_id)
        assert check.forbids(self.env.tools, name, arguments) is not None
        offer = check.offers(self.env.tools, name, arguments)
        assert offer is not None, f"{rule_id} offers nothing instead of {name} {arguments}"
        for other in self.domain.checks:
            reason = other.forbids(self.env.tools, offer.tool, offer.arguments)
            assert reason is None, f"{other.rule_id} forbids the offer {offer}: {reason}"
        state = self.env.state.fork()
        before = state.digest()
        self.domain.toolset(state).invoke(offer.tool, dict(offer.arguments))
        assert state.digest() != before, f"the offer {offer} changes nothing"
        return offer

    def offers_nothing(self, rule_id: str, name: str, /, **arguments: Any) -> None:
        """Assert that `rule_id` forbids this write and has no alternative to offer."""
        check = self._judged(rule_id)
        assert check.forbids(self.env.tools, name, arguments) is not None
        assert check.offers(self.env.tools, name, arguments) is None

    def allows(self, rule_id: str, name: str, /, **arguments: Any) -> None:
        """Assert that judgement rule `rule_id` allows this write on the state as it is now,
        and that its check finds nothing in a conversation that makes it."""
        check = self._judged(rule_id)
        reason = check.forbids(self.env.tools, name, arguments)
        assert reason is None, f"{rule_id} forbids {name} {arguments}: {reason}"
        assert check.run(self._one_write(name, arguments)) == []

    def _judged(self, rule_id: str) -> PolicyCheck:
        checks = {c.rule_id: c for c in self.domain.checks}
        assert rule_id in checks, f"{self.domain.name} has no check {rule_id}"
        assert checks[rule_id].judgement is not None, f"{rule_id} is not a judgement rule"
        return checks[rule_id]

    def _one_write(self, name: str, arguments: dict[str, Any]) -> Trajectory:
        """A conversation that makes just this write (confirmed), judged from this state."""
        state = self.env.state.fork()
        result = self.domain.toolset(state.fork()).invoke(name, dict(arguments))
        call = ToolCall(id="w1", name=name, arguments=arguments)
        messages = [
            Message(role="assistant", content="Shall I go ahead?"),
            Message(role="user", content="Yes, please."),
            Message(role="assistant", tool_calls=[call]),
            Message(role="tool", tool_call_id="w1", name=name, content=to_text(result)),
        ]
        return Trajectory(messages, self.domain.tool_kinds, lambda: self.domain.toolset(state))

    def row(self, table: str, key: str) -> Any:
        """A row as this episode's state holds it now."""
        return self.env.state.table(table)[key]

    def put(self, table: str, key: str, record: Any) -> None:
        self.env.state.table(table).put(key, record)

    def patch(self, table: str, key: str, **update: Any) -> None:
        """Change one row of this episode's state, to reach a state the snapshot lacks."""
        rows = self.env.state.table(table)
        rows.put(key, rows[key].model_copy(update=update))

    def new_rows(self, table: str) -> list[Any]:
        """Rows written to a table in this episode."""
        return list(self.env.state.changes().get(table, {}).values())


def fresh_state(*envs: Environment) -> Callable[[], Iterator[None]]:
    """An autouse fixture that resets the environments around every test of a module:
    assign it to a module-level name (``fresh = fresh_state(ENV)``)."""

    @pytest.fixture(autouse=True)
    def fresh() -> Iterator[None]:
        for env in envs:
            env.reset()
        yield
        for env in envs:
            env.reset()

    return fresh


class Conversation:
    """A trajectory built message by message, for testing policy checks.

    A tool call either runs for real on the environment (`run`) or gets a canned result
    (`call`, `fail`), so a test can stage exactly the situation a check must catch.
    """

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.domain = env.domain
        self.messages: list[Message] = [Message(role="system", content="policy")]
        self._yes: str | None = None  # a confirmation asked for the next call

    def user(self, text: str) -> Conversation:
        self.messages.append(Message(role="user", content=text))
        return self

    def agent(self, text: str) -> Conversation:
        self.messages.append(Message(role="assistant", content=text))
        return self

    def confirm(self, yes: str = "Yes, please.") -> Conversation:
        """The agent says what it will do and asks, and the user agrees: the explicit yes the
        next call needs. A yes confirms only a write the agent described, so the question is
        written when that call is, and names its tool ("I will cancel reservation. ...")."""
        self._yes = yes
        return self

    def run(self, name: str, /, **arguments: Any) -> Conversation:
        """Call a tool on the environment; a refusal becomes an error result."""
        call = self._ask(name, arguments)
        self.messages.append(self.env.execute(call))
        return self

    def call(self, name: str, result: Any = None, /, **arguments: Any) -> Conversation:
        """A successful call with a canned result (text, or anything JSON-able)."""
        text = result if isinstance(result, str) else json.dumps({} if result is None else result)
        return self._answer(self._ask(name, arguments), text, error=False)

    def fail(self, name: str, message: str = "Error: refused", /, **arguments: Any) -> Conversation:
        """A call the tool refused."""
        return self._answer(self._ask(name, arguments), message, error=True)

    def trajectory(self) -> Trajectory:
        return Trajectory(self.messages, self.domain.tool_kinds, self.env.fresh_tools)

    def rules(self) -> set[str]:
        """Ids of the rules this conversation broke."""
        return {v.rule_id for v in run_checks(self.domain.checks, self.trajectory())}

    def details(self, rule: str) -> list[str]:
        """What broke one rule (empty when it held)."""
        (check,) = [c for c in self.domain.checks if c.rule_id == rule]
        return [v.detail for v in check.run(self.trajectory())]

    def _ask(self, name: str, arguments: dict[str, Any]) -> ToolCall:
        if self._yes is not None:
            self.agent(f"I will {name.replace('_', ' ')}. Shall I go ahead?").user(self._yes)
            self._yes = None
        call = ToolCall(id=f"c{len(self.messages)}", name=name, arguments=arguments)
        self.messages.append(Message(role="assistant", tool_calls=[call]))
        return call

    def _answer(self, call: ToolCall, text: str, *, error: bool) -> Conversation:
        self.messages.append(
            Message(role="tool", content=text, tool_call_id=call.id, name=call.name, error=error)
        )
        return self


def conversation(env: Environment, *steps: tuple[Any, ...]) -> Conversation:
    """A conversation from steps, run on a fresh state (and reset again afterwards):

    ``("user", text)``, ``("agent", text)``, ``("call", name, arguments)`` (run on `env`),
    ``("call", name, arguments, result)`` or ``("call", name, arguments, result, error)``
    (canned).
    """
    env.reset()
    talk = Conversation(env)
    for step in steps:
        kind = step[0]
        if kind == "user":
            talk.user(step[1])
        elif kind in ("agent", "assistant"):
            talk.agent(step[1])
        elif len(step) == 3:
            talk.run(step[1], **step[2])
        elif len(step) == 5 and step[4]:
            talk.fail(step[1], step[3], **step[2])
        else:
            talk.call(step[1], step[3], **step[2])
    env.reset()
    return talk
