"""`transfer_to_human_agents`, once: the desk that writes a hand-off record, and the records.

Every domain ends a conversation the same way: check the summary if the domain asks for one,
number the hand-off from the state (so a gold replay and an agent get the same id), write one
record and tell the agent who takes over. What differs between domains is data, so it is
declared, not written again: the id prefix and width, the record, the reply, and the
docstring of the tool (`HandOffDesk.tool` declares the tool from it).

The records keep the field names each domain's snapshots and shipped task hashes were made
with (`id` or `transfer_id`, with a queue or a time stamp for some); all of them are a
`HandOff`, so the agent's summary never reaches the graded state.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from tau_emotion.domains.common import HandOff, Transfer, next_id
from tau_emotion.domains.kit.declare import ToolDoc, declare
from tau_emotion.errors import ToolError

__all__ = [
    "CUSTOMER_CARE",
    "CUSTOMER_CARE_DOC",
    "HandOffDesk",
    "QueuedTicketTransfer",
    "StampedTicketTransfer",
    "StampedTransfer",
    "TicketTransfer",
    "Transfer",
    "stamped_desk",
    "summary_ticket",
    "summary_transfer",
]


class TicketTransfer(HandOff):
    """A hand-off keyed by `transfer_id`."""

    transfer_id: str


class QueuedTicketTransfer(TicketTransfer):
    """A hand-off keyed by `transfer_id`, routed to a named queue of human agents."""

    queue: str


class StampedTicketTransfer(TicketTransfer):
    """A hand-off keyed by `transfer_id`, with the domain time it was made."""

    created_at: str


class StampedTransfer(Transfer):
    """A hand-off keyed by `id`, with the domain time it was made."""

    created_at: str


def summary_transfer(key: str, summary: str) -> Transfer:
    """A `Transfer` that keeps the summary for readers of the episode (never the hash)."""
    return Transfer(id=key, summary=summary)


def summary_ticket(key: str, summary: str) -> TicketTransfer:
    """A `TicketTransfer` that keeps the summary the same way."""
    return TicketTransfer(transfer_id=key, summary=summary)


T = TypeVar("T", bound=HandOff)
S = TypeVar("S")


@dataclass(frozen=True)
class HandOffDesk(Generic[T]):
    """How one domain hands a conversation over: the body of its `transfer_to_human_agents`."""

    prefix: str
    """Id prefix, e.g. 'TR-'; a split domain's lead digit is added per call."""
    record: Callable[[str, str], T]
    """The record for a new id and the agent's summary."""
    reply: str
    """What the agent reads; may name the new id as '{id}' and the summary as '{summary}'."""
    width: int = 4
    floor: int = 0
    blank: str | None = None
    """The refusal of an empty summary, for domains that want one written; None takes any."""

    def hand_off(self, table: MutableMapping[str, T], summary: str, *, lead: str = "") -> str:
        if self.blank is not None and not summary.strip():
            raise ToolError(self.blank)
        key = next_id(table, self.prefix + lead, self.width, floor=self.floor)
        table[key] = self.record(key, summary)
        return self.reply.format(id=key, summary=summary)

    def tool(
        self,
        doc: ToolDoc,
        on: type[S],
        transfers: Callable[[S], MutableMapping[str, T]],
        lead: Callable[[S], str] | None = None,
    ) -> Callable[..., str]:
        """The domain's `transfer_to_human_agents(summary)` tool, described by `doc`.

        `transfers` reads the hand-off table from the domain's tool set (`on`, the class the
        readers are typed against); `lead`, in a split domain, the database's lead digit.
        """

        def run(tools: S, summary: str) -> str:
            return self.hand_off(transfers(tools), summary, lead=lead(tools) if lead else "")

        return declare("terminal", doc, ["summary"], run)


CUSTOMER_CARE: HandOffDesk[QueuedTicketTransfer] = HandOffDesk(
    prefix="TR-",
    record=lambda key, _summary: QueuedTicketTransfer(transfer_id=key, queue="customer_care"),
    reply="Transfer {id} created; a human agent will take over.",
)
"""The desk of the domains whose hand-offs all go to one customer-care queue (bank, movie)."""

CUSTOMER_CARE_DOC = ToolDoc(
    name="transfer_to_human_agents",
    description=(
        "Hand the conversation to a human agent, with a short summary of the customer's "
        "problem. Use it only when the policy says so; it ends the conversation."
    ),
    args={"summary": "What the customer needs and what has been done so far."},
)
"""What the agent reads of the customer-care hand-off, the same in the domains that use it."""


def stamped_desk(stamp: str) -> HandOffDesk[StampedTransfer]:
    """The desk of the domains that ask for a summary and stamp each hand-off with the
    domain's fixed 'now' (restaurant, travel)."""
    return HandOffDesk(
        prefix="TR",
        record=lambda key, _summary: StampedTransfer(id=key, created_at=stamp),
        reply="Transfer {id} created; a human agent will take over the conversation.",
        blank="give a short summary for the human agent",
    )
