"""One (task, trial) of a run played: its seed and its episode, whichever executor plays it.

Both executors (`runner.run` in this process, `runner.ray_executor` on Ray actors) play a
pair through `play_pair`, so an episode's seed, participants and step budget cannot differ
between them. Living apart from `runner.run` also keeps the Ray executor from importing the
module that dispatches to it.
"""

from __future__ import annotations

import hashlib

from tau_emotion.data import Episode, Task
from tau_emotion.environment import Environment
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup


def episode_seed(run_seed: int, task: Task, trial: int) -> int:
    digest = hashlib.sha256(f"{run_seed}/{task.domain}/{task.id}/{trial}".encode()).hexdigest()
    return int(digest[:8], 16)


async def play_pair(
    config: RunConfig, participants: Participants, task: Task, trial: int, env: Environment
) -> Episode:
    """Play one (task, trial) on `env` (the task's database, not in use by another episode)."""
    setup = EpisodeSetup(task, env.domain, episode_seed(config.seed, task, trial), trial)
    return await run_episode(
        setup,
        participants.agent(setup),
        participants.user(setup),
        env,
        max_steps=config.max_steps,
    )
