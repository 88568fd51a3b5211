"""The typed run configuration; the CLI builds it, the run stores it resolved in its manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tau_emotion.data import Split
from tau_emotion.models.openai_compat import ModelConfig

AgentKind = Literal["tool-calling", "react", "act", "few-shot", "oracle", "human"]
UserKind = Literal["scripted", "llm", "react", "verify", "reflection", "human"]
CacheMode = Literal["record", "replay", "auto"]
Executor = Literal["local", "ray"]
MODEL_AGENTS = ("tool-calling", "react", "act", "few-shot")
MODEL_USERS = ("llm", "react", "verify", "reflection")


class RunConfig(BaseModel):
    """Everything that decides what a run does."""

    model_config = ConfigDict(extra="forbid")

    domains: list[str] = Field(description="Domain names to run.")
    split: Split = Field(default="test", description="Task split.")
    num_tasks: int | None = Field(default=None, ge=1, description="First N tasks per domain.")
    task_ids: list[str] | None = Field(default=None, description="Only these task ids.")
    task_file: str | None = Field(
        default=None,
        description="Only tasks from each domain's tasks/NAME.jsonl: 'seed' (hand-written), "
        "'test' or 'train' (Tracer sets); default all files.",
    )
    trials: int = Field(default=1, ge=1, description="Trials per task.")
    agent: AgentKind = Field(default="tool-calling", description="Agent strategy.")
    agent_model: ModelConfig | None = Field(default=None, description="Agent's model endpoint.")
    few_shot_file: Path | None = Field(default=None, description="Demonstrations (few-shot).")
    few_shot_k: int = Field(default=3, ge=1, description="Demonstrations per prompt (few-shot).")
    user: UserKind = Field(default="scripted", description="User simulator.")
    user_model: ModelConfig | None = Field(default=None, description="User's model endpoint.")
    verify_attempts: int = Field(
        default=2, ge=1, description="verify / reflection: checks (and rewrites) per user turn."
    )
    user_exit: bool = Field(
        default=True, description="Let the user walk away dissatisfied (###UNSATISFIED###)."
    )
    no_emotion: bool = Field(default=False, description="Run every task as its neutral twin.")
    cache_dir: Path | None = Field(
        default=None, description="Request cache folder (agent.jsonl, user.jsonl)."
    )
    cache_mode: CacheMode = Field(default="auto", description="record, replay or auto.")
    concurrency: int = Field(default=8, ge=1, description="Episodes in flight at once.")
    executor: Executor = Field(
        default="local", description="local: asyncio in this process; ray: a Ray cluster."
    )
    ray_address: str | None = Field(
        default=None, description="Ray cluster to join (e.g. 'auto'); None starts a local one."
    )
    max_steps: int = Field(default=200, ge=2, description="Messages per episode before it stops.")
    seed: int = Field(default=0, description="Run seed; each episode's seed derives from it.")
    out: Path = Field(description="Run directory (results.jsonl, manifest.json, metrics.json).")

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.agent in MODEL_AGENTS and self.agent_model is None:
            raise ValueError(f"agent {self.agent!r} needs an agent model (--agent-model)")
        if self.user in MODEL_USERS and self.user_model is None:
            raise ValueError(f"user {self.user!r} needs a user model (--user-model)")
        if self.agent == "few-shot" and self.few_shot_file is None:
            raise ValueError("agent 'few-shot' needs --few-shot-file")
        if "human" in (self.agent, self.user) and self.concurrency != 1:
            raise ValueError("a human participant plays one episode at a time: use --concurrency 1")
        return self
