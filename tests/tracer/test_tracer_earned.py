"""Validation turns away tasks that pay for less than their goal: a gold that changes nothing
(unless it refuses or answers), a write another intent undoes, an output the customer already
said; and the selection keeps hand-offs alone to 3%."""

from __future__ import annotations

from tau_emotion.data import Action, Intent, Task
from tau_emotion.domains import load_domain
from tau_emotion.environment import Environment
from tau_emotion.tracer.records import Candidate, Verdict
from tau_emotion.tracer.select import capped, is_transfer_only
from tau_emotion.tracer.validate import earned_problems


def _shipped(domain: str, tool: str) -> Task:
    return next(
        t for t in load_domain(domain).tasks("test") if tool in {a.name for a in t.gold_actions}
    )


def _problems(task: Task) -> list[str]:
    env = Environment.for_task(task)
    digest = env.replay(task.gold_actions)
    return [reason for reason, _ in earned_problems(task, env, digest)]


def test_a_shipped_task_earns_its_reward() -> None:
    assert _problems(_shipped("bank", "freeze_card")) == []


def test_a_write_another_intent_undoes_is_caught() -> None:
    task = _shipped("bank", "freeze_card")
    freeze = next(a for a in task.gold_actions if a.name == "freeze_card")
    undo = Action(
        name="unfreeze_card", arguments={k: freeze.arguments[k] for k in ("customer_id", "card_id")}
    )
    intents = [*task.intents, Intent(request="Unfreeze it again.", actions=[undo])]
    assert "undone_write" in _problems(task.model_copy(update={"intents": intents}))


def test_a_gold_that_changes_nothing_is_caught_unless_it_answers() -> None:
    task = _shipped("bank", "freeze_card")
    reads = [a for a in task.gold_actions if load_domain("bank").tool_kinds[a.name] == "read"]
    idle = task.model_copy(update={"intents": [Intent(request="Just looking.", actions=reads)]})
    assert _problems(idle) == ["unchanged_state"]
    asked = Intent(request="What is my balance?", actions=reads, outputs=["123.45"])
    assert _problems(idle.model_copy(update={"intents": [asked]})) == []


def test_an_output_the_customer_already_said_is_caught() -> None:
    task = _shipped("bank", "freeze_card")
    first = task.intents[0].model_copy(update={"outputs": ["50"]})
    echoed = task.model_copy(
        update={
            "intents": [first, *task.intents[1:]],
            "instruction": task.instruction + " It was 50 dollars.",
        }
    )
    assert "output_given" in _problems(echoed)


def _verdict(task: Task, n: int, customer: str | None = None) -> Verdict:
    copy = task.model_copy(
        update={
            "id": f"{task.id}-{n}",
            "instruction": f"{task.instruction} ({n})",
            "user_id": customer or f"c{n}",
        }
    )
    candidate = Candidate(
        walk_id=copy.id,
        trace="t",
        variant="main",
        final_hash=f"h{copy.id}",
        task=copy,
        situation="s",
    )
    return Verdict(walk_id=copy.id, accepted=True, candidate=candidate)


def test_the_selection_keeps_hand_offs_alone_to_three_percent() -> None:
    domain = load_domain("bank")
    plain = _shipped("bank", "freeze_card")
    hand_off = plain.model_copy(
        update={
            "intents": [
                Intent(
                    request="I need a human.",
                    actions=[Action(name="transfer_to_human_agents", arguments={"summary": "x"})],
                )
            ]
        }
    )
    verdicts = [_verdict(hand_off if n % 2 else plain, n) for n in range(140)]
    assert is_transfer_only(verdicts[1], domain.tool_kinds) and not is_transfer_only(
        verdicts[0], domain.tool_kinds
    )
    kept = capped(verdicts, 70, domain.tool_kinds)
    assert sum(is_transfer_only(v, domain.tool_kinds) for v in kept) == 2  # 3% of 70, rounded down
    assert len(kept) == 72


def test_the_selection_keeps_no_two_alike_and_three_tasks_a_customer() -> None:
    kinds = load_domain("bank").tool_kinds
    plain = _shipped("bank", "freeze_card")
    same_customer = [_verdict(plain, n, "c0") for n in range(5)]
    assert len(capped(same_customer, 50, kinds)) == 3
    twice = _verdict(plain, 1)
    alike = twice.model_copy(update={"walk_id": "other"})
    assert len(capped([twice, alike], 50, kinds)) == 1  # same end state and instruction
