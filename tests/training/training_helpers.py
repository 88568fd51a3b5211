"""Constructed rollouts and an oracle collection shared by the training tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_emotion.data import (
    STOP_TOKEN,
    UNSATISFIED_TOKEN,
    EmotionSpec,
    Episode,
    EpisodeError,
    Message,
    RewardBreakdown,
    RunManifest,
    TerminationReason,
    ToolCall,
)
from tau_emotion.runner.config import RunConfig

TRAIN_DOMAINS = ["movie", "restaurant", "school"]
"""Domains that ship train-split seed tasks today."""


def emotion(family: str = "anger", name: str = "frustration") -> EmotionSpec:
    return EmotionSpec(
        condition_id=f"{family}.{name}.cold.high.skeptical",
        family=family,
        emotion=name,
        politeness="cold",
        urgency="high",
        trust="skeptical",
        instruction="You are upset.",
    )


def episode(
    domain: str = "movie",
    task_id: str = "t1",
    trial: int = 0,
    *,
    reward: float = 1.0,
    termination: TerminationReason = TerminationReason.USER_STOP,
    family: str | None = "anger",
    calls: int = 2,
    errors: int = 0,
    reasoning: str | None = None,
    malformed: bool = False,
    text_with_call: str | None = None,
) -> Episode:
    """A small, well-formed rollout: system, user, `calls` tool round trips, reply, stop."""
    messages = [
        Message(role="system", content="You are a customer-service agent."),
        Message(role="user", content=f"Please help me with {task_id}."),
    ]
    for i in range(calls):
        call = ToolCall(
            id=f"call_{i}",
            name="get_booking" if i % 2 == 0 else "cancel_booking",
            arguments={"booking_code": f"B{i}", "customer_id": "CU-1"},
            parse_error="bad json" if malformed and i == 0 else None,
        )
        messages.append(
            Message(
                role="assistant",
                content=text_with_call if i == 0 else None,
                tool_calls=[call],
                reasoning=reasoning,
            )
        )
        messages.append(
            Message(role="tool", tool_call_id=call.id, name=call.name, content=f'{{"ok": {i}}}')
        )
    last = UNSATISFIED_TOKEN if termination == TerminationReason.USER_UNSATISFIED else STOP_TOKEN
    messages += [
        Message(role="assistant", content="All done. Anything else?", reasoning=reasoning),
        Message(role="user", content=f"Thanks. {last}"),
    ]
    return Episode(
        task_id=task_id,
        domain=domain,
        trial=trial,
        seed=trial,
        emotion=emotion(family) if family else None,
        messages=messages,
        termination=termination,
        reward=reward,
        errors=[EpisodeError(kind="infra", message="down")] * errors,
    )


def oracle_config(out: Path, **kw: object) -> RunConfig:
    """The oracle with the scripted user on (the first few) train-split seed tasks.

    Capped per domain so the tests stay fast when the Tracer adds thousands of train tasks.
    """
    kw.setdefault("num_tasks", 4)
    return RunConfig(  # type: ignore[arg-type]
        domains=kw.pop("domains", TRAIN_DOMAINS),
        split="train",
        agent="oracle",
        user="scripted",
        max_steps=50,
        out=out,
        **kw,
    )


def refused(result: Any, *named: str) -> str:
    """The one error line of a refused command (exit 2, no traceback); it must name every
    string in `named`, and carry none of pydantic's multi-line text."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not a traceback
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for text in named:
        assert text in lines[0], lines[0]
    assert "errors.pydantic.dev" not in lines[0]
    return str(lines[0])


def scored(rollout: Episode, *violations: str) -> Episode:
    """`rollout` with a reward breakdown whose policy audit found `violations`."""
    breakdown = RewardBreakdown(
        db_match=rollout.reward == 1.0,
        final_hash="h",
        gold_hash="h" if rollout.reward == 1.0 else "g",
        dissatisfied=rollout.termination == TerminationReason.USER_UNSATISFIED,
        reason="constructed",
        policy_violations=list(violations),
    )
    return rollout.model_copy(update={"breakdown": breakdown})


def run_folder(folder: Path, split: str, rollouts: list[Episode]) -> Path:
    """A run folder as `run` (split test) or `collect` (split train) leaves it."""
    folder.mkdir(parents=True)
    config = oracle_config(folder).model_copy(update={"split": split})
    manifest = RunManifest(
        config=config.model_dump(mode="json"), code_version="t", started_at="2025-01-01"
    )
    (folder / "manifest.json").write_text(manifest.model_dump_json())
    (folder / "results.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in rollouts))
    return folder
