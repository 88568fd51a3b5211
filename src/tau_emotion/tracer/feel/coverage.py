"""Coverage of the emotion space over a set of tasks (the test set).

The mapper picks what fits each feeling, so a set of a few hundred tasks can miss a rare
emotion or a combination of the three dimensions. `enforce_coverage` fills every gap by
re-assigning donors: a task whose emotion (or combination) is the most common one takes the
missing emotion (or combination), with a feeling rewritten for it and a fresh instruction
from the mapper. Deterministic: donors are taken in task order.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from tau_emotion.data import EmotionSpec, Task
from tau_emotion.emotions import EMOTIONS, FAMILY_OF, POLITENESS, TRUST, URGENCY, to_emotion_spec
from tau_emotion.tracer.feel import FeelingMapper
from tau_emotion.tracer.feel.cues import request_kind, write_feeling

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


def _reassign(
    task: Task, situation: str, emotion: str, dims: Dims, mapper: FeelingMapper, seed: int
) -> Task:
    rng = random.Random(f"tracer/coverage/{seed}/{task.id}/{emotion}/{'.'.join(dims)}")
    goals = [a.name for a in task.gold_actions]
    values = [str(v) for a in task.gold_actions for v in a.arguments.values()]
    kind = request_kind(goals, values, task.challenge is not None)
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
    return tasks
