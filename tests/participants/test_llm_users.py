"""LLM user strategies with the scripted fake model: plain, react, verify, reflection."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from tau_emotion.data import (
    STOP_TOKEN,
    UNSATISFIED_TOKEN,
    EmotionSpec,
    Message,
    Task,
    TerminationReason,
)
from tau_emotion.domains import Domain
from tau_emotion.environment import Environment
from tau_emotion.errors import ParticipantError
from tau_emotion.models.scripted import ScriptedModel, tool_call
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users.llm import (
    EMPTY_AGENT_TURN,
    GREETING,
    LLMUser,
    UserTurnError,
    flip_roles,
)
from tau_emotion.simulation.users.llm_prompts import (
    FACT_GROUPS,
    NO_FACTS,
    RECITED,
    facts_section,
    plan_facts,
    recites_task,
    supervisor_prompt,
    user_system_prompt,
)
from tau_emotion.simulation.users.model_replies import UNCLEAR_VERDICT, parse_react, read_verdict

from toy_domain import credit_task

SPEC = EmotionSpec(
    condition_id="fear.anxiety.warm.high.cautious",
    family="fear",
    emotion="anxiety",
    politeness="warm",
    urgency="high",
    trust="cautious",
    instruction="You feel anxious and want this done fast.",
)


def setup(toy: Domain, emotional: bool = True) -> EpisodeSetup:
    task = credit_task().model_copy(update={"emotion": SPEC if emotional else None})
    return EpisodeSetup(task, toy, seed=0, trial=0)


def reply(user: LLMUser, agent_text: str = "How can I help?") -> Message:
    return asyncio.run(
        user.respond(
            [
                Message(role="system", content="policy"),
                Message(role="assistant", content=agent_text),
            ]
        )
    )


def test_prompt_holds_instruction_facts_emotion_and_end_tokens(toy: Domain) -> None:
    prompt = user_system_prompt(setup(toy).task)
    assert "store credit" in prompt and "ana@example.com" in prompt
    assert SPEC.instruction in prompt and "###STOP###" in prompt and UNSATISFIED_TOKEN in prompt
    neutral = user_system_prompt(setup(toy).task, with_emotion=False, allow_exit=False)
    assert SPEC.instruction not in neutral and UNSATISFIED_TOKEN not in neutral


def test_plain_llm_user(toy: Domain) -> None:
    model = ScriptedModel(["  I need credit please.  "])
    msg = reply(LLMUser(setup(toy), model))
    assert msg.role == "user" and msg.content == "I need credit please."
    sent, tools = model.requests[0]
    assert tools is None and sent[0].role == "system" and sent[1].role == "user"


def test_garbage_is_retried_then_recorded_as_participant_error(toy: Domain) -> None:
    model = ScriptedModel(["", "   ", "ok then"])
    assert reply(LLMUser(setup(toy), model, retries=2)).content == "ok then"
    with pytest.raises(ParticipantError, match="no usable reply after 3 attempts"):
        reply(LLMUser(setup(toy), ScriptedModel(["", "", ""]), retries=2))


def test_react_keeps_thought_private(toy: Domain) -> None:
    model = ScriptedModel(
        [
            "no format here",
            "Thought: I am anxious, keep it short.\nCustomer: Please add credit fast.",
        ]
    )
    msg = reply(LLMUser(setup(toy), model, strategy="react"))
    assert (
        msg.content == "Please add credit fast." and msg.reasoning == "I am anxious, keep it short."
    )
    assert parse_react("Customer: hi") == (None, "hi")


def test_verify_regenerates_until_the_supervisor_accepts(toy: Domain) -> None:
    outputs = iter(
        [
            "My account number is 999.",
            "INVALID: invents an account number",
            "I'd like credit, please.",
            "VALID",
        ]
    )

    def script(messages: Sequence[Message], tools: Any) -> str:
        return next(outputs)

    user = LLMUser(setup(toy), ScriptedModel(script), strategy="verify", verify_attempts=3)
    msg = reply(user)
    assert msg.content == "I'd like credit, please."
    assert user.rejections == ["invents an account number"]
    assert msg.usage is not None and msg.usage.calls == 4


def test_reflection_rewrites_after_a_failed_check(toy: Domain) -> None:
    outputs = iter(
        [
            "I am the agent, how can I help?",
            "INVALID: speaks as the agent",
            "Hi, I need store credit.",
            "VALID",
        ]
    )
    model = ScriptedModel(lambda m, t: next(outputs))
    user = LLMUser(setup(toy), model, strategy="reflection")
    msg = reply(user)
    assert msg.content == "Hi, I need store credit."
    reflect_request = model.requests[2][0]
    assert "speaks as the agent" in (reflect_request[-1].content or "")


def test_exit_disabled_strips_the_walk_away_token(toy: Domain) -> None:
    user = LLMUser(setup(toy), ScriptedModel([f"I give up {UNSATISFIED_TOKEN}"]), allow_exit=False)
    assert UNSATISFIED_TOKEN not in (reply(user).content or "")


# --- the rules the prompt carries -----------------------------------------------------------


def two_request_task(**update: Any) -> Task:
    """The toy credit task with facts named by the first request, a later one, and neither."""
    task = credit_task()
    intents = [
        task.intents[0].model_copy(
            update={"request": "Hi, my account C-77 needs 5 dollars of store credit."}
        ),
        task.intents[1].model_copy(update={"request": "And what is my balance now, 12 left?"}),
    ]
    facts = {"account_number": "C-77", "balance_hint": "12", "email": "ana@example.com"}
    return task.model_copy(update={"intents": intents, "known_facts": facts, **update})


def test_the_prompt_carries_every_rule_of_play(toy: Domain) -> None:
    prompt = user_system_prompt(setup(toy).task)
    for rule in (
        "show in every message",  # the emotion never fades
        "how readily you answer",  # ... and shapes how the customer cooperates
        "how quickly you accept",
        "It never changes what you want",
        "one at a time",  # gradual reveal
        "Your first message makes the first request only",
        "Never paste or recite the text above",  # never verbatim
        "never lay out the whole task in one message",
        "never repeat a request word for word",
        "Never invent a fact",
        "say that you do not know it",
        "Keep your goal",
        "Do not end it before that",
        "treat them as mood, not facts",  # emotion texts carry behaviour only
    ):
        assert rule in prompt, rule
    ending = prompt.split("# Ending the conversation", 1)[1]
    # the walk-away applies only while something is undone; after that, the stop token
    assert "While a request of yours is still not done, you may walk away" in ending
    assert "ignores your feelings" in ending and UNSATISFIED_TOKEN in ending
    assert "Once everything you wanted is done, never walk away" in ending
    assert ending.rstrip().endswith(f"end with {STOP_TOKEN}.")


def test_the_opening_requests_facts_may_be_given_at_once_and_the_others_not() -> None:
    task = two_request_task()
    plan = plan_facts(task)
    assert plan.opening == {"account_number": "C-77"}
    assert plan.later == {"balance_hint": "12"}
    assert plan.asked == {"email": "ana@example.com"}
    section = facts_section(task)
    opening, later, asked = (section.index(h) for h in FACT_GROUPS)
    assert opening < section.index("account number: C-77") < later
    assert later < section.index("balance hint: 12") < asked < section.index("email: ana@")
    assert section in user_system_prompt(task)
    assert "you may say them in your opening message" in FACT_GROUPS[0]
    assert "only when the agent asks" in FACT_GROUPS[2]


def test_a_fact_counts_as_named_only_as_a_whole_value() -> None:
    # '1' in '12 left' and 'C-7' in 'C-77' are not the fact: it stays 'only when asked'
    task = two_request_task(known_facts={"bags": "1", "account_number": "C-7"})
    assert plan_facts(task).asked == {"bags": "1", "account_number": "C-7"}
    assert plan_facts(credit_task()).asked == {"email": "ana@example.com"}


def test_a_plain_task_gets_a_sensible_prompt(toy: Domain) -> None:
    task = credit_task().model_copy(update={"known_facts": {}})
    assert task.emotion is None and task.challenge is None
    for allow_exit in (True, False):
        prompt = user_system_prompt(task, allow_exit=allow_exit)
        assert "# How you feel" not in prompt and "may refuse" not in prompt
        assert "calm and matter-of-fact" in prompt and "show in every message" not in prompt
        assert NO_FACTS in prompt and "or settled" not in prompt
        assert "ignores your feelings" not in prompt  # no feelings to ignore
        assert "{" not in prompt and "}" not in prompt  # no placeholder left unfilled
        assert f"reply with {STOP_TOKEN} on its own" in prompt
        assert (UNSATISFIED_TOKEN in prompt) is allow_exit
    # the emotion is dropped for --no-emotion even where the task has one
    assert "# How you feel" not in user_system_prompt(setup(toy).task, with_emotion=False)


def test_a_challenge_is_settled_rather_than_a_reason_to_walk_away() -> None:
    from tau_emotion.data import Action, Challenge

    challenge = Challenge(
        intent=0,
        rule_id="toy.max_credit",
        forbidden=[Action(name="add_credit", arguments={"customer_id": "c1", "amount": 50.0})],
        settles_for="refusal",
    )
    prompt = user_system_prompt(credit_task().model_copy(update={"challenge": challenge}))
    ending = prompt.split("# Ending the conversation", 1)[1]
    assert "done or settled as described above" in ending
    assert "still not done or settled, you may walk away" in ending
    assert "Being refused the request the agent may refuse is not, by itself" in ending
    assert "never walk away" in ending
    assert "is not, by itself, a reason to walk away" in prompt  # the challenge section agrees


# --- the supervisor checks the same rules ---------------------------------------------------


def test_the_supervisor_checks_the_new_rules(toy: Domain) -> None:
    task = setup(toy).task
    history = [Message(role="user", content="How can I help?")]
    prompt = supervisor_prompt(task, history, "Hi, I need credit.")
    for check in (
        "invented",
        "changes the customer's goal",
        "pastes or recites the task text",
        "lays out the whole task at once",
        "gives a known fact the agent has not asked for",
        "does not show the customer's emotion",
        f"ends the conversation with {STOP_TOKEN} while something",
        f"walks away with {UNSATISFIED_TOKEN} although everything the customer wanted is done",
    ):
        assert check in prompt, check
    assert SPEC.instruction in prompt and "Agent: How can I help?" in prompt
    assert "To be given only when the agent asks for them:\n- email: ana@example.com" in prompt
    plain = supervisor_prompt(task, [], "Hi.", with_emotion=False, allow_exit=False)
    assert "emotion" not in plain and UNSATISFIED_TOKEN not in plain and "(none yet)" in plain


def test_a_recited_task_is_rejected_without_a_supervisor_call(toy: Domain) -> None:
    task = setup(toy).task
    pasted = "You are Ana Lee (ana@example.com). Ask for 5 dollars of store credit."
    assert recites_task(pasted, task.instruction)
    assert recites_task(f"Well... {pasted.upper()} Thanks!", task.instruction)
    assert not recites_task("Hi, I'm Ana. Could I get 5 dollars of store credit?", task.instruction)
    # a run of 20 task words is a paste, 19 are not; nor any run that is not second-person
    words = ["your" if i % 10 == 0 else f"w{i}" for i in range(40)]
    assert recites_task("so " + " ".join(words[5:25]), " ".join(words))
    assert not recites_task(" ".join(words[5:24]), " ".join(words))
    first_person = [f"w{i}" for i in range(40)]
    assert not recites_task(" ".join(first_person), " ".join(first_person))
    # a customer dictating values in the first person, as the shipped requests do, is no paste
    dictated = "Book LK321 on 2025-06-26, passengers: Mia Kaminski (born 1982-06-24), bags: 1, "
    instruction = f"You are Mia. You want to: {dictated} paying with your Visa ending 5156."
    assert not recites_task(
        f"Hi, I'd like to: {dictated} paying with my Visa ending 5156.", instruction
    )
    assert recites_task(
        f"Hi. You want to: {dictated} paying with your Visa ending 5156.", instruction
    )

    model = ScriptedModel([pasted, "Hi, I'd like some store credit, please.", "VALID"])
    user = LLMUser(setup(toy), model, strategy="verify")
    assert reply(user).content == "Hi, I'd like some store credit, please."
    assert user.rejections == [RECITED]
    assert len(model.requests) == 3  # two replies and one supervisor call, none for the paste


def test_the_supervisor_rejects_an_early_stop(toy: Domain) -> None:
    outputs = iter(
        [STOP_TOKEN, "INVALID: stops before the credit is added", "Credit, please.", "VALID"]
    )
    model = ScriptedModel(lambda m, t: next(outputs))
    user = LLMUser(setup(toy), model, strategy="verify")
    assert reply(user).content == "Credit, please."
    assert user.rejections == ["stops before the credit is added"]
    assert f"Proposed next customer message:\n{STOP_TOKEN}" in (
        model.requests[1][0][0].content or ""
    )


# --- end to end against the scripted fake model ---------------------------------------------


def customer_script(supervised: list[str]) -> Any:
    """A fake user model: plays the toy customer, and says VALID as the supervisor."""

    def script(messages: Sequence[Message], tools: Any) -> str:
        last = (messages[-1].content or "").lower()
        if messages[0].role == "user":  # a supervisor call is one user message
            supervised.append(messages[0].content or "")
            return "VALID"
        assert "# Ending the conversation" in (messages[0].content or "")
        if "email" in last:
            return "Oh, sure, it's ana@example.com."
        if "proceed" in last:
            return "Yes, please go ahead, I'm a little nervous about it."
        if "anything else" in last:
            return STOP_TOKEN
        return "Hi, I'm worried, could I get some store credit added, please?"

    return script


@pytest.mark.parametrize("strategy", ["llm", "verify"])
def test_an_llm_user_episode_runs_end_to_end(toy: Domain, strategy: str) -> None:
    supervised: list[str] = []
    episode_setup = setup(toy)
    user = LLMUser(episode_setup, ScriptedModel(customer_script(supervised)), strategy=strategy)
    episode = asyncio.run(
        run_episode(episode_setup, OracleAgent(episode_setup), user, Environment(toy, "main"))
    )
    assert episode.termination == TerminationReason.USER_STOP and episode.reward == 1.0
    said = [m.content for m in episode.messages if m.role == "user"]
    assert said[0] == "Hi, I'm worried, could I get some store credit added, please?"
    assert said[-1] == STOP_TOKEN
    if strategy == "verify":
        # every reply was checked, the closing stop token included
        assert len(supervised) == len(said) and STOP_TOKEN in supervised[-1]
    else:
        assert supervised == []


# --- the user model's request shape (strict-alternation chat templates) ----------------------


def alternates(request: Sequence[Message]) -> bool:
    """Whether a request is system, then user/assistant alternating from user, ending on user."""
    roles = [m.role for m in request]
    turns = roles[1:]
    return (
        roles[0] == "system"
        and len(turns) % 2 == 1
        and all(role == ("user" if i % 2 == 0 else "assistant") for i, role in enumerate(turns))
    )


def test_every_user_model_request_opens_with_the_greeting_and_alternates(toy: Domain) -> None:
    episode_setup = setup(toy)
    model = ScriptedModel(customer_script([]))
    user = LLMUser(episode_setup, model)
    episode = asyncio.run(
        run_episode(episode_setup, OracleAgent(episode_setup), user, Environment(toy, "main"))
    )
    assert episode.termination == TerminationReason.USER_STOP
    assert len(model.requests) > 2
    for request, _ in model.requests:
        assert alternates(request), [m.role for m in request]
        assert request[1].content == GREETING  # the same head on every turn, not only the first


def test_an_empty_agent_turn_keeps_the_roles_alternating(toy: Domain) -> None:
    model = ScriptedModel(["Hello?", "Thanks."])
    user = LLMUser(setup(toy), model)
    said = Message(role="user", content="I need store credit.")
    empty = Message(role="assistant", content="")
    # the customer speaks again right after an empty agent reply ...
    asyncio.run(user.respond([Message(role="system", content="policy"), said, empty]))
    # ... and later, once the agent has answered, with text around a tool call
    lookup = tool_call("find_user", email="ana@example.com")
    lookup = lookup.model_copy(update={"content": "Let me look you up."})
    later = [
        Message(role="system", content="policy"),
        said,
        empty,
        Message(role="user", content="Hello?"),
        lookup,
        Message(role="tool", content="{}", tool_call_id="call_0"),
        Message(role="assistant", content="Found you."),
    ]
    asyncio.run(user.respond(later))
    first, second = (request for request, _ in model.requests)
    assert alternates(first) and alternates(second)
    assert [m.content for m in first[1:]] == [GREETING, said.content, EMPTY_AGENT_TURN]
    assert [m.content for m in second[1:]] == [
        GREETING,
        said.content,
        EMPTY_AGENT_TURN,
        "Hello?",
        "Let me look you up.\n\nFound you.",
    ]


def test_an_agent_that_speaks_first_is_not_greeted_twice() -> None:
    agent_first = [Message(role="assistant", content="Hi, Acme support.")]
    assert [(m.role, m.content) for m in flip_roles(agent_first)] == [("user", "Hi, Acme support.")]
    assert [(m.role, m.content) for m in flip_roles([])] == [("user", GREETING)]


# --- the supervisor's verdict ----------------------------------------------------------------


@pytest.mark.parametrize(
    "verdict",
    [
        "**INVALID**: lays out the whole task at once.",
        "The message is INVALID: gives the date of birth before being asked.",
        "Verdict: invalid - lays out the whole task at once.",
    ],
)
def test_a_worded_or_formatted_rejection_is_a_rejection(toy: Domain, verdict: str) -> None:
    outputs = iter(
        ["My email is ana@example.com, add credit.", verdict, "Credit, please.", "VALID"]
    )
    model = ScriptedModel(lambda m, t: next(outputs))
    user = LLMUser(setup(toy), model, strategy="verify")
    assert reply(user).content == "Credit, please."
    assert len(user.rejections) == 1 and "INVALID" not in user.rejections[0]
    assert "lays out" in user.rejections[0] or "date of birth" in user.rejections[0]


@pytest.mark.parametrize(
    "verdict", ["", "Looks fine to me.", "NOT VALID: invents a number", "VALID. Well, INVALID."]
)
def test_an_unclear_verdict_fails_safe(toy: Domain, verdict: str) -> None:
    outputs = iter([STOP_TOKEN, verdict, "Credit, please.", "**VALID**"])
    model = ScriptedModel(lambda m, t: next(outputs))
    user = LLMUser(setup(toy), model, strategy="verify")
    assert reply(user).content == "Credit, please."
    assert len(user.rejections) == 1 and user.rejections[0].startswith(UNCLEAR_VERDICT)


@pytest.mark.parametrize("verdict", ["VALID", "**VALID**", "valid.", "`VALID` - all rules kept"])
def test_a_plain_or_formatted_valid_is_accepted(verdict: str) -> None:
    assert read_verdict(verdict).valid


# --- the react user's labels -----------------------------------------------------------------


def test_a_thought_after_the_customer_line_stays_private() -> None:
    text = (
        "Thought: names first.\nCustomer: Hi, the names on booking CSGT3G are wrong.\n\n"
        "Thought: if asked, my date of birth is 1956-12-25."
    )
    thought, said = parse_react(text)
    assert said == "Hi, the names on booking CSGT3G are wrong."
    assert thought is not None and "1956-12-25" in thought


@pytest.mark.parametrize(
    "text",
    [
        "**Thought:** be brief.\n**Customer:** I'm Ana Lee.",
        "**Thought**: be brief.\n**Customer**: I'm Ana Lee.",
        "Thought: be brief. Customer: I'm Ana Lee.",
        "### Thought: be brief.\n### Customer: I'm Ana Lee.",
    ],
)
def test_markdown_and_inline_react_labels_parse(text: str) -> None:
    assert parse_react(text) == ("be brief.", "I'm Ana Lee.")


def test_a_label_word_inside_the_customer_line_is_not_a_label() -> None:
    text = "Thought: firm.\nCustomer: As a loyal customer: I expect this fixed."
    assert parse_react(text) == ("firm.", "As a loyal customer: I expect this fixed.")


def test_a_bold_react_reply_is_said_without_retries(toy: Domain) -> None:
    model = ScriptedModel(["**Thought:** keep it short.\n**Customer:** Credit, please."])
    msg = reply(LLMUser(setup(toy), model, strategy="react"))
    assert msg.content == "Credit, please." and msg.reasoning == "keep it short."
    assert len(model.requests) == 1


# --- usage of failed attempts ----------------------------------------------------------------


def test_a_failed_turn_carries_the_usage_of_every_attempt(toy: Domain) -> None:
    with pytest.raises(UserTurnError) as failed:
        reply(LLMUser(setup(toy), ScriptedModel(["", "  ", "no label"]), strategy="react"))
    assert isinstance(failed.value, ParticipantError)  # still recorded as a user error
    assert failed.value.usage.calls == 3 and failed.value.usage.prompt_tokens > 0


def test_a_failed_regeneration_counts_the_whole_turn(toy: Domain) -> None:
    outputs = iter(["Credit?", "INVALID: too curt", "", "", ""])
    model = ScriptedModel(lambda m, t: next(outputs))
    with pytest.raises(UserTurnError) as failed:
        reply(LLMUser(setup(toy), model, strategy="verify"))
    # the first reply, the supervisor call and three failed regenerations
    assert failed.value.usage.calls == len(model.requests) == 5
