"""Builds each episode's agent and user from the run configuration; models are shared."""

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
from tau_emotion.simulation.human import HumanAgent, HumanUser
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
    _demos: list[list[Message]] = field(default_factory=list)

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
            self._demos = load_demonstrations(cfg.few_shot_file)

    def agent(self, setup: EpisodeSetup) -> Agent:
        kind = self.config.agent
        if kind == "oracle":
            return OracleAgent(setup)
        if kind == "human":
            return HumanAgent(setup)
        model = self.agent_model
        assert model is not None  # RunConfig validated this
        if kind == "react":
            return TextProtocolAgent(setup, model, with_thought=True)
        if kind == "act":
            return TextProtocolAgent(setup, model, with_thought=False)
        if kind == "few-shot":
            return FewShotAgent(setup, model, self._demos, self.config.few_shot_k)
        return ToolCallingAgent(setup, model)

    def user(self, setup: EpisodeSetup) -> User:
        cfg = self.config
        if cfg.user == "scripted":
            return ScriptedUser(setup, allow_exit=cfg.user_exit)
        if cfg.user == "human":
            return HumanUser(setup)
        assert self.user_model is not None
        return LLMUser(
            setup,
            self.user_model,
            with_emotion=not cfg.no_emotion,
            strategy=cfg.user,
            verify_attempts=cfg.verify_attempts,
            allow_exit=cfg.user_exit,
        )
