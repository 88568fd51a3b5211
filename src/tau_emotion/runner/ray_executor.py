"""Spread a run's episodes over a Ray cluster; results still stream back to the driver.

The driver keeps everything the local executor owns: the results file, resume, the manifest
and the progress hook. Only the episodes move: each Ray actor holds its own participants
(models, caches) and its own environments, and plays up to ``max_concurrency`` episodes at
once on its event loop. The driver keeps at most ``config.concurrency`` episodes in flight
over all actors, and hands each finished episode to the same ``on_episode`` callback that
`execute_run` gives the local executor, so the file format, the per-line flush and
``--resume`` are the same whichever executor ran the episodes.

Workers must be able to import ``tau_emotion`` (on a remote cluster: the same version
installed on every node). Ray is imported only when this executor runs.
"""

from __future__ import annotations

import importlib
import math
from collections import deque
from collections.abc import Callable
from typing import Any

from tau_emotion.data import Episode, ErrorKind, Task
from tau_emotion.errors import TauEmotionError, named
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.episodes import EnvironmentPool, error_episode, play_pair
from tau_emotion.runner.participants import Participants

ACTOR_RESTARTS = 2
"""A crashed actor (e.g. OOM-killed) is restarted this often; its in-flight episodes are
recorded as infra errors, which ``--resume --retry-errors`` runs again."""


class EpisodeWorker:
    """The body of one Ray actor: plays episodes with its own participants and environments."""

    def __init__(self, config_json: str, participants: Participants | None = None) -> None:
        # The config travels as JSON: it is small, and a worker on another node rebuilds the
        # models (HTTP clients, caches) itself instead of receiving unpicklable ones.
        self._config = RunConfig.model_validate_json(config_json)
        self._participants = participants or Participants(self._config)
        self._environments = EnvironmentPool()

    async def play(self, task_json: str, trial: int) -> str:
        """Play one (task, trial); returns the episode as JSON (cheap to ship, version-safe)."""
        task = Task.model_validate_json(task_json)
        episode = await play_pair(self._config, self._participants, task, trial, self._environments)
        return episode.model_dump_json()


def lost_episode(
    config: RunConfig, task: Task, trial: int, reason: str, kind: ErrorKind = ErrorKind.INFRA
) -> Episode:
    """The record of an episode whose Ray task failed: never a dropped pair. A dead worker
    (OOM, a lost node) is an infra error; an exception the task itself raised is a bug,
    which retrying on another worker would only repeat."""
    return error_episode(config, task, trial, kind, f"ray worker failed: {reason}")


def plan_actors(concurrency: int, pairs: int, cluster_cpus: float) -> tuple[int, int]:
    """(actors, episodes per actor): one actor per CPU, at most one per episode in flight."""
    in_flight = max(1, min(concurrency, pairs))
    actors = max(1, min(in_flight, int(cluster_cpus)))
    return actors, math.ceil(in_flight / actors)


def run_pairs_ray(
    config: RunConfig,
    pairs: list[tuple[Task, int]],
    on_episode: Callable[[Episode], bool | None],
    participants: Participants | None = None,
) -> None:
    """Play (task, trial) pairs on Ray actors; call `on_episode` on the driver as each ends.

    Once `on_episode` returns False (``--fail-on-error``), no more pairs are submitted.

    `participants`, when given (tests, custom models), is shipped to every actor and must be
    picklable; by default each actor builds its own from the config.
    """
    if not pairs:
        return
    if config.has_human:
        raise TauEmotionError(
            "a human participant cannot play on Ray workers; use "
            + named("--executor local", "executor='local'")
        )
    try:
        # Untyped on purpose: the type check must not depend on whether Ray is installed.
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise TauEmotionError(
            f"{named('--executor ray', 'executor=ray')} needs Ray: pip install 'tau-emotion[ray]'"
        ) from None

    started_here = not ray.is_initialized()
    if started_here:
        # Worker logs would tear through the progress bar; every failure is on its episode.
        ray.init(address=config.ray_address, include_dashboard=False, log_to_driver=False)
    actors: list[Any] = []
    try:
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        n_actors, per_actor = plan_actors(config.concurrency, len(pairs), cpus)
        worker_cls = ray.remote(EpisodeWorker)
        config_json = config.model_dump_json()
        actors = [
            worker_cls.options(
                num_cpus=1, max_concurrency=per_actor, max_restarts=ACTOR_RESTARTS
            ).remote(config_json, participants)
            for _ in range(n_actors)
        ]
        queue = deque(pairs)
        in_flight: dict[Any, tuple[Task, int, int]] = {}
        load = [0] * n_actors

        def submit() -> None:
            while queue and len(in_flight) < config.concurrency:
                task, trial = queue.popleft()
                i = min(range(n_actors), key=load.__getitem__)  # least-loaded actor
                ref = actors[i].play.remote(task.model_dump_json(), trial)
                in_flight[ref] = (task, trial, i)
                load[i] += 1

        submit()
        while in_flight:
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                task, trial, i = in_flight.pop(ref)
                load[i] -= 1
                try:
                    episode = Episode.model_validate_json(ray.get(ref))
                except ray.exceptions.RayError as exc:
                    raised = isinstance(exc, ray.exceptions.RayTaskError)
                    kind = ErrorKind.BUG if raised else ErrorKind.INFRA
                    episode = lost_episode(config, task, trial, str(exc)[:2000], kind)
                if on_episode(episode) is False:
                    queue.clear()  # the episodes in flight still land
            submit()
    finally:
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()
