"""Run folders written by hand, for tests of what reads them (metrics, report, outcome):
chosen outcomes per trial without playing an episode."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from emotion_specs import condition_spec
from tau_emotion.data import (
    Episode,
    EpisodeError,
    ErrorKind,
    Message,
    RewardBreakdown,
    RunManifest,
    TerminationReason,
)
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE

ENDINGS: dict[str, TerminationReason] = {
    "S": TerminationReason.USER_STOP,
    "F": TerminationReason.USER_STOP,
    "W": TerminationReason.USER_UNSATISFIED,
    "I": TerminationReason.INFRA_ERROR,
    "U": TerminationReason.USER_ERROR,
    "G": TerminationReason.AGENT_ERROR,
    "X": TerminationReason.FRAMEWORK_ERROR,
}
"""S success, F failure (database differs), W walk-away, and the error endings: I infra, U
user simulator, G agent protocol, X framework (here: a gold replay that failed, unscored)."""
_KINDS = {"I": ErrorKind.INFRA, "U": ErrorKind.USER, "G": ErrorKind.AGENT}


def episode(
    task: str, trial: int, code: str = "S", domain: str = "airline", family: str | None = "anger"
) -> Episode:
    """One stored episode of `task` ending as `code` says (see `ENDINGS`)."""
    term = ENDINGS[code]
    reward = {"S": 1.0, "W": -1.0}.get(code, 0.0)
    errors = []
    if code in _KINDS:
        errors = [EpisodeError(kind=_KINDS[code], message=f"synthetic {code}")]
    if code == "X":
        errors = [EpisodeError(kind=ErrorKind.ENVIRONMENT, message="gold replay failed: x")]
    breakdown = None
    if code != "X":
        breakdown = RewardBreakdown(
            db_match=code != "F",
            final_hash="g" if code != "F" else "f",
            gold_hash="g",
            dissatisfied=code == "W",
            reason="-",
            policy_violations=[],
        )
    return Episode(
        task_id=task,
        domain=domain,
        trial=trial,
        seed=0,
        emotion=condition_spec(family, "x", "warm", "low", "trusting") if family else None,
        messages=[Message(role="user", content="Hello."), Message(role="assistant", content="Hi")],
        termination=term,
        reward=reward,
        breakdown=breakdown,
        errors=errors,
    )


def episodes(spec: dict[str, str], domain: str = "airline") -> list[Episode]:
    """{task id: 'SSF'} -> one episode per letter, trials 0, 1, ..."""
    return [
        episode(task, trial, code, domain)
        for task, codes in spec.items()
        for trial, code in enumerate(codes)
    ]


def write_run(
    out: Path,
    stored: Sequence[Episode],
    config: dict[str, Any] | None = None,
    finished: bool = True,
    total: int | None = None,
) -> Path:
    """A run folder holding `stored`, whose manifest planned `total` episodes (all of them by
    default) and says whether the run finished."""
    out.mkdir(parents=True, exist_ok=True)
    (out / RESULTS_FILE).write_text("".join(e.model_dump_json() + "\n" for e in stored))
    manifest = RunManifest(
        config={"split": "test", "agent": "oracle", "user": "scripted", **(config or {})},
        code_version="test",
        started_at="2026-01-01T00:00:00+00:00",
        finished_at="2026-01-01T01:00:00+00:00" if finished else None,
        episodes_total=len(stored) if total is None else total,
        episodes_done=len(stored),
    )
    (out / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2))
    return out
