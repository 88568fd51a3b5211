"""The reward: the final state and the required outputs, never the agent's claims."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tau_emotion.data import Message, RewardBreakdown, Task, TerminationReason

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def _normalise(text: str) -> str:
    return " ".join(text.lower().replace("$", "").split())


def _as_number(text: str) -> float | None:
    cleaned = text.replace(",", "").replace("$", "").strip()
    try:
        return float(cleaned)
    except ValueError:
        return None


def output_communicated(output: str, agent_texts: Sequence[str]) -> bool:
    """An output counts as said if its text appears, or (for a number) the same value does."""
    target = _normalise(output)
    value = _as_number(output)
    for text in agent_texts:
        if target in _normalise(text):
            return True
        if value is not None and any(
            abs(float(m.replace(",", "")) - value) < 0.005 for m in _NUMBER.findall(text)
        ):
            return True
    return False


def compute_reward(
    task: Task,
    final_hash: str,
    gold_hash: str,
    messages: Sequence[Message],
    termination: TerminationReason,
    policy_violations: Sequence[str] = (),
) -> tuple[float, RewardBreakdown]:
    """1.0 iff the DB matches the gold replay and every output was said; -1.0 on a walk-away.

    `policy_violations` (the hard rules broken) are recorded beside the reward, never in it:
    the reward stays final state + outputs + walk-away, comparable with the paper's."""
    agent_texts = [m.content for m in messages if m.role == "assistant" and m.content]
    missing = [o for o in task.required_outputs if not output_communicated(o, agent_texts)]
    db_match = final_hash == gold_hash
    dissatisfied = termination == TerminationReason.USER_UNSATISFIED
    if dissatisfied:
        reward, reason = -1.0, "the user walked away dissatisfied"
    elif db_match and not missing:
        reward, reason = 1.0, "final state matches the gold replay and all outputs were given"
    elif not db_match:
        reward, reason = 0.0, "final state differs from the gold replay"
    else:
        reward, reason = 0.0, f"outputs not communicated: {', '.join(missing)}"
    breakdown = RewardBreakdown(
        db_match=db_match,
        final_hash=final_hash,
        gold_hash=gold_hash,
        outputs_missing=missing,
        dissatisfied=dissatisfied,
        reason=reason,
        policy_violations=list(policy_violations),
    )
    return reward, breakdown
