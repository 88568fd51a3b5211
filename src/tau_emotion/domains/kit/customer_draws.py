"""The draws behind a generated customer list whose people hold cards from a numbered block.

Generators that give each customer one or two credit cards and, now and then, a stored-value
method (a gift card, a travel credit) share one id scheme: customer ``i`` owns the three
method slots ``i * 3 + 1`` to ``i * 3 + 3`` and the three card numbers drawn for them. The
draws happen on the generator's own `random.Random`, in the order the generators made them
before this module existed, so their databases stay the same to the byte.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

SLOTS_PER_CUSTOMER = 3
"""Method slots every customer owns: up to two credit cards and one stored-value method."""


@dataclass(frozen=True)
class CardSlot:
    """One payment-method slot of a customer: its id and the last four digits shown."""

    id: str
    last4: str


@dataclass(frozen=True)
class Card:
    """A credit card drawn for a customer: its slot and the brand picked for it."""

    slot: CardSlot
    brand: str


class CustomerDraws:
    """Names, phone endings and card numbers for ``n`` customers, each drawn without repeats."""

    def __init__(
        self,
        rng: random.Random,
        digit: str,
        names: Sequence[tuple[str, str]],
        n: int,
        card_range: tuple[int, int],
    ) -> None:
        if n > len(names):
            raise ValueError(f"cannot draw {n} customers from {len(names)} name pairs")
        self.rng = rng
        self.digit = digit
        self.names: list[tuple[str, str]] = rng.sample(list(names), n)
        self._phones = rng.sample(range(10_000), n)
        self._cards = rng.sample(range(card_range[0], card_range[1] + 1), n * SLOTS_PER_CUSTOMER)

    def slot(self, i: int, k: int) -> CardSlot:
        """Slot ``k`` (0 to 2) of customer ``i``."""
        if not 0 <= k < SLOTS_PER_CUSTOMER:
            raise ValueError(f"slot {k} of customer {i} is outside 0 to {SLOTS_PER_CUSTOMER - 1}")
        at = i * SLOTS_PER_CUSTOMER + k
        return CardSlot(id=f"PM{self.digit}{at + 1:05d}", last4=f"{self._cards[at]:04d}")

    def credit_cards(self, i: int, brands: Sequence[str], one_card_chance: float) -> list[Card]:
        """Customer ``i``'s credit cards: one with ``one_card_chance``, else two, each of a
        brand drawn from ``brands``."""
        count = 1 if self.rng.random() < one_card_chance else 2
        return [Card(self.slot(i, k), self.rng.choice(brands)) for k in range(count)]

    def phone(self, i: int, area_code: str) -> str:
        """Customer ``i``'s phone number: its exchange in the block of ``digit``."""
        return f"{area_code}-{self.digit}{self.rng.randrange(10, 99)}-{self._phones[i]:04d}"
