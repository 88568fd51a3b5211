"""Payments and refunds on a profile that holds credit cards and one stored-value kind.

Restaurant guests (gift cards) and travel customers (travel credit) pay by credit card, which
the back office does not limit, or by a stored-value method whose balance must cover a
payment in full and takes a refund back. Both domains wrote that rule out the same way; it is
written here once. Each domain keeps its own kind and the wording of its refusals, which the
agent reads and the shipped tasks replay to the letter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol, Self, TypeVar

from tau_emotion.domains.common import StoredValue, add_to_balance
from tau_emotion.errors import ToolError

__all__ = ["Payment", "StoredValueRule"]


class _Method(StoredValue, Protocol):
    """A payment method as the refusal shows it: the stored-value fields and its last digits."""

    @property
    def last4(self) -> str: ...


class _Holder(Protocol):
    """A customer record with its payment methods, copied rather than changed in place."""

    @property
    def payment_methods(self) -> tuple[_Method, ...]: ...
    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


H = TypeVar("H", bound=_Holder)

Payment = Callable[[H, str, Decimal], H]
"""`charge` or `credit` as a domain names it for its own customer record:
(customer, payment method id, amount) -> the changed customer."""


@dataclass(frozen=True)
class StoredValueRule:
    """One domain's stored-value kind and how it refuses a payment."""

    kind: str
    """The payment-method kind that keeps a balance, e.g. 'gift_card'."""
    unknown: str
    """The refusal of a method id not on the profile; '{id}' names it."""
    short: str
    """The refusal of a payment the balance does not cover; '{last4}', '{balance}' and
    '{amount}' stand for the method's last digits, what is left on it and what was asked."""

    def credit(self, holder: H, method_id: str, amount: Decimal) -> H:
        """Pay money back: the stored-value method gets it on its balance; a credit card
        needs no change here (the refund goes to the card outside the back office)."""
        methods = add_to_balance(holder.payment_methods, method_id, self.kind, amount)
        return holder.model_copy(update={"payment_methods": methods})

    def charge(self, holder: H, method_id: str, amount: Decimal) -> H:
        """Take a payment: the stored-value method must cover it in full; credit cards are
        not limited, and a payment of nothing leaves the profile as it is."""
        method = next((p for p in holder.payment_methods if p.id == method_id), None)
        if method is None:
            raise ToolError(self.unknown.format(id=method_id))
        if method.kind != self.kind or amount <= 0:
            return holder
        balance = method.balance or Decimal(0)
        if balance < amount:
            raise ToolError(self.short.format(last4=method.last4, balance=balance, amount=amount))
        return self.credit(holder, method_id, -amount)
