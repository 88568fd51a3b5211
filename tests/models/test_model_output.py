"""Model output is data whatever it holds: unencodable text is replaced and noted, and tool
arguments with non-finite numbers are malformed calls the agent sees (loopback servers)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from loopback import bypass_proxies
from tau_emotion.data import Message, TerminationReason
from tau_emotion.domains import Domain
from tau_emotion.environment import Environment
from tau_emotion.models.local import parse_reply, parse_reply_noted
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel
from tau_emotion.models.sanitize import REPLACEMENT, clean_text, loads_finite, parse_tool_call
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.agents import ToolCallingAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.text_agents import TextProtocolAgent, parse_action, parse_action_noted

from loopback_server import RawReply, chat_server, completion, function_call
from toy_domain import credit_task

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    bypass_proxies(monkeypatch)


def make(base_url: str) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        ModelConfig(model="fake", base_url=base_url, backoff_s=0.01, timeout_s=5)
    )


def raw_completion(message_json: str) -> RawReply:
    """A 200 whose message is spelled by hand, so it can hold escapes json.dumps won't write."""
    body = (
        '{"id": "c", "object": "chat.completion", "choices": [{"index": 0, "message": '
        + message_json
        + '}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}}'
    ).encode()
    head = f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(body)}"
    return RawReply(head.encode() + b"\r\n\r\n" + body)


def ask(base_url: str) -> Message:
    model = make(base_url)
    return asyncio.run(model.complete([Message(role="user", content="hi")]))


def test_lone_surrogates_in_content_reasoning_and_arguments_are_replaced_and_noted() -> None:
    message = (
        '{"role": "assistant", "content": "bad \\ud800 text", "reasoning_content": "\\udfff",'
        ' "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_credit",'
        ' "arguments": "{\\"customer_id\\": \\"c\\\\ud83d1\\"}"}}]}'
    )
    with chat_server([raw_completion(message)]) as server:
        reply = ask(server.base_url)
    assert reply.content == f"bad {REPLACEMENT} text"
    assert reply.reasoning == REPLACEMENT
    assert reply.tool_calls is not None
    assert reply.tool_calls[0].arguments == {"customer_id": f"c{REPLACEMENT}1"}
    assert reply.repairs is not None and len(reply.repairs) == 3
    assert any("content: 1 unencodable" in r for r in reply.repairs)
    assert any("tool call call_1" in r for r in reply.repairs)
    reply.model_dump_json().encode("utf-8")  # storable: this raised before the repair


def test_invalid_utf8_bytes_in_the_body_are_replaced_and_noted() -> None:
    body = json.dumps(completion("caf\u00e9")).encode().replace(b"\\u00e9", b"\xff\xfe")
    head = f"HTTP/1.1 200 OK\r\ncontent-length: {len(body)}\r\n\r\n".encode()
    with chat_server([RawReply(head + body)]) as server:
        reply = ask(server.base_url)
    assert reply.content == f"caf{REPLACEMENT}{REPLACEMENT}"
    assert reply.repairs and "not valid UTF-8" in reply.repairs[0]


def test_clean_messages_carry_no_repairs() -> None:
    with chat_server([(200, completion("fine"), {})]) as server:
        assert ask(server.base_url).repairs is None


@pytest.mark.parametrize("number", NON_FINITE)
def test_non_finite_arguments_are_malformed_calls(number: str) -> None:
    arguments = f'{{"customer_id": "c1", "amount": {number}}}'
    reply = completion(None, [function_call("add_credit", arguments)])
    with chat_server([(200, reply, {})]) as server:
        msg = ask(server.base_url)
    assert msg.tool_calls is not None
    call = msg.tool_calls[0]
    assert call.parse_error is not None and "not finite" in call.parse_error
    assert call.raw_arguments == arguments and call.arguments == {}


def test_arguments_sent_as_an_object_are_accepted_and_checked() -> None:
    ok, _ = parse_tool_call("c", "get_credit", {"customer_id": "c1"})
    assert ok.arguments == {"customer_id": "c1"} and ok.parse_error is None
    bad, _ = parse_tool_call("c", "add_credit", {"amount": float("inf")})
    assert bad.parse_error is not None and "not finite" in bad.parse_error


