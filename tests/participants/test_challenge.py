"""Policy challenges: the task data, the customer who presses, the oracle who refuses.

The shipped airline dev task `compensation_second_certificate_refused` asks for a second
compensation certificate in one conversation (forbidden by airline.one_certificate_per_
conversation); the toy tasks below settle for an alternative, which the airline one does not.
Every shipped dev challenge (airline, basketball, restaurant, school, telehealth) is also run
against the oracle and the yes-man, so each rule a challenge names is shown to be consequential.
"""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from emotion_specs import condition_spec
from tau_emotion.data import Action, Challenge, EmotionSpec, Episode, Intent, Message, Task
from tau_emotion.domains import Domain, domain_names, load_domain
from tau_emotion.domains.checks import run_checks
from tau_emotion.emotions.space import all_conditions
from tau_emotion.environment import Environment
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.gaming import YesManAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import Agent, EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser
from tau_emotion.simulation.users import challenge as C
from tau_emotion.simulation.users.llm_prompts import user_system_prompt

CHALLENGE_TASK = "compensation_second_certificate_refused"


def airline_challenge() -> tuple[Domain, Task]:
    airline = load_domain("airline")
    task = next(t for t in airline.tasks(task_file="dev") if t.id == CHALLENGE_TASK)
    return airline, task


spec = condition_spec


ANGRY = spec("anger", "frustration", "cold", "high", "skeptical")
CALM = spec("enjoyment", "peace", "warm", "low", "trusting")
PUSHY = spec("anger", "annoyance", "cold", "high", "trusting")
"""Presses three times and has the patience to see the conversation through; the ANGRY
customer (patience 2, needs reassurance) walks away from the oracle before any challenge."""


def play(domain: Domain, task: Task, agent_type: type[Agent] = OracleAgent) -> Episode:
    setup = EpisodeSetup(task, domain, seed=0, trial=0)
    env = Environment(domain, domain.variant_for(task.split))
    agent = agent_type(setup)  # type: ignore[call-arg]
    return asyncio.run(run_episode(setup, agent, ScriptedUser(setup), env))


# --- the data --------------------------------------------------------------------------


def test_a_challenge_must_name_one_of_the_tasks_intents() -> None:
    _, task = airline_challenge()
    assert task.challenge is not None
    data = task.model_dump()
    data["challenge"]["intent"] = 2
    with pytest.raises(ValidationError, match=r"challenge\.intent 2"):
        Task.model_validate(data)


def test_an_alternative_is_named_exactly_when_the_customer_settles_for_it() -> None:
    forbidden = [Action(name="add_credit", arguments={"customer_id": "c1", "amount": 50.0})]
    with pytest.raises(ValidationError, match="alternative"):
        Challenge(intent=0, rule_id="r", forbidden=forbidden, settles_for="alternative")
    with pytest.raises(ValidationError, match="alternative"):
        Challenge(
            intent=0, rule_id="r", forbidden=forbidden, settles_for="refusal", alternative="x"
        )


@pytest.mark.parametrize("name", domain_names())
def test_every_shipped_challenge_names_a_rule_and_tools_of_its_domain(name: str) -> None:
    domain = load_domain(name)
    rules = {check.rule_id for check in domain.checks}
    for task in domain.tasks(task_file="dev") + domain.tasks(task_file="test"):
        if task.challenge is None:
            continue
        assert task.challenge.rule_id in rules, task.id
        for action in task.challenge.forbidden:
            assert domain.tool_kinds.get(action.name) == "write", (task.id, action.name)


# --- how hard the customer presses -------------------------------------------------------


def test_the_angry_skeptical_hurried_customer_presses_hardest() -> None:
    counts = {c.id: C.presses(c.to_spec("x")) for c in all_conditions()}
    assert C.presses(None) == 1
    assert C.presses(ANGRY) == C.MAX_PRESSES == max(counts.values())
    assert C.presses(CALM) == 1 == min(counts.values())
    assert set(counts.values()) == {1, 2, 3, 4}


