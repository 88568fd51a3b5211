"""The conversation the oracle agent and the scripted user would have, built directly.

The policy checks audit a conversation, so grounding and validation need the one the oracle
would produce: reads called at once; before each write a description and an explicit yes;
after each intent its outputs and "anything else?". Building it without running the episode
loop costs only the tool calls themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tau_emotion.data import STOP_TOKEN, Action, Message, Task, ToolCall
from tau_emotion.domains.tools import ToolKind, to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.simulation.agents import describe_action


def oracle_messages(
    actions: Sequence[Action],
    results: Sequence[str],
    kinds: Mapping[str, ToolKind],
    intent_of: Sequence[int],
    requests: Sequence[str] | None = None,
    outputs: Sequence[Sequence[str]] | None = None,
) -> list[Message]:
    """Messages of the oracle's conversation, given each action's result text and intent."""
    n_intents = (max(intent_of) + 1) if intent_of else 1
    requests = requests or ["I need some help." for _ in range(n_intents)]
    messages = [Message(role="system", content="policy"), Message(role="user", content=requests[0])]
    current = 0
    for i, (action, result) in enumerate(zip(actions, results, strict=True)):
        if intent_of[i] != current:
            said = "; ".join(outputs[current]) if outputs else ""
            messages.append(
                Message(role="assistant", content=f"That is done. {said} Anything else?")
            )
            current = intent_of[i]
            messages.append(Message(role="user", content=requests[current]))
        if kinds.get(action.name) == "write":
            messages.append(
                Message(
                    role="assistant",
                    content=f"To confirm, I am about to {describe_action(action)}. Proceed?",
                )
            )
            messages.append(Message(role="user", content="Yes, please go ahead."))
        call = ToolCall(id=f"call_{i}", name=action.name, arguments=dict(action.arguments))
        messages.append(Message(role="assistant", tool_calls=[call]))
        messages.append(Message(role="tool", content=result, tool_call_id=call.id, name=call.name))
    messages.append(Message(role="assistant", content="That is done. Anything else?"))
    messages.append(Message(role="user", content=f"No, thanks. {STOP_TOKEN}"))
    return messages


def replay_task(task: Task, env: Environment) -> tuple[list[Message], str]:
    """Run a task's gold actions on a fresh state: the oracle's conversation and the final
    hash. Raises `ToolError` when a gold action is refused."""
    env.reset()
    results: list[str] = []
    intent_of: list[int] = []
    for index, intent in enumerate(task.intents):
        for action in intent.actions:
            results.append(to_text(env.call(action.name, dict(action.arguments))))
            intent_of.append(index)
    digest = env.hash()
    env.reset()
    messages = oracle_messages(
        task.gold_actions,
        results,
        env.domain.tool_kinds,
        intent_of,
        [i.request for i in task.intents],
        [i.outputs for i in task.intents],
    )
    return messages, digest


__all__ = ["ToolError", "oracle_messages", "replay_task"]
