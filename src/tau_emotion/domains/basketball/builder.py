"""The builder the club's generators share: the two series (train, eval) and the tables
being written. `generate.py` adds customers, the league and passes; `history.py` the orders."""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from tau_emotion.domains.basketball.db import BasketballDB, Flow, PaymentMethod, transaction
from tau_emotion.domains.basketball.pools import EVAL_POOLS, TRAIN_POOLS
from tau_emotion.domains.basketball.rules import ID_WIDTH
from tau_emotion.domains.common import PeoplePools
from tau_emotion.domains.kit.generation import GeneratorRun


@dataclass(frozen=True)
class Variant:
    name: str
    seed: int
    lead: str
    pools: PeoplePools
    card_parity: int
    """Last digit parity of every card number (0 train, 1 eval)."""


TRAIN = Variant("train", 2202, "1", TRAIN_POOLS, card_parity=0)
EVAL = Variant("eval", 6606, "5", EVAL_POOLS, card_parity=1)


class Builder(GeneratorRun[BasketballDB]):
    """Accumulates tables while generating; `history.py` adds the orders."""

    def __init__(self, v: Variant) -> None:
        super().__init__(BasketballDB, random.Random(v.seed), v.pools, v.lead, ID_WIDTH)
        self.v = v

    def card_digits(self) -> str:
        """Even last digit in train, odd in eval: no card number occurs in both databases."""
        return self.unique(lambda: f"{self.rng.randint(0, 4999) * 2 + self.v.card_parity:04d}")

    def charge(
        self, customer_id: str, method_id: str, kind: Flow, amount: Decimal, ref: str, day: str
    ) -> None:
        tid = self.new_id("TX", self.db.transactions)
        self.db.transactions[tid] = transaction(tid, customer_id, method_id, kind, amount, ref, day)

    def methods_of(self, customer_id: str) -> list[PaymentMethod]:
        return [m for m in self.db.payment_methods.values() if m.customer_id == customer_id]
