"""Values named by a preference the tools pin down: the earliest slot a search lists, the
cheapest add-on. The writer says it that way, and validation holds it to the lookup."""

from __future__ import annotations

import pytest

from emotion_specs import condition_spec
from tau_emotion.tracer.preference import pinned_by, preference_of, says
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.records import Felt
from tau_emotion.tracer.validate import check
from tracer_walks import first_valid

SLOTS = [
    {"slot_id": "S1", "start": "2025-03-11T10:30", "price": "80.00"},
    {"slot_id": "S2", "start": "2025-03-11T08:00", "price": "95.00"},
    {"slot_id": "S3", "start": "2025-03-12T08:00", "price": "80.00"},
]


def test_the_strict_end_of_a_list_is_a_preference() -> None:
    assert preference_of("S2", SLOTS) == "earliest"
    assert preference_of("S1", SLOTS) is None  # neither earliest nor alone at the lowest price
    assert preference_of("S2", {"slots": SLOTS, "count": 3}) == "earliest"
    cheap = [{"addon_id": "A", "price": 5}, {"addon_id": "B", "price": 12}]
    assert preference_of("A", cheap) == "cheapest" and preference_of("B", cheap) is None


def test_a_tie_or_a_lone_record_pins_nothing_down() -> None:
    tied = [{"slot_id": "S1", "start": "2025-03-11T08:00"}, *SLOTS[1:]]
    assert preference_of("S2", tied) is None
    assert preference_of("S2", SLOTS[1:2]) is None  # nothing to be the earliest of
    shared = [{"slot_id": "S1", "provider_id": "D1"}, {"slot_id": "S2", "provider_id": "D1"}]
    assert preference_of("D1", shared) is None  # the provider names both records
    assert preference_of("S9", SLOTS) is None


def test_a_preference_is_said_in_words_and_pinned_by_a_result_seen() -> None:
    assert says("earliest", "I'll take the first opening she has that day")
    assert says("cheapest", "Whichever add-on is the least expensive")
    assert not says("earliest", "any slot that afternoon, thanks")
    assert pinned_by("S2", "earliest", [None, SLOTS])
    assert not pinned_by("S2", "cheapest", [SLOTS])


SPEC = condition_spec("fear", "nervousness", "neutral", "moderate", "cautious")


@pytest.fixture(scope="module")
def earliest() -> Felt:
    """A telehealth booking whose slot is the earliest of the search the gold runs."""
    intents = [
        ["find_patient_by_email", "list_providers", "search_available_slots", "book_appointment"]
    ]
    return first_valid(
        "telehealth", intents, lambda c: bool(c.preferred), "Worried about the visit.", SPEC, 40
    )


def test_the_writer_asks_for_the_earliest_slot(earliest: Felt) -> None:
    assert earliest.candidate is not None
    task = earliest.candidate.task
    (slot, preferred), *_ = earliest.candidate.preferred.items()
    assert preferred == "earliest"
    assert "the earliest slot available" in task.instruction
    assert earliest.candidate.mentions[slot] in task.instruction
    assert slot not in task.instruction


def test_validation_holds_a_preference_to_its_words(earliest: Felt) -> None:
    """A hand-written review may say the preference its own way; without one, the slot is
    named by nothing the customer says."""
    profile = load_profile("telehealth")
    assert earliest.candidate is not None and earliest.twin is not None

    def reworded(old: str, new: str) -> Felt:
        assert earliest.candidate is not None and earliest.twin is not None
        task = earliest.candidate.task
        update = {
            "instruction": task.instruction.replace(old, new),
            "intents": [
                i.model_copy(update={"request": i.request.replace(old, new)}) for i in task.intents
            ],
        }
        candidate = earliest.candidate.model_copy(update={"task": task.model_copy(update=update)})
        twin = earliest.twin.model_copy(update=update)
        return earliest.model_copy(update={"candidate": candidate, "twin": twin})

    own_words = reworded("the earliest slot available", "the first opening there is")
    assert check(profile, own_words, run_oracle=False) == []
    vague = reworded("the earliest slot available", "a slot that suits")
    assert any(r.reason.startswith("underivable:") for r in check(profile, vague, run_oracle=False))
