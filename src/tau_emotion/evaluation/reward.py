"""The reward: the final state and the required outputs, never the agent's claims."""

from __future__ import annotations

from collections.abc import Sequence

from tau_emotion.data import ERROR_TERMINATION, Message, RewardBreakdown, Task, TerminationReason
from tau_emotion.evaluation.outputs import output_communicated

__all__ = ["compute_reward", "output_communicated"]

UNFINISHED = frozenset(ERROR_TERMINATION.values())
"""Endings by error (an endpoint, the agent's protocol, the simulator, the framework): the
conversation stopped before anyone finished it, so it is never a success, even where the
database happens to match (a task whose gold changes nothing matches from the first turn)."""


def compute_reward(
    task: Task,
    final_hash: str,
    gold_hash: str,
    messages: Sequence[Message],
    termination: TerminationReason,
    policy_violations: Sequence[str] | None = None,
) -> tuple[float, RewardBreakdown]:
    """1.0 iff the episode finished, the DB matches the gold replay and every output was said;
    -1.0 on a walk-away; 0.0 for an episode that ended in an error (`UNFINISHED`).

    `policy_violations` (the hard rules broken; None when they were not audited) are recorded
    beside the reward, never in it: the reward stays final state + outputs + walk-away,
    comparable with the paper's."""
    agent_texts = [m.content for m in messages if m.role == "assistant" and m.content]
    missing = [o for o in task.required_outputs if not output_communicated(o, agent_texts)]
    db_match = final_hash == gold_hash
    dissatisfied = termination == TerminationReason.USER_UNSATISFIED
    if dissatisfied:
        reward, reason = -1.0, "the user walked away dissatisfied"
    elif termination in UNFINISHED:
        reward, reason = 0.0, f"the episode ended in {termination} before it was finished"
    elif db_match and not missing:
        reward, reason = 1.0, "final state matches the gold replay and all outputs were given"
    elif not db_match:
        reward, reason = 0.0, "final state differs from the gold replay"
    else:
        reward, reason = 0.0, f"outputs not communicated: {', '.join(missing)}"
    audit = {} if policy_violations is None else {"policy_violations": list(policy_violations)}
    breakdown = RewardBreakdown(
        db_match=db_match,
        final_hash=final_hash,
        gold_hash=gold_hash,
        outputs_missing=missing,
        dissatisfied=dissatisfied,
        reason=reason,
        **audit,
    )
    return reward, breakdown
