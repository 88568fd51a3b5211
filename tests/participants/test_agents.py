"""Agent strategies with the scripted fake model: react, act, few-shot, human; plus cache and factory."""

from __future__ import annotations

import asyncio
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tau_emotion.data import Message, TerminationReason
from tau_emotion.domains import Domain
from tau_emotion.environment import Environment
from tau_emotion.errors import ModelError, TaskFileError
from tau_emotion.models.cache import CachedModel
from tau_emotion.models.factory import make_model
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel
from tau_emotion.models.scripted import ScriptedModel
from tau_emotion.simulation.agents import FewShotAgent, load_demonstrations
from tau_emotion.simulation.human import HumanAgent, HumanUser
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.text_agents import TextProtocolAgent, parse_action
from tau_emotion.simulation.users import ScriptedUser

from toy_domain import credit_task


def setup(toy: Domain) -> EpisodeSetup:
    return EpisodeSetup(credit_task(), toy, seed=0, trial=0)


def test_react_agent_solves_the_task_and_recovers_from_a_malformed_action(toy: Domain) -> None:
    replies = [
        'Thought: look up the customer\nAction: {"name": "find_customer", "arguments": {"email": "ana@example.com"',
        'Thought: retry with valid JSON\nAction: {"name": "find_customer", "arguments": {"email": "ana@example.com"}}',
        'Thought: confirm first\nAction: {"name": "respond", "arguments": {"content": "I will add credit of 5.0. Shall I proceed?"}}',
        'Thought: go\nAction: {"name": "add_credit", "arguments": {"customer_id": "c1", "amount": 5.0}}',
        'Thought: tell\nAction: {"name": "respond", "arguments": {"content": "Done, your balance is 15.0. Anything else?"}}',
        'Thought: read\nAction: {"name": "get_credit", "arguments": {"customer_id": "c1"}}',
        'Thought: tell\nAction: {"name": "respond", "arguments": {"content": "It is 15.0. Anything else?"}}',
    ]
    model = ScriptedModel(replies)
    s = setup(toy)
    agent = TextProtocolAgent(s, model, with_thought=True)
    episode = asyncio.run(run_episode(s, agent, ScriptedUser(s), Environment(toy, "main")))
    first_tool = next(m for m in episode.messages if m.role == "tool")
    assert first_tool.error and "not valid JSON" in (first_tool.content or "")
    assert episode.termination == TerminationReason.USER_STOP and episode.reward == 1.0
    assert episode.messages[2].reasoning == "look up the customer"
    # the model saw tools in its prompt and tool results as observations, with no native tools
    sent, tools = model.requests[1]
    assert tools is None and "find_customer(email: string)" in (sent[0].content or "")
    assert (sent[-1].content or "").startswith("Observation: Error:")


def test_act_agent_parses_plain_actions_and_flags_missing_action_lines() -> None:
    assert parse_action('Action: {"name": "respond", "arguments": {"content": "hi"}}', "c") == (
        None,
        "hi",
    )
    _, call = parse_action("I will just chat.", "c")
    assert not isinstance(call, str) and call.parse_error == "no 'Action:' line found"
    _, call = parse_action('Action: {"name": "get_credit", "arguments": [1]}', "c")
    assert not isinstance(call, str) and call.name == "get_credit" and call.parse_error


def test_few_shot_agent_puts_demonstrations_in_the_prompt(toy: Domain, tmp_path: Path) -> None:
    demo = {
        "messages": [
            {"role": "user", "content": "DEMO-REQUEST"},
            {"role": "assistant", "content": "DEMO-ANSWER"},
        ]
    }
    path = tmp_path / "demos.jsonl"
    path.write_text(json.dumps(demo) + "\n")
    agent = FewShotAgent(setup(toy), ScriptedModel(["ok"]), load_demonstrations(path), k=2)
    assert "Customer: DEMO-REQUEST" in agent.system_prompt()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"nope": 1}\n')
    with pytest.raises(TaskFileError, match=r"bad.jsonl:1"):
        load_demonstrations(bad)


def test_human_agent_and_human_user_in_the_terminal(toy: Domain) -> None:
    from rich.console import Console

    s = setup(toy)
    agent_lines = iter(
        [
            '/tool find_customer {"email": "ana@example.com"}',
            "/tool add_credit {bad json",
            "Sorry, bye.",
        ]
    )
    user_lines = iter(["I want credit", "/quit"])
    quiet = Console(file=open("/dev/null", "w"))  # noqa: SIM115
    agent = HumanAgent(s, ask=lambda prompt: next(agent_lines), console=quiet)
    user = HumanUser(s, ask=lambda prompt: next(user_lines), console=quiet)
    episode = asyncio.run(run_episode(s, agent, user, Environment(toy, "main")))
    tools = [m for m in episode.messages if m.role == "tool"]
    assert [t.error for t in tools] == [False, True]
    assert episode.termination == TerminationReason.USER_UNSATISFIED