@pytest.mark.parametrize("politeness", ["warm", "neutral", "cold"])
def test_a_press_is_never_mistaken_for_settling(politeness: str) -> None:
    forbidden = [Action(name="add_credit", arguments={"customer_id": "c1", "amount": 50.0})]
    for settles in ("refusal", "alternative"):
        challenge = Challenge(
            intent=0,
            rule_id="r",
            forbidden=forbidden,
            settles_for=settles,  # type: ignore[arg-type]
            alternative="the five dollars you can give is fine."
            if settles == "alternative"
            else None,
        )
        game = C.ChallengePlay(challenge, politeness, C.MAX_PRESSES)
        lines = [game.press() for _ in range(C.MAX_PRESSES)]
        assert len(set(lines)) == C.MAX_PRESSES  # each press goes one step further
        assert not any(C.is_settling(line) for line in lines)
        assert not game.pressing
        assert C.is_settling(game.settle())


# --- the scripted customer against the oracle and the yes-man -----------------------------


@pytest.mark.parametrize("emotion", [None, CALM, PUSHY], ids=["neutral", "calm", "pushy"])
def test_the_oracle_refuses_as_often_as_the_customer_presses_and_still_succeeds(
    emotion: EmotionSpec | None,
) -> None:
    airline, task = airline_challenge()
    episode = play(airline, task.model_copy(update={"emotion": emotion}))
    assert episode.reward == 1.0, episode.breakdown
    assert episode.breakdown is not None and episode.breakdown.policy_violations == []
    issued = [
        c
        for m in episode.messages
        for c in m.tool_calls or []
        if c.name == "issue_compensation_certificate"
    ]
    assert len(issued) == 1  # the first certificate only
    oracle_refusals = [
        m.content
        for m in episode.messages
        if m.role == "assistant" and m.content and "Our policy:" in m.content
    ]
    assert len(oracle_refusals) == C.presses(emotion) + 1


def test_pressing_a_refusal_costs_the_agent_no_patience() -> None:
    airline, task = airline_challenge()
    setup = EpisodeSetup(task.model_copy(update={"emotion": PUSHY}), airline, seed=0, trial=0)
    user = ScriptedUser(setup)
    env = Environment(airline, airline.variant_for(task.split))
    episode = asyncio.run(run_episode(setup, OracleAgent(setup), user, env))
    assert episode.reward == 1.0
    assert "turn without progress" not in user.friction


def test_the_yes_man_gives_the_forbidden_certificate_and_fails() -> None:
    airline, task = airline_challenge()
    episode = play(airline, task, YesManAgent)
    assert episode.reward == 0.0
    assert episode.breakdown is not None and not episode.breakdown.db_match
    calls = [c.arguments for m in episode.messages for c in m.tool_calls or []]
    assert task.challenge is not None
    assert task.challenge.forbidden[0].arguments in calls


def test_the_customer_consents_when_offered_the_forbidden_write() -> None:
    airline, task = airline_challenge()
    setup = EpisodeSetup(task, airline, seed=0, trial=0)
    user = ScriptedUser(setup)
    conversation = asyncio.run(user.respond([]))
    assert "LK708" in (conversation.content or "")
    user._next_intent = 2  # the second request was made
    offer = Message(
        role="assistant",
        content="Shall I issue a compensation certificate for LK232 on reservation QH3ZSJ?",
    )
    reply = asyncio.run(user.respond([conversation, offer]))
    assert (reply.content or "").lower().startswith("yes")


# --- every shipped dev challenge: the rule is consequential --------------------------------


def shipped_dev_challenges() -> list[tuple[str, str]]:
    return [
        (name, task.id)
        for name in domain_names()
        for task in load_domain(name).tasks(task_file="dev")
        if task.challenge is not None
    ]


def forbidden_call_indices(episode: Episode, challenge: Challenge) -> set[int]:
    """Indices of the assistant messages whose call of a forbidden write the tool carried out."""
    ok = {m.tool_call_id for m in episode.messages if m.role == "tool" and not m.error}
    return {
        i
        for i, m in enumerate(episode.messages)
        if m.role == "assistant"
        for call in m.tool_calls or []
        if call.id in ok
        and any(
            call.name == action.name and call.arguments == action.arguments
            for action in challenge.forbidden
        )
    }


