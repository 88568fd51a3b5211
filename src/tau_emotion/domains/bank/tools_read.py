"""Read tools of the bank domain: identity lookups, strong verification, account views."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.bank.db import Customer
from tau_emotion.domains.bank.rules import COURTESY_PERIOD_DAYS, days_ago
from tau_emotion.domains.bank.tools_base import BankOffice
from tau_emotion.domains.common import money_text
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, all_digits, zip_code
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

PEOPLE: Lookups[BankOffice, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.customer_id, "full_name": c.full_name},
        missing="no customer with that {what}",
        phone=PhoneRule(all_digits),
    ),
    people=lambda tools: tools.db.customers.values(),
)


class BankReadTools(BankOffice):
    """Lookups and verification: nothing here changes the database."""

    find_customer_by_email = PEOPLE.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = PEOPLE.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_and_zip = PEOPLE.full_name_and(
        DOCS["find_customer_by_name_and_zip"],
        zip_code(lambda c: c.address.zip_code),
        refusal="no customer matches that name and zip code",
    )

    @tool("read")
    def verify_identity(self, customer_id: str, date_of_birth: str, ssn_last4: str) -> str:
        """Strong verification with two facts: date of birth and the last four digits of the
        customer's Social Security number. Both must match.

        Args:
            customer_id: The id returned by a find_customer tool.
            date_of_birth: 'YYYY-MM-DD', e.g. '1984-03-09'.
            ssn_last4: Last four digits of the SSN, e.g. '4417'.
        """
        customer = self.customer(customer_id)
        if customer.date_of_birth != date_of_birth.strip() or customer.ssn_last4 != all_digits(
            ssn_last4
        ):
            raise ToolError("the details do not match our records; the customer is not verified")
        return f"customer {customer_id} is verified (date of birth and SSN digits)"

    @tool("read")
    def send_verification_code(self, customer_id: str) -> str:
        """Text a one-time verification code to the phone number on file. The customer reads
        it back and you check it with verify_one_time_code.

        Args:
            customer_id: The id returned by a find_customer tool.
        """
        customer = self.customer(customer_id)
        return f"a one-time code was texted to the phone ending {all_digits(customer.phone)[-4:]}"

    @tool("read")
    def verify_one_time_code(self, customer_id: str, code: str) -> str:
        """Strong verification: check the one-time code the customer read from their phone.

        Args:
            customer_id: The id the code was sent for.
            code: The six digits the customer reads out, e.g. '204518'.
        """
        customer = self.customer(customer_id)
        if all_digits(code) != customer.one_time_code:
            raise ToolError("that code does not match; the customer is not verified")
        return f"customer {customer_id} is verified (one-time code)"

    @tool("read")
    def get_customer_overview(self, customer_id: str) -> dict[str, Any]:
        """Show an authenticated customer's profile, accounts (balances, available balances
        and holds), debit cards, saved payees and disputes.

        Args:
            customer_id: The id returned by a find_customer tool, e.g. 'CU-60042'.
        """
        c = self.customer(customer_id)
        accounts = self.customer_accounts(customer_id)
        mine = {a.account_id for a in accounts}
        since = days_ago(COURTESY_PERIOD_DAYS)
        reversals = sum(
            1
            for t in self.db.transactions.values()
            if t.account_id in mine and t.kind == "fee_reversal" and t.posted_on >= since
        )
        return {
            "customer_id": c.customer_id,
            "full_name": c.full_name,
            "email": c.email,
            "phone": c.phone,
            "mailing_address": c.address.one_line(),
            "tier": c.tier,
            "customer_since": c.customer_since,
            "fee_reversals_last_12_months": reversals,
            "accounts": [self.account_view(a) for a in accounts],
            "cards": [
                self.card_view(k) for k in self.db.cards.values() if k.customer_id == customer_id
            ],
            "payees": [
                {
                    "payee_id": p.payee_id,
                    "name": p.name,
                    "bank_name": p.bank_name,
                    "account_last4": p.account_last4,
                    "added_on": p.added_on,
                }
                for p in self.db.payees.values()
                if p.customer_id == customer_id
            ],
            "disputes": [
                {
                    "dispute_id": d.dispute_id,
                    "txn_id": d.txn_id,
                    "reason": d.reason,
                    "amount": money_text(d.amount),
                    "status": d.status,
                    "provisional_credit": money_text(d.provisional_credit),
                    "opened_on": d.opened_on,
                }
                for d in self.db.disputes.values()
                if d.customer_id == customer_id
            ],
        }

    @tool("read")
    def get_account_transactions(
        self, customer_id: str, account_id: str, days: int = 90
    ) -> list[dict[str, Any]]:
        """List an account's transactions of the last `days` days, newest first.

        Args:
            customer_id: The authenticated customer's id.
            account_id: One of the customer's accounts, e.g. 'ACC-60113'.
            days: How far back to look, 1 to 400 days (default 90).
        """
        self.account(customer_id, account_id)
        if not 1 <= days <= 400:
            raise ToolError("days must be between 1 and 400")
        since = days_ago(days)
        found = [t for t in self.account_transactions(account_id) if t.posted_on >= since]
        found.sort(key=lambda t: (t.posted_on, t.txn_id), reverse=True)
        return [self.txn_view(t) for t in found]
