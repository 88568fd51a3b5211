"""Agent and user kinds: one enum each, one builder per member, plain strings on the outside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tau_emotion.domains import Domain
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import AGENT_BUILDERS, USER_BUILDERS, Participants
from tau_emotion.simulation.agents import FewShotAgent, OracleAgent, ToolCallingAgent
from tau_emotion.simulation.human import HumanAgent, HumanUser
from tau_emotion.simulation.kinds import AgentKind, UserKind
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.text_agents import TextProtocolAgent
from tau_emotion.simulation.users import ScriptedUser
from tau_emotion.simulation.users.llm import USER_STRATEGIES, LLMUser

from toy_domain import credit_task

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_every_kind_has_exactly_one_builder() -> None:
    assert set(AGENT_BUILDERS) == set(AgentKind)
    assert set(USER_BUILDERS) == set(UserKind)


def test_the_model_driven_users_are_the_llm_strategies() -> None:
    assert {k.value for k in USER_STRATEGIES} == {"llm", "react", "verify", "reflection"}
    assert not UserKind.SCRIPTED.needs_model
    assert not AgentKind.ORACLE.needs_model
    assert AgentKind.FEW_SHOT.needs_model


def test_kinds_are_given_and_stored_as_their_plain_names() -> None:
    cfg = RunConfig.model_validate(
        {"domains": "airline", "agent": "react", "user": "verify", "user_model": {"model": "m"}}
    )
    assert cfg.agent is AgentKind.REACT and cfg.user is UserKind.VERIFY
    stored = json.loads(cfg.model_dump_json())
    assert (stored["agent"], stored["user"]) == ("react", "verify")
    assert RunConfig.model_validate(cfg.model_dump(mode="json")) == cfg


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="agent"):
        RunConfig.model_validate({"domains": "airline", "agent": "psychic"})
    with pytest.raises(ValueError, match="user"):
        RunConfig.model_validate({"domains": "airline", "user": "psychic"})


def test_an_llm_user_refuses_a_kind_that_is_no_llm_strategy(toy: Domain) -> None:
    setup = EpisodeSetup(credit_task(), toy, seed=0, trial=0)
    for kind in ("scripted", "psychic"):
        with pytest.raises(ValueError, match=f"unknown user strategy '{kind}'"):
            LLMUser(setup, ScriptedModel([]), strategy=kind)


def _config(tmp_path: Path, **fields: object) -> RunConfig:
    demos = tmp_path / "demos.jsonl"
    demos.write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}) + "\n")
    base: dict[str, object] = {"domains": "airline", "few_shot_file": demos, "concurrency": 1}
    return RunConfig.model_validate(base | fields)


AGENT_CLASSES = {
    AgentKind.TOOL_CALLING: ToolCallingAgent,
    AgentKind.REACT: TextProtocolAgent,
    AgentKind.ACT: TextProtocolAgent,
    AgentKind.FEW_SHOT: FewShotAgent,
    AgentKind.ORACLE: OracleAgent,
    AgentKind.HUMAN: HumanAgent,
}


@pytest.mark.parametrize("kind", list(AGENT_CLASSES))
def test_each_agent_kind_builds_its_agent(kind: AgentKind, toy: Domain, tmp_path: Path) -> None:
    cfg = _config(tmp_path, agent=kind.value)
    participants = Participants(cfg, agent_model=ScriptedModel([]), user_model=None)
    agent = participants.agent(EpisodeSetup(credit_task(), toy, seed=0, trial=0))
    assert type(agent) is AGENT_CLASSES[kind]


@pytest.mark.parametrize("kind", list(UserKind))
def test_each_user_kind_builds_its_user(kind: UserKind, toy: Domain, tmp_path: Path) -> None:
    cfg = _config(tmp_path, agent="oracle", user=kind.value, user_model={"model": "m"})
    participants = Participants(cfg, user_model=ScriptedModel([]))
    user = participants.user(EpisodeSetup(credit_task(), toy, seed=0, trial=0))
    if kind.needs_model:
        assert isinstance(user, LLMUser) and user.strategy is kind
    else:
        assert type(user) is {UserKind.SCRIPTED: ScriptedUser, UserKind.HUMAN: HumanUser}[kind]


@pytest.mark.parametrize(
    ("page", "kinds"),
    [("users.md", list(UserKind)), ("models.md", list(AgentKind))],
)
def test_the_docs_list_every_kind(page: str, kinds: list[str]) -> None:
    text = (DOCS / page).read_text()
    missing = [k for k in kinds if f"\n| `{k}`" not in text]  # a row of the page's table
    assert not missing, f"docs/{page} does not list {missing}"


# The README's paragraph "Agents (`--agent`): ... Users (`--user`): ... ." names each kind in
# backticks; flags (`--few-shot-file`) and links are not kinds.
_README_KINDS = re.compile(r"Agents \(`--agent`\):(.*?)\.\s+Users \(`--user`\):(.*?)\.\n", re.S)
_KIND = re.compile(r"`([a-z][a-z-]*)`")


def readme_kinds(text: str) -> tuple[list[str], list[str]]:
    """The agent and user kinds the README's paragraph names, in its order."""
    found = _README_KINDS.search(text)
    assert found, "README.md has no 'Agents (`--agent`): ... Users (`--user`): ...' paragraph"
    agents, users = found.groups()
    return _KIND.findall(agents), _KIND.findall(users)


def test_the_readme_lists_every_kind_and_no_other() -> None:
    agents, users = readme_kinds((ROOT / "README.md").read_text())
    assert sorted(agents) == sorted(AgentKind)  # sorted lists: a kind named twice fails too
    assert sorted(users) == sorted(UserKind)


def test_the_readme_reading_skips_flags_and_links() -> None:
    text = (
        "Agents (`--agent`): `oracle` (gold), `few-shot` (`--few-shot-file`), see\n"
        "[docs/gaming.md](docs/gaming.md). Users (`--user`): `scripted`,\n`llm`.\n"
        "`--cache-dir` records every call.\n"
    )
    assert readme_kinds(text) == (["oracle", "few-shot"], ["scripted", "llm"])
