"""Coverage of the emotion space over a set of tasks (the test set).

The mapper picks what fits each feeling, so a set of a few hundred tasks can miss a rare
emotion or a combination of the three dimensions. `enforce_coverage` fills every gap by
re-assigning donors: a task whose emotion (or combination) is the most common one takes the
missing emotion (or combination), with a feeling rewritten for it and a fresh instruction
from the mapper. It then lifts every family to a tenth of the set (`FAMILY_FLOOR`) the same
way, from the most common family, preferring donors whose situation suits the family.
Deterministic: donors are taken in task order.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from tau_emotion.data import EmotionSpec, Task
from tau_emotion.emotions import (
    EMOTIONS,
    FAMILIES,
    FAMILY_OF,
    POLITENESS,
    TRUST,
    URGENCY,
    to_emotion_spec,
)
from tau_emotion.tracer.feel import FeelingMapper
from tau_emotion.tracer.feel.cues import KIND_EMOTIONS, request_kind, write_feeling

Dims = tuple[str, str, str]
COMBOS: tuple[Dims, ...] = tuple(itertools.product(POLITENESS, URGENCY, TRUST))


def _dims(spec: EmotionSpec) -> Dims:
    return (spec.politeness, spec.urgency, spec.trust)


def coverage_gaps(tasks: Sequence[Task]) -> tuple[list[str], list[Dims]]:
    """Emotions and dimension combinations no task carries."""
    specs = [t.emotion for t in tasks if t.emotion is not None]
    emotions = {s.emotion for s in specs}
    combos = {_dims(s) for s in specs}
    return [e for e in EMOTIONS if e not in emotions], [c for c in COMBOS if c not in combos]


FAMILY_FLOOR = 0.10
"""Every family holds at least this share of the test set (issue: each family >= 10%)."""


def _kind(task: Task) -> str:
    goals = [a.name for a in task.gold_actions]
    values = [str(v) for a in task.gold_actions for v in a.arguments.values()]
    return request_kind(goals, values, task.challenge is not None)


def _reassign(
    task: Task, situation: str, emotion: str, dims: Dims, mapper: FeelingMapper, seed: int
) -> Task:
    rng = random.Random(f"tracer/coverage/{seed}/{task.id}/{emotion}/{'.'.join(dims)}")
    kind = _kind(task)
    name = task.known_facts.get("full_name", "The customer")
    text, _, _ = write_feeling(name, situation, kind, rng, emotion=emotion, dims=dims)
    cid = ".".join((FAMILY_OF[emotion], emotion, *dims))
    spec = to_emotion_spec(cid, mapper.instruction(cid, text))
    return task.model_copy(update={"emotion": spec, "feeling": text})


def enforce_coverage(
    tasks: list[Task], situations: Mapping[str, str], mapper: FeelingMapper, seed: int
) -> list[Task]:
    """The tasks with every emotion and every dimension combination present (when there are
    at least as many tasks as gaps); changed tasks keep everything but feeling and emotion.
    `situations`: task id -> what the customer has to do (`Candidate.situation`), for the
    feelings written anew."""
    tasks = list(tasks)
    missing_emotions, missing_combos = coverage_gaps(tasks)
    for emotion in missing_emotions:
        specs = [(i, t.emotion) for i, t in enumerate(tasks) if t.emotion is not None]
        counts = Counter(s.emotion for _, s in specs)
        donors = [(i, s) for i, s in specs if counts[s.emotion] > 1]
        if not donors:
            break
        top = max(counts[s.emotion] for _, s in donors)
        i, spec = next((i, s) for i, s in donors if counts[s.emotion] == top)
        tasks[i] = _reassign(tasks[i], situations[tasks[i].id], emotion, _dims(spec), mapper, seed)
    for combo in missing_combos:
        specs = [(i, t.emotion) for i, t in enumerate(tasks) if t.emotion is not None]
        counts_c = Counter(_dims(s) for _, s in specs)
        counts_e = Counter(s.emotion for _, s in specs)
        donors = [(i, s) for i, s in specs if counts_c[_dims(s)] > 1 and counts_e[s.emotion] > 1]
        if not donors:
            break
        top = max(counts_c[_dims(s)] for _, s in donors)
        i, spec = next((i, s) for i, s in donors if counts_c[_dims(s)] == top)
        tasks[i] = _reassign(tasks[i], situations[tasks[i].id], spec.emotion, combo, mapper, seed)
    return _lift_families(tasks, situations, mapper, seed)


def _lift_families(
    tasks: list[Task], situations: Mapping[str, str], mapper: FeelingMapper, seed: int
) -> list[Task]:
    """Every family in every domain, and at `FAMILY_FLOOR` of the tasks at least: a donor of
    the most common family (of its domain, for a family the domain lacks) takes an emotion of
    the short one. A donor leaves no emotion, combination or (domain, family) without a task
    and no family under the floor; one whose situation lists an emotion of the short family (a
    refused request: anger or sadness) goes first, and takes that emotion."""
    floor = math.ceil(len(tasks) * FAMILY_FLOOR)
    domains = sorted({t.domain for t in tasks})
    for family in FAMILIES:
        for domain in domains:
            if not _carrying(tasks, family, domain):
                _give(tasks, family, domain, floor, situations, mapper, seed)
        while _carrying(tasks, family) < floor:
            if not _give(tasks, family, None, floor, situations, mapper, seed):
                break
    return tasks


def _carrying(tasks: Sequence[Task], family: str, domain: str | None = None) -> int:
    """Tasks (of `domain`, when given) whose customer's emotion is of `family`."""
    return sum(
        1
        for t in tasks
        if t.emotion is not None
        and t.emotion.family == family
        and (domain is None or t.domain == domain)
    )


def _give(
    tasks: list[Task],
    family: str,
    domain: str | None,
    floor: int,
    situations: Mapping[str, str],
    mapper: FeelingMapper,
    seed: int,
) -> bool:
    """Re-assign one donor (of `domain`, when given) to an emotion of `family`; False when
    no task can give one up."""
    specs = [(i, t.emotion) for i, t in enumerate(tasks) if t.emotion is not None]
    families = Counter(s.family for _, s in specs)
    emotions = Counter(s.emotion for _, s in specs)
    combos = Counter(_dims(s) for _, s in specs)
    held = Counter((tasks[i].domain, s.family) for i, s in specs)
    pool = [(i, s) for i, s in specs if domain is None or tasks[i].domain == domain]
    givers = Counter(s.family for _, s in pool if s.family != family and families[s.family] > floor)
    if not givers:
        return False
    top = max(givers, key=lambda f: (givers[f], f))
    donors = [
        (i, s)
        for i, s in pool
        if s.family == top
        and emotions[s.emotion] > 1
        and combos[_dims(s)] > 1
        and held[(tasks[i].domain, top)] > 1
    ]
    if not donors:
        return False
    members = list(FAMILIES[family])
    fits = [(i, s) for i, s in donors if set(KIND_EMOTIONS[_kind(tasks[i])]) & set(members)]
    i, spec = (fits or donors)[0]
    suited = [e for e in members if e in KIND_EMOTIONS[_kind(tasks[i])]] or members
    emotion = min(suited, key=lambda e: (emotions[e], EMOTIONS.index(e)))
    task = tasks[i]
    tasks[i] = _reassign(task, situations[task.id], emotion, _dims(spec), mapper, seed)
    return True
