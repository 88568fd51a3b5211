"""Stage 3: grounding. Each walk becomes a task on real entities, or a recorded rejection.

For a walk: pick customers of the walk's split (seeded), screen each for whether it can
carry the walk's writes, and search argument values for the first few that pass (see
`ground.search`). The result is the reference trajectory (gold actions and the final state
hash) plus the customer's side, written offline by the `write` stage (or by an LLM, `llm`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, Literal

from tau_emotion.data import Action, Challenge, Task
from tau_emotion.domains.checks import Offer
from tau_emotion.environment import Environment
from tau_emotion.tracer.ground.arguments import TERMINAL_STATES
from tau_emotion.tracer.ground.challenge import (
    MAX_INTENTS,
    ChallengePlan,
    blocked_challenge,
    find_challenge,
)
from tau_emotion.tracer.ground.fill import customer_name
from tau_emotion.tracer.ground.hunt import hunt
from tau_emotion.tracer.ground.purpose import Grounded, without_aimless_reads
from tau_emotion.tracer.ground.scene import Scene
from tau_emotion.tracer.ground.screen import (
    CANDIDATES,
    SCREEN_CUSTOMERS,
    can_write,
    screen_customer,
)
from tau_emotion.tracer.ground.search import Blocked, ground_calls, new_scene
from tau_emotion.tracer.jsonl import (
    Settings,
    appender,
    progress,
    read_jsonl,
    resume_from,
)
from tau_emotion.tracer.profile import Profile, db_pools
from tau_emotion.tracer.records import Candidate, GroundResult, Rejection, Walk, trace_key
from tau_emotion.tracer.write import write_task_text

SEARCHES_PER_WALK = 2
"""Customers whose full search is tried before a walk is given up."""
FALLBACK_SEARCHES = 1
"""Searches run anyway when no customer passes the screen (the screen can be wrong)."""


DEFAULT_PLAN = ChallengePlan()
"""Challenges offered at the default share, with no split's counts to balance and no hunt."""

BLOCKED_HELD = 2
"""A walk the policy stopped becomes a challenge while its split holds fewer challenges of
that rule than this: common refusals (compensation nobody qualifies for) would otherwise
take every challenge slot, and the walks exist to find the rare ones."""


