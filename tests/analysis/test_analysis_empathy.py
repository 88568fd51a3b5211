"""Empathy detection (lexicon, pattern, judge) and success with / without it."""

from __future__ import annotations

import asyncio
import json

import pytest

from tau_emotion.analysis.empathy import (
    detect_empathy,
    empathy_analysis,
    episode_empathy,
    judge_empathy,
)
from tau_emotion.data import EmotionSpec, Episode, Message, TerminationReason
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.users.scripted import acknowledges_feelings

SCRIPTED_USER_PHRASES = [
    "I understand",
    "I'm sorry",
    "I am sorry",
    "I apologise",
    "I apologize",
    "sorry to hear",
    "I can imagine",
    "That sounds hard",
    "I hear you",
    "Understandably",
    "that must be stressful",
    "don't worry",
    "do not worry",
    "I appreciate your patience",
    "I know this is a lot",
    "That's frustrating",
]


@pytest.mark.parametrize("phrase", SCRIPTED_USER_PHRASES)
def test_covers_every_phrase_the_scripted_user_listens_for(phrase: str) -> None:
    assert acknowledges_feelings(phrase)
    assert detect_empathy(f"{phrase}. Let me check your booking.")


def test_cues_and_pattern() -> None:
    assert detect_empathy("My apologies for the wait.") == ["apology"]
    assert detect_empathy("Rest assured, it is handled.") == ["reassurance"]
    assert detect_empathy("Thanks for your patience.") == ["patience"]
    assert detect_empathy("You seem quite worried about the fee.") == ["feeling_reference"]
    assert detect_empathy("Your booking ABC123 is cancelled. Refund: 230.") == []
    assert detect_empathy(None) == []


def spec(family: str) -> EmotionSpec:
    return EmotionSpec(
        condition_id=f"{family}.e.cold.high.skeptical",
        family=family,
        emotion="e",
        politeness="cold",
        urgency="high",
        trust="skeptical",
        instruction="x",
    )


def ep(trial: int, ok: bool, agent_text: str, family: str | None = "anger") -> Episode:
    return Episode(
        task_id="t",
        domain="airline",
        trial=trial,
        seed=0,
        emotion=spec(family) if family else None,
        messages=[
            Message(role="system", content="I understand the policy."),  # system text never counts
            Message(role="user", content="I am furious, I'm sorry to say."),  # nor user text
            Message(role="assistant", content=agent_text),
        ],
        termination=TerminationReason.USER_STOP,
        reward=1.0 if ok else 0.0,
    )


WARM, COLD = "I'm so sorry about this. Let me fix it.", "Provide the booking code."


def test_success_with_and_without_empathy_per_family() -> None:
    episodes = [
        ep(0, True, WARM),
        ep(1, False, WARM),
        ep(2, False, COLD),
        ep(3, False, COLD),
        ep(4, True, COLD, family=None),
    ]
    report = empathy_analysis(episodes)
    anger = report.by_family["anger"]
    assert (anger.with_empathy.count, anger.with_empathy.total) == (1, 2)
    assert (anger.without_empathy.count, anger.without_empathy.total) == (0, 2)
    assert anger.difference == pytest.approx(0.5)
    assert report.by_family["none"].difference is None  # nobody was warm to the neutral user
    assert report.emotional.episodes == 4
    assert report.method == "lexicon"
    assert "not cause" in report.note
    assert episode_empathy(episodes[0]).turns == [2]


def test_judge_adds_turns_the_lexicon_missed() -> None:
    def reply(messages: object, tools: object) -> str:
        return json.dumps({"turns": [2, 1, 99]})  # 1 is a user turn, 99 does not exist

    judge = ScriptedModel(reply, name="judge")
    episodes = [ep(0, True, "Let me get that fixed for you right away."), ep(1, True, WARM)]
    judged = asyncio.run(judge_empathy(episodes, judge))
    assert list(judged) == [episodes[0].key]  # the lexicon already settled the warm one
    report = empathy_analysis(episodes, judged)
    assert report.method == "lexicon+judge"
    assert report.episodes[0].turns == [2] and "judge" in report.episodes[0].cues
    assert len(judge.requests) == 1


def test_judge_garbage_adds_nothing() -> None:
    judge = ScriptedModel(["not json"], name="judge")
    judged = asyncio.run(judge_empathy([ep(0, True, COLD)], judge))
    assert empathy_analysis([ep(0, True, COLD)], judged).episodes[0].turns == []


def test_a_judge_that_never_answers_is_counted_not_claimed() -> None:
    from tau_emotion.errors import ModelError

    def down(messages: object, tools: object) -> ModelError:
        return ModelError("connection refused")

    episodes = [ep(0, True, COLD), ep(1, False, COLD), ep(2, True, WARM)]
    judged = asyncio.run(judge_empathy(episodes, ScriptedModel(down, name="dead")))
    assert judged == {episodes[0].key: None, episodes[1].key: None}  # no answer, not "none"
    report = empathy_analysis(episodes, judged)
    assert report.method == "lexicon"
    assert report.judge is not None and (report.judge.asked, report.judge.failed) == (2, 2)
    # One answer of two: the judge is claimed, and the one it missed is counted.
    half = empathy_analysis(episodes, {episodes[0].key: [2], episodes[1].key: None})
    assert half.method == "lexicon+judge"
    assert half.judge is not None and (half.judge.answered, half.judge.failed) == (1, 1)
