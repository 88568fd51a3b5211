"""Grounding a hand-drawn walk until one passes validation: for tests that need a task of a
particular shape (a booking of the earliest slot, a swap of a variant) from a real domain."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tau_emotion.data import EmotionSpec
from tau_emotion.tracer.feel import attach
from tau_emotion.tracer.ground import ground_walk
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.records import Candidate, Felt, Walk
from tau_emotion.tracer.validate import check


def first_valid(
    domain: str,
    intents: Sequence[Sequence[str]],
    wanted: Callable[[Candidate], bool],
    feeling: str,
    spec: EmotionSpec,
    tries: int,
) -> Felt:
    """The first of `tries` seeded walks of `intents` whose candidate is `wanted`, has no
    challenge and passes every check but the oracle, with its feeling and twin attached."""
    profile = load_profile(domain)
    for seed in range(tries):
        walk = Walk(
            id=f"{domain}-w9{seed:04d}",
            domain=domain,
            split="test",
            intents=[list(i) for i in intents],
        )
        candidate = ground_walk(profile, walk, seed).candidate
        if candidate is None or candidate.task.challenge is not None or not wanted(candidate):
            continue
        felt = attach(candidate, feeling, spec, twin=True)
        if not check(profile, felt, run_oracle=False):
            return felt
    raise AssertionError(f"no wanted {domain} task in {tries} walks of {intents}")
