"""Pieces every run-like command (run, collect) shares: errors, output folders, participants."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from pydantic import ValidationError


TaskFileOpt = Annotated[
    str | None,
    typer.Option(
        help="Only tasks from each domain's tasks/NAME.jsonl: seed (hand-written), "
        "test or train (Tracer sets). Default: all files of the split."
    ),
]
"""`--task-file`, shared by `run` and `collect`."""


def fail(message: str) -> typer.Exit:
    """Print a red one-line error and return the exit to raise (status 2)."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)


def validation_message(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())


def timestamped_dir(prefix: str) -> Path:
    return Path("runs") / datetime.now(UTC).strftime(f"{prefix}-%Y%m%d-%H%M%S")


def task_selection(
    *,
    domain: str,
    split: str,
    num_tasks: int | None,
    task_id: list[str] | None,
    task_file: str | None,
) -> dict[str, Any]:
    """The task-choosing fields of a `RunConfig` from the shared command-line options."""
    from tau_emotion.domains import resolve_domains

    return {
        "domains": resolve_domains(domain),
        "split": split,
        "num_tasks": num_tasks,
        "task_ids": task_id or None,
        "task_file": task_file,
    }


def participant_config(
    *,
    agent: str,
    agent_model: str,
    agent_base_url: str | None,
    agent_api_key_env: str,
    agent_temperature: float,
    user: str | None,
    user_model: str | None,
    user_base_url: str | None,
    user_api_key_env: str,
    user_temperature: float,
    max_retries: int = 5,
    agent_send_reasoning: bool = False,
) -> dict[str, Any]:
    """The agent / user fields of a `RunConfig` from the shared command-line options.

    An agent that needs a model gets one (default: the embedded local model); the user is the
    LLM simulator when a user model is given, else the scripted emotional user.
    """
    from tau_emotion.models.factory import is_local
    from tau_emotion.models.openai_compat import ModelConfig

    if agent_base_url and is_local(agent_model):
        raise fail("--agent-base-url needs --agent-model (the model name that endpoint serves)")
    agent_config = None
    if agent not in ("oracle", "human"):
        agent_config = ModelConfig(
            model=agent_model,
            base_url=agent_base_url,
            api_key_env=agent_api_key_env,
            temperature=agent_temperature,
            send_reasoning=agent_send_reasoning,
            max_retries=max_retries,
        )
    user_config = None
    if user_model:
        user_config = ModelConfig(
            model=user_model,
            base_url=user_base_url,
            api_key_env=user_api_key_env,
            temperature=user_temperature,
            max_retries=max_retries,
        )
    return {
        "agent": agent,
        "agent_model": agent_config,
        "user": user or ("llm" if user_model else "scripted"),
        "user_model": user_config,
    }
