"""Records of the Larkspur Bank back office: customers, accounts, holds, debit cards,
transactions, saved payees, disputes and hand-offs.

Money is the kit's `Money` (a `Decimal` rounded to cents, written '12.50'): balances and
credits must be exact, and a snapshot re-parsed from JSON must hash the same as the
generator's output.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from tau_emotion.domains.common import Money
from tau_emotion.domains.kit.handoff import QueuedTicketTransfer
from tau_emotion.domains.state import DomainDB, Record

Transfer = QueuedTicketTransfer
"""A hand-off to a human agent (not a money transfer: those are transactions); see `kit.handoff`."""

NOW = datetime(2025, 9, 10, 11, 0)
"""The fixed 'current time' of the domain (also stated in policy.md)."""
TODAY = NOW.date()

Tier = Literal["standard", "premier"]
AccountKind = Literal["checking", "savings"]
CardStatus = Literal["active", "frozen", "closed", "shipped"]
FreezeReason = Literal["lost", "stolen", "suspected_fraud", "customer_request"]
ReplaceReason = Literal["lost", "stolen", "damaged"]
DisputeReason = Literal["unauthorized", "duplicate", "not_received", "wrong_amount"]
LimitType = Literal["purchase", "atm"]
TxnKind = Literal[
    "deposit",
    "check_deposit",
    "card_purchase",
    "atm_withdrawal",
    "internal_transfer_in",
    "internal_transfer_out",
    "external_transfer_out",
    "fee",
    "fee_reversal",
    "dispute_credit",
    "interest",
]
FeeType = Literal[
    "overdraft",
    "monthly_maintenance",
    "atm_out_of_network",
    "wire",
    "foreign_transaction",
    "card_expedite",
]


def day(text: str) -> date:
    return date.fromisoformat(text)


class Address(Record):
    street: str
    city: str
    state: str
    zip_code: str

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip_code}"


class Customer(Record):
    customer_id: str
    full_name: str
    email: str
    phone: str
    date_of_birth: str
    ssn_last4: str
    address: Address
    tier: Tier
    customer_since: str
    one_time_code: str
    """The code the next text message to the phone on file carries (never shown to agents)."""


class Account(Record):
    account_id: str
    customer_id: str
    kind: AccountKind
    nickname: str
    number_last4: str
    balance: Money
    status: Literal["open", "frozen"]
    """'frozen': locked by the fraud team; only a human agent can help."""
    opened_on: str


class Hold(Record):
    hold_id: str
    account_id: str
    amount: Money
    reason: Literal["check_deposit", "card_authorization"]
    description: str
    placed_on: str
    releases_on: str
    released_early_on: str | None
    """The day staff released the hold before its release date, if they did."""


class Card(Record):
    card_id: str
    customer_id: str
    account_id: str
    last4: str
    status: CardStatus
    frozen_reason: FreezeReason | None
    purchase_limit: Money
    """Daily card purchase limit."""
    atm_limit: Money
    """Daily ATM withdrawal limit."""
    expires: str
    """'YYYY-MM'."""
    replaces: str | None
    mailed_to: str | None
    """Where a replacement card was sent."""


class Transaction(Record):
    txn_id: str
    account_id: str
    posted_on: str
    amount: Money
    """Positive adds to the balance, negative takes from it."""
    kind: TxnKind
    description: str
    card_id: str | None
    fee_type: FeeType | None
    reverses: str | None
    """For fee reversals: the fee transaction reversed."""


def transaction_record(
    txn_id: str,
    account_id: str,
    on: str,
    amount: Decimal,
    kind: TxnKind,
    text: str,
    *,
    card_id: str | None = None,
    fee_type: FeeType | None = None,
    reverses: str | None = None,
) -> Transaction:
    """One posted transaction, as the tools post it and the generated history does."""
    return Transaction(
        txn_id=txn_id,
        account_id=account_id,
        posted_on=on,
        amount=amount,
        kind=kind,
        description=text,
        card_id=card_id,
        fee_type=fee_type,
        reverses=reverses,
    )


class Payee(Record):
    payee_id: str
    customer_id: str
    name: str
    bank_name: str
    account_last4: str
    added_on: str


class Dispute(Record):
    dispute_id: str
    customer_id: str
    txn_id: str
    reason: DisputeReason
    amount: Money
    status: Literal["open", "resolved_for_customer", "resolved_for_merchant"]
    provisional_credit: Money
    opened_on: str


class BankDB(DomainDB):
    customers: MutableMapping[str, Customer]
    accounts: MutableMapping[str, Account]
    holds: MutableMapping[str, Hold]
    cards: MutableMapping[str, Card]
    transactions: MutableMapping[str, Transaction]
    payees: MutableMapping[str, Payee]
    disputes: MutableMapping[str, Dispute]
    transfers: MutableMapping[str, Transfer]
