"""Seeded generator of a Larkspur Bank back office: a few hundred customers with checking
and savings accounts, debit cards, three months of transactions, holds, payees and disputes.

Only `random.Random(seed)` drives it; everything it iterates is a list, a tuple or an
insertion-ordered dict, so the same seed always yields the same snapshot.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from functools import partial

from tau_emotion.domains.bank.db import (
    TODAY,
    Account,
    Address,
    BankDB,
    Card,
    Customer,
    Dispute,
    FeeType,
    FreezeReason,
    Hold,
    Payee,
    Tier,
    Transaction,
    TxnKind,
    transaction_record,
)
from tau_emotion.domains.bank.pools import (
    BANKS,
    BUSINESS_PAYEES,
    EMAIL_DOMAINS,
    EVAL,
    FIRST_NAMES,
    MERCHANTS,
    STREETS,
    TRAIN,
    Series,
)
from tau_emotion.domains.bank.rules import CARD_YEARS, clean_words
from tau_emotion.domains.common import money, unique
from tau_emotion.domains.kit.generation import empty_database
from tau_emotion.domains.kit.split import SeriesRun, SplitGenerator

CUSTOMERS = 250
FEES: dict[FeeType, tuple[str, Decimal]] = {
    "overdraft": ("Overdraft fee", money("35.00")),
    "monthly_maintenance": ("Monthly maintenance fee", money("12.00")),
    "atm_out_of_network": ("Out-of-network ATM fee", money("3.00")),
    "wire": ("Outgoing wire fee", money("25.00")),
    "foreign_transaction": ("Foreign transaction fee", money("4.50")),
}
FEE_CHANCES: tuple[tuple[FeeType, float], ...] = (
    ("overdraft", 0.18),
    ("monthly_maintenance", 0.12),
    ("atm_out_of_network", 0.1),
    ("wire", 0.04),
    ("foreign_transaction", 0.04),
)
LIMITS: dict[Tier, tuple[Decimal, Decimal]] = {
    "standard": (money("2000.00"), money("500.00")),
    "premier": (money("5000.00"), money("1000.00")),
}


def _ago(n: int) -> str:
    return (TODAY - timedelta(days=n)).isoformat()


class _Gen(SeriesRun[Series]):
    """One generation run: the rng and the database being filled."""

    def __init__(self, series: Series) -> None:
        super().__init__(series)
        self.db = empty_database(BankDB)
        self.used_numbers: set[str] = set()

    def last4(self) -> str:
        """A last-four number from this database's own range, unique within it."""
        return unique(self.used_numbers, lambda: str(self.rng.randint(*self.s.numbers)))

    def txn(
        self,
        account: Account,
        days_ago: int,
        amount: Decimal,
        kind: TxnKind,
        description: str,
        *,
        card_id: str | None = None,
        fee_type: FeeType | None = None,
        reverses: str | None = None,
    ) -> Transaction:
        tid = self.ident("TXN-", len(self.db.transactions) + 1, 5)
        record = transaction_record(
            tid,
            account.account_id,
            _ago(days_ago),
            money(amount),
            kind,
            description,
            card_id=card_id,
            fee_type=fee_type,
            reverses=reverses,
        )
        self.db.transactions[tid] = record
        return record

    # -- people and accounts -------------------------------------------------------------

    def customers(self) -> None:
        names: set[tuple[str, str]] = set()
        phones: set[str] = set()
        for n in range(1, CUSTOMERS + 1):
            first, last = unique(names, partial(self.name, FIRST_NAMES))
            city, state, zip_prefix, area = self.rng.choice(self.s.cities)
            phone = unique(phones, partial(self.phone, area))
            street = f"{self.rng.randint(2, 980)} {self.rng.choice(STREETS)}"
            born = date(
                self.rng.randint(1945, 2004), self.rng.randint(1, 12), self.rng.randint(1, 28)
            )
            since = date(
                self.rng.randint(2008, 2024), self.rng.randint(1, 12), self.rng.randint(1, 28)
            )
            email = f"{first}.{last}{self.rng.randint(1, 99)}@{self.rng.choice(EMAIL_DOMAINS)}"
            customer = Customer(
                customer_id=self.ident("CU-", n, 4),
                full_name=f"{first} {last}",
                email=email.lower(),
                phone=phone,
                date_of_birth=born.isoformat(),
                ssn_last4=self.last4(),
                address=Address(
                    street=clean_words(street),
                    city=clean_words(city),
                    state=state,
                    zip_code=f"{zip_prefix}{self.rng.randint(10, 99)}",
                ),
                tier="premier" if self.rng.random() < 0.2 else "standard",
                customer_since=since.isoformat(),
                one_time_code=f"{self.rng.randint(0, 999999):06d}",
            )
            self.db.customers[customer.customer_id] = customer
            self.accounts(customer, since)

    def accounts(self, customer: Customer, since: date) -> None:
        kinds = ["checking"] + (["savings"] if self.rng.random() < 0.6 else [])
        for kind in kinds:
            aid = self.ident("ACC-", len(self.db.accounts) + 1, 4)
            opened = since + timedelta(days=self.rng.randint(0, max(1, (TODAY - since).days - 20)))
            if kind == "checking":
                nickname = "Premier Checking" if customer.tier == "premier" else "Everyday Checking"
                balance = money(self.rng.randint(20, 6000)) + money(self.rng.randint(0, 99)) / 100
            else:
                nickname = self.rng.choice(("Savings", "Rainy Day Savings", "Goal Savings"))
                balance = money(self.rng.randint(100, 25000))
            account = Account(
                account_id=aid,
                customer_id=customer.customer_id,
                kind=kind,
                nickname=nickname,
                number_last4=self.last4(),
                balance=money(balance),
                status="frozen" if self.rng.random() < 0.02 else "open",
                opened_on=opened.isoformat(),
            )
            self.db.accounts[aid] = account
            if kind == "checking":
                card = self.card(customer, account)
                self.checking_history(customer, account, card)
            else:
                self.savings_history(account)

    def card(self, customer: Customer, account: Account) -> Card:
        purchase, atm = LIMITS[customer.tier]
        roll = self.rng.random()
        if roll < 0.06:
            # An older card was replaced; keep it, closed, as history.
            old = self.ident("CRD-", len(self.db.cards) + 1, 4)
            self.db.cards[old] = Card(
                card_id=old,
                customer_id=customer.customer_id,
                account_id=account.account_id,
                last4=self.last4(),
                status="closed",
                frozen_reason=None,
                purchase_limit=purchase,
                atm_limit=atm,
                expires="2027-03",
                replaces=None,
                mailed_to=None,
            )
        frozen: FreezeReason | None = None
        if 0.06 <= roll < 0.14:
            frozen = self.rng.choice(("lost", "customer_request", "customer_request", "stolen"))
        cid = self.ident("CRD-", len(self.db.cards) + 1, 4)
        card = Card(
            card_id=cid,
            customer_id=customer.customer_id,
            account_id=account.account_id,
            last4=self.last4(),
            status="frozen" if frozen else "active",
            frozen_reason=frozen,
            purchase_limit=purchase,
            atm_limit=atm,
            expires=f"{TODAY.year + self.rng.randint(1, CARD_YEARS)}-{self.rng.randint(1, 12):02d}",
            replaces=None,
            mailed_to=None,
        )
        self.db.cards[cid] = card
        return card

    # -- history -------------------------------------------------------------------------

    def checking_history(self, customer: Customer, account: Account, card: Card) -> None:
        for ago in (self.rng.randint(1, 14), self.rng.randint(31, 44)):
            self.txn(account, ago, money(self.rng.randint(900, 4200)), "deposit", "Payroll deposit")
        for _ in range(self.rng.randint(2, 5)):
            name, lo, hi = self.rng.choice(MERCHANTS)
            ago = self.rng.randint(0, 75)
            amount = money(self.rng.randint(lo * 100, hi * 100)) / 100
            self.txn(account, ago, -amount, "card_purchase", name, card_id=card.card_id)
            if self.rng.random() < 0.06 and ago > 0:
                self.txn(account, ago - 1, -amount, "card_purchase", name, card_id=card.card_id)
        if self.rng.random() < 0.3:
            self.txn(
                account,
                self.rng.randint(1, 60),
                -money(self.rng.choice((40, 60, 100, 200))),
                "atm_withdrawal",
                "ATM withdrawal",
                card_id=card.card_id,
            )
        for fee_type, chance in FEE_CHANCES:
            if self.rng.random() < chance:
                text, amount = FEES[fee_type]
                self.txn(account, self.rng.randint(1, 80), -amount, "fee", text, fee_type=fee_type)
        if self.rng.random() < 0.2:
            # A courtesy reversal earlier this year uses up the standard allowance.
            ago = self.rng.randint(95, 330)
            fee = self.txn(
                account, ago, -FEES["overdraft"][1], "fee", "Overdraft fee", fee_type="overdraft"
            )
            self.txn(
                account,
                ago - 1,
                FEES["overdraft"][1],
                "fee_reversal",
                "Fee reversal: Overdraft fee",
                reverses=fee.txn_id,
            )
        self.holds(account)

    def holds(self, account: Account) -> None:
        roll = self.rng.random()
        if roll < 0.12:
            amount = money(self.rng.choice((450, 800, 1250, 1800, 2400, 3500)))
            ago = self.rng.randint(0, 2)
            self.txn(account, ago, amount, "check_deposit", "Mobile check deposit")
            self.hold(
                account,
                amount,
                "check_deposit",
                "Mobile check deposit",
                ago,
                self.rng.randint(2, 5),
            )
        elif roll < 0.18:
            what = self.rng.choice(
                ("Seaview Hotel", "Rapid Car Rental", "FuelStop pre-authorization")
            )
            self.hold(
                account,
                money(self.rng.choice((75, 150, 250, 400))),
                "card_authorization",
                what,
                self.rng.randint(0, 3),
                self.rng.randint(2, 6),
            )
        elif roll < 0.24:
            # An old check hold that staff released early: it uses up the yearly allowance.
            placed = self.rng.randint(60, 300)
            hid = self.ident("HLD-", len(self.db.holds) + 1, 4)
            self.db.holds[hid] = Hold(
                hold_id=hid,
                account_id=account.account_id,
                amount=money(self.rng.choice((300, 600, 900))),
                reason="check_deposit",
                description="Mobile check deposit",
                placed_on=_ago(placed),
                releases_on=_ago(placed - 4),
                released_early_on=_ago(placed - 1),
            )

    def hold(
        self, account: Account, amount: Decimal, reason: str, what: str, ago: int, ahead: int
    ) -> None:
        hid = self.ident("HLD-", len(self.db.holds) + 1, 4)
        self.db.holds[hid] = Hold(
            hold_id=hid,
            account_id=account.account_id,
            amount=amount,
            reason=reason,
            description=what,
            placed_on=_ago(ago),
            releases_on=_ago(-ahead),
            released_early_on=None,
        )

    def savings_history(self, account: Account) -> None:
        for ago in (TODAY.day - 1 + 31, TODAY.day - 1):
            self.txn(
                account, ago, money(self.rng.randint(50, 3000)) / 100, "interest", "Interest paid"
            )
        busy = self.rng.random() < 0.08
        for _ in range(6 if busy else self.rng.randint(0, 2)):
            ago = self.rng.randint(0, TODAY.day - 1) if busy else self.rng.randint(0, 70)
            self.txn(
                account,
                ago,
                -money(self.rng.choice((50, 100, 150, 200, 300))),
                "internal_transfer_out",
                "Transfer to checking",
            )

    # -- payees and disputes -------------------------------------------------------------

    def payees(self) -> None:
        for customer in self.db.customers.values():
            for _ in range(self.rng.choice((0, 1, 1, 2, 2, 3))):
                pid = self.ident("PAY-", len(self.db.payees) + 1, 4)
                if self.rng.random() < 0.5:
                    name = self.rng.choice(BUSINESS_PAYEES)
                else:
                    name = f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(self.s.surnames)}"
                recent = self.rng.random() < 0.1
                self.db.payees[pid] = Payee(
                    payee_id=pid,
                    customer_id=customer.customer_id,
                    name=name,
                    bank_name=self.rng.choice(BANKS),
                    account_last4=self.last4(),
                    added_on=_ago(self.rng.randint(0, 2) if recent else self.rng.randint(10, 900)),
                )

    def disputes(self) -> None:
        purchases = [t for t in self.db.transactions.values() if t.kind == "card_purchase"]
        for txn in self.rng.sample(purchases, len(purchases) // 25):
            owner = self.db.accounts[txn.account_id].customer_id
            did = self.ident("DSP-", len(self.db.disputes) + 1, 3)
            amount = money(-txn.amount)
            if amount <= 100:
                account = self.db.accounts[txn.account_id]
                self.txn(
                    account,
                    max(0, (TODAY - date.fromisoformat(txn.posted_on)).days - 1),
                    amount,
                    "dispute_credit",
                    f"Provisional credit, {did}",
                )
            self.db.disputes[did] = Dispute(
                dispute_id=did,
                customer_id=owner,
                txn_id=txn.txn_id,
                reason=self.rng.choice(("not_received", "wrong_amount", "unauthorized")),
                amount=amount,
                status=self.rng.choice(("open", "open", "resolved_for_merchant")),
                provisional_credit=amount if amount <= 100 else money(0),
                opened_on=txn.posted_on,
            )


def generate(series: Series) -> BankDB:
    gen = _Gen(series)
    gen.customers()
    gen.payees()
    gen.disputes()
    return gen.db


SPLIT = SplitGenerator(generate, TRAIN, EVAL)
"""The train and eval databases of the domain."""
