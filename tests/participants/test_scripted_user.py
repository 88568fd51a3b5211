"""The scripted emotional user's behaviours, each on a constructed conversation."""

from __future__ import annotations

from scripted_turns import opened, turn

from emotion_specs import condition_spec
from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, EmotionSpec, Task
from tau_emotion.domains import Domain
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users.scripted import ScriptedUser, acknowledges_feelings, temperament

from toy_domain import credit_task


def emotion(
    family: str = "anger",
    name: str = "frustration",
    politeness: str = "cold",
    urgency: str = "high",
    trust: str = "skeptical",
) -> EmotionSpec:
    return condition_spec(family, name, politeness, urgency, trust)


def user_for(
    toy: Domain, spec: EmotionSpec | None = None, allow_exit: bool = True
) -> tuple[ScriptedUser, Task]:
    task = credit_task().model_copy(update={"emotion": spec})
    return ScriptedUser(EpisodeSetup(task, toy, seed=3, trial=0), allow_exit=allow_exit), task


def test_opens_with_first_request_and_wording_follows_the_condition(toy: Domain) -> None:
    warm, _ = user_for(toy, emotion("fear", "anxiety", "warm", "low", "trusting"))
    cold, _ = user_for(toy, emotion("anger", "frustration", "cold", "high", "skeptical"))
    warm_text, cold_text = opened(warm)[0].content or "", opened(cold)[0].content or ""
    assert "store credit" in warm_text and "store credit" in cold_text
    assert warm_text.startswith("Hi there") and "right now" in cold_text
    assert warm_text != cold_text


def test_answers_known_facts_and_says_when_it_does_not_know(toy: Domain) -> None:
    user, _ = user_for(toy)
    history = opened(user)
    assert "ana@example.com" in turn(user, history, "Could you give me your email address?")
    assert "don't know" in turn(user, history, "What is your mother's maiden name?").lower()


def test_confirms_matching_action_and_refuses_another(toy: Domain) -> None:
    user, _ = user_for(toy)
    history = opened(user)
    yes = turn(
        user, history, "I will add 5.0 dollars of store credit (add credit). Shall I proceed?"
    )
    assert is_affirmative(yes)
    no = turn(user, history, "Shall I transfer you to a human instead?")
    assert not is_affirmative(no) and "store credit" in no


def test_skeptical_users_ask_for_a_double_check_while_saying_yes(toy: Domain) -> None:
    user, _ = user_for(toy, emotion("fear", "anxiety", "warm", "low", "skeptical"))
    history = opened(user)
    reply = turn(user, history, "I'm sorry about that. I will add credit of 5.0. Shall I proceed?")
    assert is_affirmative(reply) and "Double-check" in reply


def test_moves_to_next_request_then_stops(toy: Domain) -> None:
    user, task = user_for(toy)
    history = opened(user)
    assert turn(user, history, "That is done. Anything else?") == task.intents[1].request
    assert STOP_TOKEN in turn(user, history, "Your balance is 15.0. Anything else?")


def test_redundant_question_costs_patience(toy: Domain) -> None:
    user, _ = user_for(toy)  # neutral: patience 12, no reassurance needed
    history = opened(user)
    turn(user, history, "What is your email?")
    reply = turn(user, history, "Sorry, what was your email again?")
    assert "already" in reply and user.patience == 10
    assert user.friction == ["asked again for email", "asked again for email"]


def test_missing_empathy_costs_patience_until_acknowledged(toy: Domain) -> None:
    user, _ = user_for(toy, emotion("sadness", "sorrow", "neutral", "low", "trusting"))
    start = user.patience
    history = opened(user)
    turn(user, history, "What is your email?")
    assert user.patience == start - 1 and user.friction == ["no acknowledgment of feelings"]
    turn(user, history, "I'm sorry you've had such a hard time. Could I have your email?")
    turn(user, history, "What is your email?")
    assert user.friction.count("no acknowledgment of feelings") == 1
    assert acknowledges_feelings("That must be stressful, I understand.")


def test_overlong_message_under_high_urgency_costs_patience(toy: Domain) -> None:
    user, _ = user_for(toy, emotion("anger", "annoyance", "neutral", "high", "trusting"))
    history = opened(user)
    turn(user, history, "What is your email? " + "Some policy detail. " * 40)
    assert "overlong message under high urgency" in user.friction


def test_no_progress_then_walk_away(toy: Domain) -> None:
    spec = emotion("anger", "frustration", "cold", "high", "skeptical")
    assert temperament(spec).patience == 2
    user, _ = user_for(toy, spec)
    history = opened(user)
    # patience 2: no progress (1) + no acknowledgment (1) on the first idle turn ends it
    reply = turn(user, history, "Let me think about how to handle this.")
    assert UNSATISFIED_TOKEN in reply and user.patience <= 0
    assert "turn without progress" in user.friction


def test_exit_can_be_disabled(toy: Domain) -> None:
    user, _ = user_for(
        toy, emotion("anger", "frustration", "cold", "high", "skeptical"), allow_exit=False
    )
    history = opened(user)
    for _ in range(6):
        assert UNSATISFIED_TOKEN not in turn(user, history, "Hmm, let me see.")
    assert user.patience < 0


def test_patience_ordering_follows_the_documented_model() -> None:
    calm = temperament(emotion("enjoyment", "peace", "warm", "low", "trusting"))
    hot = temperament(emotion("anger", "exasperation", "cold", "high", "skeptical"))
    neutral = temperament(None)
    assert (calm.patience, hot.patience, neutral.patience) == (14, 2, 12)
    assert hot.needs_reassurance and not calm.needs_reassurance and not neutral.needs_reassurance


def test_same_seed_same_words(toy: Domain) -> None:
    spec = emotion("sadness", "hopelessness", "warm", "moderate", "cautious")
    a, _ = user_for(toy, spec)
    b, _ = user_for(toy, spec)
    assert opened(a)[0].content == opened(b)[0].content


def test_every_register_of_yes_counts_as_explicit_confirmation() -> None:
    from tau_emotion.simulation.users import phrases as P

    for politeness in P.YES:
        for trust in P.DOUBLE_CHECK:
            assert is_affirmative(f"{P.YES[politeness]} {P.DOUBLE_CHECK[trust]}"), (
                politeness,
                trust,
            )
        assert not is_affirmative(P.REFUSE[politeness])
