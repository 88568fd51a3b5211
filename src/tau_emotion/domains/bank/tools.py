"""Write and terminal tools of the bank domain. Every refusal names the rule it applies.

Strong verification before writes is not a tool's business (tools see one call at a time);
the `bank.strong_verification_first` policy check audits it.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

from tau_emotion.domains.bank.db import (
    TODAY,
    Card,
    Dispute,
    DisputeReason,
    FreezeReason,
    LimitType,
    ReplaceReason,
    day,
)
from tau_emotion.domains.bank.rules import (
    CARD_CAPS,
    CARD_YEARS,
    COURTESY_PERIOD_DAYS,
    COURTESY_REVERSALS,
    DISPUTE_WINDOW_DAYS,
    DUPLICATE_WINDOW_DAYS,
    EARLY_RELEASE_MAX,
    EARLY_RELEASE_MIN_ACCOUNT_DAYS,
    EXPEDITE_FEE,
    EXTERNAL_DAILY_LIMIT,
    FEE_REVERSAL_WINDOW_DAYS,
    NEW_PAYEE_DAYS,
    NEW_PAYEE_MAX,
    PROVISIONAL_CREDIT_MAX,
    REVERSIBLE_FEES,
    SAVINGS_MONTHLY_WITHDRAWALS,
    clean_words,
    days_ago,
    month_start,
    today,
)
from tau_emotion.domains.bank.tools_read import BankReadTools
from tau_emotion.domains.common import money, money_text, next_id
from tau_emotion.domains.kit.handoff import CUSTOMER_CARE, CUSTOMER_CARE_DOC
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

OUTGOING = ("internal_transfer_out", "external_transfer_out", "atm_withdrawal")


def _amount(value: float) -> Decimal:
    amount = Decimal(str(value))
    if amount <= 0 or amount != money(amount):
        raise ToolError("the amount must be positive, in dollars and cents, e.g. 250.00")
    return money(amount)


class BankTools(BankReadTools):
    """All tools of Larkspur Bank customer service."""

    # -- cards ---------------------------------------------------------------------------

    def _usable_card(self, customer_id: str, card_id: str) -> Card:
        card = self.card(customer_id, card_id)
        if card.status == "closed":
            raise ToolError(f"card {card_id} is closed")
        if card.status == "shipped":
            raise ToolError(f"card {card_id} is a replacement on its way; it is not in use yet")
        return card

    @tool("write")
    def freeze_card(self, customer_id: str, card_id: str, reason: FreezeReason) -> dict[str, Any]:
        """Freeze a debit card so that no new purchase or withdrawal goes through.

        Args:
            customer_id: The authenticated customer's id.
            card_id: The card to freeze, e.g. 'CRD-60021'.
            reason: 'lost', 'stolen', 'suspected_fraud' or 'customer_request'.
        """
        card = self._usable_card(customer_id, card_id)
        if card.status == "frozen":
            raise ToolError(f"card {card_id} is already frozen ({card.frozen_reason})")
        frozen = card.model_copy(update={"status": "frozen", "frozen_reason": reason})
        self.db.cards[card_id] = frozen
        return self.card_view(frozen)

    @tool("write")
    def unfreeze_card(self, customer_id: str, card_id: str) -> dict[str, Any]:
        """Unfreeze a frozen debit card (not one frozen as stolen or for suspected fraud).

        Args:
            customer_id: The strongly verified customer's id.
            card_id: The frozen card.
        """
        card = self._usable_card(customer_id, card_id)
        if card.status != "frozen":
            raise ToolError(f"card {card_id} is not frozen")
        if card.frozen_reason in ("stolen", "suspected_fraud"):
            raise ToolError(
                f"card {card_id} was frozen as {card.frozen_reason}; it must be replaced, "
                "not unfrozen"
            )
        active = card.model_copy(update={"status": "active", "frozen_reason": None})
        self.db.cards[card_id] = active
        return self.card_view(active)

    @tool("write")
    def replace_card(
        self, customer_id: str, card_id: str, reason: ReplaceReason, expedited: bool = False
    ) -> dict[str, Any]:
        """Close a debit card and mail a replacement with a new number to the mailing address
        on file. Expedited delivery costs a fee for standard-tier customers.

        Args:
            customer_id: The strongly verified customer's id.
            card_id: The card to replace.
            reason: 'lost', 'stolen' or 'damaged'.
            expedited: True for 2-business-day delivery; False for 5 to 7 business days.
        """
        customer = self.customer(customer_id)
        card = self._usable_card(customer_id, card_id)
        account = self.open_account(customer_id, card.account_id)
        fee = money(EXPEDITE_FEE) if expedited and customer.tier == "standard" else money(0)
        if fee and self.available(account) < fee:
            raise ToolError(
                f"the expedite fee of {money_text(fee)} exceeds the available balance; "
                "choose standard delivery"
            )
        new_id = next_id(self.db.cards, "CRD-", 5)
        new = card.model_copy(
            update={
                "card_id": new_id,
                "last4": f"{(int(card.last4) * 7 + 3) % 10000:04d}",
                "status": "shipped",
                "frozen_reason": None,
                "expires": f"{TODAY.year + CARD_YEARS}-{TODAY.month:02d}",
                "replaces": card_id,
                "mailed_to": customer.address.one_line(),
            }
        )
        self.db.cards[card_id] = card.model_copy(update={"status": "closed"})
        self.db.cards[new_id] = new
        if fee:
            self.post(
                account,
                -fee,
                "fee",
                f"Expedited card delivery ({reason})",
                fee_type="card_expedite",
            )
        return {
            **self.card_view(new),
            "old_card_status": "closed",
            "fee_charged": money_text(fee),
            "delivery": "2 business days" if expedited else "5 to 7 business days",
        }

    @tool("write")
    def set_card_limit(
        self, customer_id: str, card_id: str, limit_type: LimitType, amount: float
    ) -> dict[str, Any]:
        """Change a debit card's daily purchase or ATM withdrawal limit, up to the tier cap.

        Args:
            customer_id: The strongly verified customer's id.
            card_id: The card whose limit changes.
            limit_type: 'purchase' or 'atm'.
            amount: The new daily limit in dollars, e.g. 1000.
        """
        customer = self.customer(customer_id)
        card = self._usable_card(customer_id, card_id)
        value = _amount(amount)
        cap = CARD_CAPS[customer.tier][limit_type]
        if value > cap:
            raise ToolError(
                f"the {customer.tier} tier caps the daily {limit_type} limit at {money_text(cap)}"
            )
        field = f"{limit_type}_limit"
        if getattr(card, field) == value:
            raise ToolError(f"the {limit_type} limit is already {money_text(value)}")
        changed = card.model_copy(update={field: value})
        self.db.cards[card_id] = changed
        return self.card_view(changed)

    # -- money ---------------------------------------------------------------------------

    @tool("write")
    def transfer_funds(
        self,
        customer_id: str,
        from_account_id: str,
        amount: float,
        to_account_id: str | None = None,
        payee_id: str | None = None,
    ) -> dict[str, Any]:
        """Move money now: to another of the customer's accounts (to_account_id) or to a
        saved payee at another bank (payee_id). Give exactly one of the two.

        Args:
            customer_id: The strongly verified customer's id.
            from_account_id: The account the money leaves.
            amount: Dollars and cents, e.g. 250.00.
            to_account_id: Another account of the same customer, for an internal transfer.
            payee_id: A saved payee, for an external transfer.
        """
        customer = self.customer(customer_id)
        if (to_account_id is None) == (payee_id is None):
            raise ToolError("give exactly one of to_account_id and payee_id")
        value = _amount(amount)
        source = self.open_account(customer_id, from_account_id)
        if self.available(source) < value:
            raise ToolError(
                f"available balance of {from_account_id} is {money_text(self.available(source))}; "
                "transfers cannot overdraw an account"
            )
        if source.kind == "savings":
            used = sum(
                1
                for t in self.account_transactions(source.account_id)
                if t.kind in OUTGOING and t.posted_on >= month_start()
            )
            if used >= SAVINGS_MONTHLY_WITHDRAWALS:
                raise ToolError(
                    f"savings accounts allow {SAVINGS_MONTHLY_WITHDRAWALS} withdrawals and "
                    "transfers out per calendar month; this month's are used up"
                )
        if to_account_id is not None:
            target = self.open_account(customer_id, to_account_id)
            if target.account_id == source.account_id:
                raise ToolError("the two accounts must differ")
            out = self.post(
                source,
                -value,
                "internal_transfer_out",
                f"Transfer to {target.nickname} {target.number_last4}",
            )
            self.post(
                target,
                value,
                "internal_transfer_in",
                f"Transfer from {source.nickname} {source.number_last4}",
            )
        else:
            payee = self.db.payees.get(payee_id or "")
            if payee is None or payee.customer_id != customer_id:
                raise ToolError(f"customer {customer_id} has no saved payee {payee_id}")
            if payee.added_on > days_ago(NEW_PAYEE_DAYS) and value > NEW_PAYEE_MAX:
                raise ToolError(
                    f"payees added in the last {NEW_PAYEE_DAYS} days can receive at most "
                    f"{money_text(NEW_PAYEE_MAX)} per transfer"
                )
            mine = {a.account_id for a in self.customer_accounts(customer_id)}
            sent = sum(
                (
                    -t.amount
                    for t in self.db.transactions.values()
                    if t.account_id in mine
                    and t.kind == "external_transfer_out"
                    and t.posted_on == today()
                ),
                Decimal(0),
            )
            limit = EXTERNAL_DAILY_LIMIT[customer.tier]
            if sent + value > limit:
                raise ToolError(
                    f"external transfers are limited to {money_text(limit)} a day; "
                    f"{money_text(limit - sent)} is left today"
                )
            out = self.post(
                source,
                -value,
                "external_transfer_out",
                f"Transfer to {payee.name} ({payee.bank_name} {payee.account_last4})",
            )
        return {
            "txn_id": out.txn_id,
            "amount": money_text(value),
            "from_available_balance": money_text(self.available(self.db.accounts[from_account_id])),
        }

    @tool("write")
    def file_dispute(self, customer_id: str, txn_id: str, reason: DisputeReason) -> dict[str, str]:
        """Dispute a debit card purchase. Disputes of 100.00 or less get a provisional credit
        at once; larger ones are credited only if the investigation finds for the customer.

        Args:
            customer_id: The strongly verified customer's id.
            txn_id: The card purchase, from get_account_transactions.
            reason: 'unauthorized', 'duplicate', 'not_received' or 'wrong_amount'.
        """
        txn = self.transaction(customer_id, txn_id)
        if txn.kind != "card_purchase":
            raise ToolError("only debit card purchases can be disputed")
        if txn.posted_on < days_ago(DISPUTE_WINDOW_DAYS):
            raise ToolError(f"purchases can be disputed within {DISPUTE_WINDOW_DAYS} days only")
        if any(d.txn_id == txn_id for d in self.db.disputes.values()):
            raise ToolError(f"transaction {txn_id} is already disputed")
        if reason == "unauthorized":
            card = self.db.cards.get(txn.card_id or "")
            if card is not None and card.status == "active":
                raise ToolError(
                    "freeze or replace the card first: it may still be in someone else's hands"
                )
        if reason == "duplicate" and not self._has_twin(txn_id):
            raise ToolError(
                "no identical charge posted in the 3 days before this one; a duplicate dispute "
                "is filed on the second of two identical charges"
            )
        amount = money(-txn.amount)
        credit = amount if amount <= PROVISIONAL_CREDIT_MAX else money(0)
        dispute_id = next_id(self.db.disputes, "DSP-", 4)
        self.db.disputes[dispute_id] = Dispute(
            dispute_id=dispute_id,
            customer_id=customer_id,
            txn_id=txn_id,
            reason=reason,
            amount=amount,
            status="open",
            provisional_credit=credit,
            opened_on=today(),
        )
        if credit:
            account = self.db.accounts[txn.account_id]
            self.post(account, credit, "dispute_credit", f"Provisional credit, {dispute_id}")
        return {
            "dispute_id": dispute_id,
            "amount": money_text(amount),
            "provisional_credit": money_text(credit),
        }

    def _has_twin(self, txn_id: str) -> bool:
        """Whether an identical charge posted up to 3 days before this one (so this one is
        the second of a pair)."""
        txn = self.db.transactions[txn_id]
        posted = day(txn.posted_on)
        window = timedelta(days=DUPLICATE_WINDOW_DAYS)
        return any(
            t.kind == "card_purchase"
            and t.description == txn.description
            and t.amount == txn.amount
            and (t.posted_on, t.txn_id) < (txn.posted_on, txn.txn_id)
            and posted - day(t.posted_on) <= window
            for t in self.account_transactions(txn.account_id)
        )

    @tool("write")
    def reverse_fee(self, customer_id: str, txn_id: str) -> dict[str, str]:
        """Refund a fee as a courtesy, within the customer's yearly courtesy allowance.

        Args:
            customer_id: The strongly verified customer's id.
            txn_id: The fee transaction, from get_account_transactions.
        """
        customer = self.customer(customer_id)
        fee = self.transaction(customer_id, txn_id)
        if fee.kind != "fee":
            raise ToolError(f"transaction {txn_id} is not a fee")
        if fee.fee_type not in REVERSIBLE_FEES:
            raise ToolError(f"{fee.fee_type} fees are not reversible")
        if fee.posted_on < days_ago(FEE_REVERSAL_WINDOW_DAYS):
            raise ToolError(
                f"only fees from the last {FEE_REVERSAL_WINDOW_DAYS} days can be reversed"
            )
        if any(t.reverses == txn_id for t in self.db.transactions.values()):
            raise ToolError(f"fee {txn_id} was already reversed")
        mine = {a.account_id for a in self.customer_accounts(customer_id)}
        since = days_ago(COURTESY_PERIOD_DAYS)
        used = sum(
            1
            for t in self.db.transactions.values()
            if t.account_id in mine and t.kind == "fee_reversal" and t.posted_on >= since
        )
        allowance = COURTESY_REVERSALS[customer.tier]
        if used >= allowance:
            raise ToolError(
                f"the {customer.tier} tier allows {allowance} fee reversal(s) per 12 months; "
                "none is left"
            )
        account = self.db.accounts[fee.account_id]
        credit = self.post(
            account,
            -fee.amount,
            "fee_reversal",
            f"Fee reversal: {fee.description}",
            reverses=txn_id,
        )
        return {
            "txn_id": credit.txn_id,
            "amount": money_text(credit.amount),
            "new_balance": money_text(self.db.accounts[fee.account_id].balance),
        }

    @tool("write")
    def release_hold(self, customer_id: str, hold_id: str) -> dict[str, Any]:
        """Release a check-deposit hold before its release date, when the customer qualifies.

        Args:
            customer_id: The strongly verified customer's id.
            hold_id: The hold, from get_customer_overview.
        """
        self.customer(customer_id)
        hold = self.db.holds.get(hold_id)
        account = self.db.accounts.get(hold.account_id) if hold else None
        if hold is None or account is None or account.customer_id != customer_id:
            raise ToolError(f"customer {customer_id} has no hold {hold_id}")
        if hold.released_early_on is not None or hold.releases_on <= today():
            raise ToolError(f"hold {hold_id} is no longer active")
        if hold.reason != "check_deposit":
            raise ToolError("card authorization holds are released by the merchant, not the bank")
        if hold.amount > EARLY_RELEASE_MAX:
            raise ToolError(
                f"only holds of {money_text(EARLY_RELEASE_MAX)} or less can be released early"
            )
        if account.opened_on > days_ago(EARLY_RELEASE_MIN_ACCOUNT_DAYS):
            raise ToolError("the account must have been open for at least 12 months")
        mine = {a.account_id for a in self.customer_accounts(customer_id)}
        since = days_ago(COURTESY_PERIOD_DAYS)
        for other in self.db.holds.values():
            if other.account_id in mine and (other.released_early_on or "") >= since:
                raise ToolError(
                    "the customer already had a hold released early in the last 12 months"
                )
        self.db.holds[hold_id] = hold.model_copy(update={"released_early_on": today()})
        return {
            "hold_id": hold_id,
            "released": True,
            "available_balance": money_text(self.available(account)),
        }

    # -- profile and hand-off ------------------------------------------------------------

    @tool("write")
    def update_mailing_address(
        self, customer_id: str, street: str, city: str, state: str, zip_code: str
    ) -> str:
        """Change the customer's mailing address (where replacement cards are sent).

        Args:
            customer_id: The strongly verified customer's id.
            street: Street line, e.g. '41 Alder Street Apt 3'.
            city: City, e.g. 'Harbor City'.
            state: Two-letter state code, e.g. 'OR'.
            zip_code: Five-digit zip code, e.g. '97214'.
        """
        customer = self.customer(customer_id)
        state_code = state.strip().upper()
        if not re.fullmatch(r"\d{5}", zip_code.strip()):
            raise ToolError("the zip code must be five digits")
        if not re.fullmatch(r"[A-Z]{2}", state_code):
            raise ToolError("the state must be a two-letter code, e.g. 'OR'")
        new = customer.address.model_copy(
            update={
                "street": clean_words(street),
                "city": clean_words(city),
                "state": state_code,
                "zip_code": zip_code.strip(),
            }
        )
        if new == customer.address:
            raise ToolError("that is already the address on file")
        self.db.customers[customer_id] = customer.model_copy(update={"address": new})
        return f"mailing address is now {new.one_line()}"

    transfer_to_human_agents = CUSTOMER_CARE.tool(
        CUSTOMER_CARE_DOC, BankReadTools, lambda tools: tools.db.transfers
    )
