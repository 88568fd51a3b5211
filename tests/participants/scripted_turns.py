"""Playing the scripted customer turn by turn, as the tests of its reading and its rules do."""

from __future__ import annotations

import asyncio

from tau_emotion.data import Message
from tau_emotion.simulation.users import ScriptedUser


def turn(user: ScriptedUser, history: list[Message], agent_text: str) -> str:
    """The agent says `agent_text`; the customer's reply, both appended to `history`."""
    history.append(Message(role="assistant", content=agent_text))
    reply = asyncio.run(user.respond(history))
    history.append(reply)
    return reply.content or ""


def opened(user: ScriptedUser) -> list[Message]:
    """A history holding the customer's opening message."""
    return [asyncio.run(user.respond([]))]
