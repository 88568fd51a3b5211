"""Back-office helpers the bank tools share: lookups that check ownership, available
balances, posting transactions, and deterministic ids for new records."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, TypeVar

from tau_emotion.domains.bank.db import (
    Account,
    BankDB,
    Card,
    Customer,
    FeeType,
    Hold,
    Payee,
    Transaction,
    TxnKind,
    transaction_record,
)
from tau_emotion.domains.bank.rules import today
from tau_emotion.domains.common import money, money_text, next_id, require
from tau_emotion.domains.kit.ownership import owned_record
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.state import Record
from tau_emotion.errors import ToolError

R = TypeVar("R", bound=Record)


def _holder(record: Account | Card | Payee) -> str:
    return record.customer_id


class BankOffice(DatabaseTools[BankDB]):
    """Base of `BankTools`: tables and helpers, no tools."""

    # -- lookups: one refusal text whether the record is missing or someone else's, so a
    # probe cannot learn other customers' ids.

    def customer(self, customer_id: str) -> Customer:
        return require(self.db.customers, customer_id, f"no customer with id {customer_id}")

    def _owned(
        self,
        customer_id: str,
        table: Mapping[str, R],
        key: str,
        owner: Callable[[R], str],
        what: str,
    ) -> R:
        """`table[key]` when `owner` of it is the customer, once the customer exists."""
        self.customer(customer_id)
        refusal = f"customer {customer_id} has no {what} {key}"
        return owned_record(table, key, owner, customer_id, refusal)

    def _account_owner(self, record: Transaction | Hold) -> str:
        """Transactions and holds belong to whoever owns their account ("" when none does)."""
        account = self.db.accounts.get(record.account_id)
        return account.customer_id if account is not None else ""

    def account(self, customer_id: str, account_id: str) -> Account:
        return self._owned(customer_id, self.db.accounts, account_id, _holder, "account")

    def open_account(self, customer_id: str, account_id: str) -> Account:
        record = self.account(customer_id, account_id)
        if record.status != "open":
            raise ToolError(
                f"account {account_id} is frozen by the fraud team; only a human agent can help"
            )
        return record

    def card(self, customer_id: str, card_id: str) -> Card:
        return self._owned(customer_id, self.db.cards, card_id, _holder, "card")

    def transaction(self, customer_id: str, txn_id: str) -> Transaction:
        table = self.db.transactions
        return self._owned(customer_id, table, txn_id, self._account_owner, "transaction")

    def payee(self, customer_id: str, payee_id: str) -> Payee:
        return self._owned(customer_id, self.db.payees, payee_id, _holder, "saved payee")

    def hold(self, customer_id: str, hold_id: str) -> Hold:
        return self._owned(customer_id, self.db.holds, hold_id, self._account_owner, "hold")

    def customer_accounts(self, customer_id: str) -> list[Account]:
        return [a for a in self.db.accounts.values() if a.customer_id == customer_id]

    def account_transactions(self, account_id: str) -> list[Transaction]:
        return [t for t in self.db.transactions.values() if t.account_id == account_id]

    # -- balances ------------------------------------------------------------------------

    def active_holds(self, account_id: str) -> list[Hold]:
        return [
            h
            for h in self.db.holds.values()
            if h.account_id == account_id
            and h.released_early_on is None
            and h.releases_on > today()
        ]

    def available(self, account: Account) -> Decimal:
        held = sum((h.amount for h in self.active_holds(account.account_id)), Decimal(0))
        return money(account.balance - held)

    def post(
        self,
        account: Account,
        amount: Decimal,
        kind: TxnKind,
        description: str,
        *,
        fee_type: FeeType | None = None,
        reverses: str | None = None,
    ) -> Transaction:
        """Post a transaction dated today and move the account balance with it."""
        account = self.db.accounts[account.account_id]  # re-read: an earlier post may have moved it
        txn_id = next_id(self.db.transactions, "TXN-", 6)
        txn = transaction_record(
            txn_id,
            account.account_id,
            today(),
            money(amount),
            kind,
            description,
            fee_type=fee_type,
            reverses=reverses,
        )
        self.db.transactions[txn_id] = txn
        balance = money(account.balance + amount)
        self.db.accounts[account.account_id] = account.model_copy(update={"balance": balance})
        return txn

    # -- views ---------------------------------------------------------------------------

    def account_view(self, account: Account) -> dict[str, Any]:
        return {
            "account_id": account.account_id,
            "kind": account.kind,
            "nickname": account.nickname,
            "number_last4": account.number_last4,
            "status": account.status,
            "balance": money_text(account.balance),
            "available_balance": money_text(self.available(account)),
            "opened_on": account.opened_on,
            "holds": [
                {
                    "hold_id": h.hold_id,
                    "amount": money_text(h.amount),
                    "reason": h.reason,
                    "description": h.description,
                    "placed_on": h.placed_on,
                    "releases_on": h.releases_on,
                }
                for h in self.active_holds(account.account_id)
            ],
        }

    def card_view(self, card: Card) -> dict[str, Any]:
        return {
            "card_id": card.card_id,
            "last4": card.last4,
            "account_id": card.account_id,
            "status": card.status,
            "frozen_reason": card.frozen_reason,
            "purchase_limit": money_text(card.purchase_limit),
            "atm_limit": money_text(card.atm_limit),
            "expires": card.expires,
            "replaces": card.replaces,
            "mailed_to": card.mailed_to,
        }

    def txn_view(self, txn: Transaction) -> dict[str, Any]:
        return {
            "txn_id": txn.txn_id,
            "posted_on": txn.posted_on,
            "amount": money_text(txn.amount),
            "kind": txn.kind,
            "description": txn.description,
            "card_id": txn.card_id,
            "fee_type": txn.fee_type,
            "reverses": txn.reverses,
        }
