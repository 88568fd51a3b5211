"""Model backends behind one protocol: `ChatModel`."""

from tau_emotion.models.base import ChatModel
from tau_emotion.models.scripted import ScriptedModel

__all__ = ["ChatModel", "ScriptedModel"]