@pytest.mark.parametrize(
    "raw", ["[1]", '"text"', "{", "1" * 5000, "[" * 100_000 + "]" * 100_000, "{}{}"]
)
def test_other_malformed_arguments_never_raise(raw: str) -> None:
    call, _ = parse_tool_call("c", "get_credit", raw)
    assert call.parse_error is not None and call.raw_arguments == raw


def test_finite_numbers_parse_as_before() -> None:
    assert loads_finite('{"a": 1.5e3, "b": -2, "c": 1e308}') == {"a": 1500.0, "b": -2, "c": 1e308}
    assert clean_text("plain") == ("plain", 0)


def test_the_agent_sees_a_non_finite_call_as_its_failed_turn(toy: Domain) -> None:
    """End to end: loopback endpoint -> tool-calling agent -> environment -> next request."""
    replies: list[Any] = [
        (
            200,
            completion(None, [function_call("add_credit", '{"customer_id": "c1", "amount": NaN}')]),
            {},
        ),
        (200, completion("Sorry, that did not work."), {}),
    ]
    with chat_server(replies) as server:
        task = credit_task()
        setup = EpisodeSetup(task, toy, seed=0, trial=0)
        agent = ToolCallingAgent(setup, make(server.base_url))
        user = ScriptedModel(["I need credit.", "###UNSATISFIED###"], name="user")

        class User:
            async def respond(self, messages: Any) -> Message:
                reply = await user.complete(messages)
                return reply.model_copy(update={"role": "user"})

        episode = asyncio.run(run_episode(setup, agent, User(), Environment(toy, "main")))
    tool_msgs = [m for m in episode.messages if m.role == "tool"]
    assert len(tool_msgs) == 1 and tool_msgs[0].error
    assert "not finite" in (tool_msgs[0].content or "")
    assert episode.termination == TerminationReason.USER_UNSATISFIED
    # the malformed call went back to the endpoint verbatim, and the error result with it
    sent = server.requests[1]["body"]["messages"]
    assert sent[-2]["tool_calls"][0]["function"]["arguments"].endswith("NaN}")
    assert sent[-1]["role"] == "tool" and "not finite" in sent[-1]["content"]


@pytest.mark.parametrize("number", NON_FINITE)
def test_embedded_model_replies_reject_non_finite_numbers(number: str) -> None:
    said, call = parse_reply(f'{{"tool": "add_credit", "arguments": {{"amount": {number}}}}}', "c")
    assert said is None and call is not None
    assert call.name == "add_credit" and call.parse_error and "not finite" in call.parse_error


def test_embedded_model_replies_replace_escaped_surrogates() -> None:
    said, call, repairs = parse_reply_noted('{"respond": "oops \\ud800"}', "c")
    assert said == f"oops {REPLACEMENT}" and call is None and repairs
    assert parse_reply('{"tool": "x", "arguments": [1]}', "c")[1] is not None


@pytest.mark.parametrize("number", NON_FINITE)
def test_text_protocol_actions_reject_non_finite_numbers(number: str) -> None:
    text = f'Action: {{"name": "add_credit", "arguments": {{"amount": {number}}}}}'
    _, action = parse_action(text, "c")
    assert not isinstance(action, str)
    assert action.name == "add_credit" and action.parse_error and "not finite" in action.parse_error


def test_text_protocol_agent_notes_repairs_from_its_action(toy: Domain) -> None:
    _, action, repaired = parse_action_noted(
        'Action: {"name": "respond", "arguments": {"content": "hi \\udc00"}}', "c"
    )
    assert action == f"hi {REPLACEMENT}" and repaired == 1
    setup = EpisodeSetup(credit_task(), toy, seed=0, trial=0)
    model = ScriptedModel(['Action: {"name": "respond", "arguments": {"content": "\\ud800"}}'])
    agent = TextProtocolAgent(setup, model, with_thought=False)
    reply = asyncio.run(agent.respond([Message(role="user", content="hi")]))
    assert reply.content == REPLACEMENT and reply.repairs and "action" in reply.repairs[0]
