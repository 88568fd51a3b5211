"""The last stage: select the accepted tasks of a build and export them.

`select` takes the accepted tasks with the most writes (the hard walks, not the first ones),
at least a fifth of them policy challenges and as many rules challenged as the accepted
tasks allow, at most 3% hand-offs alone, no two alike (end state, instruction), three a
customer at most; `install_tasks` writes a selection into the domain folder, for shipping a
new benchmark with the package.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from tau_emotion.data import Split, Task
from tau_emotion.domains import Domain
from tau_emotion.domains.base import write_tasks
from tau_emotion.domains.tools import ToolKind
from tau_emotion.tracer.ground.challenge import CHALLENGE_QUOTA
from tau_emotion.tracer.jsonl import read_jsonl, stage_path
from tau_emotion.tracer.records import Verdict, Walk, trace_key


def accepted(out: Path, domain: str, split: Split) -> list[Verdict]:
    return [
        v for v in read_jsonl(stage_path(out, domain, "validate", split), Verdict) if v.accepted
    ]


Selection = tuple[list[Task], list[Task], dict[str, str], dict[str, str]]
"""Tasks, their neutral twins, task id -> gold hash, task id -> situation."""


def challenge_quota(target: int) -> int:
    """Policy-challenge tasks a selection of `target` tasks holds at least."""
    return math.ceil(CHALLENGE_QUOTA * target)


def is_challenge(verdict: Verdict) -> bool:
    return verdict.candidate is not None and verdict.candidate.task.challenge is not None


TRANSFER_ONLY_SHARE = 0.03
"""At most this share of a selection (rounded down) is tasks whose whole gold is a hand-off:
an agent that transfers every customer at once must not score."""


def is_transfer_only(verdict: Verdict, kinds: Mapping[str, ToolKind]) -> bool:
    """The gold changes nothing but the hand-off record and tells nothing."""
    if verdict.candidate is None:
        return False
    task = verdict.candidate.task
    acts = [kinds.get(a.name) for a in task.gold_actions]
    has_outputs = any(i.outputs for i in task.intents)
    return "terminal" in acts and "write" not in acts and not has_outputs


MAX_TASKS_PER_CUSTOMER = 3
"""At most this many test tasks of a domain serve one customer."""


def capped(
    verdicts: Sequence[Verdict], target: int, kinds: Mapping[str, ToolKind]
) -> list[Verdict]:
    """The verdicts in order that a selection of `target` may hold: no two with the same gold
    end state or the same instruction, the transfer-only ones to the cap, and (test split) no
    customer in more than `MAX_TASKS_PER_CUSTOMER` of them."""
    room = int(TRANSFER_ONLY_SHARE * target)
    states: set[str] = set()
    instructions: set[str] = set()
    customers: dict[str, int] = {}
    out: list[Verdict] = []
    for v in verdicts:
        if v.candidate is None:
            continue
        task = v.candidate.task
        if v.candidate.final_hash in states or task.instruction in instructions:
            continue
        served = customers.get(task.user_id, 0)
        if task.split == "test" and served >= MAX_TASKS_PER_CUSTOMER:
            continue
        if is_transfer_only(v, kinds):
            if room <= 0:
                continue
            room -= 1
        states.add(v.candidate.final_hash)
        instructions.add(task.instruction)
        customers[task.user_id] = served + 1
        out.append(v)
    return out


def gold_trace(task: Task) -> str:
    """The tool sequence an agent learns from a task: its gold actions' names."""
    return trace_key([a.name for a in task.gold_actions])


