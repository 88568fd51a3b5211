"""The typed run configuration; the CLI builds it, the run stores it resolved in its manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tau_emotion.data import Split
from tau_emotion.models.openai_compat import ModelConfig

AgentKind = Literal["tool-calling", "oracle"]
UserKind = Literal["scripted", "llm"]


class RunConfig(BaseModel):
    """Everything that decides what a run does."""

    model_config = ConfigDict(extra="forbid")

    domains: list[str] = Field(description="Domain names to run.")
    split: Split = Field(default="test", description="Task split.")
    num_tasks: int | None = Field(default=None, ge=1, description="First N tasks per domain.")
    task_ids: list[str] | None = Field(default=None, description="Only these task ids.")
    trials: int = Field(default=1, ge=1, description="Trials per task.")
    agent: AgentKind = Field(default="oracle", description="Agent strategy.")
    agent_model: ModelConfig | None = Field(default=None, description="Agent's model endpoint.")
    user: UserKind = Field(default="scripted", description="User simulator.")
    user_model: ModelConfig | None = Field(default=None, description="User's model endpoint.")
    no_emotion: bool = Field(default=False, description="Run every task as its neutral twin.")
    concurrency: int = Field(default=8, ge=1, description="Episodes in flight at once.")
    max_steps: int = Field(default=200, ge=2, description="Messages per episode before it stops.")
    seed: int = Field(default=0, description="Run seed; each episode's seed derives from it.")
    out: Path = Field(description="Run directory (results.jsonl, manifest.json, metrics.json).")

    @model_validator(mode="after")
    def _models_present(self) -> RunConfig:
        if self.agent == "tool-calling" and self.agent_model is None:
            raise ValueError("agent 'tool-calling' needs an agent model (--agent-model)")
        if self.user == "llm" and self.user_model is None:
            raise ValueError("user 'llm' needs a user model (--user-model)")
        return self
