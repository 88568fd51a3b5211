"""The base of the club's tool classes: typed access to the state through `Queries`."""

from __future__ import annotations

from tau_emotion.domains.basketball.queries import Queries
from tau_emotion.domains.state import State
from tau_emotion.domains.tools import ToolSet


class ClubToolBase(ToolSet):
    """Holds the shared lookups; the tool classes mix in on top of it."""

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.q = Queries(state)
