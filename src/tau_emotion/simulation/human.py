"""Humans in the terminal: play the agent against any user, or the customer against any agent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
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
TOOL_USAGE = 'usage: /tool NAME {"arg": "value"}  (/tools lists the tools)'


class InputEnded(KeyboardInterrupt):
    """The person at the prompt ended the input (Ctrl-D, or the end of piped input): they are
    done, so the run stops as after Ctrl-C. A `KeyboardInterrupt`, so that the episode loop
    does not record it as an episode's error and every layer that handles Ctrl-C (the
    manifest, the command's hint and exit status) handles it alike."""


async def _ask_line(ask: Prompt, prompt: str) -> str:
    """`ask(prompt)` without blocking the event loop, and without holding up shutdown.

    The read runs in a daemon thread of its own: a blocked read in the default executor
    (`asyncio.to_thread`) would make `asyncio.run` wait for Enter after Ctrl-C cancelled
    the run. A read still blocked when the run ends is abandoned with the process.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if answer.done():  # cancelled by Ctrl-C while the person was typing
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(line or "")

    def read() -> None:
        line: str | None = None
        error: BaseException | None = None
        try:
            line = ask(prompt)
        except EOFError:
            error = InputEnded()
        except BaseException as exc:  # handed to the awaiting task, which re-raises it
            error = exc
        # RuntimeError: the loop closed while the read was blocked; no one is waiting.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, line, error)

    threading.Thread(target=read, name="tau-emotion-prompt", daemon=True).start()
    return await answer


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
            line = (await _ask_line(self._ask, "agent> ")).strip()
            if line == "/tools":
                for name, spec in self._setup.domain.toolset.specs.items():
                    params = json.dumps(spec.schema["parameters"].get("properties", {}))
                    self._console.print(f"{name} [{spec.kind}] {spec.description} {params}")
                continue
            if line == "/tool":  # no tool named: a slip, not a message for the customer
                self._console.print(TOOL_USAGE)
                continue
            if line.startswith("/tool "):
                return Message(role="assistant", tool_calls=[self._tool_call(line[6:])])
            if line:
                return Message(role="assistant", content=line)

    def _tool_call(self, text: str) -> ToolCall:
        """The call `/tool NAME ARGS` asks for. Arguments that are not a JSON object still
        make a call, with a parse error the tool answers, so the person sees what went wrong
        and can try again (as a model's malformed call does)."""
        name, _, raw = text.strip().partition(" ")
        self._calls += 1
        call_id = f"human_{self._calls}"
        try:
            args = json.loads(raw or "{}")
        except json.JSONDecodeError as exc:
            return ToolCall(id=call_id, name=name, parse_error=str(exc), raw_arguments=raw)
        if not isinstance(args, dict):
            problem = "arguments must be a JSON object"
            return ToolCall(id=call_id, name=name, parse_error=problem, raw_arguments=raw)
        return ToolCall(id=call_id, name=name, arguments=args)


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
            line = (await _ask_line(self._ask, "customer> ")).strip()
            if line == "/stop":
                return Message(role="user", content=STOP_TOKEN)
            if line == "/quit":
                return Message(role="user", content=UNSATISFIED_TOKEN)
            if line:
                return Message(role="user", content=line)
