"""LLM user strategies with the scripted fake model: plain, react, verify, reflection."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from tau_emotion.data import UNSATISFIED_TOKEN, EmotionSpec, Message
from tau_emotion.domains import Domain
from tau_emotion.errors import ParticipantError
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users.llm import LLMUser, parse_react, user_system_prompt

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
