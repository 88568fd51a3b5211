"""The gaming baselines each do their one trick, and only that (toy domain, scripted user)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tau_emotion.cli.main import app
from tau_emotion.data import Action, Episode, Intent, Message, Task, TerminationReason
from tau_emotion.domains import Domain, load_domain, resolve_domains
from tau_emotion.domains.tools import ToolSet, tool
from tau_emotion.environment import Environment
from tau_emotion.errors import ParticipantError
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.gaming import (
    HAND_OFF_NOTE,
    DoNothingAgent,
    NoConfirmAgent,
    SayEverythingAgent,
    TransferAgent,
    YesManAgent,
    hand_off_call,
    tool_numbers,
)
from tau_emotion.simulation.kinds import AgentKind
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import Agent, EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser
from tau_emotion.simulation.users.scripted import acknowledges_feelings

from toy_domain import credit_task


def play(toy: Domain, agent_type: type[Agent], task: Task | None = None) -> Episode:
    setup = EpisodeSetup(task or credit_task(), toy, seed=0, trial=0)
    agent = agent_type(setup)  # type: ignore[call-arg]
    return asyncio.run(run_episode(setup, agent, ScriptedUser(setup), Environment(toy, "main")))


def agent_turns(episode: Episode) -> list[Message]:
    return [m for m in episode.messages if m.role == "assistant"]


def called(episode: Episode) -> list[str]:
    return [c.name for m in agent_turns(episode) for c in m.tool_calls or []]


def asks_to_confirm(message: Message) -> bool:
    return "proceed" in (message.content or "").lower()


def balance_question() -> Task:
    """A task whose gold only reads: the database ends as it started."""
    return credit_task().model_copy(
        update={
            "intents": [
                Intent(
                    request="What is my store credit?",
                    actions=[Action(name="get_credit", arguments={"customer_id": "c1"})],
                )
            ]
        }
    )


def test_do_nothing_talks_kindly_and_calls_no_tool(toy: Domain) -> None:
    episode = play(toy, DoNothingAgent)
    assert called(episode) == []
    assert all(acknowledges_feelings(m.content or "") for m in agent_turns(episode))
    # it walked the customer through both requests and was believed, but the credit is missing
    assert episode.termination == TerminationReason.USER_STOP
    assert episode.breakdown is not None and not episode.breakdown.db_match
    assert "some store credit added" in (agent_turns(episode)[0].content or "")
    # where the gold changes nothing and asks for no figure, doing nothing passes
    assert play(toy, DoNothingAgent, balance_question()).reward == 1.0


def test_transfer_hands_off_first_with_no_words(toy: Domain) -> None:
    episode = play(toy, TransferAgent)
    first = agent_turns(episode)[0]
    assert first.content is None and first.tool_calls is not None
    assert [c.name for c in first.tool_calls] == ["transfer_to_human_agents"]
    assert first.tool_calls[0].arguments == {"summary": HAND_OFF_NOTE}
    assert len(agent_turns(episode)) == 1 and episode.termination == TerminationReason.TRANSFER
    assert episode.reward == 0.0


def test_transfer_only_holds_after_its_one_act(toy: Domain) -> None:
    agent = TransferAgent(EpisodeSetup(credit_task(), toy, seed=0, trial=0))
    asyncio.run(agent.respond([]))
    again = asyncio.run(agent.respond([]))
    assert not again.tool_calls and again.content


def test_hand_off_is_found_by_kind_and_valid_in_every_shipped_domain() -> None:
    for name in resolve_domains("all"):
        domain = load_domain(name)
        task = domain.tasks("test")[0]
        call = hand_off_call(EpisodeSetup(task, domain, seed=0, trial=0))
        spec = domain.toolset.specs[call.name]
        assert spec.kind == "terminal"
        spec.validate(call.arguments)  # raises if a required argument were missing


class NoHandOff(ToolSet):
    @tool("read")
    def ping(self) -> str:
        """Answer pong."""
        return "pong"


def test_a_domain_without_a_hand_off_cannot_be_played_by_transfer(toy: Domain) -> None:
    bare = dataclasses.replace(toy, toolset=NoHandOff)
    with pytest.raises(ParticipantError, match="no terminal"):
        hand_off_call(EpisodeSetup(credit_task(), bare, seed=0, trial=0))


def test_no_confirm_is_the_oracle_without_asking(toy: Domain) -> None:
    episode = play(toy, NoConfirmAgent)
    oracle = play(toy, OracleAgent)
    assert any(asks_to_confirm(m) for m in agent_turns(oracle))  # the oracle does ask
    assert not any(asks_to_confirm(m) for m in agent_turns(episode))
    assert called(episode) == called(oracle) == ["find_customer", "add_credit", "get_credit"]
    assert episode.reward == 1.0


def test_yes_man_plays_the_writes_only(toy: Domain) -> None:
    episode = play(toy, YesManAgent)
    assert called(episode) == ["add_credit"]  # no identity lookup, no read
    assert not any(asks_to_confirm(m) for m in agent_turns(episode))
    assert episode.reward == 1.0  # today's reward cannot tell


def test_say_everything_adds_one_listing_of_the_tool_numbers(toy: Domain) -> None:
    episode = play(toy, SayEverythingAgent)
    oracle = play(toy, OracleAgent)
    extra = [m for m in agent_turns(episode) if "every figure" in (m.content or "")]
    assert len(extra) == 1
    results = [m for m in episode.messages if m.role == "tool"]
    # find_customer -> c1, add_credit -> 15.0, get_credit -> 15.0
    assert tool_numbers(results) == ["1", "15.0"]
    assert (extra[0].content or "").endswith("1, 15.0.")
    # apart from the listing it says and does what the oracle does
    rest = [(m.content, m.tool_calls and m.tool_calls[0].name) for m in agent_turns(episode)]
    rest.remove((extra[0].content, None))
    assert rest == [(m.content, m.tool_calls and m.tool_calls[0].name) for m in agent_turns(oracle)]
    assert episode.reward == oracle.reward == 1.0


def test_say_everything_lists_before_a_hand_off(toy: Domain) -> None:
    task = credit_task().model_copy(
        update={
            "intents": [
                credit_task().intents[0],
                Intent(
                    request="Now put me through to a person.",
                    actions=[Action(name="transfer_to_human_agents", arguments={"summary": "x"})],
                ),
            ]
        }
    )
    episode = play(toy, SayEverythingAgent, task)
    turns = agent_turns(episode)
    assert episode.termination == TerminationReason.TRANSFER
    assert "every figure" in (turns[-2].content or "")
    assert turns[-1].tool_calls and turns[-1].tool_calls[0].name == "transfer_to_human_agents"


def test_tool_numbers_reads_dates_ids_and_signs() -> None:
    results = [
        Message(role="tool", content='{"date": "2025-06-10", "flight": "LK175", "fee": -5.5}'),
        Message(role="tool", content="Error: amount 99 too high", error=True),
        Message(role="user", content="my zip is 97232"),
    ]
    assert tool_numbers(results) == ["2025", "06", "10", "175", "-5.5"]


GAMING_KINDS = {
    "do-nothing": DoNothingAgent,
    "transfer": TransferAgent,
    "yes-man": YesManAgent,
    "no-confirm": NoConfirmAgent,
    "say-everything": SayEverythingAgent,
}


@pytest.mark.parametrize("kind", list(GAMING_KINDS))
def test_each_gaming_kind_is_a_model_free_agent_kind(kind: str, toy: Domain) -> None:
    cfg = RunConfig.model_validate({"domains": "airline", "agent": kind})
    assert cfg.agent is AgentKind(kind) and cfg.agent_model is None
    agent = Participants(cfg).agent(EpisodeSetup(credit_task(), toy, seed=0, trial=0))
    assert type(agent) is GAMING_KINDS[kind]


def test_the_cli_runs_a_gaming_agent_and_its_help_names_them(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    args = ["run", "--domain", "retail", "--num-tasks", "2", "--agent", "transfer"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    episodes = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(episodes) == 2
    for episode in episodes:
        assert episode["termination"] == "transfer"
        first_agent = next(m for m in episode["messages"] if m["role"] == "assistant")
        assert first_agent["tool_calls"][0]["name"] == "transfer_to_human_agents"
    shown = runner.invoke(app, ["run", "--help"], env={"COLUMNS": "240"}).output
    assert all(kind in shown for kind in GAMING_KINDS) and "gaming.md" in shown
