"""Stage 1: the tool graphs keep the policy, and the committed ones are current."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tau_emotion.domains import domain_names
from tau_emotion.tracer.declaration import ReviewEdit
from tau_emotion.tracer.graph import (
    build_graph,
    graph_diff,
    graph_path,
    load_graph,
    policy_problems,
    review_graph,
)
from tau_emotion.tracer.graph.render import to_markdown
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.records import Edge


@pytest.mark.parametrize("name", domain_names())
def test_committed_graph_keeps_the_policy_and_covers_the_tools(name: str) -> None:
    profile = load_profile(name)
    assert graph_path(profile).exists(), f"run `tau-emotion tracer graph --domain {name}`"
    committed = load_graph(profile)
    assert policy_problems(committed) == []
    # The committed graph is a reviewed snapshot: its edges may lag the seeds, but it must
    # know every tool the domain has now (`tracer graph --check` shows the full difference).
    known = {n.name for n in committed.nodes} | set(committed.excluded)
    assert known == set(profile.domain.toolset.specs)
    assert (graph_path(profile).parent / "graph.md").exists()


STALE_GRAPHS = {
    "movie": "movie's committed graph.json predates its `movie_title` param alias: a fresh "
    "derivation adds movie_title to the produces of 8 nodes and re-weights the 8 edges into "
    "search_showtimes (3.0 -> 5.0, get_customer_details 0.5 -> 3.0). The walker samples by "
    "those weights, so re-deriving it changes every movie walk and task: it waits for a full "
    "rebuild and a fresh hand review of the movie test set (then this passes: drop the mark).",
}
"""Domains whose committed graph knowingly lags its derivation, and why."""


DOCS = Path(__file__).parents[2] / "docs"


def test_no_docs_command_rewrites_a_lagging_graph() -> None:
    """docs/tracer.md opened with `tracer graph --domain all`, which rewrites movie's
    committed graph (and with it every later movie build) though the same page says it must
    lag until a rebuild. A command block's `tracer graph` rewrites only with `--check`
    absent; then its domains must not include a lagging one, nor be `all`."""
    commands = [
        line
        for doc in sorted(DOCS.glob("*.md"))
        for block in re.findall(r"```(?:bash)?\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
        for line in block.splitlines()
        if "tracer graph" in line
    ]
    assert commands, "docs/tracer.md shows how to check the graphs"
    for line in commands:
        command = line.split("#")[0]
        if "--check" in command:
            continue
        spec = re.search(r"--domain[= ](\S+)", command)
        domains = set(spec.group(1).split(",")) if spec else {"all"}
        assert not domains & {"all", *STALE_GRAPHS}, line


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=STALE_GRAPHS[n]))
        if n in STALE_GRAPHS
        else n
        for n in domain_names()
    ],
)
def test_a_fresh_derivation_matches_the_committed_graph(name: str) -> None:
    """What `tracer graph --check` checks, over every field the walks read."""
    profile = load_profile(name)
    assert graph_diff(load_graph(profile), build_graph(profile)) == []


@pytest.mark.parametrize("name", domain_names())
def test_the_committed_markdown_renders_the_committed_graph(name: str) -> None:
    path = graph_path(load_profile(name))
    assert (path.parent / "graph.md").read_text() == to_markdown(load_graph(load_profile(name)))


def test_the_diff_names_every_difference_the_walks_read() -> None:
    """The diff once compared only names, (source, target) pairs and `requires`, so a graph
    whose weights, produces or policy lagged its derivation was called current."""
    graph = build_graph(load_profile("bank"))
    edge = graph.edges[0]
    node = graph.nodes[0]
    changed = graph.model_copy(
        update={
            "edges": [
                edge.model_copy(update={"weight": edge.weight + 1, "reasons": ["review: x"]}),
                *graph.edges[1:],
            ],
            "nodes": [
                node.model_copy(update={"produces": [*node.produces, "extra"]}),
                *graph.nodes[1:],
            ],
            "requires_any": {**graph.requires_any, "freeze_card": [["verify_identity"]]},
            "limits": {**graph.limits, "freeze_card": 1},
            "entries": graph.entries[:1],
        }
    )
    diff = graph_diff(graph, changed)
    pair = f"{edge.source} -> {edge.target}"
    assert f"edge {pair} weight: {edge.weight} committed, {edge.weight + 1} fresh" in diff
    assert (
        f"edge {pair} reasons: " + ", ".join([*(f"-{r}" for r in edge.reasons), "+review: x"])
        in diff
    )
    assert f"node {node.name} produces: +extra" in diff
    assert any(line.startswith("requires_any[freeze_card]: ") for line in diff)
    assert "limits[freeze_card] only in fresh: 1" in diff
    assert any(line.startswith("entries: -") for line in diff)
    reordered = graph.model_copy(update={"edges": [*graph.edges[1:], edge]})
    assert graph_diff(graph, reordered) == ["edge order differs"]
    assert graph_diff(graph, graph) == []


def test_identity_lookups_come_first_and_nothing_follows_a_transfer() -> None:
    graph = build_graph(load_profile("airline"))
    roles = {n.name: n.role for n in graph.nodes}
    assert set(graph.entries) == {n for n, r in roles.items() if r == "auth"}
    for e in graph.edges:
        assert roles[e.target] != "auth"
        assert roles[e.source] != "terminal"
    # A write never follows the lookup directly: its entity is read first.
    assert not [e for e in graph.edges if roles[e.source] == "auth" and roles[e.target] == "write"]


def test_write_edges_carry_data_from_outputs_to_parameters() -> None:
    graph = build_graph(load_profile("airline"))
    edge = next(
        e
        for e in graph.edges
        if e.source == "get_reservation_details" and e.target == "cancel_reservation"
    )
    assert any("feeds reservation_code" in r for r in edge.reasons)
    node = graph.node("cancel_reservation")
    assert "reservation_code" in node.needs
    assert "reservation_code" in graph.node("get_user_details").produces


def test_policy_order_comes_from_the_seeds_and_the_review() -> None:
    assert "quote_plan_change" in build_graph(load_profile("telecom")).requires["change_plan"]
    bank = build_graph(load_profile("bank"))
    assert ["verify_identity"] in bank.requires_any["*write"]
    assert bank.requires_any["freeze_card"] == []
    assert build_graph(load_profile("airline")).limits["issue_compensation_certificate"] == 1


def test_review_drops_and_adds_edges_and_notes_them() -> None:
    graph = build_graph(load_profile("retail"))
    first = graph.edges[0]
    reviewed = review_graph(
        graph,
        [
            ReviewEdit("drop", first.source, first.target, "not plausible"),
            ReviewEdit("limit", "get_order", "2", "x"),
        ],
    )
    assert (first.source, first.target) not in {(e.source, e.target) for e in reviewed.edges}
    assert reviewed.limits["get_order"] == 2
    assert any("not plausible" in note for note in reviewed.review)


def test_policy_problems_flag_bad_edges() -> None:
    graph = build_graph(load_profile("retail"))
    bad = graph.model_copy(
        update={
            "edges": [
                *graph.edges,
                Edge(source="get_order", target="find_customer_by_email", reasons=["x"]),
                Edge(source="transfer_to_human_agents", target="get_order", reasons=["x"]),
                Edge(source="find_customer_by_email", target="request_return", reasons=["x"]),
            ]
        }
    )
    problems = " ".join(policy_problems(bad))
    assert "precede authentication" in problems
    assert "follow a transfer" in problems
    assert "entity read first" in problems


def test_markdown_rendering_lists_every_tool() -> None:
    graph = build_graph(load_profile("telecom"))
    text = to_markdown(graph)
    for node in graph.nodes:
        assert f"`{node.name}`" in text
