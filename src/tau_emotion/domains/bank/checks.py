"""Policy checks of the bank domain.

The tools enforce integrity (records exist and are the customer's, money moved is available,
nothing happens twice). The limits, windows and allowances of policy.md are the agent's to
apply, as a human agent would: the judged checks audit each write on the database as it stood
before it. The others audit what only the conversation shows: who was authenticated and
verified, what the customer agreed to, which transactions the agent looked at.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from tau_emotion.domains.bank.db import Transaction, TxnKind
from tau_emotion.domains.bank.rules import (
    CARD_CAPS,
    COURTESY_PERIOD_DAYS,
    COURTESY_REVERSALS,
    DISPUTE_WINDOW_DAYS,
    EARLY_RELEASE_MAX,
    EARLY_RELEASE_MIN_ACCOUNT_DAYS,
    EXTERNAL_DAILY_LIMIT,
    FEE_REVERSAL_WINDOW_DAYS,
    NEW_PAYEE_DAYS,
    NEW_PAYEE_MAX,
    REVERSIBLE_FEES,
    SAVINGS_MONTHLY_WITHDRAWALS,
    days_ago,
    month_start,
    today,
)
from tau_emotion.domains.bank.tools import BankTools
from tau_emotion.domains.checks import (
    Offer,
    PolicyCheck,
    act_as_authenticated,
    judged,
    session_checks,
    writes_and,
)
from tau_emotion.domains.common import money, money_text
from tau_emotion.domains.trajectory import CallRecord, Trajectory, result_json

AUTH_TOOLS = ("find_customer_by_email", "find_customer_by_phone", "find_customer_by_name_and_zip")
PROTECTED_READS = frozenset(
    {
        "get_customer_overview",
        "get_account_transactions",
        "verify_identity",
        "send_verification_code",
        "verify_one_time_code",
    }
)
NO_STRONG_CHECK = frozenset({"freeze_card"})
"""Freezing stays one step away for a customer whose card is gone."""
NEEDS_TRANSACTION_READ = frozenset({"file_dispute", "reverse_fee"})


def _customer(call: CallRecord) -> str:
    return str(call.call.arguments.get("customer_id", ""))


def _strong_verification(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """Writes other than a card freeze need two matching facts or a one-time code that was
    sent to the phone on file in this conversation."""
    code_sent: set[str] = set()
    verified: set[str] = set()
    for c in t.successful():
        name = c.call.name
        if name == "send_verification_code":
            code_sent.add(_customer(c))
        elif name == "verify_identity" or (
            name == "verify_one_time_code" and _customer(c) in code_sent
        ):
            verified.add(_customer(c))
        elif c.kind == "write" and name not in NO_STRONG_CHECK and _customer(c) not in verified:
            yield f"{name} ran before strong verification of the customer", c.message_index


def _transactions_read_first(t: Trajectory) -> Iterable[tuple[str, int | None]]:
    """A transaction is disputed or reversed only after the agent has looked at it."""
    seen: set[str] = set()
    for c in t.successful():
        if c.call.name == "get_account_transactions":
            rows = result_json(c)
            seen.update(str(r.get("txn_id")) for r in rows or () if isinstance(r, dict))
        elif c.call.name in NEEDS_TRANSACTION_READ:
            txn_id = str(c.call.arguments.get("txn_id", ""))
            if txn_id not in seen:
                yield (
                    f"{c.call.name} on {txn_id} without reading it in get_account_transactions",
                    c.message_index,
                )


# -- judged rules: each judge reads the database as it stood before the write ---------------

OUTGOING = ("internal_transfer_out", "external_transfer_out", "atm_withdrawal")
"""What counts against a savings account's monthly withdrawals."""


def _account_ids(tools: BankTools, customer_id: str) -> set[str]:
    return {a.account_id for a in tools.customer_accounts(customer_id)}


def _customer_transactions(tools: BankTools, customer_id: str, kind: TxnKind) -> list[Transaction]:
    """The customer's transactions of `kind` across all their accounts, in posting order: the
    allowances and daily limits count over them."""
    mine = _account_ids(tools, customer_id)
    return [t for t in tools.db.transactions.values() if t.account_id in mine and t.kind == kind]


def _named_transaction(tools: BankTools, args: Mapping[str, Any]) -> Transaction:
    return tools.transaction(args["customer_id"], args["txn_id"])


def _disputed_as(tools: BankTools, args: Mapping[str, Any], reason: str) -> Transaction | None:
    """The transaction a dispute names when it is disputed for `reason`; None otherwise (the
    reason's own rule does not apply)."""
    return _named_transaction(tools, args) if args["reason"] == reason else None


