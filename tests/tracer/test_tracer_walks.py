"""Stage 2: walks are valid, deduplicated, seeded, and split into disjoint pools."""

from __future__ import annotations

import random
from pathlib import Path

from tau_emotion.tracer.graph import build_graph
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.records import Walk
from tau_emotion.tracer.walks import WalkConfig, Walker, run_walks, walk_domain


def test_walks_are_distinct_valid_and_within_the_configured_sizes() -> None:
    profile = load_profile("telecom")
    graph = build_graph(profile)
    walks = walk_domain(profile, graph, 300, seed=3, test_walks=40)
    traces = [w.trace for w in walks]
    assert len(traces) == len(set(traces)), "identical tool sequences must be removed"
    walker = Walker(profile, graph)
    goals = {n.name for n in graph.nodes if n.role in ("write", "terminal")}
    for w in walks:
        assert 1 <= len(w.intents) <= 3
        assert all(2 <= len(i) <= 6 for i in w.intents)
        assert walker.valid(w.intents)
        assert w.intents[0][0] in graph.entries
        assert all(i[-1] in goals for i in w.intents), "every intent ends on a goal"


def test_walks_are_deterministic_and_the_count_is_reported() -> None:
    profile = load_profile("retail")
    graph = build_graph(profile)
    a = walk_domain(profile, graph, 120, seed=11, test_walks=10)
    b = walk_domain(profile, graph, 120, seed=11, test_walks=10)
    c = walk_domain(profile, graph, 120, seed=12, test_walks=10)
    assert a == b
    assert [w.trace for w in a] != [w.trace for w in c]
    assert 0 < len(a) <= 120


def test_distributions_are_configurable() -> None:
    profile = load_profile("bank")
    graph = build_graph(profile)
    config = WalkConfig(intents={1: 1.0}, lengths={4: 1.0})
    walks = walk_domain(profile, graph, 60, seed=5, test_walks=0, config=config)
    assert walks
    assert all(len(w.intents) == 1 and len(w.intents[0]) == 4 for w in walks)


def test_test_and_train_pools_share_no_trace(tmp_path: Path) -> None:
    profile = load_profile("airline")
    graph = build_graph(profile)
    out = tmp_path / "walks.jsonl"
    walks = run_walks(profile, graph, out, 200, seed=7, test_walks=30, show=False)
    test = {w.trace for w in walks if w.split == "test"}
    train = {w.trace for w in walks if w.split == "train"}
    assert len(test) == 30 and train and not test & train
    # Resuming appends nothing new and keeps the ids.
    again = run_walks(profile, graph, out, 200, seed=7, test_walks=30, show=False)
    assert [w.id for w in again] == [w.id for w in walks]
    assert len(out.read_text().splitlines()) == len(walks)


def test_a_transfer_is_last_and_stands_alone() -> None:
    profile = load_profile("airline")
    graph = build_graph(profile)
    walker = Walker(profile, graph)
    rng = random.Random(1)
    seen = 0
    for _ in range(400):
        intents = walker.sample(rng, WalkConfig())
        if intents is None or intents[-1][-1] != "transfer_to_human_agents":
            continue
        seen += 1
        flat = [t for i in intents for t in i]
        assert flat.count("transfer_to_human_agents") == 1
        kinds = {n.name: n.kind for n in graph.nodes}
        assert all(kinds[t] == "read" for t in intents[-1][:-1] if t not in graph.entries)
    assert seen > 0


def test_walk_records_round_trip() -> None:
    w = Walk(id="x-w00001", domain="x", split="test", intents=[["a", "b"], ["c", "d"]])
    assert Walk.model_validate_json(w.model_dump_json()) == w
    assert w.trace == "a>b>c>d"
