from __future__ import annotations

import asyncio
from collections.abc import Sequence

from tau_emotion.data import (
    ERROR_TERMINATION,
    Action,
    Episode,
    EpisodeError,
    ErrorKind,
    Intent,
    Message,
    Task,
    TerminationReason,
    ToolCall,
)
from tau_emotion.domains import Domain
from tau_emotion.domains.checks import run_checks
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.environment import Environment
from tau_emotion.errors import ModelError
from tau_emotion.models.scripted import ScriptedModel, tool_call
from tau_emotion.simulation.agents import OracleAgent, ToolCallingAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import LLMUser, ScriptedUser

from toy_domain import credit_task


def play(
    domain: Domain,
    task: Task,
    agent_model: ScriptedModel | None = None,
    user_model: ScriptedModel | None = None,
    max_steps: int = 200,
) -> Episode:
    setup = EpisodeSetup(task, domain, seed=1, trial=0)
    agent = OracleAgent(setup) if agent_model is None else ToolCallingAgent(setup, agent_model)
    user = ScriptedUser(setup) if user_model is None else LLMUser(setup, user_model)
    env = Environment(domain, "main")
    return asyncio.run(run_episode(setup, agent, user, env, max_steps=max_steps))


def test_oracle_with_scripted_user_succeeds_and_passes_checks(toy: Domain) -> None:
    episode = play(toy, credit_task())
    assert episode.termination == TerminationReason.USER_STOP
    assert episode.reward == 1.0 and episode.breakdown is not None and episode.breakdown.db_match
    assert run_checks(toy.checks, toy.trajectory(episode.messages, "main")) == []
    roles = [m.role for m in episode.messages]
    assert roles[0] == "system" and roles[1] == "user"
    # the oracle asked before the write, and the user said yes
    write_index = next(
        i
        for i, m in enumerate(episode.messages)
        if m.tool_calls and m.tool_calls[0].name == "add_credit"
    )
    assert is_affirmative(episode.messages[write_index - 1].content)


def test_missing_output_gives_zero(toy: Domain) -> None:
    agent = _agent_script(
        [
            tool_call("find_customer", email="ana@example.com"),
            "I will add 5 dollars of credit. Shall I proceed?",
            tool_call("add_credit", customer_id="c1", amount=5.0),
            "Done, anything else?",
        ]
    )
    user = ScriptedModel(["I need credit.", "yes", "No thanks ###STOP###"])
    episode = play(toy, credit_task(), agent, user)
    assert episode.termination == TerminationReason.USER_STOP
    assert episode.reward == 0.0
    assert episode.breakdown is not None
    assert episode.breakdown.db_match and episode.breakdown.outputs_missing == ["15.0"]


def _agent_script(calls: list[Message | str]) -> ScriptedModel:
    return ScriptedModel(calls, name="agent")


def test_malformed_and_unknown_tool_calls_are_the_agents_failed_turns(toy: Domain) -> None:
    bad_json = Message(
        role="assistant",
        tool_calls=[
            ToolCall(
                id="a", name="find_customer", parse_error="invalid JSON", raw_arguments="{email:"
            )
        ],
    )
    unknown = tool_call("delete_everything", call_id="b")
    wrong_type = tool_call("add_credit", call_id="c", customer_id="c1", amount="many")
    agent = _agent_script([bad_json, unknown, wrong_type, "Sorry, I cannot help."])
    user = ScriptedModel(["I need credit.", "###UNSATISFIED###"], name="user")
    episode = play(toy, credit_task(), agent, user)
    tool_msgs = [m for m in episode.messages if m.role == "tool"]
    assert [m.error for m in tool_msgs] == [True, True, True]
    assert "unknown tool 'delete_everything'" in (tool_msgs[1].content or "")
    assert episode.termination == TerminationReason.USER_UNSATISFIED
    assert (
        episode.reward == -1.0 and episode.breakdown is not None and episode.breakdown.dissatisfied
    )


def test_wrong_state_gives_zero(toy: Domain) -> None:
    agent = _agent_script(
        [tool_call("add_credit", customer_id="c1", amount=7.0), "Added 17.0 for you."]
    )
    user = ScriptedModel(["I need credit.", "Thanks ###STOP###"])
    episode = play(toy, credit_task(), agent, user)
    assert episode.termination == TerminationReason.USER_STOP
    assert (
        episode.reward == 0.0 and episode.breakdown is not None and not episode.breakdown.db_match
    )


