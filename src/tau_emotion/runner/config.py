"""The typed run configuration: every default of a run lives here, not in the CLI.

The command line (`tau_emotion.cli.options`), a ``--config`` TOML file and the Python API
all build the same `RunConfig`, so `execute_run(RunConfig(domains="airline"))` behaves like
``tau-emotion run --domain airline``. Fields left ``None`` that have a documented automatic
value (user, concurrency, max steps, the agent's model) are resolved on validation, so the
manifest always stores what actually ran; a model may be given by its name alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from tau_emotion.data import Split
from tau_emotion.errors import first_problem, named
from tau_emotion.models.cache import CacheMode
from tau_emotion.models.factory import LOCAL, is_local
from tau_emotion.models.openai_compat import DELIVERY_FIELDS, ModelConfig
from tau_emotion.simulation.kinds import AgentKind, UserKind

Executor = Literal["local", "ray"]
_Kind = TypeVar("_Kind", AgentKind, UserKind)

DEV_TASK_FILE = "dev"
TASK_FILE_ALIASES = {"seed": DEV_TASK_FILE}
"""Old names of task files: the hand-written set was ``seed.jsonl`` before it became ``dev``."""

STORED = "stored"
"""Validation context key (``context={STORED: True}``) of a config read back from a run's
manifest: the refusals of settings that would run wrongly (a replay with no cache folder)
are not repeated there, so a folder that ran before they existed stays readable."""

EMBEDDED_MAX_STEPS = 40
"""The embedded 135M model rarely finishes; 40 messages show the loop without a long wait."""


def timestamped_dir(prefix: str) -> Path:
    """``runs/<prefix>-<UTC time>``, with ``-2``, ``-3``... when a run of the same second
    holds it: two runs started together must not meet in one folder they did not name."""
    base = Path("runs") / datetime.now(UTC).strftime(f"{prefix}-%Y%m%d-%H%M%S")
    path, n = base, 2
    while path.exists():
        path, n = base.with_name(f"{base.name}-{n}"), n + 1
    return path


def _resolve(spec: str) -> list[str]:
    """'airline', 'airline,retail' or 'all' -> validated domain names."""
    from tau_emotion.domains import resolve_domains
    from tau_emotion.errors import TauEmotionError

    try:
        return resolve_domains(spec)
    except TauEmotionError as exc:
        raise ValueError(str(exc)) from None


class RunConfig(BaseModel):
    """Everything that decides what a run does."""

    # As `ModelConfig`: an error never echoes the input, which may hold an API key given
    # where its variable's name belongs (pydantic would show the whole model dict).
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    _given: dict[str, Any] = PrivateAttr(default_factory=dict)
    """The fields as the caller gave them (`updated` starts from these)."""

    domains: list[str] = Field(
        default_factory=lambda: _resolve("all"),
        description="Domains to run: a name, a comma list, or 'all'.",
    )
    split: Split = Field(default="test", description="Task split.")
    task_file: str | None = Field(
        default=None,
        description="Which tasks/NAME.jsonl of each domain to run: 'dev' (hand-written, "
        "neutral) or 'test' / 'train' (the Tracer sets). Default: the file named after the "
        "split, i.e. the benchmark ('seed' is an old name of 'dev').",
    )
    tasks: Path | None = Field(
        default=None,
        description="Run tasks from this task JSONL or Tracer build folder instead of the "
        "shipped task files.",
    )
    task_ids: list[str] | None = Field(
        default=None,
        min_length=1,
        description="Only these tasks, each an id or a domain/id key as `tasks` prints it "
        "(each must exist); a comma list, or the option repeated.",
    )
    num_tasks: int | None = Field(
        default=None,
        ge=1,
        description="A seeded sample of N tasks, stratified by domain and emotion family.",
    )
    trials: int = Field(default=1, ge=1, description="Trials per task.")
    agent: AgentKind = Field(
        default=AgentKind.TOOL_CALLING,
        description="Agent strategy; do-nothing, transfer, yes-man, no-confirm and "
        "say-everything are rule-based baselines that game the reward (docs/gaming.md).",
    )
    agent_model: ModelConfig | None = Field(
        default=None,
        description="Agent's model endpoint; a model agent without one gets the embedded "
        "local model.",
    )
    few_shot_file: Path | None = Field(
        default=None, description="few-shot: JSONL of conversations ('messages')."
    )
    few_shot_k: int = Field(default=3, ge=1, description="few-shot: demonstrations per prompt.")
    user: UserKind = Field(
        default=UserKind.SCRIPTED,
        description="User simulator; default: llm when a user model is given, else scripted.",
    )
    user_model: ModelConfig | None = Field(default=None, description="User's model endpoint.")
    verify_attempts: int = Field(
        default=2, ge=1, description="verify / reflection: checks (and rewrites) per user turn."
    )
    user_exit: bool = Field(
        default=True, description="Let the user walk away dissatisfied (###UNSATISFIED###)."
    )
    no_emotion: bool = Field(default=False, description="Run every task as its neutral twin.")
    cache_dir: Path | None = Field(
        default=None, description="Request cache folder (record / replay model calls)."
    )
    cache_mode: CacheMode = Field(default="auto", description="Request cache mode.")
    concurrency: int = Field(
        default=8,
        ge=1,
        description="Episodes in flight at once; 1 when not given and a model is the embedded "
        "one (one call at a time, prompt cache reused only in sequence) or a human plays.",
    )
    executor: Executor = Field(
        default="local", description="local: asyncio in this process; ray: a Ray cluster."
    )
    ray_address: str | None = Field(
        default=None, description="Ray cluster to join (e.g. 'auto'); None starts a local one."
    )
    max_steps: int = Field(
        default=200,
        ge=2,
        description="Messages per episode before it stops; 40 when not given and the agent is "
        "the embedded model (there to exercise the loop offline, not to score).",
    )
    seed: int = Field(
        default=0, description="Run seed: episode seeds and the --num-tasks sample derive from it."
    )
    fail_on_error: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description="Stop early once more episodes than this failed on the endpoint: below 1 "
        "a fraction of the run's episodes (0.1 = 10%, 0 = the first failure), from 1 on a "
        "whole count. Default: never stop (the exit status still reports the failures).",
    )
    out: Path = Field(
        default_factory=lambda: timestamped_dir("run"),
        description="Run directory (results.jsonl, manifest.json, metrics.json, report.html); "
        "default runs/run-<UTC time>.",
    )

    @field_validator("domains", mode="before")
    @classmethod
    def _resolve_domains(cls, value: Any) -> Any:
        spec = ",".join(value) if isinstance(value, list | tuple) else value
        return _resolve(spec) if isinstance(spec, str) else value

    @field_validator("task_ids", mode="before")
    @classmethod
    def _split_task_ids(cls, value: Any) -> Any:
        # "a,b" (the form --domain takes) is two tasks, as is a bare string from Python.
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
            return value  # left to field validation, which names what is wrong
        return [part.strip() for item in items for part in item.split(",") if part.strip()]

    @field_validator("task_file")
    @classmethod
    def _alias_task_file(cls, value: str | None) -> str | None:
        return TASK_FILE_ALIASES.get(value, value) if value is not None else None

    @model_validator(mode="before")
    @classmethod
    def _automatic(cls, data: Any) -> Any:
        """Fill the defaults that depend on other fields, where they were not given."""
        if not isinstance(data, dict):
            return data
        given = {k: v for k, v in data.items() if v is not None}
        for role in ("agent_model", "user_model"):
            if isinstance(given.get(role), str):  # a model given by its name alone
                given[role] = {"model": given[role]}
        agent = _kind(AgentKind, given.get("agent", AgentKind.TOOL_CALLING))
        if agent is not None and not agent.needs_model:
            given.pop("agent_model", None)  # e.g. oracle and human agents call no model
        elif "agent_model" not in given:
            given["agent_model"] = {"model": LOCAL}
        elif isinstance(given["agent_model"], dict) and "model" not in given["agent_model"]:
            # Settings without a model (--agent-temperature alone) tune the embedded model.
            given["agent_model"] = {**given["agent_model"], "model": LOCAL}
        local_agent = "agent_model" in given and is_local(_model_name(given["agent_model"]))
        local_user = "user_model" in given and is_local(_model_name(given["user_model"]))
        given.setdefault("user", UserKind.LLM if "user_model" in given else UserKind.SCRIPTED)
        user = _kind(UserKind, given["user"])
        human = agent is AgentKind.HUMAN or user is UserKind.HUMAN
        if "concurrency" not in given and (local_agent or local_user or human):
            given["concurrency"] = 1
        if "max_steps" not in given and local_agent:
            given["max_steps"] = EMBEDDED_MAX_STEPS
        return given

    @model_validator(mode="wrap")
    @classmethod
    def _remember_given(cls, data: Any, handler: ModelWrapValidatorHandler[RunConfig]) -> RunConfig:
        # Outermost, so it sees the fields as given, before `_automatic` fills the rest in.
        config = handler(data)
        if isinstance(data, dict):
            config._given = {k: v for k, v in data.items() if v is not None}
        return config

    def __eq__(self, other: object) -> bool:
        # Two configs of the same fields are the same run, however each was given (pydantic
        # would compare `_given` too).
        if not isinstance(other, RunConfig):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def resume_differences(self, previous: Mapping[str, Any]) -> list[str]:
        """What `previous` (the config a run folder's manifest holds) and this config disagree
        on, among the settings that decide the episodes, as 'field: old -> new' lines.

        A resumed run appends to the episodes already there; with another agent, model or
        task set, its metrics would mix two runs under one name. How a run is carried out
        (`RESUMABLE`: its folder, concurrency, executor, cache, error budget, and a model's
        endpoint, key, timeouts and prices) may change, and `trials` may grow: the episodes
        there are then the first trials of the larger run.
        """
        try:
            before = type(self).model_validate(
                {**previous, "out": self.out}, context={STORED: True}
            )
        except ValidationError as exc:
            return [f"the manifest's config is not valid here ({first_problem(exc)})"]
        old, new = _episode_settings(before), _episode_settings(self)
        if new["trials"] >= old["trials"]:  # more trials of the same tasks add to the run
            old["trials"] = new["trials"]
        return [
            f"{key}: {old.get(key)!r} -> {new.get(key)!r}"
            for key in sorted(old.keys() | new.keys())
            if old.get(key) != new.get(key)
        ]

    @property
    def has_human(self) -> bool:
        """A person plays the agent or the user at the terminal's prompt."""
        return self.agent is AgentKind.HUMAN or self.user is UserKind.HUMAN

    def updated(self, **fields: Any) -> RunConfig:
        """The config built from the fields this one was given and `fields`: the values that
        depend on other fields (the user kind, concurrency, max steps, the agent's model) are
        worked out again, as ``--config FILE`` plus options does on the command line. (A
        `model_copy(update=...)` would keep, say, the 40 steps of an embedded agent after the
        agent changed.)"""
        return type(self).model_validate({**self._given, **fields})

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> RunConfig:
        model = self.agent_model
        if model is not None and model.base_url and is_local(model.model):
            raise ValueError(
                f"{named('--agent-base-url', 'agent_model.base_url')} needs "
                f"{named('--agent-model', 'agent_model.model')} (the model name that endpoint "
                "serves)"
            )
        if self.user.needs_model and self.user_model is None:
            flag = named("--user-model", "user_model")
            raise ValueError(f"user {self.user.value!r} needs a user model ({flag})")
        if self.agent is AgentKind.FEW_SHOT and self.few_shot_file is None:
            raise ValueError(f"agent 'few-shot' needs {named('--few-shot-file', 'few_shot_file')}")
        if self.has_human and self.concurrency != 1:
            raise ValueError(
                "a human participant plays one episode at a time: use "
                + named("--concurrency 1", "concurrency=1")
            )
        stored = bool(info.context and info.context.get(STORED))
        if self.cache_mode in ("replay", "record") and self.cache_dir is None and not stored:
            # Without a folder there is no cache: a replay would quietly call the live (paid)
            # endpoint, and a recording would keep nothing.
            raise ValueError(
                f"{named('--cache-mode', 'cache_mode')} {self.cache_mode} needs "
                f"{named('--cache-dir', 'cache_dir')} (the folder of the recorded requests)"
            )
        limit = self.fail_on_error
        if limit is not None and limit >= 1 and limit != int(limit):
            raise ValueError(
                f"{named('--fail-on-error', 'fail_on_error')} from 1 on is a count: give a "
                "whole number"
            )
        return self


def _kind(enum: type[_Kind], value: Any) -> _Kind | None:
    """A kind given as its name (or member); None when unknown, left to field validation."""
    try:
        return enum(value)
    except ValueError:
        return None


def _model_name(model: Any) -> str:
    if isinstance(model, ModelConfig):
        return model.model
    return str(model.get("model", "")) if isinstance(model, dict) else ""


RESUMABLE = frozenset(
    {"out", "concurrency", "executor", "ray_address", "cache_dir", "cache_mode", "fail_on_error"}
)
"""`RunConfig` fields a resumed run may change: how the run is carried out, not what it plays."""
RESUMABLE_MODEL = DELIVERY_FIELDS | {"base_url"}
"""`ModelConfig` fields a resumed run may change: where and how the model is reached."""


def _episode_settings(config: RunConfig) -> dict[str, Any]:
    """The settings that decide the episodes, flat ('agent_model.temperature': 0.0)."""
    flat: dict[str, Any] = {}
    for key, value in config.model_dump(mode="json").items():
        if key in RESUMABLE:
            continue
        if key in ("agent_model", "user_model") and isinstance(value, dict):
            for sub, v in value.items():
                if sub not in RESUMABLE_MODEL:
                    flat[f"{key}.{sub}"] = v
        else:
            flat[key] = value
    # No task file reads the file named after the split: naming that file is the same run.
    flat["task_file"] = config.task_file or config.split
    return flat


class CollectConfig(RunConfig):
    """A training-data collection: a run over the train split with a shorter budget."""

    split: Split = Field(default="train", description="Task split; collections use train.")
    max_steps: int = Field(
        default=50,
        ge=2,
        description="Messages per rollout before it stops (long rollouts make poor training "
        "data); 40 when not given and the agent is the embedded model.",
    )
    out: Path = Field(
        default_factory=lambda: timestamped_dir("collect"),
        description="Collection directory; default runs/collect-<UTC time>.",
    )
