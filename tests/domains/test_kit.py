"""The domain kit on its own: identity lookups, the hand-off desk, split databases, and that
every domain's hand-off goes through one desk and writes the record its snapshot declares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.kit.handoff import (
    CUSTOMER_CARE,
    HandOffDesk,
    StampedTransfer,
    Transfer,
    stamped_desk,
    summary_transfer,
)
from tau_emotion.domains.kit.identity import Directory, PhoneRule, all_digits, last_ten, us_phone
from tau_emotion.domains.kit.members import each_named
from tau_emotion.domains.kit.records import Person
from tau_emotion.domains.kit.split import SPLIT_DATABASE, SeriesRun, SplitGenerator
from tau_emotion.domains.state import DomainDB, Table
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError


@dataclass(frozen=True)
class Caller:
    key: str
    email: str | None
    phone: str | None


PEOPLE = (
    Caller("A", "dana.ruiz@example.com", "503-555-0147"),
    Caller("B", "lee.kim@example.com", None),
    Caller("C", "twin@example.com", "503-555-0199"),
    Caller("D", "twin@example.com", "503-555-0198"),
)

LOOKUP: Directory[Caller] = Directory(
    answer=lambda c: {"id": c.key},
    missing="nobody with that {what}",
    phone=PhoneRule(last_ten, "ten digits, please"),
)
STRICT: Directory[Caller] = Directory(
    answer=lambda c: {"id": c.key},
    missing="nobody with that {what}",
    ambiguous="several people share that {what}",
    email_label="email",
)


def test_email_lookup_ignores_case_and_spaces_and_names_what_failed() -> None:
    assert LOOKUP.by_email(PEOPLE, "  Dana.Ruiz@EXAMPLE.com ") == {"id": "A"}
    with pytest.raises(ToolError, match=r"^nobody with that email address$"):
        LOOKUP.by_email(PEOPLE, "nobody@example.com")


def test_several_matches_take_the_first_unless_the_domain_refuses_them() -> None:
    assert LOOKUP.by_email(PEOPLE, "twin@example.com") == {"id": "C"}
    with pytest.raises(ToolError, match=r"^several people share that email$"):
        STRICT.by_email(PEOPLE, "twin@example.com")


def test_phone_lookup_reads_digits_and_refuses_a_short_number() -> None:
    assert LOOKUP.by_phone(PEOPLE, "+1 (503) 555-0147") == {"id": "A"}
    with pytest.raises(ToolError, match=r"^ten digits, please$"):
        LOOKUP.by_phone(PEOPLE, "555-0147")
    with pytest.raises(ToolError, match=r"^nobody with that phone number$"):
        LOOKUP.by_phone(PEOPLE, "503-555-0000")


def test_phone_rules_differ_in_what_they_keep() -> None:
    assert all_digits("+1 503-555-0147") == "15035550147"
    assert last_ten("+44 503-555-0147") == "5035550147"
    assert us_phone("+1 503-555-0147") == "5035550147"
    assert us_phone("+44 503-555-0147") == "445035550147"
    # Without a refusal the number is looked up as given: a country code then misses.
    with pytest.raises(ToolError, match="phone number"):
        STRICT.by_phone(PEOPLE, "+1 503-555-0147")
    assert STRICT.by_phone(PEOPLE, "503.555.0147") == {"id": "A"}


def test_a_custom_match_can_carry_its_own_refusal() -> None:
    def is_b(c: Caller) -> bool:
        return c.key == "B"

    assert LOOKUP.by(PEOPLE, is_b, "key") == {"id": "B"}
    with pytest.raises(ToolError, match=r"^no such caller$"):
        LOOKUP.by(PEOPLE, lambda c: False, "key", refusal="no such caller")


class _Desk(DomainDB):
    transfers: dict[str, Transfer]


def _table(rows: dict[str, Any] | None = None) -> Table[Any]:
    return Table("transfers", rows or {}, {})


def test_desk_numbers_from_the_state_and_keeps_the_summary_out_of_the_json() -> None:
    desk = HandOffDesk(prefix="TR-", record=summary_transfer, reply="{id}: {summary}")
    table = _table({"TR-0007": Transfer(id="TR-0007")})
    assert desk.hand_off(table, "card stolen") == "TR-0008: card stolen"
    record = table["TR-0008"]
    assert record.summary == "card stolen"
    assert record.model_dump(mode="json") == {"id": "TR-0008"}


def test_desk_lead_width_floor_and_blank_refusal() -> None:
    desk = HandOffDesk(
        prefix="TR",
        record=summary_transfer,
        reply="{id}",
        width=0,
        floor=10000,
        blank="write a summary",
    )
    table = _table()
    with pytest.raises(ToolError, match=r"^write a summary$"):
        desk.hand_off(table, "   ")
    assert list(table.items()) == []
    assert desk.hand_off(table, "x", lead="5") == "TR510001"


def test_the_shared_desks_write_their_domains_records() -> None:
    table = _table()
    assert CUSTOMER_CARE.hand_off(table, "x") == (
        "Transfer TR-0001 created; a human agent will take over."
    )
    assert table["TR-0001"].model_dump(mode="json") == {
        "transfer_id": "TR-0001",
        "queue": "customer_care",
    }
    stamped = _table()
    stamped_desk("2025-06-01T09:00").hand_off(stamped, "x")
    assert stamped["TR0001"] == StampedTransfer(id="TR0001", created_at="2025-06-01T09:00")


def test_split_generator_declares_both_databases() -> None:
    made: list[str] = []

    def generate(series: str) -> _Desk:
        made.append(series)
        return _Desk(transfers={})

    split = SplitGenerator(generate, "train-series", "eval-series")
    databases = split.databases()
    assert {name: db.file for name, db in databases.items()} == {
        "train": "db_train.json",
        "eval": "db_eval.json",
    }
    databases["eval"].generate()
    assert made == ["eval-series"]
    assert dict(SPLIT_DATABASE) == {"train": "train", "test": "eval"}


def test_person_lists_its_fields_first() -> None:
    class Customer(Person):
        zip_code: str

    fields = list(Customer.model_fields)
    assert fields == ["id", "first_name", "last_name", "email", "phone", "zip_code"]
    dana = Customer(
        id="C1", first_name="Dana", last_name="Ruiz", email="d@x", phone="1", zip_code="9"
    )
    assert dana.full_name == "Dana Ruiz"


@pytest.mark.parametrize("name", domain_names())
def test_every_domain_hands_off_through_one_desk(name: str) -> None:
    """`transfer_to_human_agents` writes exactly one hand-off row and no summary in the hash."""
    domain = load_domain(name)
    variant = next(iter(domain.databases))
    env = Environment(domain, variant)
    before = env.hash()
    env.call("transfer_to_human_agents", {"summary": "Customer needs a person."})
    rows = env.state.changes()["transfers"]
    assert len(rows) == 1
    (record,) = rows.values()
    assert "summary" not in record.model_dump(mode="json")
    assert env.hash() != before
    env.reset()
    env.call("transfer_to_human_agents", {"summary": "Someone else worded it."})
    other = env.hash()
    env.reset()
    env.call("transfer_to_human_agents", {"summary": "Customer needs a person."})
    assert env.hash() == other, "the summary's wording reached the state hash"


@dataclass(frozen=True)
class _Series:
    seed: int
    digit: str
    surnames: tuple[str, ...]


def test_series_run_leads_ids_with_its_digit_and_draws_only_its_own_family_names() -> None:
    run = SeriesRun(_Series(seed=7, digit="6", surnames=("Okafor", "Ruiz")))
    assert run.ident("CU-", 42, 4) == "CU-60042"
    names = {run.name(("Dana", "Lee")) for _ in range(50)}
    assert {last for _, last in names} == {"Okafor", "Ruiz"}
    first = SeriesRun(_Series(seed=7, digit="1", surnames=("Okafor", "Ruiz")))
    second = SeriesRun(_Series(seed=7, digit="1", surnames=("Okafor", "Ruiz")))
    assert [first.phone("503") for _ in range(5)] == [second.phone("503") for _ in range(5)]
    assert first.phone("503").startswith("503-555-")


SEATS = {"A1": "aisle", "A2": "middle", "A3": "window"}


def _named(ids: list[str], repeated: str | None = "said twice") -> list[str]:
    return list(
        each_named(ids, SEATS, empty="name one", repeated=repeated, missing=lambda k: f"no {k}")
    )


def test_each_named_gives_the_members_in_the_order_named() -> None:
    assert _named(["A3", "A1"]) == ["window", "aisle"]


@pytest.mark.parametrize(
    ("ids", "repeated", "refusal"),
    [
        ([], "said twice", "name one"),
        (["A1", "A1"], "said twice", "said twice"),
        (["A1", "A1"], None, "name one"),
        (["A1", "B7", "Z9"], "said twice", "no B7"),
    ],
)
def test_each_named_refuses_in_the_domains_words(
    ids: list[str], repeated: str | None, refusal: str
) -> None:
    with pytest.raises(ToolError) as refused:
        _named(ids, repeated)
    assert str(refused.value) == refusal


def test_each_named_refuses_an_empty_or_doubled_list_before_any_member_is_read() -> None:
    # Eager, so a caller's own first check cannot run on a list that was never valid.
    with pytest.raises(ToolError, match="said twice"):
        each_named(["B7", "B7"], SEATS, empty="name one", repeated="said twice", missing=str)


def test_a_later_members_absence_waits_for_the_callers_check_of_an_earlier_one() -> None:
    seen = []
    with pytest.raises(ToolError, match="no B7"):
        for seat in each_named(["A2", "B7"], SEATS, empty="name one", missing=lambda k: f"no {k}"):
            seen.append(seat)
    assert seen == ["middle"]