def ground_walk(
    profile: Profile, walk: Walk, seed: int, plan: ChallengePlan = DEFAULT_PLAN
) -> GroundResult:
    """Ground one walk: a candidate task, or why not; `plan` says how challenges are offered."""
    variant = profile.domain.variant_for(walk.split)
    env = profile.env("ground", variant)
    pools = db_pools(profile, variant)
    rng = random.Random(f"tracer/ground/{seed}/{walk.id}")
    customers = profile.customers(walk.split)
    tools = [t for intent in walk.intents for t in intent]
    intent_of = [k for k, intent in enumerate(walk.intents) for _ in intent]
    kinds = profile.domain.tool_kinds
    if any(kinds[t] == "terminal" for t in tools) and not profile.spec.transfer_reasons:
        # A transfer must be earned: without a situation the policy sends to a human, the
        # task would pay an agent that hands every customer off at once.
        return GroundResult(
            walk_id=walk.id,
            rejection=Rejection(
                stage="ground", reason="transfer_without_reason", detail="no transfer_reasons"
            ),
        )
    drawn = rng.sample(customers, min(CANDIDATES, len(customers)))
    # Customers with open business (a scheduled visit, a pending order) first: records in a
    # final state rarely take another action. Only whether they have any counts, not how
    # much, so the busiest few customers do not take every walk of the split.
    drawn.sort(key=lambda c: activity(profile, variant, c) == 0)
    writes = sorted({t for t in tools if profile.domain.tool_kinds[t] == "write"})
    order: list[str] = []
    for customer in drawn:
        probe = new_scene(profile, variant, customer, pools, f"{seed}/{walk.id}/can")
        if all(can_write(probe, env, w) for w in writes):
            order.append(customer)
            if len(order) >= SCREEN_CUSTOMERS:
                break
    searched = 0
    passed: list[str] = []
    outcome = None
    stopped: tuple[Blocked, Scene] | None = None  # the first search the policy stopped
    for index, customer in enumerate(order):
        scene = new_scene(profile, variant, customer, pools, f"{seed}/{walk.id}/{index}")
        if not screen_customer(tools, scene, env):
            continue
        passed.append(customer)
        outcome = ground_calls(tools, scene, env, intent_of)
        if stopped is None and outcome.blocked is not None:
            stopped = outcome.blocked, scene
        searched += 1
        if outcome.ok or searched >= SEARCHES_PER_WALK:
            break
    if outcome is None:
        for index, customer in enumerate(drawn[:FALLBACK_SEARCHES]):
            scene = new_scene(profile, variant, customer, pools, f"{seed}/{walk.id}/f{index}")
            outcome = ground_calls(tools, scene, env, intent_of)
            if stopped is None and outcome.blocked is not None:
                stopped = outcome.blocked, scene
            if outcome.ok:
                break
    found = None
    steps = list(intent_of)
    challenged = None
    # A challenge is one more intent: room for it, and no transfer that ends the talk before.
    room = len(walk.intents) < MAX_INTENTS and all(kinds[t] != "terminal" for t in tools)
    if outcome is not None and outcome.ok and room and rng.random() < plan.share:
        # The search leaves the gold's final state in `env`: the challenge is judged on it.
        found = find_challenge(scene, env, rng, plan.held)
        challenged = len(walk.intents) if found is not None else None
    elif (outcome is None or not outcome.ok) and plan.share > 0:
        converted = None
        if stopped is not None and plan.held.get(stopped[0].rule_id, 0) < BLOCKED_HELD:
            converted = blocked_challenge(stopped[1], env, stopped[0], intent_of)
        if converted is None and plan.hunt:
            stopped = hunt(profile, walk, tools, env, pools, intent_of, plan, seed)
            if stopped is not None:
                converted = blocked_challenge(stopped[1], env, stopped[0], intent_of)
        if converted is not None and stopped is not None:
            (outcome, found), scene = converted, stopped[1]
            steps = steps[: len(outcome.calls)]
            challenged = intent_of[len(outcome.calls)]
    env.reset()
    if outcome is None or not outcome.ok:
        reason = outcome.reason if outcome is not None else "screen"
        detail = outcome.detail if outcome is not None else "no customer can carry the writes"
        if outcome is not None and not passed:
            reason, detail = "screen", f"no customer passed the screen; then {outcome.reason}"
        return GroundResult(
            walk_id=walk.id, rejection=Rejection(stage="ground", reason=reason, detail=detail)
        )
    facts = scene.facts
    calls, results, choices = list(outcome.calls), list(outcome.results), list(outcome.choices)
    if found is not None and challenged is not None:
        if found.read is not None:
            name, args, text = found.read
            calls.append((name, args))
            results.append(text)
            choices.append({p: c for p, c in found.choices.items() if p in args})
            steps.append(challenged)
        calls.append((found.tool, found.arguments))
        results.append(found.result)
        choices.append(found.choices)
        steps.append(challenged)
    offer = None
    final_hash = outcome.final_hash
    if found is not None and challenged is not None and found.alternative is not None:
        alternative, text = found.alternative
        offer = (len(calls), alternative.words)
        calls.append((alternative.tool, dict(alternative.arguments)))
        results.append(text)
        choices.append({p: c for p, c in found.choices.items() if p in alternative.arguments})
        steps.append(challenged)
        final_hash = _settled_hash(env, outcome.calls, alternative)
    grounded = without_aimless_reads(
        profile,
        Grounded(calls, results, choices, steps, challenged, offer),
        customer_name(facts),
    )
    challenged, offer = grounded.challenged, grounded.offer
    if found is None and _changes(calls, kinds) != _changes(grounded.calls, kinds):
        # A hand-off summary was retold (`purpose._retold`): where the tool keeps it, the
        # final state is that of the calls the gold now makes.
        final_hash = _replayed_hash(env, grounded.calls)
    written = write_task_text(
        profile,
        scene.customer_id,
        facts,
        grounded.calls,
        grounded.results,
        grounded.choices,
        grounded.intent_of,
        frozenset(str(o.value) for o in scene.codes),
        challenged,
        offer,
    )
    challenge = None
    if found is not None and challenged is not None:
        challenge = Challenge(
            intent=challenged,
            rule_id=found.rule_id,
            forbidden=[Action(name=found.tool, arguments=found.arguments)],
            settles_for="refusal" if offer is None else "alternative",
            alternative=None if offer is None else f"{offer[1]}.",
        )
    task = Task(
        id=walk.id,
        domain=walk.domain,
        split=walk.split,
        user_id=scene.customer_id,
        instruction=written.instruction,
        known_facts=written.known_facts,
        intents=written.intents,
        challenge=challenge,
        provenance=f"tracer:{seed}",
    )
    candidate = Candidate(
        walk_id=walk.id,
        trace=trace_key([a.name for a in task.gold_actions]),
        variant=variant,
        final_hash=final_hash,
        mentions=written.mentions,
        preferred=written.preferred,
        task=task,
        situation=written.situation,
    )
    return GroundResult(walk_id=walk.id, candidate=candidate)


