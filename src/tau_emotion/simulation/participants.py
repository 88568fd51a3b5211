"""What an agent and a simulated user are, as far as the episode loop is concerned."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tau_emotion.data import Message, Task
from tau_emotion.domains import Domain


@dataclass(frozen=True)
class EpisodeSetup:
    """What a participant factory gets to build the participants of one episode."""

    task: Task
    domain: Domain
    seed: int
    trial: int

    @property
    def tool_schemas(self) -> list[dict[str, Any]]:
        return self.domain.tool_schemas()


class Agent(Protocol):
    """The customer-service agent under test."""

    def system_prompt(self) -> str:
        """The system message that opens the conversation (policy and instructions)."""
        ...

    async def respond(self, messages: Sequence[Message]) -> Message:
        """The next assistant message: text for the user, or tool calls."""
        ...


class User(Protocol):
    """The simulated customer. It sees only system, user and assistant text messages."""

    async def respond(self, messages: Sequence[Message]) -> Message:
        """The next user message; the first call gets a conversation with no user turn."""
        ...


def visible_to_user(messages: Sequence[Message]) -> list[Message]:
    """The conversation as the customer sees it: texts only, no tool traffic, no system."""
    return [m for m in messages if m.role == "user" or (m.role == "assistant" and m.content)]
