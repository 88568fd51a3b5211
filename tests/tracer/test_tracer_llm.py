"""Optional model help, tested with the scripted model: proposals are reviewed by the rules."""

from __future__ import annotations

import json

from tau_emotion.data import Intent, Task
from tau_emotion.models import ScriptedModel
from tau_emotion.tracer.graph import build_graph
from tau_emotion.tracer.llm import judge_task, propose_graph, write_instruction
from tau_emotion.tracer.profile import load_profile


def test_proposed_edges_are_kept_only_when_the_policy_allows_them() -> None:
    graph = build_graph(load_profile("retail"))
    proposal = [
        {"source": "find_customer_by_email", "target": "get_order", "why": "look it up"},
        {"source": "get_order", "target": "cancel_pending_order", "why": "act on it"},
        {"source": "get_order", "target": "find_customer_by_email", "why": "bad"},
        {"source": "find_customer_by_email", "target": "request_return", "why": "too soon"},
        {"source": "nope", "target": "get_order", "why": "unknown"},
    ]
    model = ScriptedModel([f"Here you go:\n{json.dumps(proposal)}"], name="fake-llm")
    proposed = propose_graph(model, load_profile("retail"), graph)
    pairs = {(e.source, e.target) for e in proposed.edges}
    assert pairs == {
        ("find_customer_by_email", "get_order"),
        ("get_order", "cancel_pending_order"),
    }
    assert proposed.proposed_by == "fake-llm"
    assert sum(note.startswith("dropped") for note in proposed.review) == 3
    assert proposed.entries == graph.entries and proposed.requires == graph.requires


def _task() -> Task:
    return Task(
        id="t",
        domain="retail",
        split="train",
        user_id="CU-1",
        instruction="You are Ana. You want to cancel your order ORD-1.",
        intents=[Intent(request="Cancel my order ORD-1.")],
    )


def test_the_judge_and_the_writer_go_through_the_model() -> None:
    assert judge_task(ScriptedModel(['{"ok": true}']), _task()) == ""
    assert judge_task(ScriptedModel(['{"ok": false, "why": "two goals clash"}']), _task()) == (
        "two goals clash"
    )
    assert judge_task(ScriptedModel(["no idea"]), _task()) == "the judge gave no verdict"
    rewritten = write_instruction(ScriptedModel(["You are Ana, and order ORD-1 must go."]), _task())
    assert rewritten.instruction == "You are Ana, and order ORD-1 must go."
