"""The scripted customer is fair to good agents and hard to fool (issue #15 item 4):
asking is a question that names the fact, clarifying questions get answers from its own
request, empathy counts when it answers this customer, and the emotion shows in every turn."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from scripted_turns import opened, turn

from emotion_specs import condition_spec
from tau_emotion.data import Message, Task
from tau_emotion.domains import Domain
from tau_emotion.emotions.space import Family
from tau_emotion.environment import Environment
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser
from tau_emotion.simulation.users import phrases as P
from tau_emotion.simulation.users.reading import (
    asked_facts,
    clarify,
    responds_to_feelings,
)

from toy_domain import credit_task

FACTS = {"email": "ana@example.com", "order_number": "W123"}


spec = condition_spec


ANXIOUS = spec("fear", "anxiety", "neutral", "moderate", "cautious")


def user(toy: Domain, task: Task | None = None) -> ScriptedUser:
    return ScriptedUser(EpisodeSetup(task or credit_task(), toy, seed=5, trial=0))


# --- asking -----------------------------------------------------------------------------


def test_a_fact_is_asked_for_by_a_question_or_request_that_names_it() -> None:
    assert asked_facts("What's your order number?", FACTS) == [("order_number", "W123")]
    assert asked_facts("Please provide your email address.", FACTS) == [("email", FACTS["email"])]
    assert asked_facts("Which order is it?", FACTS) == [("order_number", "W123")]
    assert asked_facts("Let me pull up your order now.", FACTS) == []
    assert asked_facts("I found your account by your email. One moment.", FACTS) == []


def test_an_agent_that_asks_once_and_then_works_is_never_charged_for_asking_again(
    toy: Domain,
) -> None:
    customer = user(toy)
    history = opened(customer)
    assert "ana@example.com" in turn(customer, history, "Could I have your email, please?")
    turn(customer, history, "Thanks. I'm looking up the account for that email now.")
    turn(customer, history, "Your email matched one account. Checking the credit now.")
    assert not any(reason.startswith("asked again") for reason in customer.friction)
    turn(customer, history, "Sorry, what was your email again?")
    assert "asked again for email" in customer.friction


# --- clarifying -----------------------------------------------------------------------------


def test_a_clarifying_question_is_answered_from_the_customers_own_request(toy: Domain) -> None:
    customer = user(toy)
    history = opened(customer)
    reply = turn(customer, history, "Of course. What amount of credit would you like?")
    assert "amount is 5" in reply.lower()
    vague = turn(customer, history, "Could you say a little more about what you need?")
    # The request again, without the "Hi," it opened the conversation with.
    assert "I'd like some store credit added, please." in vague and "Hi," not in vague
    assert P.DONT_KNOW["neutral"] not in vague


def test_an_identifying_fact_it_lacks_still_gets_i_dont_know(toy: Domain) -> None:
    customer = user(toy)
    history = opened(customer)
    reply = turn(customer, history, "What's your membership number?")
    assert reply.startswith(P.DONT_KNOW["neutral"])


def test_a_confirm_worded_question_for_a_fact_it_lacks_is_not_refused(toy: Domain) -> None:
    # "Confirm" asks for a fact here, not for consent: a refusal would restate the request
    # as if the agent had proposed something else.
    customer = user(toy)
    history = opened(customer)
    reply = turn(customer, history, "Could you confirm your date of birth for me?")
    assert reply.startswith(P.DONT_KNOW["neutral"])
    assert not reply.startswith(P.REFUSE["neutral"])
    # A fact it holds is still given, and a proposal of another action still refused.
    assert "ana@example.com" in turn(customer, history, "Can you verify the email on file?")
    refused = turn(customer, history, "Shall I close your account instead?")
    assert refused.startswith(P.REFUSE["neutral"])


def test_clarify_offers_only_values_the_customer_was_told() -> None:
    task = credit_task()
    assert clarify("How much credit?", task.intents[0], task.instruction) == []  # no named arg
    assert clarify("What amount?", task.intents[0], task.instruction) == ["the amount is 5.0"]
    assert clarify("What amount?", task.intents[0], "Ask for store credit.") == []


# --- empathy --------------------------------------------------------------------------------


def test_a_fixed_apology_is_not_empathy_but_an_answer_to_the_customer_is() -> None:
    said = ["Hi, I'd like some store credit added, please. I'm quite anxious about this."]
    assert not responds_to_feelings("I understand, I'm sorry about this.", said, Family.FEAR)
    assert responds_to_feelings("I'm sorry, I can tell you're worried.", said, Family.FEAR)
    assert responds_to_feelings("I'm sorry. That must be stressful.", said, Family.FEAR)
    assert responds_to_feelings("I understand you need the store credit.", said, Family.FEAR)
    # What the customer said must be in the acknowledgment, not in the next sentence: otherwise
    # a fixed apology in front of any on-topic reply would count.
    assert not responds_to_feelings(
        "I understand. Store credit is quick to add, so this won't take long.", said, Family.FEAR
    )
    assert not responds_to_feelings("Store credit is quick to add.", said, Family.FEAR)


def test_a_formula_does_not_reassure_the_customer_but_listening_does(toy: Domain) -> None:
    task = credit_task().model_copy(update={"emotion": ANXIOUS})
    formula = user(toy, task)
    history = opened(formula)
    turn(formula, history, "I understand, I'm sorry about this. Could I have your email?")
    assert "no acknowledgment of feelings" in formula.friction
    listening = user(toy, task)
    history = opened(listening)
    turn(listening, history, "I'm sorry this has you worried. Could I have your email?")
    assert "no acknowledgment of feelings" not in listening.friction


def test_its_own_feeling_quoted_back_is_not_an_acknowledgment(toy: Domain) -> None:
    # The do-nothing baseline echoes each message; the feeling word in the echo is the
    # customer's, so it must not count as the agent naming it.
    task = credit_task().model_copy(update={"emotion": ANXIOUS})
    parrot = user(toy, task)
    history = opened(parrot)
    said = "I'm worried sick about this store credit."
    history.append(Message(role="user", content=said))
    echo = f'I\'m sorry for the trouble. You said: "{said}" Could I have your email?'
    turn(parrot, history, echo)
    assert "no acknowledgment of feelings" in parrot.friction


def test_the_oracle_gains_at_most_a_point_from_a_fixed_apology(toy: Domain) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from oracle_patience import ApologisingOracle

    from tau_emotion.emotions.space import all_conditions

    def successes(agent: type[OracleAgent]) -> int:
        won = 0
        for i, condition in enumerate(all_conditions()[::11]):
            task = credit_task().model_copy(update={"emotion": condition.to_spec("x")})
            setup = EpisodeSetup(task, toy, seed=i, trial=0)
            env = Environment(toy, "main")
            episode = asyncio.run(run_episode(setup, agent(setup), ScriptedUser(setup), env))
            won += episode.success
        return won

    plain, sorry = successes(OracleAgent), successes(ApologisingOracle)
    assert abs(sorry - plain) <= 0.01 * len(all_conditions()[::11]) + 1


# --- the emotion in every turn ----------------------------------------------------------------


def test_the_emotion_shows_in_every_turn_in_varied_words(toy: Domain) -> None:
    task = credit_task().model_copy(update={"emotion": ANXIOUS})
    setup = EpisodeSetup(task, toy, seed=2, trial=0)
    episode = asyncio.run(
        run_episode(setup, OracleAgent(setup), ScriptedUser(setup), Environment(toy, "main"))
    )
    lines = P.FEELING[ANXIOUS.emotion]
    turns = [m.content or "" for m in episode.messages if m.role == "user"][:-1]  # not the goodbye
    assert len(turns) >= 3
    used = [next((line for line in lines if line in t), None) for t in turns]
    assert all(used), turns
    assert len(set(used)) > 1


def measured(name: str) -> tuple[int, int, int]:
    """(acknowledgments heard, missed, false alarms) on one hand-written set of 120 replies."""
    doc = json.loads((Path(__file__).parent / "data" / name).read_text())
    heard = missed = false_alarms = 0
    for item in doc["items"]:
        said = responds_to_feelings(item["agent"], [item["customer"]], item["family"])
        if item["label"]:
            heard += said
            missed += not said
        else:
            false_alarms += said
    return heard, missed, false_alarms


def test_acknowledgments_written_elsewhere_are_heard_and_formulas_are_not() -> None:
    """The held-out set (see the file's provenance): the narrow lexicon of 2026-12-04 heard 12
    of the 70 acknowledgments, the current one hears 45, and no formula, dismissal or purely
    practical reply counts."""
    heard, missed, false_alarms = measured("empathy_eval.json")
    assert heard + missed == 70
    assert heard >= 45
    assert false_alarms == 0


def test_the_development_set_stays_fitted() -> None:
    """The set the phrase list was widened against: a regression guard, not a measure (the
    list before that widening heard 28 of its 70 and raised 3 false alarms)."""
    heard, missed, false_alarms = measured("empathy_dev.json")
    assert heard + missed == 70
    assert heard >= 62
    assert false_alarms == 0
