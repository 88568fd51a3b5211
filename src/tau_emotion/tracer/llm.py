"""Optional model help, through any `ChatModel`: propose graph edges, rewrite an instruction,
judge what no check can decide. Every output is checked like the offline one: proposed edges
go through the policy rules, rewritten instructions through validation."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from tau_emotion.data import Message, Task
from tau_emotion.models.base import ChatModel
from tau_emotion.tracer.graph import policy_problems
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import Edge, ToolGraph

_JSON = re.compile(r"\[.*\]|\{.*\}", re.S)


def _ask(model: ChatModel, system: str, user: str) -> str:
    messages = [Message(role="system", content=system), Message(role="user", content=user)]
    reply = asyncio.run(model.complete(messages))
    return reply.content or ""


def _json(text: str) -> Any:
    match = _JSON.search(text)
    if match is None:
        return None
    try:
        return json.loads(match.group(0))
    except ValueError:
        return None


GRAPH_PROMPT = """You design test conversations for a customer-service agent.
Given the tools and the policy below, list which tool may legitimately be called right after
which: B may follow A when an output of A feeds a parameter of B, when looking something up
comes before acting on it, or when the policy requires A first. Identity lookups come first
and nothing follows a transfer. Answer with a JSON list of objects
{"source": A, "target": B, "why": "..."} and nothing else."""


def propose_graph(model: ChatModel, profile: Profile, graph: ToolGraph) -> ToolGraph:
    """The model's edges over the graph's nodes, each kept only if the policy rules allow it
    (the review); the rule-derived requirements and entries stay."""
    tools = [s.openai_schema() for n, s in profile.domain.toolset.specs.items()]
    user = f"# Policy\n\n{profile.domain.policy}\n\n# Tools\n\n{json.dumps(tools)}"
    data = _json(_ask(model, GRAPH_PROMPT, user))
    nodes = {n.name: n for n in graph.nodes}
    names = set(nodes)
    edges: dict[tuple[str, str], Edge] = {}
    notes: list[str] = []
    for item in data if isinstance(data, list) else []:
        if not isinstance(item, dict):
            continue
        a, b = str(item.get("source", "")), str(item.get("target", ""))
        if a not in names or b not in names:
            notes.append(f"dropped {a} -> {b}: unknown tool")
            continue
        # The review checks the interface too: what data would the edge carry?
        fed = [p for p in nodes[b].params if p in nodes[a].produces]
        reasons = [
            f"model: {item.get('why', '')}",
            *(f"interface: {a} output feeds {p}" for p in fed),
        ]
        edge = Edge(source=a, target=b, reasons=reasons)
        trial = graph.model_copy(update={"edges": [edge]})
        problems = policy_problems(trial)
        if problems:
            notes.append(f"dropped {a} -> {b}: {problems[0]}")
            continue
        edges[(a, b)] = edge
    return graph.model_copy(
        update={
            "edges": [edges[k] for k in sorted(edges)],
            "proposed_by": model.name,
            "review": [*graph.review, *notes],
        }
    )


WRITER_PROMPT = """Rewrite the customer's instruction so it reads naturally, in the second
person. Keep every goal, value, code and preference exactly as given; add no new facts; name
no tool and no internal id. Answer with the instruction only."""


def write_instruction(model: ChatModel, task: Task) -> Task:
    """The task with a model-written instruction (validation judges it like any other)."""
    text = _ask(model, WRITER_PROMPT, task.instruction).strip()
    return task.model_copy(update={"instruction": text}) if text else task


JUDGE_PROMPT = """You check generated customer-service tasks. Does this instruction read as
one real customer's coherent goal, with preferences that make sense together? Answer with a
JSON object {"ok": true} or {"ok": false, "why": "..."}."""


def judge_task(model: ChatModel, task: Task) -> str:
    """'' when the judge accepts the task, otherwise its reason."""
    data = _json(_ask(model, JUDGE_PROMPT, task.instruction))
    if isinstance(data, dict) and data.get("ok") is True:
        return ""
    if isinstance(data, dict):
        return str(data.get("why", "the judge rejected it"))
    return "the judge gave no verdict"
