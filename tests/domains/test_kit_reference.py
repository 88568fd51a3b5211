"""kit/reference.py: a domain's fixed tables are read from JSON as the type the module names."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tau_emotion.domains.kit.reference import Reference
from tau_emotion.domains.travel.pools import TRAIN_MARKET, Market


def test_a_table_is_validated_into_the_declared_type() -> None:
    market = Reference("tau_emotion.domains.travel", "markets.json").table("train", Market)
    assert market == TRAIN_MARKET
    assert isinstance(market.catalogue[0].tours, tuple)
    assert market.surnames[0] == "Ackerly"


def test_a_missing_table_is_named() -> None:
    with pytest.raises(KeyError, match="has no table 'nowhere'"):
        Reference("tau_emotion.domains.travel", "markets.json").table("nowhere", Market)


def test_a_table_of_the_wrong_shape_is_a_load_error() -> None:
    with pytest.raises(ValidationError):
        Reference("tau_emotion.domains.travel", "markets.json").table("room_types", Market)
