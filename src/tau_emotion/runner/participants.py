"""Builds each episode's agent and user from the run configuration; models are shared.

`AGENT_BUILDERS` and `USER_BUILDERS` hold one builder per kind of
`tau_emotion.simulation.kinds`: adding a kind is a member there and an entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tau_emotion.data import Message
from tau_emotion.models.base import ChatModel
from tau_emotion.models.factory import is_local, make_model
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.monitor import ToolUseMonitor
from tau_emotion.simulation.agents import (
    FewShotAgent,
    OracleAgent,
    ToolCallingAgent,
    load_demonstrations,
)
from tau_emotion.simulation.gaming import (
    DoNothingAgent,
    NoConfirmAgent,
    SayEverythingAgent,
    TransferAgent,
    YesManAgent,
)
from tau_emotion.simulation.human import HumanAgent, HumanUser
from tau_emotion.simulation.kinds import AgentKind, UserKind
from tau_emotion.simulation.participants import Agent, EpisodeSetup, User
from tau_emotion.simulation.text_agents import TextProtocolAgent
from tau_emotion.simulation.users import LLMUser, ScriptedUser


@dataclass
class Participants:
    """One per run: holds the (shared, concurrency-limited) models and the demonstrations."""

    config: RunConfig
    agent_model: ChatModel | None = None
    user_model: ChatModel | None = None
    warn: Callable[[str], None] | None = None
    """Where the agent-model monitor reports an endpoint that ignores tools (see monitor)."""
    demonstrations: list[list[Message]] = field(default_factory=list)
    """few-shot: the demonstration conversations of ``few_shot_file``."""

    def __post_init__(self) -> None:
        cfg = self.config
        cache = cfg.cache_dir
        if self.agent_model is None and cfg.agent_model is not None:
            path = cache / "agent.jsonl" if cache else None
            self.agent_model = make_model(cfg.agent_model, path, cfg.cache_mode)
            if self.warn is not None and not is_local(cfg.agent_model.model):
                # The embedded model is ours and always sees its tools; endpoints may not.
                self.agent_model = ToolUseMonitor(self.agent_model, self.warn)
        if self.user_model is None and cfg.user_model is not None:
            path = cache / "user.jsonl" if cache else None
            self.user_model = make_model(cfg.user_model, path, cfg.cache_mode)
        if cfg.few_shot_file is not None:
            self.demonstrations = load_demonstrations(cfg.few_shot_file)

    def agent(self, setup: EpisodeSetup) -> Agent:
        return AGENT_BUILDERS[self.config.agent](self, setup)

    def user(self, setup: EpisodeSetup) -> User:
        return USER_BUILDERS[self.config.user](self, setup)

    def required_agent_model(self) -> ChatModel:
        model = self.agent_model
        assert model is not None  # RunConfig gives every model-driven agent a model
        return model

    def required_user_model(self) -> ChatModel:
        model = self.user_model
        assert model is not None  # RunConfig refuses a model-driven user without one
        return model


AgentBuilder = Callable[[Participants, EpisodeSetup], Agent]
UserBuilder = Callable[[Participants, EpisodeSetup], User]


def _llm_user(p: Participants, setup: EpisodeSetup) -> User:
    cfg = p.config
    return LLMUser(
        setup,
        p.required_user_model(),
        with_emotion=not cfg.no_emotion,
        strategy=cfg.user,
        verify_attempts=cfg.verify_attempts,
        allow_exit=cfg.user_exit,
    )


AGENT_BUILDERS: dict[AgentKind, AgentBuilder] = {
    AgentKind.TOOL_CALLING: lambda p, s: ToolCallingAgent(s, p.required_agent_model()),
    AgentKind.REACT: lambda p, s: TextProtocolAgent(s, p.required_agent_model(), with_thought=True),
    AgentKind.ACT: lambda p, s: TextProtocolAgent(s, p.required_agent_model(), with_thought=False),
    AgentKind.FEW_SHOT: lambda p, s: FewShotAgent(
        s, p.required_agent_model(), p.demonstrations, p.config.few_shot_k
    ),
    AgentKind.ORACLE: lambda p, s: OracleAgent(s),
    AgentKind.HUMAN: lambda p, s: HumanAgent(s),
    AgentKind.DO_NOTHING: lambda p, s: DoNothingAgent(s),
    AgentKind.TRANSFER: lambda p, s: TransferAgent(s),
    AgentKind.YES_MAN: lambda p, s: YesManAgent(s),
    AgentKind.NO_CONFIRM: lambda p, s: NoConfirmAgent(s),
    AgentKind.SAY_EVERYTHING: lambda p, s: SayEverythingAgent(s),
}
"""One builder per agent kind (a test checks none is missing)."""

USER_BUILDERS: dict[UserKind, UserBuilder] = {
    UserKind.SCRIPTED: lambda p, s: ScriptedUser(s, allow_exit=p.config.user_exit),
    UserKind.LLM: _llm_user,
    UserKind.REACT: _llm_user,
    UserKind.VERIFY: _llm_user,
    UserKind.REFLECTION: _llm_user,
    UserKind.HUMAN: lambda p, s: HumanUser(s),
}
"""One builder per user kind (a test checks none is missing); the LLM strategies share one."""
