"""The simulated users' validity fixes, one block per defect of the users audit (D1-D9).

Each test fails on the code before the fix: a customer who walked away from a finished task,
stopped on a consent question, refused to give its email when asked to "confirm" it, charged
patience for required consent, or (for the LLM user) lost a clear end token.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from scripted_turns import opened, turn

from emotion_specs import condition_spec
from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Message, Task
from tau_emotion.domains import Domain
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.environment import Environment
from tau_emotion.errors import ParticipantError
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.gaming import DoNothingAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import phrases as P
from tau_emotion.simulation.users.llm import LLMUser
from tau_emotion.simulation.users.llm_prompts import REACT_SUFFIX
from tau_emotion.simulation.users.model_replies import MAX_REPLY_CHARS
from tau_emotion.simulation.users.scripted import ScriptedUser, asks_consent

from toy_domain import credit_task

DOCS = Path(__file__).resolve().parents[2] / "docs" / "users.md"
CONSENT = 'To confirm, I am about to add credit (customer_id="c1", amount=5.0). Shall I proceed?'
# Patience 2, and skeptical: every unacknowledged agent turn costs a point.
IMPATIENT = ("anger", "annoyance", "warm", "high", "skeptical")


def scripted(
    toy: Domain, condition: tuple[str, ...] | None = None, task: Task | None = None
) -> ScriptedUser:
    spec = condition_spec(*condition) if condition else None
    task = (task or credit_task()).model_copy(update={"emotion": spec})
    return ScriptedUser(EpisodeSetup(task, toy, seed=3, trial=0))


# --- D1: a customer whose requests are all done never walks away -----------------------------


def test_the_closing_hand_back_is_answered_with_stop_however_little_patience_is_left(
    toy: Domain,
) -> None:
    user = scripted(toy, IMPATIENT)
    history = opened(user)
    turn(user, history, "That is done. Anything else?")  # on to the second request
    user.patience = 1  # one point from a walk-away
    reply = turn(user, history, "Your balance is 15.0. Is there anything else I can help with?")
    assert STOP_TOKEN in reply and UNSATISFIED_TOKEN not in reply
    assert user.patience == 1  # the goodbye costs nothing


def test_the_oracle_keeps_the_most_impatient_customer_to_the_end(toy: Domain) -> None:
    task = credit_task().model_copy(update={"emotion": condition_spec(*IMPATIENT)})
    setup = EpisodeSetup(task, toy, seed=0, trial=0)
    episode = asyncio.run(
        run_episode(setup, OracleAgent(setup), ScriptedUser(setup), Environment(toy, "main"))
    )
    assert episode.termination == "user_stop" and episode.reward == 1.0


# --- D2: "anything else" does not swallow a consent or fact question -------------------------


def test_a_courtesy_line_after_a_consent_question_does_not_end_the_conversation(
    toy: Domain,
) -> None:
    user = scripted(toy)
    history = opened(user)
    reply = turn(user, history, f"{CONSENT} Let me know if you need anything else.")
    assert is_affirmative(reply) and STOP_TOKEN not in reply


def test_a_fact_question_with_anything_else_gets_the_fact(toy: Domain) -> None:
    user = scripted(toy)
    history = opened(user)
    reply = turn(user, history, "What is your email, and is there anything else you need today?")
    assert "ana@example.com" in reply and STOP_TOKEN not in reply


def test_a_hand_back_that_asks_nothing_still_moves_on() -> None:
    assert not asks_consent("That is done. Your confirmation number is 4411. Anything else?")
    assert asks_consent("I'll go ahead and cancel it. Is that OK?")


# --- D3: a fact question gets the fact, whatever its verb ------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "Could you please confirm your email address?",
        "To proceed, may I have your email address?",
        "Can you confirm the email on the account?",
    ],
)
def test_a_fact_question_phrased_as_confirm_or_proceed_gets_the_fact(
    toy: Domain, question: str
) -> None:
    user = scripted(toy)
    history = opened(user)
    reply = turn(user, history, question)
    assert "ana@example.com" in reply and not reply.startswith(P.REFUSE["neutral"])


# --- D4: the docs say what the customer's STOP means -----------------------------------------


def test_the_docs_say_the_reward_not_the_customer_checks_the_database(toy: Domain) -> None:
    text = " ".join(DOCS.read_text().split())
    assert "The reward, not the customer, checks the database" in text
    assert "do-nothing" in text
    # ...and that is what happens: the customer takes the agent's word, the reward does not.
    setup = EpisodeSetup(credit_task(), toy, seed=0, trial=0)
    episode = asyncio.run(
        run_episode(setup, DoNothingAgent(setup), ScriptedUser(setup), Environment(toy, "main"))
    )
    assert episode.termination == "user_stop" and episode.reward == 0.0


# --- D5: required consent costs no patience --------------------------------------------------


def test_asking_consent_for_the_current_request_costs_no_patience(toy: Domain) -> None:
    user = scripted(toy, IMPATIENT)
    history = opened(user)
    start = user.patience
    assert is_affirmative(turn(user, history, CONSENT))
    assert user.patience == start and user.friction == []
    # Consent to something the customer did not ask for is still an unacknowledged turn.
    turn(user, history, "Shall I transfer you to a human instead?")
    assert user.friction == ["no acknowledgment of feelings"]


# --- D9: one greeting, and none when cold ----------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "starts"),
    [
        (("fear", "anxiety", "warm", "low", "trusting"), P.GREETING["warm"]),
        (None, P.GREETING["neutral"]),
        (("anger", "annoyance", "cold", "low", "trusting"), ""),
    ],
)
def test_the_opening_greets_at_most_once(
    toy: Domain, condition: tuple[str, ...] | None, starts: str
) -> None:
    text = opened(scripted(toy, condition))[0].content or ""
    assert text.startswith(starts) and "Hi," not in text
    assert "I'd like some store credit added" in text


def test_a_hurried_customer_greets_nobody(toy: Domain) -> None:
    # Without a greeting of its own, the request's "Hi," would follow the feeling line.
    text = opened(scripted(toy, ("fear", "anxiety", "warm", "high", "trusting")))[0].content
    assert "Hi" not in (text or "") and "I'd like some store credit added" in (text or "")


def test_a_restated_request_drops_its_greeting(toy: Domain) -> None:
    user = scripted(toy)
    history = opened(user)
    reply = turn(user, history, "Shall I transfer you to a human instead?")
    assert "I'd like some store credit added" in reply and "Hi," not in reply


def test_an_echo_of_the_customers_own_question_is_not_a_consent_question(toy: Domain) -> None:
    # Read as the agent's, the echoed "Should I ...?" was refused until the step limit.
    base = credit_task()
    asks = base.intents[0].model_copy(update={"request": "My credit is low. Should I top up?"})
    task = base.model_copy(update={"intents": [asks], "known_facts": {}})
    user = scripted(toy, task=task)
    history = opened(user)
    said = history[0].content
    reply = turn(user, history, f'You said: "{said}" That is done. Anything else?')
    assert STOP_TOKEN in reply


# --- the LLM user: D6 (react), D7 (near-miss tokens), D8 (runaway replies) -------------------


def llm_user(
    toy: Domain, replies: list[str], strategy: str = "llm", allow_exit: bool = True
) -> LLMUser:
    setup = EpisodeSetup(credit_task(), toy, seed=0, trial=0)
    return LLMUser(setup, ScriptedModel(replies), strategy=strategy, allow_exit=allow_exit)


def said(user: LLMUser) -> str:
    history = [Message(role="system", content="policy"), Message(role="assistant", content="Hi")]
    return asyncio.run(user.respond(history)).content or ""


def test_react_accepts_a_bare_end_token(toy: Domain) -> None:
    assert said(llm_user(toy, [STOP_TOKEN], strategy="react")) == STOP_TOKEN
    assert STOP_TOKEN in said(llm_user(toy, [f"Thanks! {STOP_TOKEN}"], strategy="react"))
    assert f"Customer: {STOP_TOKEN}" in REACT_SUFFIX


def test_react_still_keeps_a_thought_that_mentions_a_token_private(toy: Domain) -> None:
    user = llm_user(
        toy, [f"Thought: no {STOP_TOKEN} yet", "Thought: ok\nCustomer: Yes."], strategy="react"
    )
    assert said(user) == "Yes."


@pytest.mark.parametrize("written", ["###stop###", "### STOP ###", "# # # Stop # # #"])
def test_a_near_miss_stop_token_is_the_stop_token(toy: Domain, written: str) -> None:
    assert said(llm_user(toy, [f"Thanks. {written}"])) == f"Thanks. {STOP_TOKEN}"


def test_a_near_miss_walk_away_is_stripped_when_exits_are_off(toy: Domain) -> None:
    user = llm_user(toy, ["I give up ### unsatisfied ###"], allow_exit=False)
    assert "unsatisfied" not in said(user).lower()


def test_a_runaway_reply_is_regenerated(toy: Domain) -> None:
    long = "x" * (MAX_REPLY_CHARS + 1)
    assert said(llm_user(toy, [long, "I need store credit."])) == "I need store credit."
    with pytest.raises(ParticipantError, match="no usable reply"):
        said(llm_user(toy, [long, long, long]))
