"""Records several domains share the shape of.

Field order matters beyond the snapshot (which sorts keys): tools show records as their JSON,
field by field, so a subclass of `Person` lists these fields first, as the domains always did.
"""

from __future__ import annotations

from tau_emotion.domains.state import Record

__all__ = ["Person"]


class Person(Record):
    """A customer keyed by `id`, with the contact details identity lookups match against."""

    id: str
    first_name: str
    last_name: str
    email: str
    phone: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"
