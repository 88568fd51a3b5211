"""Simulated users behind one interface (`tau_emotion.simulation.participants.User`)."""

from tau_emotion.simulation.users.llm import LLMUser
from tau_emotion.simulation.users.scripted import ScriptedUser

__all__ = ["LLMUser", "ScriptedUser"]
