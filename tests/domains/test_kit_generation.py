"""kit/generation.py and common.add_to_balance: what generator runs share."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from pydantic import ValidationError

from tau_emotion.domains.basketball.db import BasketballDB
from tau_emotion.domains.common import PeoplePools, add_to_balance
from tau_emotion.domains.kit.generation import GeneratorRun, empty_database
from tau_emotion.domains.restaurant.db import PaymentMethod
from tau_emotion.domains.telehealth.db import TelehealthDB

POOLS = PeoplePools(
    last_names=("Ames",), zip_codes=("00001",), area_codes=("555",), email_domains=("x.test",)
)


def test_an_empty_database_has_every_table_of_its_model_and_nothing_else() -> None:
    db = empty_database(TelehealthDB)
    assert set(db.record_counts()) == set(TelehealthDB.model_fields)
    assert not any(db.record_counts().values())
    # Each table is its own dict: writing one leaves the others empty.
    db.vouchers["V1"] = None  # type: ignore[assignment]
    assert db.record_counts()["payments"] == 0


def test_rows_are_numbered_in_the_order_they_are_written_with_the_lead_digit() -> None:
    run = GeneratorRun(BasketballDB, random.Random(1), POOLS, "5", 4)
    first = run.new_id("U", run.db.customers)
    run.db.customers[first] = object()  # type: ignore[assignment]
    assert (first, run.new_id("U", run.db.customers)) == ("U50001", "U50002")
    assert run.new_id("TX", run.db.transactions) == "TX50001"


def test_emails_and_phones_are_unique_and_drawn_from_the_pools() -> None:
    run = GeneratorRun(BasketballDB, random.Random(7), POOLS, "1", 4)
    emails = {run.email("Ann", "Ames") for _ in range(50)}
    phones = {run.phone() for _ in range(50)}
    assert len(emails) == len(phones) == 50
    assert all(e.startswith("ann.ames") and e.endswith("@x.test") for e in emails)
    assert all(p.startswith("(555) 555-") for p in phones)


def test_the_same_seed_draws_the_same_values() -> None:
    def draws() -> list[str]:
        run = GeneratorRun(BasketballDB, random.Random(3), POOLS, "1", 4)
        return [run.email("Bo", "Ames"), run.phone(), run.unique(lambda: str(run.rng.random()))]

    assert draws() == draws()


def test_an_unknown_table_cannot_be_passed_to_the_model() -> None:
    with pytest.raises(ValidationError):
        BasketballDB(**{**empty_database(BasketballDB).tables(), "nowhere": {}})


def test_add_to_balance_pays_into_the_stored_value_method_only() -> None:
    methods = (
        PaymentMethod(id="PM1", kind="credit_card", brand="visa", last4="1111"),
        PaymentMethod(
            id="PM2", kind="gift_card", brand="house", last4="2222", balance=Decimal("10.00")
        ),
    )
    paid = add_to_balance(methods, "PM2", "gift_card", Decimal("2.345"))
    assert paid[1].balance == Decimal("12.35") and paid[0] is methods[0]
    assert add_to_balance(methods, "PM1", "gift_card", Decimal(5)) == methods  # a card keeps none
    assert add_to_balance(paid, "PM2", "gift_card", Decimal("-12.35"))[1].balance == 0