def test_endpoint_failure_is_recorded_not_raised(toy: Domain) -> None:
    agent = _agent_script([ModelError("agent endpoint down after 6 attempts")])
    user = ScriptedModel(["Hello"])
    episode = play(toy, credit_task(), agent, user)
    assert episode.termination == TerminationReason.INFRA_ERROR
    assert episode.errors[0].kind == "infra" and "endpoint down" in episode.errors[0].message
    assert episode.reward == 0.0


def test_an_episode_cut_short_is_no_success_where_nothing_was_to_change(toy: Domain) -> None:
    # A task whose gold only reads: the database matches from the first turn, so scoring
    # the state alone would credit an endpoint that never answered with a success.
    read_only = credit_task().model_copy(
        update={
            "intents": [
                Intent(
                    request="What is my balance?",
                    actions=[Action(name="get_credit", arguments={"customer_id": "c1"})],
                    outputs=[],
                )
            ]
        }
    )
    endpoint_down = (_agent_script([ModelError("agent endpoint down")]), ScriptedModel(["Hi"]))
    silent_user = (None, ScriptedModel(["", "  ", ""]))  # the simulator breaks: user_error
    for (agent, user), ending in (
        (endpoint_down, TerminationReason.INFRA_ERROR),
        (silent_user, TerminationReason.USER_ERROR),
    ):
        episode = play(toy, read_only, agent, user)
        assert episode.termination == ending
        assert episode.breakdown is not None and episode.breakdown.db_match
        assert episode.reward == 0.0 and not episode.success
        assert f"ended in {ending}" in episode.breakdown.reason


def test_user_that_gives_no_text_is_a_user_error(toy: Domain) -> None:
    user = ScriptedModel(["", "  ", ""])
    episode = play(toy, credit_task(), _agent_script(["hi"]), user)
    assert episode.termination == TerminationReason.USER_ERROR
    assert episode.errors[0].kind == "user"


def test_transfer_ends_the_episode(toy: Domain) -> None:
    agent = _agent_script([tool_call("transfer_to_human_agents", summary="wants credit")])
    episode = play(toy, credit_task(), agent, ScriptedModel(["Help"]))
    assert episode.termination == TerminationReason.TRANSFER


def test_max_steps(toy: Domain) -> None:
    def chatty(messages: Sequence[Message], tools: object) -> str:
        return "Tell me more."

    episode = play(toy, credit_task(), ScriptedModel(chatty), ScriptedModel(chatty), max_steps=6)
    assert episode.termination == TerminationReason.MAX_STEPS
    assert len(episode.messages) - 1 == 6


def test_agent_sees_policy_and_tools_and_user_sees_flipped_roles(toy: Domain) -> None:
    agent = _agent_script(["How can I help?"])
    user = ScriptedModel(["Hello", "bye ###STOP###"])
    play(toy, credit_task(), agent, user)
    messages, tools = agent.requests[0]
    assert messages[0].role == "system" and "Toy policy" in (messages[0].content or "")
    assert tools is not None and {t["function"]["name"] for t in tools} >= {"add_credit"}
    user_messages, user_tools = user.requests[1]
    assert user_tools is None
    # the agent's greeting heads every request, so the roles alternate from 'user' (audit #2)
    assert [m.role for m in user_messages] == ["system", "user", "assistant", "user"]
    assert user_messages[1].content == user.requests[0][0][1].content
    assert "ana@example.com" in (user_messages[0].content or "")


def test_crashing_tool_is_recorded_as_framework_error(toy: Domain, monkeypatch: object) -> None:
    import pytest

    from toy_domain import ToyTools

    mp = pytest.MonkeyPatch()
    mp.setattr(ToyTools, "get_credit", lambda self, customer_id: 1 / 0)
    try:
        agent = _agent_script([tool_call("get_credit", customer_id="c1")])
        episode = play(toy, credit_task(), agent, ScriptedModel(["Hi"]))
    finally:
        mp.undo()
    assert episode.termination == TerminationReason.FRAMEWORK_ERROR
    assert "ZeroDivisionError" in episode.errors[0].message


def test_every_error_kind_ends_the_episode_one_way() -> None:
    assert set(ERROR_TERMINATION) == set(ErrorKind)
    stored = EpisodeError(kind=ErrorKind.INFRA, message="down").model_dump_json()
    assert stored == '{"kind":"infra","message":"down"}'  # results keep the plain name
    assert EpisodeError.model_validate_json(stored).kind is ErrorKind.INFRA


def test_a_failed_user_turn_still_counts_its_calls(toy: Domain) -> None:
    # The endpoint received (and bills) every attempt of a turn that failed in the end.
    model = ScriptedModel(["", "", ""])
    episode = play(toy, credit_task(), None, model)
    assert episode.termination == TerminationReason.USER_ERROR
    assert episode.usage_user.calls == len(model.requests) == 3
