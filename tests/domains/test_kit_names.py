"""The shared name pool: one file, typed, with the split invariants the generators rely on."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tau_emotion.domains.kit import names
from tau_emotion.domains.kit.names import NamePool


def test_every_split_family_list_has_a_disjoint_partner() -> None:
    family = names.pool().family
    trains = [key for key in family if key.endswith(".train")]
    assert trains, "the split domains keep their family names here"
    for key in trains:
        partner = key.removesuffix(".train") + ".eval"
        assert not set(family[key]) & set(family[partner])


def test_no_two_lists_are_copies() -> None:
    pool = names.pool()
    for lists in (pool.given, pool.family, pool.email_domains):
        values = list(lists.values())
        assert len({tuple(v) for v in values}) == len(values)


def test_lookups_name_the_missing_key() -> None:
    assert names.given("travel.children")[0] == "Milo"
    with pytest.raises(KeyError, match="no family list 'nowhere'"):
        names.family("nowhere")


def test_a_name_shared_across_the_split_is_refused() -> None:
    with pytest.raises(ValidationError, match="share"):
        NamePool(
            given={},
            family={"x.train": ("Ng", "Ode"), "x.eval": ("Ode",)},
            email_domains={},
        )


def test_a_name_listed_twice_is_refused() -> None:
    with pytest.raises(ValidationError, match="twice"):
        NamePool(given={"x": ("Ana", "Ana")}, family={}, email_domains={})