def test_cache_records_then_replays_without_the_model(tmp_path: Path) -> None:
    path = tmp_path / "agent.jsonl"
    msgs = [Message(role="user", content="hi")]
    recorder = CachedModel(ScriptedModel(["hello"]), path, "record", params={"temperature": 0})
    assert asyncio.run(recorder.complete(msgs)).content == "hello"
    replay = CachedModel(None, path, "replay", params={"temperature": 0}, name="scripted")
    assert asyncio.run(replay.complete(msgs)).content == "hello" and replay.hits == 1
    with pytest.raises(ModelError, match="not in the cache"):
        asyncio.run(replay.complete([Message(role="user", content="different")]))
    other_params = CachedModel(None, path, "replay", params={"temperature": 1}, name="scripted")
    with pytest.raises(ModelError):
        asyncio.run(other_params.complete(msgs))


def test_factory_picks_backends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = make_model(ModelConfig(model="qwen3-8b", base_url="http://127.0.0.1:9/v1"))
    assert isinstance(model, OpenAICompatibleModel)
    cached = make_model(ModelConfig(model="qwen3-8b"), tmp_path / "c.jsonl", "replay")
    assert isinstance(cached, CachedModel) and cached.inner is None
    with pytest.raises(ModelError, match="does not exist"):
        make_model(ModelConfig(model=f"local:{tmp_path / 'missing.gguf'}"))


def test_litellm_provider_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    async def acompletion(**kwargs: Any) -> Any:
        calls.append(kwargs)
        message = types.SimpleNamespace(content="from litellm", tool_calls=None, model_extra={})
        usage = types.SimpleNamespace(prompt_tokens=3, completion_tokens=2)
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=message)], usage=usage)

    monkeypatch.setitem(sys.modules, "litellm", types.SimpleNamespace(acompletion=acompletion))
    model = make_model(ModelConfig(model="litellm:anthropic/claude-x"))
    reply = asyncio.run(model.complete([Message(role="user", content="hi")]))
    assert reply.content == "from litellm" and calls[0]["model"] == "anthropic/claude-x"
    assert reply.usage is not None and reply.usage.prompt_tokens == 3


# --- few-shot: no demonstration of the task under test ---------------------------------


def _demo_record(
    marker: str, task_id: str | None, domain: str | None = "toy", trial: int = 0
) -> str:
    record: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": f"DEMO-{marker}"},
            {"role": "assistant", "content": "ok"},
        ],
        "trial": trial,
    }
    if task_id is not None:
        record["task_id"] = task_id
    if domain is not None:
        record["domain"] = domain
    return json.dumps(record)


def _few_shot_prompt(
    toy: Domain, tmp_path: Path, lines: list[str], task_id: str = "t1", **task: Any
) -> FewShotAgent:
    path = tmp_path / "demos.jsonl"
    path.write_text("\n".join(lines) + "\n")
    s = EpisodeSetup(credit_task().model_copy(update={"id": task_id, **task}), toy, seed=0, trial=0)
    return FewShotAgent(s, ScriptedModel(["ok"]), load_demonstrations(path), k=10)


def test_few_shot_agent_never_shows_the_task_under_test_or_its_twin(
    toy: Domain, tmp_path: Path
) -> None:
    lines = [
        _demo_record("SAME-TRIAL0", "t1"),
        _demo_record("SAME-TRIAL1", "t1", trial=1),
        _demo_record("TWIN", "t1-neutral"),
        _demo_record("SAME-NO-DOMAIN", "t1", domain=None),
        _demo_record("OTHER-DOMAIN", "t1", domain="airline"),
        _demo_record("OTHER-TASK", "t2"),
        _demo_record("NO-TASK-ID", None, domain=None),
    ]
    agent = _few_shot_prompt(toy, tmp_path, lines, neutral_twin_id="t1-neutral")
    prompt = agent.system_prompt()
    for leaked in ("SAME-TRIAL0", "SAME-TRIAL1", "TWIN", "SAME-NO-DOMAIN"):
        assert f"DEMO-{leaked}" not in prompt
    # k=10 asked for, 3 remain: all of them are used
    for kept in ("OTHER-DOMAIN", "OTHER-TASK", "NO-TASK-ID"):
        assert f"Customer: DEMO-{kept}" in prompt
    assert agent.excluded == 4 and agent.shown == 3


def test_few_shot_agent_on_a_neutral_twin_leaves_out_its_emotional_variant(
    toy: Domain, tmp_path: Path
) -> None:
    lines = [_demo_record("EMOTIONAL", "t1"), _demo_record("OTHER", "t2")]
    prompt = _few_shot_prompt(toy, tmp_path, lines, task_id="t1-neutral").system_prompt()
    assert "DEMO-EMOTIONAL" not in prompt and "DEMO-OTHER" in prompt
    # a twin named without the usual suffix is matched through Task.neutral_twin_id
    lines = [_demo_record("CALM", "t1-calm"), _demo_record("OTHER", "t2")]
    prompt = _few_shot_prompt(toy, tmp_path, lines, neutral_twin_id="t1-calm").system_prompt()
    assert "DEMO-CALM" not in prompt and "DEMO-OTHER" in prompt


