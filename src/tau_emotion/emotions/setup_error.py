"""The error a mapper that cannot be built raises, in a module of its own: the settings that
build a mapper and the mapper that checks its parts both raise it, and neither may import
the other at module level (settings would import numpy; the mapper would close a cycle)."""

from __future__ import annotations

from tau_emotion.errors import TauEmotionError


class MapperSetupError(TauEmotionError):
    """The settings name an embedder, anchors or classifier that cannot be used; the message
    names the setting and the file."""
