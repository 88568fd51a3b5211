"""Write and terminal tools of the bank domain.

The tools enforce integrity only: the records exist and are the customer's, a closed card or
a fraud-frozen account cannot act, money moved must be available, a state cannot be entered
twice. The limits, windows and allowances of policy.md are the agent's to apply; the judged
checks in `checks.py` audit them, as `bank.strong_verification_first` audits verification.
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
    CARD_YEARS,
    DUPLICATE_WINDOW_DAYS,
    EXPEDITE_FEE,
    PROVISIONAL_CREDIT_MAX,
    clean_words,
    today,
)
from tau_emotion.domains.bank.tools_read import BankReadTools
from tau_emotion.domains.common import money, money_text, next_id, whole_cents
from tau_emotion.domains.kit.handoff import CUSTOMER_CARE, CUSTOMER_CARE_DOC
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


def _amount(value: float) -> Decimal:
    amount = whole_cents(value)
    if amount is None or amount <= 0:
        raise ToolError("the amount must be positive, in dollars and cents, e.g. 250.00")
    return amount


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
        """Unfreeze a frozen debit card. The policy says which freezes may be lifted.

        Args:
            customer_id: The strongly verified customer's id.
            card_id: The frozen card.
        """
        card = self._usable_card(customer_id, card_id)
        if card.status != "frozen":
            raise ToolError(f"card {card_id} is not frozen")
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
        """Change a debit card's daily purchase or ATM withdrawal limit. The policy sets the
        highest limit each tier may have.

        Args:
            customer_id: The strongly verified customer's id.
            card_id: The card whose limit changes.
            limit_type: 'purchase' or 'atm'.
            amount: The new daily limit in dollars, e.g. 1000.
        """
        card = self._usable_card(customer_id, card_id)
        value = _amount(amount)
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
        saved payee at another bank (payee_id). Give exactly one of the two. The policy sets
        the transfer limits.

        Args:
            customer_id: The strongly verified customer's id.
            from_account_id: The account the money leaves.
            amount: Dollars and cents, e.g. 250.00.
            to_account_id: Another account of the same customer, for an internal transfer.
            payee_id: A saved payee, for an external transfer.
        """
        self.customer(customer_id)
        if (to_account_id is None) == (payee_id is None):
            raise ToolError("give exactly one of to_account_id and payee_id")
        value = _amount(amount)
        source = self.open_account(customer_id, from_account_id)
        if self.available(source) < value:
            raise ToolError(
                f"available balance of {from_account_id} is {money_text(self.available(source))}; "
                "transfers cannot overdraw an account"
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
            payee = self.payee(customer_id, payee_id or "")
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
        The policy says which purchases may be disputed, and for which reason.

        Args:
            customer_id: The strongly verified customer's id.
            txn_id: The card purchase, from get_account_transactions.
            reason: 'unauthorized', 'duplicate', 'not_received' or 'wrong_amount'.
        """
        txn = self.transaction(customer_id, txn_id)
        if txn.kind != "card_purchase":
            raise ToolError("only debit card purchases can be disputed")
        if any(d.txn_id == txn_id for d in self.db.disputes.values()):
            raise ToolError(f"transaction {txn_id} is already disputed")
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
        """Refund a fee as a courtesy. The policy says which fees may be reversed and how
        many reversals a customer's tier allows in 12 months.

        Args:
            customer_id: The strongly verified customer's id.
            txn_id: The fee transaction, from get_account_transactions.
        """
        fee = self.transaction(customer_id, txn_id)
        if fee.kind != "fee":
            raise ToolError(f"transaction {txn_id} is not a fee")
        if any(t.reverses == txn_id for t in self.db.transactions.values()):
            raise ToolError(f"fee {txn_id} was already reversed")
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
        """Release a check-deposit hold before its release date. The policy says which holds
        qualify.

        Args:
            customer_id: The strongly verified customer's id.
            hold_id: The hold, from get_customer_overview.
        """
        hold = self.hold(customer_id, hold_id)
        account = self.db.accounts[hold.account_id]
        if hold.released_early_on is not None or hold.releases_on <= today():
            raise ToolError(f"hold {hold_id} is no longer active")
        if hold.reason != "check_deposit":
            raise ToolError("card authorization holds are released by the merchant, not the bank")
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
        street_line, city_name = clean_words(street), clean_words(city)
        # Replacement cards are mailed here: an address without a street or city reaches no one.
        if not street_line or not city_name:
            raise ToolError("the address needs a street and a city")
        state_code = state.strip().upper()
        if not re.fullmatch(r"\d{5}", zip_code.strip()):
            raise ToolError("the zip code must be five digits")
        if not re.fullmatch(r"[A-Z]{2}", state_code):
            raise ToolError("the state must be a two-letter code, e.g. 'OR'")
        new = customer.address.model_copy(
            update={
                "street": street_line,
                "city": city_name,
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
