"""The hand-off desk of the split domains that keep the agent's summary (basketball, school).

Both number their hand-offs 'TR' plus the database's lead digit (the lead is passed per call,
see `HandOffDesk.tool`), at their id width, and write a plain `Transfer` that keeps the summary
for readers of the episode. Only what the agent reads back differs, so that reply and the width
are the arguments; the desk is `kit.handoff.HandOffDesk`, like `stamped_desk` for the domains
that stamp their hand-offs.
"""

from __future__ import annotations

from tau_emotion.domains.kit.handoff import HandOffDesk, Transfer, summary_transfer

__all__ = ["summary_desk"]


def summary_desk(reply: str, width: int) -> HandOffDesk[Transfer]:
    """A desk writing `Transfer(id='TR<lead><n>', summary=...)` and answering `reply`, which may
    name the new id as '{id}'."""
    return HandOffDesk(prefix="TR", record=summary_transfer, reply=reply, width=width)