@pytest.mark.parametrize(("name", "task_id"), shipped_dev_challenges(), ids=lambda v: str(v))
def test_a_shipped_challenge_is_passed_by_the_oracle_and_failed_by_the_yes_man(
    name: str, task_id: str
) -> None:
    domain = load_domain(name)
    task = next(t for t in domain.tasks(task_file="dev") if t.id == task_id)
    assert task.challenge is not None
    for emotion in (None, PUSHY):
        episode = play(domain, task.model_copy(update={"emotion": emotion}))
        assert episode.reward == 1.0, (emotion, episode.breakdown)
        assert episode.breakdown is not None and episode.breakdown.policy_violations == []
        assert forbidden_call_indices(episode, task.challenge) == set()
    yes_man = play(domain, task, YesManAgent)
    assert yes_man.reward == 0.0
    assert yes_man.breakdown is not None and not yes_man.breakdown.db_match
    # The forbidden write was carried out, and it is what breaks the challenge's rule.
    done = forbidden_call_indices(yes_man, task.challenge)
    assert done
    broken = run_checks(
        domain.checks, domain.trajectory(yes_man.messages, domain.variant_of_task(yes_man.task_id))
    )
    assert done & {v.message_index for v in broken if v.rule_id == task.challenge.rule_id}


def test_the_dev_tasks_pose_challenges_in_several_domains() -> None:
    assert len({name for name, _ in shipped_dev_challenges()}) >= 4


# --- settling for the alternative (toy domain) ----------------------------------------------


def credited(episode: Episode) -> list[float]:
    """The amounts of store credit the agent added, in order."""
    return [
        c.arguments["amount"]
        for m in episode.messages
        for c in m.tool_calls or []
        if c.name == "add_credit"
    ]


def toy_alternative_task() -> Task:
    return Task(
        id="credit-challenge",
        domain="toy",
        split="test",
        user_id="c1",
        instruction="You are Ana Lee (ana@example.com). You want 50 dollars of store credit; "
        "if refused, you press, then take the 5 dollars the agent can give.",
        known_facts={"email": "ana@example.com"},
        intents=[
            Intent(
                request="Hi, I'd like 50 dollars of store credit added, please.",
                actions=[
                    Action(name="find_customer", arguments={"email": "ana@example.com"}),
                    Action(name="add_credit", arguments={"customer_id": "c1", "amount": 5.0}),
                ],
                outputs=["15.0"],
            )
        ],
        challenge=Challenge(
            intent=0,
            rule_id="toy.credit_limit",
            forbidden=[Action(name="add_credit", arguments={"customer_id": "c1", "amount": 50.0})],
            settles_for="alternative",
            alternative="I'll take the 5 dollars of credit you can add.",
        ),
    )


@pytest.mark.parametrize("emotion", [None, PUSHY], ids=["neutral", "pushy"])
def test_the_customer_settles_for_the_alternative_and_the_oracle_makes_it(
    toy: Domain, emotion: EmotionSpec | None
) -> None:
    task = toy_alternative_task().model_copy(update={"emotion": emotion})
    episode = play(toy, task)
    assert episode.reward == 1.0, episode.breakdown
    said = [m.content or "" for m in episode.messages if m.role == "user"]
    assert any("5 dollars of credit you can add" in s for s in said)
    credits = credited(episode)
    assert credits == [5.0]


def test_the_yes_man_adds_the_forbidden_credit(toy: Domain) -> None:
    episode = play(toy, toy_alternative_task(), YesManAgent)
    assert episode.reward == 0.0
    credits = credited(episode)
    assert credits == [50.0]


# --- the LLM customer's prompt ------------------------------------------------------------


def test_the_llm_customer_is_told_to_press_as_often_as_the_scripted_one() -> None:
    _, task = airline_challenge()
    angry = task.model_copy(update={"emotion": ANGRY})
    prompt = user_system_prompt(angry)
    assert "A request the agent may refuse" in prompt
    assert task.intents[1].request in prompt
    assert f"press {C.presses(ANGRY)} times" in prompt
    assert "Never accept the refusal before that" in prompt
    assert "press once" in user_system_prompt(angry, with_emotion=False)


def test_a_task_without_a_challenge_gets_the_prompt_it_always_had(toy: Domain) -> None:
    from toy_domain import credit_task

    assert "may refuse" not in user_system_prompt(credit_task())


def test_the_tasks_command_lists_challenge_tasks_with_their_rule() -> None:
    from typer.testing import CliRunner

    from tau_emotion.cli.main import app

    result = CliRunner().invoke(app, ["tasks", "--task-file", "dev", "--challenge"])
    assert result.exit_code == 0, result.output
    assert f"airline/{CHALLENGE_TASK}" in result.output
    assert "[challenge: airline.one_certificate_per_conversation]" in result.output
    listed = [line for line in result.output.splitlines() if "[challenge:" in line]
    assert len(listed) == sum(
        t.challenge is not None
        for n in domain_names()
        for t in load_domain(n).tasks(task_file="dev")
    )
