"""Bank domain: tools (success and every refusal) and policy checks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal

from domain_testing import Conversation, Desk, fresh_state

from tau_emotion.domains.bank.db import Account, BankDB, Card, Customer, Hold, Transaction
from tau_emotion.domains.bank.rules import days_ago, month_start

DESK = Desk("bank", "eval")
DOMAIN, ENV = DESK.domain, DESK.env
DB: BankDB = DESK.db
call, refuses, now, put = DESK.call, DESK.refuses, DESK.row, DESK.put
breaks, allows = DESK.breaks, DESK.allows
offers, offers_nothing = DESK.offers, DESK.offers_nothing
fresh = fresh_state(ENV)


def customer(pred: Callable[[Customer], bool] = lambda c: True) -> Customer:
    return next(c for c in DB.customers.values() if pred(c))


def account(pred: Callable[[Account], bool]) -> Account:
    return next(a for a in DB.accounts.values() if pred(a))


def card(pred: Callable[[Card], bool]) -> Card:
    return next(k for k in DB.cards.values() if pred(k))


def txn(pred: Callable[[Transaction], bool]) -> Transaction:
    return next(t for t in DB.transactions.values() if pred(t))


def owner(record: Account | Card | Transaction | Hold) -> Customer:
    if isinstance(record, Transaction | Hold):
        return DB.customers[DB.accounts[record.account_id].customer_id]
    return DB.customers[record.customer_id]


def accounts_of(customer_id: str) -> list[Account]:
    return [a for a in DB.accounts.values() if a.customer_id == customer_id]


def held(a: Account) -> bool:
    return any(h.account_id == a.account_id for h in DB.holds.values())


def reversals(customer_id: str) -> int:
    mine = {a.account_id for a in accounts_of(customer_id)}
    return sum(
        1
        for t in DB.transactions.values()
        if t.account_id in mine and t.kind == "fee_reversal" and t.posted_on >= days_ago(365)
    )


def open_checking(c: Customer) -> Account | None:
    return next(
        (a for a in accounts_of(c.customer_id) if a.kind == "checking" and a.status == "open"),
        None,
    )


def active_card(c: Customer) -> Card | None:
    return next(
        (k for k in DB.cards.values() if k.customer_id == c.customer_id and k.status == "active"),
        None,
    )


def disputed(t: Transaction) -> bool:
    return any(d.txn_id == t.txn_id for d in DB.disputes.values())


# -- identity and reads --------------------------------------------------------------------


def test_identity_lookups_and_strong_verification() -> None:
    c = customer()
    cid = c.customer_id
    assert call("find_customer_by_email", email=c.email.upper())["customer_id"] == cid
    assert call("find_customer_by_phone", phone=f"({c.phone})")["customer_id"] == cid
    found = call(
        "find_customer_by_name_and_zip", full_name=c.full_name.upper(), zip_code=c.address.zip_code
    )
    assert found["customer_id"] == cid
    refuses("no customer with that email", "find_customer_by_email", email="x@example.com")
    refuses("no customer with that phone", "find_customer_by_phone", phone="111")
    refuses(
        "no customer matches",
        "find_customer_by_name_and_zip",
        full_name=c.full_name,
        zip_code="00000",
    )
    assert "verified" in call(
        "verify_identity", customer_id=cid, date_of_birth=c.date_of_birth, ssn_last4=c.ssn_last4
    )
    refuses(
        "do not match",
        "verify_identity",
        customer_id=cid,
        date_of_birth="1900-01-01",
        ssn_last4=c.ssn_last4,
    )
    assert c.phone[-4:] in call("send_verification_code", customer_id=cid)
    assert "verified" in call("verify_one_time_code", customer_id=cid, code=c.one_time_code)
    refuses("does not match", "verify_one_time_code", customer_id=cid, code="000000x")
    refuses("no customer with id", "send_verification_code", customer_id="CU-0")


def test_overview_and_transactions() -> None:
    h = next(
        h for h in DB.holds.values() if h.released_early_on is None and h.releases_on > "2025-09-10"
    )
    c = owner(h)
    view = call("get_customer_overview", customer_id=c.customer_id)
    acct = next(a for a in view["accounts"] if a["account_id"] == h.account_id)
    assert Decimal(acct["balance"]) - Decimal(acct["available_balance"]) >= h.amount
    assert h.hold_id in {x["hold_id"] for x in acct["holds"]}
    rows = call("get_account_transactions", customer_id=c.customer_id, account_id=h.account_id)
    assert rows == sorted(rows, key=lambda r: (r["posted_on"], r["txn_id"]), reverse=True)
    assert all(r["posted_on"] >= days_ago(90) for r in rows)
    other = account(lambda a: a.customer_id != c.customer_id)
    refuses(
        "has no account",
        "get_account_transactions",
        customer_id=c.customer_id,
        account_id=other.account_id,
    )
    refuses(
        "between 1 and 400",
        "get_account_transactions",
        customer_id=c.customer_id,
        account_id=h.account_id,
        days=0,
    )


# -- cards ---------------------------------------------------------------------------------


def test_freeze_and_unfreeze() -> None:
    k = card(lambda k: k.status == "active")
    args = {"customer_id": k.customer_id, "card_id": k.card_id}
    assert call("freeze_card", reason="lost", **args)["status"] == "frozen"
    refuses("already frozen", "freeze_card", reason="lost", **args)
    assert call("unfreeze_card", **args)["status"] == "active"
    refuses("is not frozen", "unfreeze_card", **args)
    call("freeze_card", reason="customer_request", **args)
    allows("bank.stolen_card_not_unfrozen", "unfreeze_card", **args)
    stolen = card(lambda k: k.frozen_reason == "stolen" and k.status == "frozen")
    offer = offers(
        "bank.stolen_card_not_unfrozen",
        "unfreeze_card",
        customer_id=stolen.customer_id,
        card_id=stolen.card_id,
    )
    assert (offer.tool, offer.arguments["reason"]) == ("replace_card", "stolen")
    breaks(
        "bank.stolen_card_not_unfrozen",
        "unfreeze_card",
        customer_id=stolen.customer_id,
        card_id=stolen.card_id,
    )
    assert now("cards", stolen.card_id).status == "active", "the tool does not judge the freeze"
    closed = card(lambda k: k.status == "closed")
    refuses(
        "is closed",
        "freeze_card",
        customer_id=closed.customer_id,
        card_id=closed.card_id,
        reason="lost",
    )
    other = card(lambda x: x.customer_id != k.customer_id)
    refuses(
        "has no card",
        "freeze_card",
        customer_id=k.customer_id,
        card_id=other.card_id,
        reason="lost",
    )


def test_replace_card_fees_and_new_card() -> None:
    std = customer(
        lambda c: (
            c.tier == "standard" and active_card(c) is not None and open_checking(c) is not None
        )
    )
    k = active_card(std)
    assert k is not None
    out = call(
        "replace_card",
        customer_id=std.customer_id,
        card_id=k.card_id,
        reason="damaged",
        expedited=True,
    )
    assert (out["fee_charged"], out["status"], out["replaces"]) == ("15.00", "shipped", k.card_id)
    assert out["mailed_to"] == std.address.one_line()
    assert now("cards", k.card_id).status == "closed"
    fee = [t for t in ENV.state.changes()["transactions"].values() if t.fee_type == "card_expedite"]
    assert fee and fee[0].amount == Decimal("-15.00")
    refuses(
        "is closed", "replace_card", customer_id=std.customer_id, card_id=k.card_id, reason="lost"
    )
    refuses(
        "on its way",
        "replace_card",
        customer_id=std.customer_id,
        card_id=out["card_id"],
        reason="lost",
    )
    prem = customer(
        lambda c: (
            c.tier == "premier" and active_card(c) is not None and open_checking(c) is not None
        )
    )
    pk = active_card(prem)
    assert pk is not None
    free = call(
        "replace_card",
        customer_id=prem.customer_id,
        card_id=pk.card_id,
        reason="lost",
        expedited=True,
    )
    assert free["fee_charged"] == "0.00"


def test_replace_card_refusals() -> None:
    frozen_acct = account(lambda a: a.status == "frozen" and a.kind == "checking")
    k = card(lambda k: k.account_id == frozen_acct.account_id and k.status == "active")
    refuses(
        "fraud team", "replace_card", customer_id=k.customer_id, card_id=k.card_id, reason="damaged"
    )
    poor = customer(
        lambda c: (
            c.tier == "standard" and active_card(c) is not None and open_checking(c) is not None
        )
    )
    pk = active_card(poor)
    assert pk is not None
    acct = DB.accounts[pk.account_id]
    put("accounts", acct.account_id, acct.model_copy(update={"balance": Decimal("5.00")}))
    for h in DB.holds.values():
        if h.account_id == acct.account_id:
            ENV.state.table("holds").delete(h.hold_id)
    refuses(
        "exceeds the available balance",
        "replace_card",
        customer_id=poor.customer_id,
        card_id=pk.card_id,
        reason="damaged",
        expedited=True,
    )


def test_set_card_limit() -> None:
    k = card(lambda k: k.status == "active" and owner(k).tier == "standard")
    args = {"customer_id": k.customer_id, "card_id": k.card_id}
    assert call("set_card_limit", limit_type="atm", amount=450, **args)["atm_limit"] == "450.00"
    refuses("already 450.00", "set_card_limit", limit_type="atm", amount=450.0, **args)
    refuses("must be positive", "set_card_limit", limit_type="purchase", amount=-5, **args)
    refuses("dollars and cents", "set_card_limit", limit_type="purchase", amount=10.555, **args)
    assert call("set_card_limit", limit_type="purchase", amount=3000, **args)["purchase_limit"] == (
        "3000.00"
    )


def test_card_limit_tier_cap_is_the_agents_to_apply() -> None:
    k = card(lambda k: k.status == "active" and owner(k).tier == "standard")
    args = {"customer_id": k.customer_id, "card_id": k.card_id, "limit_type": "atm"}
    allows("bank.card_limit_tier_cap", "set_card_limit", amount=400, **args)
    if k.atm_limit != Decimal("500.00"):
        call("set_card_limit", amount=500, **args)
    # The card has the cap already: a refusal is all there is to give.
    offers_nothing("bank.card_limit_tier_cap", "set_card_limit", amount=600, **args)
    call("set_card_limit", amount=400, **args)
    offer = offers("bank.card_limit_tier_cap", "set_card_limit", amount=600, **args)
    assert (offer.tool, offer.arguments) == ("set_card_limit", {**args, "amount": 500.0})
    reason = breaks("bank.card_limit_tier_cap", "set_card_limit", amount=600, **args)
    assert "500.00" in reason
    assert now("cards", k.card_id).atm_limit == Decimal("600.00")


# -- transfers -----------------------------------------------------------------------------


def _two_open_accounts() -> tuple[Account, Account]:
    c = customer(
        lambda c: sum(a.status == "open" and not held(a) for a in accounts_of(c.customer_id)) == 2
    )
    checking, savings = sorted(accounts_of(c.customer_id), key=lambda a: a.kind)
    return checking, savings


def test_internal_transfer_moves_both_balances() -> None:
    checking, savings = _two_open_accounts()
    out = call(
        "transfer_funds",
        customer_id=checking.customer_id,
        from_account_id=checking.account_id,
        amount=10.5,
        to_account_id=savings.account_id,
    )
    assert out["from_available_balance"] == str(checking.balance - Decimal("10.50"))
    assert now("accounts", savings.account_id).balance == savings.balance + Decimal("10.50")
    kinds = sorted(t.kind for t in ENV.state.changes()["transactions"].values())
    assert kinds == ["internal_transfer_in", "internal_transfer_out"]
    base = {"customer_id": checking.customer_id, "from_account_id": checking.account_id}
    refuses("exactly one", "transfer_funds", amount=1, **base)
    refuses(
        "exactly one",
        "transfer_funds",
        amount=1,
        to_account_id=savings.account_id,
        payee_id="PAY-0",
        **base,
    )
    refuses("must differ", "transfer_funds", amount=1, to_account_id=checking.account_id, **base)
    refuses(
        "cannot overdraw",
        "transfer_funds",
        amount=float(checking.balance + 1),
        to_account_id=savings.account_id,
        **base,
    )
    refuses("has no saved payee", "transfer_funds", amount=1, payee_id="PAY-0", **base)


def test_transfer_respects_holds_frozen_accounts_and_savings_limit() -> None:
    h = next(
        h
        for h in DB.holds.values()
        if h.released_early_on is None
        and h.releases_on > "2025-09-10"
        and DB.accounts[h.account_id].status == "open"
    )
    a = DB.accounts[h.account_id]
    other = next((x for x in accounts_of(a.customer_id) if x.account_id != a.account_id), None)
    if other is not None:
        refuses(
            "cannot overdraw",
            "transfer_funds",
            customer_id=a.customer_id,
            from_account_id=a.account_id,
            amount=float(a.balance),
            to_account_id=other.account_id,
        )
    frozen = account(lambda x: x.status == "frozen")
    refuses(
        "fraud team",
        "transfer_funds",
        customer_id=frozen.customer_id,
        from_account_id=frozen.account_id,
        amount=1,
        payee_id="PAY-0",
    )
    busy = account(
        lambda x: (
            x.kind == "savings"
            and x.status == "open"
            and sum(
                t.kind == "internal_transfer_out" and t.posted_on >= month_start()
                for t in DB.transactions.values()
                if t.account_id == x.account_id
            )
            >= 6
        )
    )
    checking = next(x for x in accounts_of(busy.customer_id) if x.kind == "checking")
    rule = "bank.savings_monthly_withdrawals"

    def one_dollar(source: Account, target: Account) -> dict[str, object]:
        return {
            "customer_id": busy.customer_id,
            "from_account_id": source.account_id,
            "amount": 1,
            "to_account_id": target.account_id,
        }

    # Money into the busy savings account is fine; one more out of it is over the limit.
    allows(rule, "transfer_funds", **one_dollar(checking, busy))
    breaks(rule, "transfer_funds", **one_dollar(busy, checking))


def test_external_transfer_limits() -> None:
    def payee_case(recent: bool) -> tuple[Customer, Account, str]:
        for p in DB.payees.values():
            c = DB.customers[p.customer_id]
            a = open_checking(c)
            if (
                (p.added_on > days_ago(3)) == recent
                and c.tier == "standard"
                and a is not None
                and not held(a)
                and a.balance > 2600
            ):
                return c, a, p.payee_id
        raise AssertionError("no payee case")

    c, a, payee = payee_case(recent=False)
    args = {"customer_id": c.customer_id, "from_account_id": a.account_id, "payee_id": payee}
    daily = "bank.external_daily_limit"
    allows(daily, "transfer_funds", amount=2000, **args)
    out = call("transfer_funds", amount=2000, **args)
    assert now("transactions", out["txn_id"]).kind == "external_transfer_out"
    allows(daily, "transfer_funds", amount=500, **args)
    assert "500.00 was left today" in breaks(daily, "transfer_funds", amount=600, **args)
    c, a, payee = payee_case(recent=True)
    args = {"customer_id": c.customer_id, "from_account_id": a.account_id, "payee_id": payee}
    allows("bank.new_payee_cap", "transfer_funds", amount=500, **args)
    offer = offers("bank.new_payee_cap", "transfer_funds", amount=800, **args)
    assert offer.arguments == {**args, "amount": 500.0}
    breaks("bank.new_payee_cap", "transfer_funds", amount=500.01, **args)


# -- disputes, fees, holds -----------------------------------------------------------------


def _recent_purchase(small: bool) -> Transaction:
    return txn(
        lambda t: (
            t.kind == "card_purchase"
            and t.posted_on >= days_ago(50)
            and (-t.amount <= 100) == small
            and not disputed(t)
        )
    )


def test_dispute_with_and_without_provisional_credit() -> None:
    small = _recent_purchase(small=True)
    c = owner(small)
    out = call(
        "file_dispute", customer_id=c.customer_id, txn_id=small.txn_id, reason="wrong_amount"
    )
    assert out["provisional_credit"] == str(-small.amount)
    assert now("accounts", small.account_id).balance == DB.accounts[small.account_id].balance - (
        small.amount
    )
    refuses(
        "already disputed",
        "file_dispute",
        customer_id=c.customer_id,
        txn_id=small.txn_id,
        reason="wrong_amount",
    )
    big = _recent_purchase(small=False)
    out = call(
        "file_dispute", customer_id=owner(big).customer_id, txn_id=big.txn_id, reason="not_received"
    )
    assert out["provisional_credit"] == "0.00"


def test_dispute_refusals() -> None:
    deposit = txn(lambda t: t.kind == "deposit")
    refuses(
        "only debit card purchases",
        "file_dispute",
        customer_id=owner(deposit).customer_id,
        txn_id=deposit.txn_id,
        reason="not_received",
    )
    old = txn(lambda t: t.kind == "card_purchase" and t.posted_on < days_ago(60))
    breaks(
        "bank.dispute_window",
        "file_dispute",
        customer_id=owner(old).customer_id,
        txn_id=old.txn_id,
        reason="not_received",
    )
    live = txn(
        lambda t: (
            t.kind == "card_purchase"
            and t.posted_on >= days_ago(50)
            and not disputed(t)
            and DB.cards[t.card_id or ""].status == "active"
        )
    )
    secured = "bank.unauthorized_card_secured_first"
    dispute = {"customer_id": owner(live).customer_id, "txn_id": live.txn_id}
    allows("bank.dispute_window", "file_dispute", reason="unauthorized", **dispute)
    allows(secured, "file_dispute", reason="not_received", **dispute)
    breaks(secured, "file_dispute", reason="unauthorized", **dispute)
    ENV.reset()
    call("freeze_card", customer_id=owner(live).customer_id, card_id=live.card_id, reason="stolen")
    allows(secured, "file_dispute", reason="unauthorized", **dispute)
    call("file_dispute", reason="unauthorized", **dispute)
    single = txn(
        lambda t: (
            t.kind == "card_purchase"
            and t.posted_on >= days_ago(50)
            and not disputed(t)
            and t.description == "Aurora Electronics"
            and sum(
                x.description == t.description and x.amount == t.amount
                for x in DB.transactions.values()
            )
            == 1
        )
    )
    other = next(c for c in DB.customers.values() if c.customer_id != owner(single).customer_id)
    refuses(
        "has no transaction",
        "file_dispute",
        customer_id=other.customer_id,
        txn_id=single.txn_id,
        reason="duplicate",
    )


def test_duplicate_dispute_is_filed_on_the_second_charge() -> None:
    pairs = [
        (a, b)
        for a in DB.transactions.values()
        for b in DB.transactions.values()
        if a.kind == b.kind == "card_purchase"
        and a.account_id == b.account_id
        and a.description == b.description
        and a.amount == b.amount
        and a.posted_on < b.posted_on
        and a.posted_on >= days_ago(50)
        and not disputed(a)
        and not disputed(b)
        and (date.fromisoformat(b.posted_on) - date.fromisoformat(a.posted_on)).days <= 3
    ]
    first, second = pairs[0]
    who = owner(first).customer_id
    rule = "bank.duplicate_second_charge"
    allows(rule, "file_dispute", customer_id=who, txn_id=second.txn_id, reason="duplicate")
    assert call("file_dispute", customer_id=who, txn_id=second.txn_id, reason="duplicate")
    allows(rule, "file_dispute", customer_id=who, txn_id=first.txn_id, reason="not_received")
    breaks(rule, "file_dispute", customer_id=who, txn_id=first.txn_id, reason="duplicate")


def _fee(fee_type: str, pred: Callable[[Customer], bool]) -> Transaction:
    return txn(
        lambda t: (
            t.kind == "fee"
            and t.fee_type == fee_type
            and t.posted_on >= days_ago(90)
            and pred(owner(t))
            and not any(x.reverses == t.txn_id for x in DB.transactions.values())
        )
    )


def test_reverse_fee_and_allowance() -> None:
    fee = _fee("overdraft", lambda c: c.tier == "standard" and reversals(c.customer_id) == 0)
    c = owner(fee)
    allows("bank.courtesy_allowance", "reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)
    allows("bank.reversible_fees_only", "reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)
    out = call("reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)
    assert out["amount"] == "35.00"
    assert now("transactions", out["txn_id"]).reverses == fee.txn_id
    refuses("already reversed", "reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)
    used = _fee("overdraft", lambda c: c.tier == "standard" and reversals(c.customer_id) >= 1)
    breaks(
        "bank.courtesy_allowance",
        "reverse_fee",
        customer_id=owner(used).customer_id,
        txn_id=used.txn_id,
    )


def test_reverse_fee_refusals() -> None:
    rule = "bank.reversible_fees_only"
    wire = txn(lambda t: t.fee_type == "wire")
    assert "wire fee" in breaks(
        rule, "reverse_fee", customer_id=owner(wire).customer_id, txn_id=wire.txn_id
    )
    # The old fees of the database were all reversed long ago: an unreversed copy of one.
    seen = txn(
        lambda t: t.kind == "fee" and t.fee_type == "overdraft" and t.posted_on < days_ago(90)
    )
    old = seen.model_copy(update={"txn_id": "TXN-699999"})
    put("transactions", old.txn_id, old)
    assert "days ago" in breaks(
        rule, "reverse_fee", customer_id=owner(old).customer_id, txn_id=old.txn_id
    )
    buy = txn(lambda t: t.kind == "card_purchase")
    refuses("is not a fee", "reverse_fee", customer_id=owner(buy).customer_id, txn_id=buy.txn_id)


def _hold(pred: Callable[[Hold, Account], bool]) -> Hold:
    early = {
        DB.accounts[h.account_id].customer_id
        for h in DB.holds.values()
        if h.released_early_on is not None
    }
    return next(
        h
        for h in DB.holds.values()
        if h.released_early_on is None
        and h.releases_on > "2025-09-10"
        and DB.accounts[h.account_id].customer_id not in early
        and pred(h, DB.accounts[h.account_id])
    )


def test_release_hold_and_refusals() -> None:
    ok = _hold(
        lambda h, a: (
            h.reason == "check_deposit" and h.amount <= 2000 and a.opened_on <= days_ago(365)
        )
    )
    c = owner(ok)
    rule = "bank.early_release_eligibility"
    allows(rule, "release_hold", customer_id=c.customer_id, hold_id=ok.hold_id)
    out = call("release_hold", customer_id=c.customer_id, hold_id=ok.hold_id)
    assert out["available_balance"] == str(DB.accounts[ok.account_id].balance)
    refuses("no longer active", "release_hold", customer_id=c.customer_id, hold_id=ok.hold_id)
    second = _hold(
        lambda h, a: (
            h.reason == "check_deposit"
            and h.amount <= 2000
            and a.opened_on <= days_ago(365)
            and a.customer_id != c.customer_id
        )
    )
    ENV.reset()
    big = _hold(lambda h, a: h.reason == "check_deposit" and h.amount > 2000)
    assert "over 2000.00" in breaks(
        rule, "release_hold", customer_id=owner(big).customer_id, hold_id=big.hold_id
    )
    auth = _hold(lambda h, a: h.reason == "card_authorization")
    refuses(
        "released by the merchant",
        "release_hold",
        customer_id=owner(auth).customer_id,
        hold_id=auth.hold_id,
    )
    young = _hold(
        lambda h, a: (
            h.reason == "check_deposit" and h.amount <= 2000 and a.opened_on > days_ago(365)
        )
    )
    assert "under 12 months" in breaks(
        rule, "release_hold", customer_id=owner(young).customer_id, hold_id=young.hold_id
    )
    refuses("has no hold", "release_hold", customer_id=c.customer_id, hold_id=second.hold_id)
    past = next(h for h in DB.holds.values() if h.released_early_on is not None)
    fresh_hold = second.model_copy(update={"hold_id": "HLD-69999", "account_id": past.account_id})
    put("holds", "HLD-69999", fresh_hold)
    assert "already released early" in breaks(
        rule, "release_hold", customer_id=owner(past).customer_id, hold_id="HLD-69999"
    )


# -- profile, hand-off ---------------------------------------------------------------------


def test_update_mailing_address() -> None:
    c = customer()
    args = {"customer_id": c.customer_id, "city": "harbor  city", "state": "or"}
    out = call("update_mailing_address", street="12 Oak St. Apt 4b", zip_code="97031", **args)
    assert out.endswith("12 OAK ST APT 4B, HARBOR CITY, OR 97031")
    refuses(
        "already the address",
        "update_mailing_address",
        street="12 oak st apt 4B",
        zip_code="97031",
        **args,
    )
    refuses("five digits", "update_mailing_address", street="1 A St", zip_code="9703", **args)
    refuses(
        "two-letter",
        "update_mailing_address",
        street="1 A St",
        zip_code="97031",
        **{**args, "state": "Oregon"},
    )


def test_update_mailing_address_refuses_a_blank_street_or_city() -> None:
    """Replacement cards are mailed to this address: it needs a street and a city."""
    args = {"customer_id": customer().customer_id, "state": "OR", "zip_code": "97031"}
    refuses("street and a city", "update_mailing_address", street="  ", city="Hood River", **args)
    refuses("street and a city", "update_mailing_address", street="1 A St", city="", **args)
    refuses("street and a city", "update_mailing_address", street=" . ", city=" . ", **args)


def test_transfer_to_human_records_ids() -> None:
    assert "TR-0001" in call("transfer_to_human_agents", summary="frozen account")
    assert "TR-0002" in call("transfer_to_human_agents", summary="again")


# -- policy checks -------------------------------------------------------------------------

RULES = [c.rule_id for c in DOMAIN.checks]


def _fee_case() -> tuple[Customer, Transaction]:
    fee = _fee("overdraft", lambda c: c.tier == "standard" and reversals(c.customer_id) == 0)
    return owner(fee), fee


def _clean_reversal(
    c: Customer, fee: Transaction, *, read: bool = True, code: bool = True
) -> Conversation:
    s = Conversation(ENV).user("refund my fee").run("find_customer_by_email", email=c.email)
    if code:
        s.run("send_verification_code", customer_id=c.customer_id)
    s.run("verify_one_time_code", customer_id=c.customer_id, code=c.one_time_code)
    if read:
        s.run("get_account_transactions", customer_id=c.customer_id, account_id=fee.account_id)
    return s.confirm().run("reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)


def test_clean_trajectory_passes_every_check() -> None:
    s = _clean_reversal(*_fee_case())
    assert not any(s.details(rule) for rule in RULES)


def test_checks_catch_violations() -> None:
    c, fee = _fee_case()
    bare = Conversation(ENV).run("reverse_fee", customer_id=c.customer_id, txn_id=fee.txn_id)
    for rule in (
        "confirm_before_write",
        "authenticate_first",
        "authenticated_customer_only",
        "strong_verification_first",
        "transactions_read_first",
    ):
        assert bare.details(f"bank.{rule}"), rule
    ENV.reset()
    assert _clean_reversal(c, fee, read=False).details("bank.transactions_read_first")
    ENV.reset()
    unsent = _clean_reversal(c, fee, code=False)
    assert unsent.details("bank.strong_verification_first")
    ENV.reset()
    peek = Conversation(ENV).run("get_customer_overview", customer_id=c.customer_id)
    assert peek.details("bank.authenticate_first")


def test_freeze_needs_no_strong_verification_but_other_customers_are_caught() -> None:
    k = card(lambda k: k.status == "active")
    c = owner(k)
    s = (
        Conversation(ENV)
        .run("find_customer_by_phone", phone=c.phone)
        .confirm()
        .run("freeze_card", customer_id=c.customer_id, card_id=k.card_id, reason="lost")
    )
    assert not any(s.details(rule) for rule in RULES)
    other = customer(lambda x: x.customer_id != c.customer_id)
    s.run("get_customer_overview", customer_id=other.customer_id)
    assert s.details("bank.one_customer")
    assert s.details("bank.authenticated_customer_only")


# -- the split ---------------------------------------------------------------------------


def test_train_and_eval_have_their_own_addresses_and_payees() -> None:
    """Beyond the ids and personal facts the contract test compares for every domain."""

    def places(db: BankDB) -> set[str]:
        found = {c.address.one_line() for c in db.customers.values()}
        return found | {f"{p.name}:{p.account_last4}" for p in db.payees.values()}

    assert not places(DESK.domain.load_db("train")[0]) & places(DB)  # type: ignore[arg-type]