def _changes(
    calls: Sequence[tuple[str, dict[str, Any]]], kinds: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    return [(name, args) for name, args in calls if kinds[name] != "read"]


def _replayed_hash(env: Environment, calls: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """The final state's hash after these calls, from the start state."""
    env.reset()
    try:
        for name, args in calls:
            env.call(name, dict(args))
        return env.hash()
    finally:
        env.reset()


def _settled_hash(
    env: Environment, calls: Sequence[tuple[str, dict[str, Any]]], offer: Offer
) -> str:
    """The final state's hash when the customer settles for the alternative: the gold's
    calls, then the write the policy offers."""
    return _replayed_hash(env, [*calls, (offer.tool, dict(offer.arguments))])


def activity(profile: Profile, variant: str, customer: str) -> int:
    """How many of the customer's records are in a state that can still change."""
    key = (variant, customer)
    if key not in profile.cache.activity:
        profile.cache.activity[key] = sum(
            1
            for _, record in profile.scope(variant, customer)
            if getattr(record, "status", None) not in (None, *TERMINAL_STATES)
        )
    return profile.cache.activity[key]


_WORKER_PROFILES: dict[str, Profile] = {}
"""In a grounding process only: the build's profiles, handed over once when it starts."""


def _start_worker(profiles: dict[str, Profile]) -> None:
    # The pool forks, so the profiles arrive as they are (not pickled); each process then
    # keeps its own caches on them.
    _WORKER_PROFILES.update(profiles)


def _ground_one(job: tuple[str, Walk, int, ChallengePlan]) -> GroundResult:
    name, walk, seed, plan = job
    return ground_walk(_WORKER_PROFILES[name], walk, seed, plan)


@contextmanager
def worker_pool(profiles: Sequence[Profile], workers: int) -> Iterator[Pool | None]:
    """One pool of grounding processes for a whole build (None for one worker): their
    caches (screens, lookups, each customer's records) stay warm from one wave to the next."""
    if workers <= 1:
        yield None
        return
    start = {p.name: p for p in profiles}
    with get_context("fork").Pool(workers, _start_worker, (start,)) as pool:
        yield pool


def map_walks(
    profile: Profile,
    walks: Sequence[Walk],
    seed: int,
    workers: int,
    pool: Pool | None = None,
    plan: ChallengePlan = DEFAULT_PLAN,
) -> Iterator[GroundResult]:
    """Ground walks in order, on `workers` processes (each result depends only on its walk
    and the seed, so the output is the same for any number of workers). `pool` is the
    build's (see `worker_pool`); without one, a pool is made for these walks."""
    if workers <= 1 or len(walks) < 8:
        for walk in walks:
            yield ground_walk(profile, walk, seed, plan)
        return
    jobs = [(profile.name, w, seed, plan) for w in walks]
    if pool is not None:
        yield from pool.imap(_ground_one, jobs, chunksize=4)
        return
    with worker_pool([profile], workers) as own:
        assert own is not None
        yield from own.imap(_ground_one, jobs, chunksize=4)


def ground_settings(
    seed: int, made_by: Literal["build", "ground"] = "ground", test_target: int | None = None
) -> Settings:
    """What a ground file depends on besides its walks: the seed, and what made it. `build`
    grounds in waves whose challenge plans follow the waves before them (and, in the test
    split, its target); the `ground` command grounds in one pass without them. A train
    target may grow between runs: the two-step gap-fill of a train split is a resume."""
    settings: dict[str, object] = {"seed": seed, "made_by": made_by}
    if test_target is not None:
        settings["test_target"] = test_target
    return settings


def run_ground(
    profile: Profile,
    walks_path: Path,
    out: Path,
    seed: int,
    workers: int = 1,
    split: str | None = None,
    limit: int | None = None,
    only: set[str] | None = None,
    show: bool = True,
    pool: Pool | None = None,
    plan: ChallengePlan = DEFAULT_PLAN,
    settings: Settings | None = None,
) -> list[GroundResult]:
    """The ground stage over files: ground the walks `out` does not hold yet (of one split,
    the first `limit`, or the ids in `only`), offering challenges as `plan` says.
    `settings`: what the file is made with (`ground_settings`; the `ground` command's by
    default); a file made with others is refused (`InputError`)."""
    walks = [w for w in read_jsonl(walks_path, Walk) if split is None or w.split == split]
    if only is not None:
        walks = [w for w in walks if w.id in only]
    if limit is not None:
        walks = walks[:limit]
    # Once every input is read: a damaged one leaves no settings behind.
    made_with = settings if settings is not None else ground_settings(seed)
    have = resume_from(out, "walk_id", made_with)
    todo = [w for w in walks if w.id not in have]
    with appender(out) as add, progress(out, len(todo), show) as tick:
        for result in map_walks(profile, todo, seed, workers, pool, plan):
            add(result)
            tick()
    return read_jsonl(out, GroundResult)