def _stolen_unfrozen(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    card = tools.card(args["customer_id"], args["card_id"])
    if card.status == "frozen" and card.frozen_reason in ("stolen", "suspected_fraud"):
        return f"{card.card_id} was frozen as {card.frozen_reason}; it must be replaced instead"
    return None


def _replacement(tools: BankTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """A card frozen as stolen is replaced, not unfrozen (policy.md, Cards)."""
    card = tools.card(args["customer_id"], args["card_id"])
    if card.frozen_reason != "stolen":
        return None  # suspected fraud goes to the fraud team's replacement, not this one
    arguments = {"customer_id": args["customer_id"], "card_id": card.card_id, "reason": "stolen"}
    return Offer("replace_card", arguments, "replace the card with a new one instead")


def _over_tier_cap(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    customer = tools.customer(args["customer_id"])
    cap = CARD_CAPS[customer.tier][args["limit_type"]]
    if Decimal(str(args["amount"])) > cap:
        return (
            f"the {customer.tier} tier caps the daily {args['limit_type']} limit at "
            f"{money_text(cap)}"
        )
    return None


def _tier_cap(tools: BankTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """The tier's cap instead of a higher limit, unless the card already has it."""
    cap = CARD_CAPS[tools.customer(args["customer_id"]).tier][args["limit_type"]]
    card = tools.card(args["customer_id"], args["card_id"])
    if getattr(card, f"{args['limit_type']}_limit") == cap:
        return None
    words = "set it to the highest limit my account allows instead"
    return Offer("set_card_limit", {**args, "amount": float(cap)}, words)


def _savings_withdrawals(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    source = tools.account(args["customer_id"], args["from_account_id"])
    if source.kind != "savings":
        return None
    used = sum(
        1
        for t in tools.account_transactions(source.account_id)
        if t.kind in OUTGOING and t.posted_on >= month_start()
    )
    if used >= SAVINGS_MONTHLY_WITHDRAWALS:
        return (
            f"savings account {source.account_id} already made {used} withdrawals and "
            f"transfers out this month; {SAVINGS_MONTHLY_WITHDRAWALS} are allowed"
        )
    return None


def _new_payee_cap(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    if args.get("payee_id") is None:
        return None
    payee = tools.payee(args["customer_id"], args["payee_id"])
    amount = Decimal(str(args["amount"]))
    if payee.added_on > days_ago(NEW_PAYEE_DAYS) and amount > NEW_PAYEE_MAX:
        return (
            f"payee {payee.payee_id} was added on {payee.added_on}; payees added in the last "
            f"{NEW_PAYEE_DAYS} days receive at most {money_text(NEW_PAYEE_MAX)} per transfer"
        )
    return None


def _new_payee_most(tools: BankTools, name: str, args: Mapping[str, Any]) -> Offer | None:
    """The most a new payee may receive, now; the rest once the payee is older."""
    words = "send the most a new payee can receive for now"
    return Offer("transfer_funds", {**args, "amount": float(NEW_PAYEE_MAX)}, words)


def _external_daily_limit(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    if args.get("payee_id") is None:
        return None
    customer = tools.customer(args["customer_id"])
    sent_out = _customer_transactions(tools, customer.customer_id, "external_transfer_out")
    sent = sum((-t.amount for t in sent_out if t.posted_on == today()), Decimal(0))
    limit = EXTERNAL_DAILY_LIMIT[customer.tier]
    if sent + Decimal(str(args["amount"])) > limit:
        return (
            f"external transfers are limited to {money_text(limit)} a day for {customer.tier} "
            f"customers; {money_text(money(limit - sent))} was left today"
        )
    return None


def _dispute_window(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    txn = _named_transaction(tools, args)
    if txn.posted_on < days_ago(DISPUTE_WINDOW_DAYS):
        return f"{txn.txn_id} posted on {txn.posted_on}, over {DISPUTE_WINDOW_DAYS} days ago"
    return None


def _card_still_active(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    txn = _disputed_as(tools, args, "unauthorized")
    card = tools.db.cards.get(txn.card_id or "") if txn is not None else None
    if card is not None and card.status == "active":
        return f"card {card.card_id} was still active when its charge was disputed as unauthorized"
    return None


def _no_twin(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    txn = _disputed_as(tools, args, "duplicate")
    if txn is not None and not tools._has_twin(txn.txn_id):
        return (
            f"no identical charge posted in the 3 days before {txn.txn_id}; a duplicate is "
            "disputed on the second of two identical charges"
        )
    return None


def _unreversible_fee(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    fee = _named_transaction(tools, args)
    if fee.kind != "fee":
        return None  # the tool refuses it
    if fee.fee_type not in REVERSIBLE_FEES:
        return f"{fee.txn_id} is a {fee.fee_type} fee, which is never reversed"
    if fee.posted_on < days_ago(FEE_REVERSAL_WINDOW_DAYS):
        return f"{fee.txn_id} posted on {fee.posted_on}, over {FEE_REVERSAL_WINDOW_DAYS} days ago"
    return None


def _courtesy_used_up(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    customer = tools.customer(args["customer_id"])
    since = days_ago(COURTESY_PERIOD_DAYS)
    reversals = _customer_transactions(tools, customer.customer_id, "fee_reversal")
    used = sum(1 for t in reversals if t.posted_on >= since)
    allowance = COURTESY_REVERSALS[customer.tier]
    if used >= allowance:
        return (
            f"{customer.customer_id} already had {used} fee reversal(s) in 12 months; the "
            f"{customer.tier} tier allows {allowance}"
        )
    return None


def _early_release(tools: BankTools, args: Mapping[str, Any]) -> str | None:
    hold = tools.hold(args["customer_id"], args["hold_id"])
    if hold.reason != "check_deposit":
        return None  # the tool refuses it: the merchant releases those
    account = tools.db.accounts[hold.account_id]
    if hold.amount > EARLY_RELEASE_MAX:
        most = money_text(EARLY_RELEASE_MAX)
        return f"hold {hold.hold_id} is {money_text(hold.amount)}, over {most}"
    if account.opened_on > days_ago(EARLY_RELEASE_MIN_ACCOUNT_DAYS):
        return f"account {account.account_id} opened on {account.opened_on}, under 12 months ago"
    mine = _account_ids(tools, account.customer_id)
    since = days_ago(COURTESY_PERIOD_DAYS)
    for other in tools.db.holds.values():
        if other.account_id in mine and (other.released_early_on or "") >= since:
            return (
                f"hold {other.hold_id} was already released early on {other.released_early_on}, "
                "within 12 months"
            )
    return None


# The limits, windows and allowances of policy.md; the tools carry such writes out.
JUDGED: list[PolicyCheck] = [
    judged(
        "bank.stolen_card_not_unfrozen",
        "Unfreeze only a card frozen as lost or on the customer's request; a card frozen as "
        "stolen or for suspected fraud is replaced instead.",
        ["unfreeze_card"],
        _stolen_unfrozen,
        offer=_replacement,
    ),
    judged(
        "bank.card_limit_tier_cap",
        "Set a daily card limit no higher than the customer's tier cap (standard 3,000.00 "
        "purchases and 500.00 ATM; premier 10,000.00 and 1,500.00).",
        ["set_card_limit"],
        _over_tier_cap,
        offer=_tier_cap,
    ),
    judged(
        "bank.savings_monthly_withdrawals",
        "A savings account makes at most 6 withdrawals and transfers out per calendar month.",
        ["transfer_funds"],
        _savings_withdrawals,
    ),
    judged(
        "bank.new_payee_cap",
        "A payee added in the last 3 days receives at most 500.00 per transfer.",
        ["transfer_funds"],
        _new_payee_cap,
        offer=_new_payee_most,
    ),
    judged(
        "bank.external_daily_limit",
        "External transfers total at most 2,500.00 a day for standard customers and 10,000.00 "
        "for premier customers.",
        ["transfer_funds"],
        _external_daily_limit,
    ),
    judged(
        "bank.dispute_window",
        "Dispute only purchases posted within the last 60 days.",
        ["file_dispute"],
        _dispute_window,
    ),
    judged(
        "bank.unauthorized_card_secured_first",
        "Freeze or replace the card before disputing a charge on it as unauthorized.",
        ["file_dispute"],
        _card_still_active,
    ),
    judged(
        "bank.duplicate_second_charge",
        "Dispute a charge as a duplicate only when an identical charge posted within the 3 "
        "days before it.",
        ["file_dispute"],
        _no_twin,
    ),
    judged(
        "bank.reversible_fees_only",
        "Reverse only overdraft, monthly maintenance and out-of-network ATM fees posted in the "
        "last 90 days.",
        ["reverse_fee"],
        _unreversible_fee,
    ),
    judged(
        "bank.courtesy_allowance",
        "Reverse at most 1 fee per 12 months for a standard customer, 3 for a premier one.",
        ["reverse_fee"],
        _courtesy_used_up,
    ),
    judged(
        "bank.early_release_eligibility",
        "Release a check-deposit hold early only when it is 2,000.00 or less, the account has "
        "been open 12 months, and no hold of the customer's was released early in 12 months.",
        ["release_hold"],
        _early_release,
    ),
]

CHECKS: list[PolicyCheck] = [
    *session_checks("bank", AUTH_TOOLS, writes_and(PROTECTED_READS)),
    act_as_authenticated(
        "bank.authenticated_customer_only",
        "Act only on the customer an identity lookup returned.",
        AUTH_TOOLS,
        "customer_id",
    ),
    PolicyCheck(
        "bank.strong_verification_first",
        "Verify with two facts or a one-time code before any change except a card freeze.",
        _strong_verification,
        hard=True,
    ),
    PolicyCheck(
        "bank.transactions_read_first",
        "Read a transaction with get_account_transactions before disputing or reversing it.",
        _transactions_read_first,
    ),
    *JUDGED,
]
