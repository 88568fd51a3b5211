"""Humans in the terminal: play the agent against any user, or the customer against any agent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence

from rich.console import Console

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Message, ToolCall
from tau_emotion.simulation.agents import agent_system_prompt
from tau_emotion.simulation.participants import EpisodeSetup

Prompt = Callable[[str], str]

AGENT_HELP = (
    "Type a message for the customer, or call a tool with "
    '/tool NAME {"arg": "value"}.  /tools lists the tools.'
)
USER_HELP = f"Type what the customer says.  /stop ends satisfied ({STOP_TOKEN}), /quit walks away."


def _show_new(console: Console, messages: Sequence[Message], seen: int, who: str) -> int:
    for m in messages[seen:]:
        if m.role == "user" and who == "agent":
            console.print(f"[bold cyan]customer[/] {m.content}")
        elif m.role == "assistant" and m.content and who == "user":
            console.print(f"[bold green]agent[/] {m.content}")
        elif m.role == "tool" and who == "agent":
            style = "red" if m.error else "dim"
            console.print(f"[{style}]{m.name} -> {m.content}[/]")
    return len(messages)


class HumanAgent:
    """You are the agent: the terminal shows the customer and tool results."""

    def __init__(self, setup: EpisodeSetup, ask: Prompt = input, console: Console | None = None):
        self._setup = setup
        self._ask = ask
        self._console = console or Console()
        self._seen = 0
        self._calls = 0
        self._console.print(f"[bold]Policy[/]\n{setup.domain.policy}\n\n{AGENT_HELP}")

    def system_prompt(self) -> str:
        return agent_system_prompt(self._setup)

    async def respond(self, messages: Sequence[Message]) -> Message:
        self._seen = _show_new(self._console, messages, self._seen, "agent")
        while True:
            line = (await asyncio.to_thread(self._ask, "agent> ")).strip()
            if line == "/tools":
                for name, spec in self._setup.domain.toolset.specs.items():
                    params = json.dumps(spec.schema["parameters"].get("properties", {}))
                    self._console.print(f"{name} [{spec.kind}] {spec.description} {params}")
                continue
            if line.startswith("/tool "):
                name, _, raw = line[6:].strip().partition(" ")
                self._calls += 1
                call_id = f"human_{self._calls}"
                try:
                    args = json.loads(raw or "{}")
                except json.JSONDecodeError as exc:
                    call = ToolCall(id=call_id, name=name, parse_error=str(exc), raw_arguments=raw)
                else:
                    call = ToolCall(id=call_id, name=name, arguments=args)
                return Message(role="assistant", tool_calls=[call])
            if line:
                return Message(role="assistant", content=line)


class HumanUser:
    """You are the customer: the terminal shows your instruction and the agent's messages."""

    def __init__(self, setup: EpisodeSetup, ask: Prompt = input, console: Console | None = None):
        self._ask = ask
        self._console = console or Console()
        self._seen = 0
        task = setup.task
        facts = "\n".join(f"  {k}: {v}" for k, v in task.known_facts.items())
        emotion = f"\n[bold]How you feel[/] {task.emotion.instruction}" if task.emotion else ""
        self._console.print(
            f"[bold]Your task[/] {task.instruction}\n"
            f"[bold]You know[/]\n{facts}{emotion}\n{USER_HELP}"
        )

    async def respond(self, messages: Sequence[Message]) -> Message:
        self._seen = _show_new(self._console, messages, self._seen, "user")
        while True:
            line = (await asyncio.to_thread(self._ask, "customer> ")).strip()
            if line == "/stop":
                return Message(role="user", content=STOP_TOKEN)
            if line == "/quit":
                return Message(role="user", content=UNSATISFIED_TOKEN)
            if line:
                return Message(role="user", content=line)
