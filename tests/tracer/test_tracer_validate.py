"""Stage 5: validation keeps sound tasks and rejects each planted defect with its reason."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tau_emotion.data import Action, EmotionSpec, Intent
from tau_emotion.tracer.feel import attach
from tau_emotion.tracer.graph import build_graph
from tau_emotion.tracer.ground import ground_walk
from tau_emotion.tracer.profile import Profile, load_profile
from tau_emotion.tracer.records import Candidate, Felt, Rejection
from tau_emotion.tracer.validate import check, leaked_ids
from tau_emotion.tracer.walks import walk_domain

SPEC = EmotionSpec(
    condition_id="anger.frustration.cold.high.skeptical",
    family="anger",
    emotion="frustration",
    politeness="cold",
    urgency="high",
    trust="skeptical",
    instruction="You feel blocked at every turn and want this fixed now.",
)


def airline() -> Profile:
    return load_profile("airline")


def reasons(found: Sequence[Rejection]) -> list[str]:
    return [r.reason for r in found]


@pytest.fixture(scope="module")
def sound() -> Felt:
    """A grounded airline test task of plain work that passes every check (the first one
    found)."""
    walks = [
        w for w in walk_domain(airline(), build_graph(airline()), 80, 2, 80) if w.split == "test"
    ]
    for walk in walks:
        result = ground_walk(airline(), walk, 2)
        candidate = result.candidate
        if candidate is None or len(candidate.task.intents) != 1 or candidate.task.challenge:
            continue  # one intent of plain work
        felt = attach(result.candidate, "Annoyed about the trip.", SPEC, twin=True)
        if not check(airline(), felt):
            return felt
    raise AssertionError("no sound airline candidate in 80 walks")


def _with_task(felt: Felt, **update: object) -> Felt:
    assert felt.candidate is not None and felt.twin is not None
    task = felt.candidate.task.model_copy(update=update)
    twin_fields = {k: v for k, v in update.items() if k not in ("emotion", "feeling")}
    twin = felt.twin.model_copy(update=twin_fields)
    return felt.model_copy(
        update={"candidate": felt.candidate.model_copy(update={"task": task}), "twin": twin}
    )


def _candidate(felt: Felt) -> Candidate:
    assert felt.candidate is not None
    return felt.candidate


def test_a_sound_task_passes(sound: Felt) -> None:
    assert check(airline(), sound) == []


def test_a_planted_internal_id_is_caught(sound: Felt) -> None:
    task = _candidate(sound).task
    user_id = task.user_id
    assert leaked_ids([f"my account is {user_id}"], frozenset({user_id})) == [user_id]
    leaky = _with_task(sound, instruction=task.instruction + f" Your id is {user_id}.")
    assert "id_leak" in reasons(check(airline(), leaky))
    feeling = _with_task(sound, feeling=f"Upset about {user_id}.")
    assert "id_leak" in reasons(check(airline(), feeling, run_oracle=False))


def test_an_underivable_argument_is_caught(sound: Felt) -> None:
    task = _candidate(sound).task
    intent = task.intents[0]
    actions = list(intent.actions)
    # Same lookup, but with a birth date the customer never states.
    first = actions[0]
    if "date_of_birth" in first.arguments or "email" in first.arguments:
        key = "date_of_birth" if "date_of_birth" in first.arguments else "email"
        changed = {**first.arguments, key: "1900-01-01" if key == "date_of_birth" else "x@y.z"}
        actions[0] = Action(name=first.name, arguments=changed)
    else:
        changed = {**first.arguments, "zip_code": "00000"}
        actions[0] = Action(name=first.name, arguments=changed)
    bad = _with_task(sound, intents=[intent.model_copy(update={"actions": actions})])
    found = reasons(check(airline(), bad, run_oracle=False))
    assert "gold_refused" in found or any(r.startswith("underivable:") for r in found)


def test_a_wrong_hash_is_a_replay_mismatch(sound: Felt) -> None:
    c = _candidate(sound)
    bad = sound.model_copy(update={"candidate": c.model_copy(update={"final_hash": "0" * 64})})
    assert "replay_mismatch" in reasons(check(airline(), bad, run_oracle=False))


def test_a_refused_gold_action_is_caught(sound: Felt) -> None:
    task = _candidate(sound).task
    intent = task.intents[0]
    broken = [
        *intent.actions,
        Action(name="get_reservation_details", arguments={"reservation_code": "NOPE00"}),
    ]
    bad = _with_task(sound, intents=[intent.model_copy(update={"actions": broken})])
    assert reasons(check(airline(), bad, run_oracle=False)) == ["gold_refused"]


def test_an_intent_without_a_goal_is_caught(sound: Felt) -> None:
    task = _candidate(sound).task
    reads = [a for a in task.intents[0].actions if a.name.startswith(("find_", "get_"))]
    bad = _with_task(sound, intents=[Intent(request="Hello.", actions=reads, outputs=[])])
    assert "no_concrete_goal" in reasons(check(airline(), bad, run_oracle=False))


def test_a_policy_violation_is_caught(sound: Felt) -> None:
    task = _candidate(sound).task
    actions = list(task.intents[0].actions)
    # The identity lookup moved to the end: everything before it is unauthenticated.
    reordered = [*actions[1:], actions[0]]
    bad = _with_task(sound, intents=[task.intents[0].model_copy(update={"actions": reordered})])
    found = reasons(check(airline(), bad, run_oracle=False))
    assert any(r.startswith("policy:airline.") for r in found)


def test_twin_and_emotion_defects_are_caught(sound: Felt) -> None:
    assert sound.twin is not None
    twin = sound.twin.model_copy(update={"instruction": "Something else entirely."})
    assert "twin_mismatch" in reasons(check(airline(), sound.model_copy(update={"twin": twin})))
    no_twin = sound.model_copy(update={"twin": None})
    assert "twin_mismatch" in reasons(check(airline(), no_twin, run_oracle=False))
    no_emotion = _with_task(sound, emotion=None)
    assert "missing_emotion" in reasons(check(airline(), no_emotion, run_oracle=False))


def test_an_earlier_rejection_passes_through() -> None:
    felt = Felt(walk_id="w", rejection=Rejection(stage="ground", reason="screen"))
    assert reasons(check(airline(), felt)) == ["screen"]


def test_a_date_the_customer_says_in_words_is_derivable(sound: Felt) -> None:
    import re

    from tau_emotion.tracer.values import spoken_dates

    assert spoken_dates("2025-06-01") == ["june 1st", "june 1", "1 june", "1st of june"]
    assert spoken_dates("2025-13-01") == [] and spoken_dates("LK123") == []
    task = _candidate(sound).task
    iso = re.compile(r"\d{4}-\d{2}-\d{2}")

    def spoken(text: str, day: int | None = None) -> str:
        def say(m: re.Match[str]) -> str:
            words = spoken_dates(m.group(0))[0].title()
            return words if day is None else f"{words.split()[0]} {day}"

        return iso.sub(say, text)

    dated = [
        a for a in task.gold_actions if any(iso.fullmatch(str(v)) for v in a.arguments.values())
    ]
    if not dated:
        pytest.skip("the sound task carries no date")

    def told(day: int | None) -> Felt:
        return _with_task(
            sound,
            instruction=spoken(task.instruction, day),
            intents=[
                i.model_copy(update={"request": spoken(i.request, day)}) for i in task.intents
            ],
            known_facts={k: spoken(v, day) for k, v in task.known_facts.items()},
        )

    assert not [
        r for r in reasons(check(airline(), told(None), run_oracle=False)) if "underivable" in r
    ]
    wrong = reasons(check(airline(), told(31), run_oracle=False))
    assert any(r.startswith("underivable:") for r in wrong)
