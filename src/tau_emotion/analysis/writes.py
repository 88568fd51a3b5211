"""The write diff behind the failure taxonomy's database checks: the successful write calls
of an episode against its task's gold write actions, compared as JSON values (1 == 1.0, key
order ignored), one for one."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from tau_emotion.data import Episode, Task
from tau_emotion.domains.tools import ToolKind
from tau_emotion.domains.trajectory import Trajectory

WriteCategory = Literal["wrong_arguments", "missing_action", "extra_action", "wrong_action_order"]


def _normal(value: Any) -> Any:
    """JSON-equal argument values compare equal (1 == 1.0, key order ignored)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _canon(name: str, arguments: Mapping[str, Any]) -> str:
    return name + json.dumps(_normal(dict(arguments)), sort_keys=True, default=str)


def _differing(gold: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    keys = sorted(k for k in {*gold, *got} if _normal(gold.get(k)) != _normal(got.get(k)))
    return ", ".join(f"{k}: gold {gold.get(k)!r}, got {got.get(k)!r}" for k in keys)


Call = tuple[str, Mapping[str, Any]]


def _minus(calls: Sequence[Call], other: Sequence[str]) -> list[Call]:
    """Multiset difference in order: the calls not matched one-for-one by `other`."""
    left = Counter(other)
    out: list[Call] = []
    for call in calls:
        key = _canon(*call)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(call)
    return out


def write_diff(
    episode: Episode, task: Task, kinds: Mapping[str, ToolKind]
) -> tuple[WriteCategory | None, list[str]]:
    """Compare successful writes with the gold writes: (main category or None, findings)."""
    trajectory = Trajectory(episode.messages, dict(kinds))
    gold = [(a.name, a.arguments) for a in task.gold_actions if kinds.get(a.name) == "write"]
    done = [(c.call.name, c.call.arguments) for c in trajectory.successful("write")]
    tried = [
        (c.call.name, c.call.arguments) for c in trajectory.calls if c.kind == "write" and not c.ok
    ]
    gold_keys = [_canon(*g) for g in gold]
    done_keys = [_canon(*d) for d in done]
    missing = _minus(gold, done_keys)
    extra = _minus(done, gold_keys)
    findings: list[str] = []
    wrong = 0
    for name, args in list(missing):
        # The right tool with other arguments: a successful extra write or a refused attempt.
        # A refused call with exactly the gold arguments had them right: the write is only
        # missing, and the evidence says it was refused.
        refused_as_gold = any(_canon(*t) == _canon(name, args) for t in tried)
        twin = next((d for d in extra if d[0] == name), None)
        if twin is None and not refused_as_gold:
            twin = next((t for t in tried if t[0] == name), None)
        if twin is None:
            if refused_as_gold:
                findings.append(f"{name} was called with the gold arguments and refused")
            continue
        wrong += 1
        missing.remove((name, args))
        if twin in extra:
            extra.remove(twin)
        findings.append(f"wrong arguments for {name} ({_differing(args, twin[1])})")
    findings += [
        f"missing write {name}({json.dumps(args, sort_keys=True)})" for name, args in missing
    ]
    findings += [f"extra write {name}({json.dumps(args, sort_keys=True)})" for name, args in extra]
    if wrong:
        return "wrong_arguments", findings
    if missing:
        return "missing_action", findings
    if extra:
        return "extra_action", findings
    if done_keys != gold_keys:
        findings.append("the gold writes ran in another order: " + ", ".join(n for n, _ in done))
        return "wrong_action_order", findings
    return None, findings
