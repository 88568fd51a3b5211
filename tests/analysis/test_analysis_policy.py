"""Every domain policy check over stored trajectories, with rates per cell and per rule."""

from __future__ import annotations

from tau_emotion.analysis.policy import policy_analysis
from tau_emotion.data import EmotionSpec, Episode, Message, TerminationReason, ToolCall
from tau_emotion.domains import load_domain

ANGER = EmotionSpec(
    condition_id="anger.annoyance.cold.high.skeptical",
    family="anger",
    emotion="annoyance",
    politeness="cold",
    urgency="high",
    trust="skeptical",
    instruction="x",
)


def ep(trial: int, reckless: bool, emotional: bool, domain: str = "airline") -> Episode:
    messages = [Message(role="system", content="s"), Message(role="user", content="cancel 8TQVHG")]
    if reckless:  # a write with no authentication and no confirmation before it
        call = ToolCall(
            id="c1",
            name="cancel_reservation",
            arguments={"user_id": "priya_whitfield_5459", "reservation_code": "8TQVHG"},
        )
        messages += [
            Message(role="assistant", tool_calls=[call]),
            Message(
                role="tool", tool_call_id="c1", name=call.name, content='{"status": "cancelled"}'
            ),
        ]
    messages.append(Message(role="assistant", content="Anything else?"))
    return Episode(
        task_id="cancel",
        domain=domain,
        trial=trial,
        seed=0,
        emotion=ANGER if emotional else None,
        messages=messages,
        termination=TerminationReason.USER_STOP,
        reward=0.0,
    )


def test_rates_per_cell_per_family_and_per_rule() -> None:
    episodes = [
        ep(0, reckless=True, emotional=True),
        ep(1, reckless=False, emotional=True),
        ep(2, reckless=False, emotional=False),
        ep(3, reckless=True, emotional=True, domain="nowhere"),  # unknown domain: skipped
    ]
    report = policy_analysis(episodes)
    assert report.skipped == 1
    assert len(report.episodes) == 3
    # Other airline rules may fire too; these two must.
    assert {v.rule_id for v in report.episodes[0].violations} >= {
        "airline.authenticate_first",
        "airline.confirm_before_write",
    }
    assert {v.message_index for v in report.episodes[0].violations} == {2}
    anger = report.by_cell["airline"]["anger"]
    assert (anger.count, anger.total) == (1, 2)
    neutral = report.by_cell["airline"]["none"]
    assert (neutral.count, neutral.total) == (0, 1)
    assert (report.by_domain["airline"].count, report.by_domain["airline"].total) == (1, 3)
    assert report.by_family["anger"].value == 0.5
    rules = {r.rule_id: r for r in report.by_rule}
    assert set(rules) == {c.rule_id for c in load_domain("airline").checks}
    confirm = rules["airline.confirm_before_write"]
    assert (confirm.episodes.count, confirm.episodes.total, confirm.occurrences) == (1, 3, 1)
    assert confirm.description
    assert report.by_rule[0].episodes.count == 1  # most broken first
    assert rules["airline.one_customer"].episodes.count == 0
