"""Stage 4: feelings from the request, a condition from the mapper, twins, and coverage."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from tau_emotion.data import Action, EmotionSpec, Intent, Task
from tau_emotion.emotions import EMOTIONS, FAMILIES, FAMILY_OF, to_emotion_spec
from tau_emotion.emotions.anchors import default_anchor_set
from tau_emotion.tracer.feel import LexiconMapper, feel_candidate
from tau_emotion.tracer.feel.coverage import (
    COMBOS,
    FAMILY_FLOOR,
    coverage_gaps,
    enforce_coverage,
)
from tau_emotion.tracer.feel.cues import KIND_EMOTIONS, request_kind, write_feeling
from tau_emotion.tracer.records import Candidate
from tau_emotion.tracer.write import situation_of


class FakeMapper:
    """Maps every text to one condition; records what it was asked."""

    name = "fake"

    def __init__(self, condition_id: str = "sadness.disappointment.warm.low.trusting") -> None:
        self.condition_id = condition_id
        self.seen: list[str] = []

    def map(self, texts: Sequence[str]) -> list[EmotionSpec]:
        self.seen += list(texts)
        return [to_emotion_spec(self.condition_id, f"You feel let down. ({t[:10]})") for t in texts]

    def instruction(self, condition_id: str, text: str) -> str:
        return f"You carry {condition_id}."


def _task(tool: str = "cancel_reservation", n: int = 0) -> Task:
    return Task(
        id=f"airline-w{n:05d}",
        domain="airline",
        split="test",
        user_id="u1",
        instruction="You are Ana Lee. You want to cancel your reservation ABC123.",
        known_facts={"full_name": "Ana Lee", "reservation_code": "ABC123"},
        intents=[
            Intent(
                request="Hi, I'd like to cancel my reservation ABC123.",
                actions=[Action(name=tool, arguments={"reservation_code": "ABC123"})],
                outputs=["120"],
            )
        ],
    )


def _candidate(task: Task) -> Candidate:
    return Candidate(
        walk_id=task.id,
        trace="x",
        variant="main",
        final_hash="h",
        task=task,
        situation="cancel your reservation ABC123",
    )


def test_the_condition_the_feeling_was_written_for_travels_as_data() -> None:
    mapper = FakeMapper()
    felt = feel_candidate(_candidate(_task()), mapper, seed=1, twin=True)
    assert felt.candidate is not None and felt.twin is not None
    task = felt.candidate.task
    assert task.feeling and "cancel your reservation ABC123" in task.feeling
    assert mapper.seen == [], "no stage re-guesses the condition from the text"
    # The same seed writes the same feeling for the same emotion and dimensions.
    rng = random.Random(f"tracer/feel/1/{task.id}")
    goals = [a.name for i in task.intents for a in i.actions]
    values = [str(v) for a in task.gold_actions for v in a.arguments.values()]
    text, emotion, dims = write_feeling(
        "Ana Lee", _candidate(_task()).situation, request_kind(goals, values), rng
    )
    assert task.emotion is not None and text == task.feeling
    assert (task.emotion.emotion, task.emotion.politeness, task.emotion.urgency) == (
        emotion,
        *dims[:2],
    )
    assert task.emotion.trust == dims[2]


def test_a_policy_challenge_feels_like_being_refused() -> None:
    assert request_kind(["cancel_reservation"], [], challenged=True) == "refused"
    families = {FAMILY_OF[e] for e in KIND_EMOTIONS["refused"]}
    assert {"anger", "sadness"} <= families


def test_the_twin_differs_only_in_the_emotion() -> None:
    felt = feel_candidate(_candidate(_task()), FakeMapper(), seed=1, twin=True)
    assert felt.candidate is not None and felt.twin is not None
    task, twin = felt.candidate.task, felt.twin
    assert twin.id == f"{task.id}-neutral" and task.neutral_twin_id == twin.id
    assert twin.neutral_twin_id == task.id and twin.emotion is None and twin.feeling is None
    strip = {"id", "emotion", "feeling", "neutral_twin_id"}
    assert task.model_dump(exclude=strip) == twin.model_dump(exclude=strip)


def test_request_kinds_pick_plausible_emotions() -> None:
    assert request_kind(["cancel_reservation"], []) == "loss"
    assert request_kind(["freeze_card"], ["stolen"]) == "alarm"
    assert request_kind(["book_reservation"], []) == "gain"
    assert request_kind(["cancel_booking"], ["bereavement"]) == "grief"
    assert request_kind(["transfer_to_human_agents"], []) == "handoff"
    rng = random.Random(3)
    for _ in range(20):
        _, emotion, _ = write_feeling("Ana Lee", "cancel their trip", "loss", rng)
        assert emotion in KIND_EMOTIONS["loss"]


def test_feelings_are_seeded_and_varied() -> None:
    a = [feel_candidate(_candidate(_task(n=i)), FakeMapper(), 4, False) for i in range(6)]
    b = [feel_candidate(_candidate(_task(n=i)), FakeMapper(), 4, False) for i in range(6)]
    assert a == b
    feelings = {f.candidate.task.feeling for f in a if f.candidate}
    assert len(feelings) > 1


def test_the_situation_is_the_first_request_in_the_your_form() -> None:
    assert situation_of(["cancel my reservation ABC123"]) == "cancel your reservation ABC123"
    # Up to the first comma or full stop (not a decimal point); nothing asked: a default.
    assert situation_of(["pay 12.50 on my bill, now", "x"]) == "pay 12.50 on your bill"
    assert situation_of([]) == "sort out your account"
    assert situation_of(["change how I pay for my order ORD-1"]) == (
        "change how you pay for your order ORD-1"
    )


def test_the_lexicon_mapper_reads_the_writers_cues() -> None:
    text, emotion, dims = write_feeling("Ana Lee", "cancel their trip", "loss", random.Random(9))
    spec = LexiconMapper(0).map([text])[0]
    assert spec.emotion == emotion and (spec.politeness, spec.urgency, spec.trust) == dims
    assert spec.family == FAMILY_OF[emotion]
    assert spec.instruction in default_anchor_set().anchors[spec.condition_id]


def test_coverage_fills_every_emotion_and_combination() -> None:
    base = to_emotion_spec("anger.annoyance.neutral.moderate.cautious", "You are irritated.")
    tasks = [_task(n=i).model_copy(update={"emotion": base, "feeling": "x"}) for i in range(60)]
    assert coverage_gaps(tasks) != ([], [])
    situations = {t.id: "cancel your reservation ABC123" for t in tasks}
    covered = enforce_coverage(tasks, situations, FakeMapper(), seed=2)
    assert coverage_gaps(covered) == ([], [])
    assert {t.emotion.emotion for t in covered if t.emotion} == set(EMOTIONS)
    combos = {
        (t.emotion.politeness, t.emotion.urgency, t.emotion.trust) for t in covered if t.emotion
    }
    assert combos == set(COMBOS)
    changed = [(a, b) for a, b in zip(tasks, covered, strict=True) if a != b]
    for before, after in changed:
        assert before.model_dump(exclude={"emotion", "feeling"}) == after.model_dump(
            exclude={"emotion", "feeling"}
        )
    assert enforce_coverage(tasks, situations, FakeMapper(), seed=2) == covered


def test_coverage_lifts_every_family_to_a_tenth_and_into_every_domain() -> None:
    """A set the mapper filled with anger, in two domains, leaves coverage with every family
    at a tenth of the set and in both domains."""
    anger = to_emotion_spec("anger.annoyance.neutral.moderate.cautious", "You are irritated.")
    tasks = [_task(n=i).model_copy(update={"emotion": anger, "feeling": "x"}) for i in range(80)]
    tasks += [
        _task(n=100 + i).model_copy(update={"domain": "bank", "emotion": anger, "feeling": "x"})
        for i in range(20)
    ]
    situations = {t.id: "cancel your reservation ABC123" for t in tasks}
    covered = enforce_coverage(tasks, situations, FakeMapper(), seed=2)
    families = Counter(t.emotion.family for t in covered if t.emotion)
    assert min(families[f] for f in FAMILIES) >= FAMILY_FLOOR * len(covered), families
    for domain in ("airline", "bank"):
        held = {t.emotion.family for t in covered if t.emotion and t.domain == domain}
        assert held == set(FAMILIES), domain
    assert coverage_gaps(covered) == ([], [])
    assert enforce_coverage(tasks, situations, FakeMapper(), seed=2) == covered
