"""A person at the prompt: end of input stops the run as Ctrl-C does, a slip in `/tool` can
be retried, Ctrl-C does not wait for Enter, and no live bar draws over what they type."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tau_emotion.data import Message, RunManifest
from tau_emotion.domains import Domain
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.participants import Participants
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE
from tau_emotion.runner.run import execute_run
from tau_emotion.simulation.human import TOOL_USAGE, HumanAgent, HumanUser, InputEnded
from tau_emotion.simulation.participants import Agent, EpisodeSetup, User
from tau_emotion.storage import read_model

from toy_domain import credit_task


def _quiet() -> Console:
    return Console(file=io.StringIO(), width=200)


def _lines(*lines: str) -> Any:
    """A prompt that answers `lines`, then reports the end of input as `input` does."""
    it: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def _setup(toy: Domain) -> EpisodeSetup:
    return EpisodeSetup(credit_task(), toy, seed=0, trial=0)


# 2. End of input


class _HumanAt(Participants):
    """The human agent or user reads `script` (then the end of input), not the terminal."""

    script: tuple[str, ...] = ()

    def agent(self, setup: EpisodeSetup) -> Agent:
        if self.config.agent == "human":
            return HumanAgent(setup, ask=_lines(*self.script), console=_quiet())
        return super().agent(setup)

    def user(self, setup: EpisodeSetup) -> User:
        if self.config.user == "human":
            return HumanUser(setup, ask=_lines(*self.script), console=_quiet())
        return super().user(setup)


@pytest.mark.parametrize("role", ["agent", "user"])
def test_end_of_input_stops_the_run_without_recording_an_episode(tmp_path: Path, role: str) -> None:
    out = tmp_path / "run"
    human = {"agent": "human"} if role == "agent" else {"agent": "oracle", "user": "human"}
    cfg = RunConfig.model_validate(
        {"domains": "airline", "num_tasks": 3, "concurrency": 1, "out": out, **human}
    )
    participants = _HumanAt(cfg)
    participants.script = ("hello",)
    with pytest.raises(InputEnded):
        execute_run(cfg, participants=participants)
    # Not a framework bug in this and every remaining episode: nothing is recorded, and
    # --resume plays all three.
    assert (out / RESULTS_FILE).read_text() == ""
    manifest = read_model(out / MANIFEST_FILE, RunManifest)
    assert manifest.episodes_done == 0 and manifest.finished_at is None


def test_end_of_input_on_the_command_line_says_resume_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "tau_emotion.cli.main", "run", "--domain", "airline"]
    cmd += ["--num-tasks", "2", "--agent", "human", "--out", str(out)]
    done = subprocess.run(
        cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 130, done.stderr
    assert "input ended" in done.stderr and "--resume goes on" in done.stderr
    assert "Traceback" not in done.stderr
    assert (out / RESULTS_FILE).read_text() == ""


# 3. /tool slips


@pytest.mark.parametrize("raw", ['"abc"', "[1]", "42", "null"])
def test_tool_arguments_that_are_not_an_object_can_be_retried(toy: Domain, raw: str) -> None:
    console = _quiet()
    agent = HumanAgent(_setup(toy), ask=_lines(f"/tool find_customer {raw}"), console=console)
    reply = asyncio.run(agent.respond([Message(role="user", content="hi")]))
    assert reply.tool_calls is not None and len(reply.tool_calls) == 1
    call = reply.tool_calls[0]
    assert call.name == "find_customer" and call.raw_arguments == raw
    assert call.parse_error == "arguments must be a JSON object"


def test_a_bare_tool_command_shows_the_usage_and_asks_again(toy: Domain) -> None:
    console = _quiet()
    agent = HumanAgent(_setup(toy), ask=_lines("/tool", "/tool   ", "hello"), console=console)
    reply = asyncio.run(agent.respond([Message(role="user", content="hi")]))
    assert reply.content == "hello" and not reply.tool_calls  # "/tool" never reaches them
    assert isinstance(console.file, io.StringIO)
    assert console.file.getvalue().count(TOOL_USAGE) == 2


# 4. Ctrl-C does not wait for Enter


def test_a_cancelled_prompt_does_not_hold_up_the_end_of_the_run(toy: Domain) -> None:
    """asyncio.run's Ctrl-C handler cancels the run; a read still blocked in the default
    executor would then keep asyncio.run waiting until Enter."""
    enter = threading.Event()

    def ask(prompt: str) -> str:
        enter.wait(30)  # the person never presses Enter
        return "late"

    agent = HumanAgent(_setup(toy), ask=ask, console=_quiet())

    async def run() -> None:
        task = asyncio.create_task(agent.respond([Message(role="user", content="hi")]))
        await asyncio.sleep(0.05)
        task.cancel()  # what Ctrl-C does to the run
        with contextlib.suppress(asyncio.CancelledError):
            await task

    runner = threading.Thread(target=asyncio.run, args=(run(),), daemon=True)
    runner.start()
    runner.join(5)
    ended = not runner.is_alive()
    enter.set()
    assert ended, "asyncio.run waited for the blocked prompt"


# 5. No live bar while a person types


def _progress_hook(config: RunConfig) -> object:
    from tau_emotion.cli.options import RunRequest

    seen: list[object] = []

    def run(config: RunConfig, **kw: Any) -> None:
        seen.append(kw["progress"])

    terminal = Console(file=io.StringIO(), force_terminal=True)
    RunRequest(config, resume=False, retry_errors=False).execute(run, terminal)
    return seen[0]


def test_no_live_progress_bar_redraws_over_a_human_prompt(tmp_path: Path) -> None:
    from tau_emotion.runner.progress import PlainProgress

    human = RunConfig(domains="airline", agent="human", concurrency=1, out=tmp_path / "a")
    assert isinstance(_progress_hook(human), PlainProgress)
    customer = RunConfig(domains="airline", agent="oracle", user="human", out=tmp_path / "b")
    assert isinstance(_progress_hook(customer), PlainProgress)
    machines = RunConfig(domains="airline", agent="oracle", out=tmp_path / "c")
    assert not isinstance(_progress_hook(machines), PlainProgress)  # the bar, on a terminal


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_terminal_the_prompt_is_left_alone_and_ctrl_c_stops_at_once(
    tmp_path: Path,
) -> None:
    import pty

    cmd = [sys.executable, "-m", "tau_emotion.cli.main", "run", "--domain", "airline"]
    cmd += ["--num-tasks", "2", "--agent", "human", "--out", str(tmp_path / "run")]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on the terminal
        os.environ["COLUMNS"] = "120"
        os.execv(sys.executable, cmd)
    output = b""

    def read_for(seconds: float, until: bytes | None = None) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end and (until is None or until not in output):
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    output += os.read(fd, 65536)
                except OSError:  # the child closed the terminal
                    return

    try:
        read_for(90, until=b"agent> ")
        assert b"agent> " in output, output[-2000:]
        start = len(output)
        os.write(fd, b"hel")
        read_for(0.5)  # a live bar redraws ten times a second
        assert b"\x1b[2K" not in output[start:], output[start:]
        os.write(fd, b"\x03")  # Ctrl-C, not followed by Enter
        end = time.monotonic() + 20
        status = 0
        while time.monotonic() < end:
            read_for(0.2)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
        else:
            pytest.fail("Ctrl-C at the prompt did not stop the run")
        assert os.waitstatus_to_exitcode(status) == 130
        assert b"--resume goes on" in output
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
