"""Small offline runs for the report tests, played for real (scripted user, deterministic agents).

On the airline and retail seed tasks: an emotional and a --no-emotion run of the oracle (so
emotional and neutral episodes pair up), and an emotional run of a hasty agent that skips
confirmations, sometimes passes a wrong argument, and sometimes stonewalls the customer until
they leave. `conftest.py` plays them once per test session.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from tau_emotion.data import EmotionSpec, Message, RunManifest, Task, ToolCall
from tau_emotion.domains import load_domain
from tau_emotion.environment import Environment
from tau_emotion.report.cli import register
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, ResultsWriter
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
EMOTIONS = [
    ("anger", "frustration", "cold", "high", "skeptical"),
    ("fear", "anxiety", "neutral", "moderate", "cautious"),
    ("sadness", "disappointment", "warm", "low", "trusting"),
    ("enjoyment", "relief", "warm", "low", "trusting"),
]
INVENTED = "ZX4242"


def emotion(i: int) -> EmotionSpec:
    f, e, p, u, t = EMOTIONS[i % len(EMOTIONS)]
    return EmotionSpec.model_validate(
        {
            "condition_id": f"{f}.{e}.{p}.{u}.{t}",
            "family": f,
            "emotion": e,
            "politeness": p,
            "urgency": u,
            "trust": t,
            "instruction": f"You feel {e}.",
        }
    )


class CaringOracle(OracleAgent):
    """The oracle, opening every text turn with an acknowledgment of feelings."""

    async def respond(self, messages: Sequence[Message]) -> Message:
        reply = await super().respond(messages)
        if reply.content:
            text = "I understand how stressful this is. " + reply.content
            return reply.model_copy(update={"content": text})
        return reply


class HastyAgent:
    """Runs the gold actions at once without confirming (optionally one wrong argument)."""

    def __init__(self, setup: EpisodeSetup, corrupt: bool) -> None:
        kinds = setup.domain.tool_kinds
        self._actions = list(setup.task.gold_actions)
        writes = [i for i, a in enumerate(self._actions) if kinds.get(a.name) == "write"]
        if corrupt and writes:
            action = self._actions[writes[-1]]
            keys = [k for k, v in action.arguments.items() if isinstance(v, str) and k != "user_id"]
            if keys:
                args = {**action.arguments, keys[0]: action.arguments[keys[0]] + "X"}
                self._actions[writes[-1]] = action.model_copy(update={"arguments": args})
        self._n = 0

    def system_prompt(self) -> str:
        return "You are a hasty agent."

    async def respond(self, messages: Sequence[Message]) -> Message:
        if self._n < len(self._actions):
            action = self._actions[self._n]
            self._n += 1
            call = ToolCall(id=f"c{self._n}", name=action.name, arguments=dict(action.arguments))
            return Message(role="assistant", tool_calls=[call])
        return Message(role="assistant", content="Done. Is there anything else?")


class StonewallAgent:
    """Never helps, so impatient customers walk away."""

    def system_prompt(self) -> str:
        return "You are an unhelpful agent."

    async def respond(self, messages: Sequence[Message]) -> Message:
        return Message(role="assistant", content="Please describe your request again.")


def seed_tasks(emotional: bool) -> list[Task]:
    tasks = []
    for offset, name in enumerate(("airline", "retail")):
        for i, task in enumerate(load_domain(name).tasks("test")[:3]):
            tasks.append(
                task.model_copy(update={"emotion": emotion(i + offset) if emotional else None})
            )
    return tasks


async def play(out: Path, emotional: bool, hasty: bool, config: dict[str, Any]) -> None:
    out.mkdir(parents=True)
    writer = ResultsWriter(out / RESULTS_FILE, fsync=False)
    envs: dict[str, Environment] = {}
    for ti, task in enumerate(seed_tasks(emotional)):
        domain = load_domain(task.domain)
        env = envs.setdefault(task.domain, Environment(domain, domain.variant_for("test")))
        for trial in range(2):
            setup = EpisodeSetup(task, domain, 1000 * ti + trial, trial)
            agent: Any
            if not hasty:
                agent = CaringOracle(setup) if trial else OracleAgent(setup)
            elif (ti + trial) % 3 == 2:
                agent = StonewallAgent()
            else:
                agent = HastyAgent(setup, corrupt=(ti + trial) % 3 == 1)
            episode = await run_episode(setup, agent, ScriptedUser(setup), env, max_steps=40)
            if hasty and ti == 0 and trial == 1:
                # A simulated user that invents a fact, for the hallucination check.
                first = episode.messages[1]
                invented = first.model_copy(
                    update={"content": f"{first.content} My member id is {INVENTED}."}
                )
                episode = episode.model_copy(
                    update={"messages": [episode.messages[0], invented, *episode.messages[2:]]}
                )
            writer.append(episode)
    writer.close()
    config = {
        "domains": ["airline", "retail"],
        "split": "test",
        "trials": 2,
        "user": "scripted",
        **config,
    }
    manifest = RunManifest(
        config=config, code_version="tau-emotion test", started_at="2026-01-01T00:00:00+00:00"
    )
    (out / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2))


def app() -> typer.Typer:
    main = typer.Typer()
    register(main)
    return main