def held_traces(out: Path, domain: Domain, installed: bool = True) -> frozenset[str]:
    """Gold traces the train split must not hold: every accepted test task's in the build
    folder (a superset of the test selection, so the count while building and the selection
    agree), the hand-written test tasks', and with `installed` every test task installed in
    the domain (``tasks/test.jsonl``: the benchmark a train set is measured against). Walks
    are split by their own trace; pruning reads and adding a challenge's read can make two
    walks' golds alike, so the gold is checked too.

    A build that makes its own test split passes ``installed=False``: its test split is the
    one shipped with its train split (``--install`` replaces the installed one), and holding
    the set installed before as well would make the shipped train set depend on it, so a
    rebuild from the shipped sources would not give it back. A train-only build has no test
    split of its own (or an older one in its folder); without the installed set it held back
    none of the benchmark's Tracer tasks, and 4 of one domain's train-only build of 859
    shared a gold trace with a shipped test task."""
    tests = [v.candidate.task for v in accepted(out, domain.name, "test") if v.candidate]
    shipped = domain.tasks("test")
    if not installed:
        shipped = [t for t in shipped if not t.provenance.startswith("tracer")]
    return frozenset(gold_trace(t) for t in [*tests, *shipped])


def admissible(out: Path, domain: Domain, split: Split, installed: bool = True) -> list[Verdict]:
    """The accepted verdicts of a split a selection may use: for train, none with a gold trace
    of the test split (`held_traces`; `installed` as there)."""
    verdicts = accepted(out, domain.name, split)
    if split != "train":
        return verdicts
    held = held_traces(out, domain, installed)
    return [v for v in verdicts if v.candidate and gold_trace(v.candidate.task) not in held]


MANY_WRITES = 3
"""Tasks with this many writes or more rank alike in the selection."""


def select(
    out: Path, domain: Domain, split: Split, target: int, installed: bool = True
) -> Selection:
    """`target` accepted tasks (those with the most writes, then the first in walk order),
    their neutral twins, their gold hashes and their situations; then further challenges
    take the place of some of them, to reach the quota and cover more rules (see
    `_cover_rules`). `installed`: whether a train split is also held apart from the domain's
    installed test set (`held_traces`)."""
    walks = read_jsonl(stage_path(out, domain.name, "walks"), Walk)
    order = {w.id: i for i, w in enumerate(walks)}
    verdicts = admissible(out, domain, split, installed)
    kinds = domain.tool_kinds
    in_order = sorted(verdicts, key=lambda v: order.get(v.walk_id, 10**9))
    verdicts = capped(_rules_first(in_order), target, kinds)
    # The harder tasks first: more writes (three and more alike), then walk order.
    verdicts.sort(key=lambda v: (-min(_writes(v, kinds), MANY_WRITES), order.get(v.walk_id, 0)))
    picked = _cover_rules(verdicts[:target], verdicts[target:], target, kinds)
    picked.sort(key=lambda v: order.get(v.walk_id, 10**9))
    chosen = [v.candidate for v in picked if v.candidate is not None]
    twins = [v.twin for v in picked if v.twin is not None]
    hashes = {c.task.id: c.final_hash for c in chosen}
    return [c.task for c in chosen], twins, hashes, {c.task.id: c.situation for c in chosen}


