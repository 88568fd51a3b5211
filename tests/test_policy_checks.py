from __future__ import annotations

import asyncio
import json

import pytest

from tau_emotion.data import Episode, Message, ToolCall
from tau_emotion.domains import Domain, domain_names, load_domain
from tau_emotion.domains.checks import (
    PolicyCheck,
    authentication_before,
    confirmation_before_writes,
    hard_violations,
    nothing_after_transfer,
    one_customer,
    read_before_change,
    run_checks,
)
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.models.scripted import ScriptedModel, tool_call
from tau_emotion.simulation.agents import OracleAgent, ToolCallingAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import LLMUser, ScriptedUser

from toy_domain import credit_task


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


def test_consent_is_a_yes_to_a_question(toy: Domain) -> None:
    """An offer stated as a fact ("What I can do instead is ...") and a customer who answers
    "Fine, then do that" have not agreed on the details: the write still needs its question."""
    stated = [
        call("1", "find_customer", email="ana@example.com"),
        result("1"),
        say("assistant", "I can't add 50. What I can do instead is add 5."),
        say("user", "Fine. Then add the 5."),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2"),
    ]
    violations = confirmation_before_writes("r").run(Trajectory(stated, toy.tool_kinds))
    assert [v.message_index for v in violations] == [4]
    asked = [*stated[:4], say("assistant", "To confirm, I'll add 5. Proceed?"), say("user", "yes")]
    asked += stated[4:]
    assert confirmation_before_writes("r").run(Trajectory(asked, toy.tool_kinds)) == []


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


def test_hard_violations_in_order_of_first_violation(toy: Domain) -> None:
    soft = PolicyCheck("toy.soft", "always broken, but soft", lambda t: [("x", 0)])
    checks = [*toy.checks, soft]
    messages = [
        call("1", "add_credit", customer_id="c1", amount=5),
        result("1"),
        call("2", "find_customer", email="ana@example.com"),
        result("2"),
    ]
    # both hard rules break at message 0: the checks' order decides (confirm is listed first)
    assert hard_violations(checks, Trajectory(messages, toy.tool_kinds)) == [
        "toy.confirm",
        "toy.auth",
    ]
    late = [
        call("1", "find_customer", email="ana@example.com"),
        result("1"),
        call("2", "add_credit", customer_id="c1", amount=5),
        result("2"),
    ]
    assert hard_violations(checks, Trajectory(late, toy.tool_kinds)) == ["toy.confirm"]
    # a later-listed rule broken earlier comes first; a violation without an index comes last
    early_auth = PolicyCheck("toy.b", "", lambda t: [("b", 1)], hard=True)
    no_index = PolicyCheck("toy.a", "", lambda t: [("a", None)], hard=True)
    assert hard_violations([no_index, early_auth], Trajectory(late, toy.tool_kinds)) == [
        "toy.b",
        "toy.a",
    ]


def test_generic_identity_and_confirmation_checks_are_hard_others_soft() -> None:
    assert confirmation_before_writes("r").hard
    assert authentication_before("r", ["find"]).hard
    assert one_customer("r").hard
    assert not nothing_after_transfer("r", "").hard
    assert not read_before_change("r", "", {"get": "code"}).hard
    assert not confirmation_before_writes("r", hard=False).hard


@pytest.mark.parametrize("name", domain_names())
def test_every_domain_marks_its_core_rules_hard(name: str) -> None:
    domain = load_domain(name)
    hard = {c.rule_id for c in domain.checks if c.hard}
    assert {f"{name}.confirm_before_write", f"{name}.authenticate_first"} <= hard


def test_bank_strong_verification_is_hard() -> None:
    rules = {c.rule_id: c.hard for c in load_domain("bank").checks}
    assert rules["bank.strong_verification_first"]
    assert not rules["bank.transactions_read_first"]


def test_episode_records_hard_violations_beside_the_reward(toy: Domain) -> None:
    setup = EpisodeSetup(credit_task(), toy, seed=1, trial=0)
    agent = ToolCallingAgent(
        setup,
        ScriptedModel(
            [tool_call("add_credit", customer_id="c1", amount=5.0), "Done: your balance is 15.0."],
            name="agent",
        ),
    )
    user = LLMUser(setup, ScriptedModel(["I need credit.", "Thanks ###STOP###"]))
    episode = asyncio.run(run_episode(setup, agent, user, Environment(toy, "main")))
    # the write succeeded and the output was said: the reward is a success, but not a clean one
    assert episode.success and episode.breakdown is not None
    assert episode.breakdown.policy_violations == ["toy.confirm", "toy.auth"]
    assert not episode.clean_success
    oracle = OracleAgent(setup)
    clean = asyncio.run(run_episode(setup, oracle, ScriptedUser(setup), Environment(toy, "main")))
    assert clean.success and clean.clean_success
    assert clean.breakdown is not None and clean.breakdown.policy_violations == []


def test_results_written_before_policy_violations_still_load(toy: Domain) -> None:
    setup = EpisodeSetup(credit_task(), toy, seed=1, trial=0)
    episode = asyncio.run(
        run_episode(setup, OracleAgent(setup), ScriptedUser(setup), Environment(toy, "main"))
    )
    old = json.loads(episode.model_dump_json())
    del old["breakdown"]["policy_violations"]
    loaded = Episode.model_validate(old)
    assert loaded.breakdown is not None and loaded.breakdown.policy_violations == []
    assert loaded.clean_success == loaded.success
    unscored = loaded.model_copy(update={"breakdown": None, "reward": 0.0})
    assert not unscored.clean_success
