"""One (task, trial) of a run played: its seed and its episode, whichever executor plays it.

Both executors (`runner.run` in this process, `runner.ray_executor` on Ray actors) play a
pair through `play_pair`, so an episode's seed, participants, step budget and the record of
a pair that could not even start cannot differ between them. Living apart from `runner.run`
also keeps the Ray executor from importing the module that dispatches to it.
"""

from __future__ import annotations

import hashlib
import traceback
from collections.abc import Iterator
from contextlib import contextmanager

from tau_emotion.data import ERROR_TERMINATION, Episode, EpisodeError, ErrorKind, Task
from tau_emotion.domains import load_domain
from tau_emotion.environment import Environment
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup


def episode_seed(run_seed: int, task: Task, trial: int) -> int:
    digest = hashlib.sha256(f"{run_seed}/{task.domain}/{task.id}/{trial}".encode()).hexdigest()
    return int(digest[:8], 16)


def error_episode(
    config: RunConfig, task: Task, trial: int, kind: ErrorKind, message: str
) -> Episode:
    """The record of a pair that ended before its conversation could be played."""
    return Episode(
        task_id=task.id,
        domain=task.domain,
        trial=trial,
        seed=episode_seed(config.seed, task, trial),
        emotion=task.emotion,
        messages=[],
        termination=ERROR_TERMINATION[kind],
        reward=0.0,
        errors=[EpisodeError(kind=kind, message=message)],
    )


class EnvironmentPool:
    """Environments by database, each lent to one episode at a time (an environment is not
    safe to share between concurrent episodes); one per episode in flight at most."""

    def __init__(self) -> None:
        self._free: dict[tuple[str, str], list[Environment]] = {}

    @contextmanager
    def borrow(self, task: Task) -> Iterator[Environment]:
        domain = load_domain(task.domain)
        variant = domain.variant_for(task.split)
        free = self._free.setdefault((task.domain, variant), [])
        env = free.pop() if free else Environment(domain, variant)
        try:
            yield env
        finally:
            free.append(env)


async def play_pair(
    config: RunConfig,
    participants: Participants,
    task: Task,
    trial: int,
    environments: EnvironmentPool,
) -> Episode:
    """Play one (task, trial) on an environment of its database; always returns a record.

    Building the domain, its environment or the participants can fail too (a bad custom
    `Participants`, a broken domain): that is the pair's framework error, recorded like one
    inside the conversation, and the run goes on with the other pairs. Exceptions that are
    not `Exception` (Ctrl-C, a human's end of input, cancellation) still stop the run.
    """
    stage = "environment"
    try:
        with environments.borrow(task) as env:
            setup = EpisodeSetup(task, env.domain, episode_seed(config.seed, task, trial), trial)
            stage = "agent"
            agent = participants.agent(setup)
            stage = "user"
            user = participants.user(setup)
            stage = "episode"
            return await run_episode(setup, agent, user, env, max_steps=config.max_steps)
    except Exception as exc:
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return error_episode(config, task, trial, ErrorKind.BUG, f"{stage}: {detail}")
