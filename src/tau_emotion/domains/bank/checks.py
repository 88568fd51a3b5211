"""Policy checks of the bank domain: the rules no single tool call can enforce."""

from __future__ import annotations

from collections.abc import Iterable

from tau_emotion.domains.checks import (
    CallRecord,
    PolicyCheck,
    Trajectory,
    act_as_authenticated,
    result_json,
    session_checks,
    writes_and,
)

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
]
