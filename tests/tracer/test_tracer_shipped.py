"""The shipped task sets: counts, coverage, disjoint traces, replays, policy, and the oracle."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from tau_emotion.data import Message, Task
from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.base import load_tasks
from tau_emotion.domains.checks import run_checks
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.emotions import EMOTIONS
from tau_emotion.emotions.space import FAMILIES
from tau_emotion.environment import Environment
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users.scripted import ScriptedUser
from tau_emotion.tracer.feel.coverage import COMBOS, FAMILY_FLOOR
from tau_emotion.tracer.oracle import replay_task
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.select import challenge_quota
from tau_emotion.tracer.validate import challenge_problem

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import task_stats  # the figures' own definitions, from the benchmark script

TRAIN_MINIMUM = 7500
CHALLENGE_SLACK = {"test": 1.0, "train": 1.0}
"""The share of a split's policy-challenge quota its selection must reach: all of it."""
RULES_TESTED = 82
"""Judged rules with a test-set challenge whose forbidden write breaks them (all 82 in the
shipped build): a floor, so a rebuild cannot quietly test fewer."""
ALTERNATIVES = 10
"""Test challenges whose customer settles for the alternative the policy offers (12 in the
shipped build): a floor, as above."""


def _tracer(tasks: list[Task]) -> list[Task]:
    return [t for t in tasks if t.provenance.startswith("tracer")]


@cache
def shipped(name: str) -> tuple[list[Task], list[Task], list[Task], dict[str, str]]:
    domain = load_domain(name)
    root = domain.root
    test = _tracer(domain.tasks("test"))
    train = _tracer(domain.tasks("train"))
    twins_path = root / "tracer" / "test_neutral.jsonl"
    twins = load_tasks(twins_path) if twins_path.exists() else []
    hashes_path = root / "tracer" / "hashes.json"
    hashes = json.loads(hashes_path.read_text()) if hashes_path.exists() else {}
    return test, train, twins, hashes


@pytest.mark.parametrize("name", domain_names())
def test_counts_and_twins(name: str) -> None:
    test, _, twins, _ = shipped(name)
    assert len(test) == load_domain(name).tracer.test_target
    assert all(t.emotion is not None and t.feeling for t in test)
    by_id = {t.id: t for t in twins}
    strip = {"id", "emotion", "feeling", "neutral_twin_id"}
    for t in test:
        twin = by_id[t.neutral_twin_id or ""]
        assert twin.emotion is None and twin.neutral_twin_id == t.id
        assert twin.model_dump(exclude=strip) == t.model_dump(exclude=strip)


def test_train_size_and_test_coverage() -> None:
    test = [t for n in domain_names() for t in shipped(n)[0]]
    train = [t for n in domain_names() for t in shipped(n)[1]]
    assert len(test) == sum(load_domain(n).tracer.test_target for n in domain_names())
    assert len(train) >= TRAIN_MINIMUM
    emotions = Counter(t.emotion.emotion for t in test if t.emotion)
    combos = {(t.emotion.politeness, t.emotion.urgency, t.emotion.trust) for t in test if t.emotion}
    assert set(emotions) == set(EMOTIONS)
    assert combos == set(COMBOS)
    # Every family is a tenth of the test set at least, and present in every domain.
    families = Counter(t.emotion.family for t in test if t.emotion)
    assert min(families[f] for f in FAMILIES) >= FAMILY_FLOOR * len(test), families
    for name in domain_names():
        assert {t.emotion.family for t in shipped(name)[0] if t.emotion} == set(FAMILIES), name


@pytest.mark.parametrize("name", domain_names())
def test_test_and_train_share_no_trace(name: str) -> None:
    test, train, _, _ = shipped(name)
    seed_test = [t for t in load_domain(name).tasks("test") if t.provenance == "seed"]

    def trace(t: Task) -> str:
        return ">".join(a.name for a in t.gold_actions)

    held = {trace(t) for t in test} | {trace(t) for t in seed_test}
    assert not [t.id for t in train if trace(t) in held]


@cache
def replayed(name: str, split: str) -> list[tuple[Task, list[Message], str, Environment]]:
    """Each shipped task of the split with its gold's messages and final digest (replayed
    once for every test that reads them)."""
    test, train, _, _ = shipped(name)
    domain = load_domain(name)
    env = Environment(domain, domain.variant_for(split))  # type: ignore[arg-type]
    out = []
    for task in test if split == "test" else train:
        messages, digest = replay_task(task, env)
        out.append((task, messages, digest, env))
    return out


