"""The episode loop: agent <-> user <-> tools until someone ends it; always returns a record."""

from __future__ import annotations

import time
import traceback

from tau_emotion.data import (
    ERROR_TERMINATION,
    STOP_TOKEN,
    UNSATISFIED_TOKEN,
    Episode,
    EpisodeError,
    ErrorKind,
    Message,
    TerminationReason,
    Usage,
)
from tau_emotion.domains.checks import hard_violations
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment, gold_hash
from tau_emotion.errors import DomainError, ModelError, ParticipantError
from tau_emotion.evaluation.reward import compute_reward
from tau_emotion.simulation.participants import Agent, EpisodeSetup, User

DEFAULT_MAX_STEPS = 200


class _Ended(Exception):
    def __init__(self, reason: TerminationReason, error: EpisodeError | None = None) -> None:
        self.reason = reason
        self.error = error


def _error(kind: ErrorKind, message: str) -> _Ended:
    return _Ended(ERROR_TERMINATION[kind], EpisodeError(kind=kind, message=message))


def _failure(exc: Exception, who: ErrorKind) -> _Ended:
    """Map an exception from `who` (agent, user or environment) to a recorded termination."""
    if isinstance(exc, ModelError):
        return _error(ErrorKind.INFRA, str(exc))
    if isinstance(exc, ParticipantError):
        return _error(who, str(exc))
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return _error(ErrorKind.BUG, f"{who}: {detail}")


async def run_episode(
    setup: EpisodeSetup,
    agent: Agent,
    user: User,
    env: Environment,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Episode:
    """Play one episode and score it. Never raises for participant or endpoint failures."""
    started = time.perf_counter()
    task = setup.task
    errors: list[EpisodeError] = []
    messages: list[Message] = [Message(role="system", content=agent.system_prompt())]
    usage_agent, usage_user = Usage(), Usage()
    try:
        target = gold_hash(task, env)
    except DomainError as exc:
        target = ""
        errors.append(
            EpisodeError(kind=ErrorKind.ENVIRONMENT, message=f"gold replay failed: {exc}")
        )
    env.reset()

    async def user_turn() -> None:
        nonlocal usage_user
        if len(messages) - 1 >= max_steps:
            raise _Ended(TerminationReason.MAX_STEPS)
        try:
            reply = await user.respond(messages)
        except Exception as exc:
            # A failed turn's calls reached the endpoint too (see `UserTurnError`).
            failed = getattr(exc, "usage", None)
            if isinstance(failed, Usage):
                usage_user = usage_user + failed
            raise _failure(exc, ErrorKind.USER) from exc
        usage_user = usage_user + (reply.usage or Usage())
        messages.append(reply)
        content = reply.content or ""
        if UNSATISFIED_TOKEN in content:
            raise _Ended(TerminationReason.USER_UNSATISFIED)
        if STOP_TOKEN in content:
            raise _Ended(TerminationReason.USER_STOP)

    termination = TerminationReason.MAX_STEPS
    try:
        if target == "":
            raise _Ended(TerminationReason.FRAMEWORK_ERROR)
        await user_turn()
        while len(messages) - 1 < max_steps:
            try:
                reply = await agent.respond(messages)
            except Exception as exc:
                raise _failure(exc, ErrorKind.AGENT) from exc
            if reply.role != "assistant":
                raise _failure(
                    ParticipantError(f"agent replied as {reply.role!r}"), ErrorKind.AGENT
                )
            usage_agent = usage_agent + (reply.usage or Usage())
            messages.append(reply)
            if reply.tool_calls:
                transferred = False
                for call in reply.tool_calls:
                    result = env.execute(call)
                    messages.append(result)
                    transferred |= env.kind(call.name) == "terminal" and not result.error
                if transferred:
                    raise _Ended(TerminationReason.TRANSFER)
                continue
            await user_turn()
    except _Ended as ended:
        termination = ended.reason
        if ended.error is not None:
            errors.append(ended.error)
    except Exception as exc:  # a bug in a domain tool or in the framework: record, don't crash
        failure = _failure(exc, ErrorKind.ENVIRONMENT)
        termination = failure.reason
        errors.append(failure.error or EpisodeError(kind=ErrorKind.BUG, message=str(exc)))

    reward, breakdown = (0.0, None)
    if target:
        trajectory = Trajectory(messages, env.domain.tool_kinds, env.fresh_tools)
        broken = hard_violations(env.domain.checks, trajectory)
        reward, breakdown = compute_reward(task, env.hash(), target, messages, termination, broken)
    env.reset()
    return Episode(
        task_id=task.id,
        domain=task.domain,
        trial=setup.trial,
        seed=setup.seed,
        emotion=task.emotion,
        messages=messages,
        termination=termination,
        reward=reward,
        breakdown=breakdown,
        errors=errors,
        usage_agent=usage_agent,
        usage_user=usage_user,
        duration_s=time.perf_counter() - started,
    )