def _rules_first(verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The first challenge of each rule (the rarest rules first), then the others in the
    order given: the caps (`capped`) then keep every rule's first challenge, where a
    customer's earlier tasks, or a commoner rule's challenge with the same end state, would
    otherwise take its place. (Only the selection orders so; the waves count what they hold
    in walk order, so a build's grounding does not depend on it.)"""
    counts = Counter(challenge_rule(v) for v in verdicts if is_challenge(v))
    seen: set[str] = set()
    first: list[Verdict] = []
    others: list[Verdict] = []
    for verdict in verdicts:
        if is_challenge(verdict) and challenge_rule(verdict) not in seen:
            seen.add(challenge_rule(verdict))
            first.append(verdict)
        else:
            others.append(verdict)
    first.sort(key=lambda v: counts[challenge_rule(v)])  # stable: walk order among equals
    return first + others


CHALLENGE_ROOM = 0.35
"""Challenges may fill up to this share of a selection to cover more of the rules; beyond it,
a challenge of a new rule takes the place of one whose rule the selection holds twice.

A ceiling only where plain tasks are left over to bring a larger share down: the test split
(ground to its end). A train split grounds until its target passes, so its share is what its
waves accepted (six shipped train sets hold 37% to 41%; docs/tracer.md section 7). It is
left so: capping it would change every train set a build selects."""


def _cover_rules(
    picked: Sequence[Verdict], rest: Sequence[Verdict], target: int, kinds: Mapping[str, ToolKind]
) -> list[Verdict]:
    """`picked` with challenges from `rest` (in walk order) in place of some of its tasks:
    any challenge while the selection is short of its quota, then one for each rule no
    challenge there tests yet (so breaking each rule shows in the final state of some task).
    A newcomer replaces the plain task with the fewest writes while the challenges stay within
    `CHALLENGE_ROOM`, else a challenge of the rule held most often, if it is held twice. Last,
    plain tasks bring a share above the room back down (`_within_room`)."""
    chosen = list(picked)
    quota = challenge_quota(target)
    room = max(quota, int(CHALLENGE_ROOM * target))
    for verdict in rest:
        if not is_challenge(verdict):
            continue
        held = Counter(challenge_rule(v) for v in chosen if is_challenge(v))
        total = sum(held.values())
        if total >= quota and challenge_rule(verdict) in held:
            continue
        victim: int | None
        if total < room:
            plain = [i for i, v in enumerate(chosen) if not is_challenge(v)]
            # Fewest writes first, the latest of those: the harder tasks stay.
            victim = min(plain, key=lambda i: (_writes(chosen[i], kinds), -i), default=None)
        else:
            victim = _most_held(chosen, held)
        if victim is not None:
            chosen[victim] = verdict
    return _within_room(chosen, rest, room)


def _within_room(chosen: list[Verdict], rest: Sequence[Verdict], room: int) -> list[Verdict]:
    """Beyond the room, plain tasks from `rest` (in walk order) replace challenges of the
    rules held most often (never a rule's last challenge): the set measures mostly work done.
    (`rest` holds no plain task `chosen` already has: `_cover_rules` takes only challenges.)"""
    for verdict in rest:
        held = Counter(challenge_rule(v) for v in chosen if is_challenge(v))
        if sum(held.values()) <= room:
            break
        if is_challenge(verdict):
            continue
        victim = _most_held(chosen, held)
        if victim is None:
            break
        chosen[victim] = verdict
    return chosen


def _most_held(chosen: Sequence[Verdict], held: Counter[str]) -> int | None:
    """The latest challenge of the rule `chosen` holds most often, if it holds it twice."""
    crowded = [i for i, v in enumerate(chosen) if is_challenge(v)]
    crowded = [i for i in crowded if held[challenge_rule(chosen[i])] > 1]
    return min(crowded, key=lambda i: (-held[challenge_rule(chosen[i])], -i), default=None)


def _writes(verdict: Verdict, kinds: Mapping[str, ToolKind]) -> int:
    assert verdict.candidate is not None
    return sum(kinds.get(a.name) == "write" for a in verdict.candidate.task.gold_actions)


def challenge_rule(verdict: Verdict) -> str:
    """The rule id a challenge verdict tests."""
    assert verdict.candidate is not None and verdict.candidate.task.challenge is not None
    return verdict.candidate.task.challenge.rule_id


def install_tasks(
    domain: Domain, split: Split, tasks: list[Task], twins: list[Task], hashes: dict[str, str]
) -> None:
    """Write the selection into the domain folder: tasks/<split>.jsonl, the test twins in
    tracer/test_neutral.jsonl (outside tasks/, so a plain test run holds only the emotional
    tasks; `tau-emotion run --no-emotion` runs the same tasks neutral), and each task's gold
    hash in tracer/hashes.json (the shipped-set tests replay against it)."""
    root = domain.root
    write_tasks(root / "tasks" / f"{split}.jsonl", tasks)
    if split == "test":
        write_tasks(root / "tracer" / "test_neutral.jsonl", twins)
    path = root / "tracer" / "hashes.json"
    known: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
    known = {k: v for k, v in known.items() if not k.startswith(f"{split}/")}
    known.update({f"{split}/{k}": v for k, v in hashes.items()})
    path.write_text(json.dumps(dict(sorted(known.items())), indent=0) + "\n", encoding="utf-8")