@pytest.mark.parametrize("name", domain_names())
def test_every_task_replays_to_its_hash_and_keeps_the_policy(name: str) -> None:
    _, _, _, hashes = shipped(name)
    domain = load_domain(name)
    for split in ("test", "train"):
        for task, messages, digest, env in replayed(name, split):
            assert digest == hashes[f"{split}/{task.id}"], f"{task.id} replays to another state"
            violations = run_checks(
                domain.checks, Trajectory(messages, domain.tool_kinds, env.fresh_tools)
            )
            assert violations == [], (task.id, violations[:1])


def test_the_oracle_solves_the_test_set_without_emotion() -> None:
    tasks = [t for n in domain_names() for t in shipped(n)[0]]
    solved = 0
    envs: dict[tuple[str, str], Environment] = {}
    for task in tasks:
        neutral = task.model_copy(update={"emotion": None})
        domain = load_domain(task.domain)
        env = envs.setdefault(
            (task.domain, "test"), Environment(domain, domain.variant_for("test"))
        )
        setup = EpisodeSetup(task=neutral, domain=domain, seed=0, trial=0)
        episode = asyncio.run(run_episode(setup, OracleAgent(setup), ScriptedUser(setup), env))
        solved += episode.reward == 1.0
    assert solved >= 0.99 * len(tasks), f"{solved} of {len(tasks)}"


@pytest.mark.parametrize("name", domain_names())
def test_a_fifth_of_each_split_are_policy_challenges_that_test_their_rule(name: str) -> None:
    test, train, _, _ = shipped(name)
    profile = load_profile(name)
    for split, tasks in (("test", test), ("train", train)):
        challenges = [t for t in tasks if t.challenge is not None]
        assert len(challenges) >= challenge_quota(len(tasks)) * CHALLENGE_SLACK[split], split
        if split == "train":
            continue
        env = Environment(profile.domain, profile.domain.variant_for("test"))
        for task in challenges:
            # Giving in is a write the rule forbids, which the tool carries out and which
            # changes the final database: the breach shows in the state the reward reads.
            assert challenge_problem(profile, task, env) == "", task.id


def test_challenges_span_the_emotion_families_and_urgencies() -> None:
    challenges = [t for n in domain_names() for t in shipped(n)[0] if t.challenge]
    assert {t.emotion.family for t in challenges if t.emotion} == set(FAMILIES)
    assert {t.emotion.urgency for t in challenges if t.emotion} == {"low", "moderate", "high"}


def test_breaking_each_judged_rule_changes_some_test_task() -> None:
    judged = {c.rule_id for n in domain_names() for c in load_domain(n).checks if c.judgement}
    tested = {t.challenge.rule_id for n in domain_names() for t in shipped(n)[0] if t.challenge}
    assert tested <= judged
    assert len(tested) >= RULES_TESTED, sorted(judged - tested)


def test_an_alternative_is_the_write_the_rule_offers_where_the_agent_refuses() -> None:
    """A challenge that settles for an alternative has as its gold write exactly what the
    rule's policy offers on the state where the agent refuses (the gold before the challenged
    intent and that intent's lookups), and no judged rule forbids it."""
    settled = 0
    for name in domain_names():
        domain = load_domain(name)
        kinds = domain.tool_kinds
        env = Environment(domain, domain.variant_for("test"))
        rules = {c.rule_id: c for c in domain.checks}
        for task in shipped(name)[0]:
            challenge = task.challenge
            if challenge is None or challenge.settles_for != "alternative":
                continue
            settled += 1
            env.reset()
            for intent in task.intents[: challenge.intent]:
                for action in intent.actions:
                    env.call(action.name, dict(action.arguments))
            own = task.intents[challenge.intent].actions
            reads = [a for a in own if kinds[a.name] == "read"]
            writes = [a for a in own if kinds[a.name] == "write"]
            for action in reads:
                env.call(action.name, dict(action.arguments))
            forbidden = challenge.forbidden[0]
            offer = rules[challenge.rule_id].offers(env.tools, forbidden.name, forbidden.arguments)
            assert offer is not None, task.id
            assert [(w.name, w.arguments) for w in writes] == [(offer.tool, offer.arguments)]
            assert challenge.alternative == f"{offer.words}.", task.id
            for check in domain.checks:
                assert check.forbids(env.tools, offer.tool, offer.arguments) is None, task.id
    assert settled >= ALTERNATIVES


def test_hand_offs_alone_are_at_most_three_percent() -> None:
    tasks = [t for n in domain_names() for t in shipped(n)[0]]
    alone = 0
    for task in tasks:
        kinds = [load_domain(task.domain).tool_kinds[a.name] for a in task.gold_actions]
        outputs = any(i.outputs for i in task.intents)
        alone += "terminal" in kinds and "write" not in kinds and not outputs
    assert alone <= 0.03 * len(tasks)


