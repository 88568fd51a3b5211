"""A replacement named by how it differs from what the customer has: "the same jacket in
size S", not "the version at price 129.00" that several variants share."""

from __future__ import annotations

import pytest

from emotion_specs import condition_spec
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.records import Candidate, Felt
from tau_emotion.tracer.validate import check
from tau_emotion.tracer.values import describe
from tau_emotion.tracer.variant import relative_variant
from tracer_walks import first_valid

MINE = {
    "item_id": "SKU-1",
    "product_id": "P-1",
    "name": "Rain Jacket",
    "options": {"size": "L", "color": "black"},
    "price": "129.00",
}
VARIANTS = [
    {"item_id": "SKU-1", "options": {"size": "L", "color": "black"}, "price": "129.00"},
    {"item_id": "SKU-2", "options": {"size": "S", "color": "black"}, "price": "129.00"},
    {"item_id": "SKU-3", "options": {"size": "S", "color": "red"}, "price": "129.00"},
]
PRODUCT = {"product_id": "P-1", "name": "Rain Jacket", "variants": VARIANTS}


def test_a_variant_is_described_by_its_options() -> None:
    assert describe(MINE, "SKU-1") == "Rain Jacket in size L and color black"
    assert describe(VARIANTS[2], "SKU-3") == "in size S and color red price 129.00"


def test_a_replacement_is_named_by_what_differs() -> None:
    assert relative_variant(MINE, VARIANTS[1], PRODUCT) == (
        "the same Rain Jacket in size S",
        "size S",
    )
    assert relative_variant(MINE, VARIANTS[2], PRODUCT) == (
        "the same Rain Jacket in size S and color red",
        "size S and color red",
    )


def test_a_replacement_that_cannot_be_told_so_is_not_named_so() -> None:
    assert relative_variant(MINE, VARIANTS[0], PRODUCT) is None  # nothing differs
    other = {**PRODUCT, "product_id": "P-2"}
    assert relative_variant(MINE, VARIANTS[1], other) is None  # another product's list
    twice = {**PRODUCT, "variants": [*VARIANTS, {**VARIANTS[1], "item_id": "SKU-4"}]}
    assert relative_variant(MINE, twice["variants"][1], twice) is None  # two would fit
    bare = {k: v for k, v in MINE.items() if k != "options"}
    assert relative_variant(bare, VARIANTS[1], PRODUCT) is None
    shaped = {**VARIANTS[1], "options": {"size": "S"}}
    assert relative_variant(MINE, shaped, {**PRODUCT, "variants": [shaped]}) is None


SPEC = condition_spec("anger", "annoyance", "neutral", "moderate", "cautious")


def _swap_named_by_difference(candidate: Candidate) -> bool:
    gold = candidate.task.intents[0].actions[-1]
    return gold.name == "change_pending_item" and "the same " in candidate.task.instruction


@pytest.fixture(scope="module")
def swap() -> Felt:
    """A retail swap of an ordered item for another variant of its product."""
    intents = [["find_customer_by_email", "get_order", "get_product", "change_pending_item"]]
    return first_valid(
        "retail", intents, _swap_named_by_difference, "Annoyed at the mix-up.", SPEC, 60
    )


def test_the_writer_names_the_new_variant_by_its_difference(swap: Felt) -> None:
    assert swap.candidate is not None
    task = swap.candidate.task
    new = task.intents[0].actions[-1].arguments["new_item_id"]
    difference = swap.candidate.mentions[new]
    assert f"in {difference}" in task.instruction
    assert "price" not in difference and new not in task.instruction


def test_validation_asks_for_the_difference(swap: Felt) -> None:
    """Without the options that differ, nothing the customer says picks the variant."""
    profile = load_profile("retail")
    assert swap.candidate is not None and swap.twin is not None
    task = swap.candidate.task
    new = task.intents[0].actions[-1].arguments["new_item_id"]
    difference = swap.candidate.mentions[new]
    update = {
        "instruction": task.instruction.replace(f" in {difference}", " in another version"),
        "intents": [
            i.model_copy(update={"request": i.request.replace(difference, "another version")})
            for i in task.intents
        ],
    }
    candidate = swap.candidate.model_copy(update={"task": task.model_copy(update=update)})
    vague = swap.model_copy(
        update={"candidate": candidate, "twin": swap.twin.model_copy(update=update)}
    )
    problems = check(profile, vague, run_oracle=False)
    assert any(r.reason.startswith("underivable:") for r in problems)
