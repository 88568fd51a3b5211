"""Aimless reads out of the gold: a walk wanders through lookups nothing then uses.

A grounded walk keeps every read it drew, though some feed nothing: no later argument was
picked from what they showed (`Choice.step`), they identify no one, and no policy rule asks
for them. Such a read in the gold teaches an agent to call tools for nothing and puts an
unscored "you also want to know about..." into the instruction, so it is dropped. What is left
must still keep the policy (a rule may want a record read before it changes); otherwise the
walk keeps its reads as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tau_emotion.data import Action
from tau_emotion.domains.checks import Trajectory, run_checks
from tau_emotion.environment import Environment
from tau_emotion.tracer.oracle import oracle_messages
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.values import Choice

Calls = list[tuple[str, dict[str, Any]]]
Choices = list[dict[str, Choice]]


def prune_reads(
    profile: Profile,
    env: Environment,
    calls: Sequence[tuple[str, dict[str, Any]]],
    results: Sequence[str],
    choices: Sequence[dict[str, Choice]],
    intent_of: Sequence[int],
) -> tuple[Calls, list[str], Choices, list[int]]:
    """The walk's calls (with their results, choices and intents) without aimless reads."""
    kinds = profile.domain.tool_kinds
    used = {c.step for chosen in choices for c in chosen.values() if c.step >= 0}
    drop = {
        i
        for i, (name, _) in enumerate(calls)
        if kinds[name] == "read" and name not in profile.auth_tools and i not in used
    }
    for intent in set(intent_of):  # an intent keeps at least one call: its last
        mine = [i for i, k in enumerate(intent_of) if k == intent]
        if all(i in drop for i in mine):
            drop.discard(mine[-1])
    unchanged = (list(calls), list(results), [dict(c) for c in choices], list(intent_of))
    if not drop:
        return unchanged
    keep = [i for i in range(len(calls)) if i not in drop]
    moved = {old: new for new, old in enumerate(keep)}
    pruned_choices = [
        {p: replace(c, step=moved.get(c.step, -1)) if c.step >= 0 else c for p, c in chosen.items()}
        for chosen in (choices[i] for i in keep)
    ]
    pruned = (
        [calls[i] for i in keep],
        [results[i] for i in keep],
        pruned_choices,
        [intent_of[i] for i in keep],
    )
    actions = [Action(name=name, arguments=args) for name, args in pruned[0]]
    messages = oracle_messages(actions, pruned[1], kinds, pruned[3])
    if run_checks(profile.domain.checks, Trajectory(messages, kinds, env.fresh_tools)):
        return unchanged
    return pruned