def test_few_shot_agent_with_only_demonstrations_of_its_task_shows_none(
    toy: Domain, tmp_path: Path
) -> None:
    agent = _few_shot_prompt(toy, tmp_path, [_demo_record("SAME", "t1")])
    assert "DEMO-SAME" not in agent.system_prompt()
    assert "# Example conversations" not in agent.system_prompt() and agent.shown == 0


# --- react / act: action parsing --------------------------------------------------------

RESPOND_HI = '{"name": "respond", "arguments": {"content": "hi"}}'
GET_CREDIT = '{"name": "get_credit", "arguments": {"customer_id": "c1"}}'


@pytest.mark.parametrize(
    "text",
    [
        f"Action:\n```json\n{RESPOND_HI}\n```",
        f"Action: ```\n{RESPOND_HI}\n```",
        f"Action: `{RESPOND_HI}`",
        f"Action: {RESPOND_HI}\nObservation: the customer says thanks",
        f"Action: {RESPOND_HI}\nI hope this helps.",
        f"**Action:** {RESPOND_HI}",
        f"**Action**: {RESPOND_HI}",
    ],
)
def test_text_actions_in_fences_backticks_bold_or_with_trailing_text_parse(text: str) -> None:
    assert parse_action(text, "c") == (None, "hi")
    _, call = parse_action(text.replace(RESPOND_HI, GET_CREDIT), "c")
    assert not isinstance(call, str) and call.parse_error is None
    assert (call.name, call.arguments) == ("get_credit", {"customer_id": "c1"})


def test_a_bold_thought_is_read_as_the_thought() -> None:
    thought, said = parse_action(f"**Thought:** ask for the email.\n**Action:** {RESPOND_HI}", "c")
    assert (thought, said) == ("ask for the email.", "hi")


@pytest.mark.parametrize(
    "text",
    [
        'Action: {"name": "get_credit", "arguments": {"customer_id": "c1"}',  # cut off
        "Action: respond hi",
        f"Action: I will now call {GET_CREDIT}",  # prose before the JSON
        "Action:\n```json\n```",
        '**Action:** ["get_credit"]',
    ],
)
def test_malformed_text_actions_are_still_malformed(text: str) -> None:
    _, call = parse_action(text, "c")
    assert not isinstance(call, str) and call.parse_error


def test_after_a_parse_failure_the_model_sees_its_own_reply_verbatim(toy: Domain) -> None:
    bad = [
        'Thought: look up\nAction: {"name": "find_customer", "arguments": {"email": "ana@example.com"',
        "**Thought:** ask.\nI'd like your email, please.",
        'Action: {"name": "respond", "arguments": {}}',
    ]
    model = ScriptedModel([*bad, f"Action: {RESPOND_HI}"])
    agent = TextProtocolAgent(setup(toy), model, with_thought=True)
    history = [Message(role="user", content="hello")]
    env = Environment(toy, "main")
    for _ in bad:
        reply = asyncio.run(agent.respond(history))
        assert reply.tool_calls and reply.tool_calls[0].parse_error
        history += [reply, env.execute(reply.tool_calls[0])]
    assert asyncio.run(agent.respond(history)).content == "hi"
    sent, _ = model.requests[-1]
    assert [m.content for m in sent if m.role == "assistant"] == bad


# --- react / act: respond text in the wrong place ---------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        '{"name": "respond", "content": "hi"}',
        '{"name": "respond", "arguments": {"message": "hi"}}',
        '{"name": "respond", "message": "hi"}',
        '{"name": "respond", "arguments": {"content": "hi", "message": "other"}}',
    ],
)
def test_respond_text_under_an_obvious_alias_is_sent(action: str) -> None:
    assert parse_action(f"Action: {action}", "c") == (None, "hi")


@pytest.mark.parametrize(
    "action",
    [
        '{"name": "respond"}',
        '{"name": "respond", "arguments": {}}',
        '{"name": "respond", "arguments": {"content": "  "}}',
        '{"name": "respond", "arguments": {"text": 3}}',
    ],
)
def test_respond_without_text_is_a_parse_error_not_an_empty_message(
    action: str, toy: Domain
) -> None:
    model = ScriptedModel([f"Action: {action}"])
    agent = TextProtocolAgent(setup(toy), model, with_thought=False)
    reply = asyncio.run(agent.respond([Message(role="user", content="hello")]))
    assert not reply.content and reply.tool_calls
    call = reply.tool_calls[0]
    assert call.name == "respond" and call.parse_error and '"content"' in call.parse_error
    result = Environment(toy, "main").execute(call)
    assert result.error and "respond" in (result.content or "")
