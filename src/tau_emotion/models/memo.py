"""A value derived from a message, computed once per message object and dropped with it.

A conversation grows by appending: every request resends all earlier messages, so anything
derived from a message (its wire JSON, its cache-key text) is worth computing once. Messages
are frozen, so the value cannot go stale; it is keyed by identity (``Message`` holds lists, so
it is not hashable) and a weak reference removes the entry when the message is collected,
before its id can be reused.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from tau_emotion.data import Message

T = TypeVar("T")
K = TypeVar("K")


class MessageMemo(Generic[T]):
    """``memo(message)`` is ``compute(message)``, computed on the first call only."""

    def __init__(self, compute: Callable[[Message], T]) -> None:
        self._compute = compute
        self._values: dict[int, T] = {}
        self._refs: dict[int, weakref.ref[Message]] = {}

    def __call__(self, message: Message) -> T:
        key = id(message)
        try:
            return self._values[key]
        except KeyError:
            pass
        value = self._compute(message)
        self._values[key] = value
        self._refs[key] = weakref.ref(message, self._dropper(key))
        return value

    def _dropper(self, key: int) -> Callable[[weakref.ref[Message]], None]:
        def drop(_: weakref.ref[Message]) -> None:
            self._values.pop(key, None)
            self._refs.pop(key, None)

        return drop

    def __len__(self) -> int:
        return len(self._values)


class RecentByIdentity(Generic[K, T]):
    """``cache(obj)`` is ``compute(obj)`` for the last `size` objects seen, matched by identity.

    For values that are neither hashable nor weakly referenceable (a list of tool schemas):
    each entry holds its object, so an id cannot be reused while the entry lives. The object
    must not change while it is in use; tool schemas are built once per episode and are not.
    """

    def __init__(self, compute: Callable[[K], T], size: int = 1024) -> None:
        self._compute = compute
        self._size = size
        self._entries: dict[int, tuple[K, T]] = {}

    def __call__(self, obj: K) -> T:
        key = id(obj)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is obj:
            return entry[1]
        value = self._compute(obj)
        if len(self._entries) >= self._size:
            del self._entries[next(iter(self._entries))]  # the oldest: dicts keep order
        self._entries[key] = (obj, value)
        return value
