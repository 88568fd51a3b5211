"""Framework overhead: CPU per agent step, per episode (reset + reward), and CLI start-up.

Runs the airline test tasks with a scripted fake model on both sides (no network, no model
cost), so every measured microsecond is the framework's own: message objects, tool dispatch
and validation, copy-on-write state, hashing and the reward. The agent's model replays the
oracle; the scripted emotional user still walks away from some of those episodes (the oracle
never acknowledges feelings), so each episode must end in success or in a walk-away, and is
measured either way.

    python benchmarks/engine_overhead.py [--repeats 20]
    python benchmarks/engine_overhead.py --quick        # seconds; the test suite runs this

Budgets (issue #2): <= 0.2 ms per step, <= 10 ms per episode, `tau-emotion --help` <= 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bench_args import QUICK_RULE, fill_defaults, positive_int

from tau_emotion.data import Message, Task, TerminationReason
from tau_emotion.domains import load_domain
from tau_emotion.environment import Environment, gold_hash
from tau_emotion.evaluation.reward import compute_reward
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.agents import OracleAgent, ToolCallingAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser


def fake_agent_model(setup: EpisodeSetup) -> ScriptedModel:
    """A scripted model that replays what the oracle would say, through the model protocol."""
    oracle = OracleAgent(setup)

    def reply(messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> Message:
        return _sync(oracle, messages)

    return ScriptedModel(reply, name="fake-agent")


def _sync(oracle: OracleAgent, messages: Sequence[Message]) -> Message:
    coro = oracle.respond(messages)
    try:
        coro.send(None)
    except StopIteration as done:
        result: Message = done.value
        return result
    raise RuntimeError("oracle awaited unexpectedly")


async def play_all(
    tasks: list[Task], env: Environment, endings: Counter[str]
) -> tuple[int, int, float]:
    domain = env.domain
    steps = episodes = 0
    start = time.process_time()
    for task in tasks:
        setup = EpisodeSetup(task, domain, seed=0, trial=0)
        agent = ToolCallingAgent(setup, fake_agent_model(setup))
        episode = await run_episode(setup, agent, ScriptedUser(setup), env)
        walked_away = episode.termination == TerminationReason.USER_UNSATISFIED
        # The oracle's actions succeed unless the customer walked away first; anything else
        # (an error, a wrong state) means the framework measured is broken.
        assert not episode.errors and (episode.reward == 1.0 or walked_away), (
            task.id,
            episode.termination,
            episode.errors,
            episode.breakdown,
        )
        endings["walked away" if walked_away else "succeeded"] += 1
        steps += sum(m.role == "assistant" for m in episode.messages)
        episodes += 1
    return steps, episodes, time.process_time() - start


def episode_overhead(tasks: list[Task], env: Environment) -> float:
    """Reset + replay-free reward for one episode: what the framework adds around the loop."""
    samples = []
    for task in tasks:
        target = gold_hash(task, env)
        for action in task.gold_actions:
            env.call(action.name, dict(action.arguments))
        messages = [Message(role="assistant", content=" ".join(task.required_outputs))]
        start = time.perf_counter()
        final = env.hash()
        compute_reward(task, final, target, messages, TerminationReason.USER_STOP)
        env.reset()
        samples.append(time.perf_counter() - start)
    return statistics.mean(samples)


def cli_help_seconds(repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tau_emotion.cli.main", "--help"],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    return min(times)


class ToolTimer:
    """Times tool execution (argument validation + the domain's own code) inside the loop."""

    def __init__(self, env: Environment) -> None:
        self.seconds = 0.0
        inner = env.call

        def timed(name: str, arguments: dict[str, Any]) -> Any:
            start = time.process_time()
            try:
                return inner(name, arguments)
            finally:
                self.seconds += time.process_time() - start

        env.call = timed  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    # At least one pass: the figures are divided by the steps and episodes played.
    parser.add_argument(
        "--repeats",
        type=positive_int,
        default=None,
        help="Passes over the test tasks (default 20; 1 under --quick).",
    )
    parser.add_argument("--quick", action="store_true", help="One pass over every 10th task.")
    args = parser.parse_args()
    fill_defaults(args, {"repeats": 20}, quick={"repeats": 1})
    domain = load_domain("airline")
    tasks = domain.tasks("test")
    if args.quick:
        tasks = tasks[::10]
    env = Environment(domain, domain.variant_for("test"))
    for task in tasks:
        gold_hash(task, env)  # cached once per task, as in a run

    load_start = time.perf_counter()
    fresh = Environment(domain, "main")
    fresh.reset()
    env_build = time.perf_counter() - load_start

    timer = ToolTimer(env)
    total_steps = total_episodes = 0
    total_cpu = 0.0
    endings: Counter[str] = Counter()
    for _ in range(args.repeats):
        steps, episodes, cpu = asyncio.run(play_all(tasks, env, endings))
        total_steps += steps
        total_episodes += episodes
        total_cpu += cpu
    per_step_ms = 1000 * total_cpu / total_steps
    tools_ms = 1000 * timer.seconds / total_steps
    per_episode_ms = 1000 * episode_overhead(tasks, env)
    help_s = cli_help_seconds(1 if args.quick else 5)
    records = sum(domain.load_db("main")[0].record_counts().values())
    print(f"airline DB: {records} records; {len(tasks)} test tasks x {args.repeats} passes")
    print(
        f"episodes: {total_episodes} ({endings['succeeded']} succeeded, "
        f"{endings['walked away']} walked away), agent steps: {total_steps}"
    )
    print(f"CPU per agent step, all in: {per_step_ms:.3f} ms")
    print(f"  of which tool execution (validation + domain code): {tools_ms:.3f} ms")
    print(f"framework CPU per agent step: {per_step_ms - tools_ms:.3f} ms (budget 0.2 ms)")
    print(f"framework CPU per episode, whole loop: {1000 * total_cpu / total_episodes:.3f} ms")
    print(f"reset + reward per episode: {per_episode_ms:.3f} ms (budget 10 ms)")
    print(f"new Environment on a loaded DB: {1000 * env_build:.3f} ms")
    print(f"`tau-emotion --help`: {help_s:.3f} s (budget 1 s)")


if __name__ == "__main__":
    main()