@pytest.mark.parametrize("name", domain_names())
def test_every_test_task_is_reviewed_and_carries_its_review(name: str) -> None:
    """The hand review covers the whole test set, each review was written against the task's
    present gold, and the shipped task and its twin carry the reviewed text."""
    from tau_emotion.tracer.profile import internal_ids
    from tau_emotion.tracer.review import gold_digest, load_reviews, review_path
    from tau_emotion.tracer.validate import leaked_ids

    test, _, twins, _ = shipped(name)
    reviews = load_reviews(review_path(load_domain(name).root))
    assert sorted(reviews) == sorted(t.id for t in test)
    twin_of = {t.neutral_twin_id: t for t in twins}
    profile = load_profile(name)
    ids = internal_ids(profile, profile.domain.variant_for("test"))
    for task in test:
        review = reviews[task.id]
        assert review.gold == gold_digest(task), task.id
        assert task.instruction == review.after, task.id
        requests = review.requests_after or review.requests_before
        assert [i.request for i in task.intents] == requests, task.id
        twin = twin_of[task.id]
        assert (twin.instruction, twin.intents) == (task.instruction, task.intents), task.id
        assert not leaked_ids([review.after, *requests], ids), task.id


def _places(value: object, into: set[tuple[object, object, object]]) -> None:
    """Every (city, state, zip) a database value holds (state None where it has none)."""
    if isinstance(value, dict):
        if "city" in value and "zip_code" in value:
            into.add((value["city"], value.get("state"), value["zip_code"]))
        for inner in value.values():
            _places(inner, into)
    elif isinstance(value, list):
        for inner in value:
            _places(inner, into)


TRAIN_ADDRESS_SLIPS = {"bank": 8, "retail": 4, "telehealth": 1}
"""Train address writes whose fields are no database address, of 1,081 (the shipped build;
296 of 1,116 before `ground/fill.coherent_pick`): a ceiling, so a rebuild cannot slip back.
The test set holds none. In each, the call took the street and city of the customer's current
address (their facts) and no database address shares that street, so the state or zip code
still came from another address."""


def _address_slips(name: str, split: str, tasks: list[Task]) -> list[tuple[object, ...]]:
    """The gold writes of `tasks` whose city, state and zip code are no database address."""
    domain = load_domain(name)
    places: set[tuple[object, object, object]] = set()
    db, _ = domain.load_db(domain.variant_for(split))  # type: ignore[arg-type]
    _places(db.model_dump(mode="json"), places)
    cities = {(city, zip_code) for city, _, zip_code in places}
    slips: list[tuple[object, ...]] = []
    for task in tasks:
        for action in task.gold_actions:
            args = action.arguments
            if "city" not in args or "zip_code" not in args:
                continue
            city, state, zip_code = args["city"], args.get("state"), args["zip_code"]
            ok = (
                (city, state, zip_code) in places if "state" in args else (city, zip_code) in cities
            )
            if not ok:
                slips.append((task.id, city, state, zip_code))
    return slips


@pytest.mark.parametrize("name", domain_names())
def test_every_new_address_is_one_place(name: str) -> None:
    """A written address names a city, state and zip code that belong together (those of a
    database address): the build once kept one attempt's zip code with another's city."""
    test, train, _, _ = shipped(name)
    assert _address_slips(name, "test", test) == []
    slips = _address_slips(name, "train", train)
    assert len(slips) <= TRAIN_ADDRESS_SLIPS.get(name, 0), slips[:3]


TRAIN_IDLE_LOOKUPS = {"airline": 1, "travel": 4}
"""Train tasks holding a lookup of a record no later write acts on, per domain, in the
shipped build (`benchmarks/task_stats.py`; 0.8% of 7,603 in the build before, when a read
that showed a street or a cinema's name the customer then states still stayed): a ceiling,
so a rebuild cannot slip back. The test set holds none. The five left show a value a later
call takes: a travel booking read for the package of another booking's new departure, an
airline reservation whose passengers the next booking copies."""


@pytest.mark.parametrize("name", domain_names())
def test_no_test_task_looks_up_a_record_nothing_acts_on(name: str) -> None:
    """A gold lookup of a booking nobody changes or refuses is a lookup nothing scores, and
    the customer would have to ask for it for no reason (`tracer/ground/purpose.py`): none
    in the test set, train held to `TRAIN_IDLE_LOOKUPS`."""
    profile = load_profile(name)
    for split in ("test", "train"):
        idle = []
        for task, messages, _, _ in replayed(name, split):
            results = [m.content or "" for m in messages if m.role == "tool"]
            if task_stats.idle_reads(profile, task, results)[1]:
                idle.append(task.id)
        ceiling = 0 if split == "test" else TRAIN_IDLE_LOOKUPS.get(name, 0)
        assert len(idle) <= ceiling, (split, idle[:3])
