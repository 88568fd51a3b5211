"""Stage 2: random walks over the tool graph, one per candidate task.

A task combines 1 to 3 intents; an intent is a walk of 2 to 6 tool calls (both
distributions configurable) that ends on a goal: a write, or a transfer (only at the very end
of a task). The first intent starts at an identity lookup; each later intent continues from
where the previous one stopped. A walk is kept only if it respects the graph's policy order
(`requires`, `requires_any`, `limits`) and every entity a call needs was produced by an
earlier call or is a code the customer holds. Walks with the same tool sequence are dropped.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from pathlib import Path

from tau_emotion.tracer.config import WalkConfig
from tau_emotion.tracer.jsonl import (
    Settings,
    appender,
    check_settings,
    progress,
    read_jsonl,
    resume_from,
)
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.records import ToolGraph, Walk, trace_key

TRIES_PER_WALK = 60
MAX_SAME_WRITE = 2
"""A task repeats one write at most this often (two fees paid, two campers registered)."""
REPEAT_WEIGHT = 0.15
"""Relative chance of calling the same tool twice in a row."""
TRANSFER_WEIGHT = 0.5
"""Relative chance that a task's last goal is a transfer rather than a given write."""


def _pick(rng: random.Random, weights: Mapping[int, float]) -> int:
    keys = sorted(weights)
    return rng.choices(keys, [weights[k] for k in keys])[0]


class Walker:
    """Samples valid walks from one graph, goal first.

    Plain random walks mostly break a policy rule or repeat short sequences. So each intent
    first picks its goal (every write equally likely, which balances the tasks across the
    domain's actions), then a random path of the sampled length that reaches it, steered
    towards the tools the goal's policy order requires and pruned by the distance left.
    """

    def __init__(self, profile: Profile, graph: ToolGraph) -> None:
        self.graph = graph
        self.knowable = {profile.customer_param, *profile.known_codes}
        self.nodes = {n.name: n for n in graph.nodes}
        self.succ: dict[str, list[tuple[str, float]]] = {}
        for e in graph.edges:
            self.succ.setdefault(e.source, []).append((e.target, e.weight))
        self.goals = sorted(n.name for n in graph.nodes if n.role in ("write", "terminal"))
        self.dist = {g: self._distances_to(g) for g in self.goals}

    def _distances_to(self, goal: str) -> dict[str, int]:
        """Fewest calls from each tool to the goal (BFS over reversed edges)."""
        pred: dict[str, list[str]] = {}
        for e in self.graph.edges:
            pred.setdefault(e.target, []).append(e.source)
        dist = {goal: 0}
        frontier = [goal]
        while frontier:
            nxt: list[str] = []
            for node in frontier:
                for p in sorted(pred.get(node, [])):
                    if p not in dist:
                        dist[p] = dist[node] + 1
                        nxt.append(p)
            frontier = nxt
        return dist

    def _reads_entity(self, path: list[str], goal: str) -> bool:
        """Within its own intent, a goal's entity is looked up before it is acted on: a second
        request is about a second thing, not the one the first write just changed."""
        entity = set(self.nodes[goal].needs) - self.knowable
        if not entity or self.nodes[goal].role == "terminal":
            return True
        return any(not entity.isdisjoint(self.nodes[t].produces) for t in path[:-1])

    def _required(self, goal: str) -> set[str]:
        return set(self.graph.requires.get(goal, []))

    def _cap(self, name: str) -> int:
        node = self.nodes[name]
        return self.graph.limits.get(name, MAX_SAME_WRITE if node.kind == "write" else 3)

    def _path(
        self,
        rng: random.Random,
        current: str,
        goal: str,
        steps: int,
        walk: list[str],
    ) -> list[str] | None:
        """A random path of exactly `steps` calls from `current` to `goal` that keeps the
        rules; None when the bounded search finds none."""
        dist = self.dist[goal]
        wanted = self._required(goal)
        budget = [200]

        def extend(node: str, left: int, path: list[str]) -> list[str] | None:
            if left == 0:
                if node != goal or not self._reads_entity(path, goal):
                    return None
                return path if self.valid_prefix(walk + path) else None
            budget[0] -= 1
            if budget[0] < 0:
                return None
            options: list[tuple[str, float]] = []
            for target, weight in self.succ.get(node, []):
                if dist.get(target, 10**6) > left - 1:
                    continue
                if self.nodes[target].role == "terminal" and target != goal:
                    continue
                # A transfer ends its own intent: only lookups lead up to it, so the agent
                # has nothing left to tell when it hands over.
                if (
                    self.nodes[goal].role == "terminal"
                    and left > 1
                    and (target == goal or self.nodes[target].role != "read")
                ):
                    continue
                count = (walk + path).count(target)
                if count >= self._cap(target):
                    continue
                if target in wanted and target not in walk + path:
                    weight *= 6.0
                if target == node:
                    weight *= REPEAT_WEIGHT
                options.append((target, weight))
            order: list[str] = []
            while options:
                pick = rng.choices(range(len(options)), [w for _, w in options])[0]
                order.append(options.pop(pick)[0])
            for target in order:
                found = extend(target, left - 1, [*path, target])
                if found is not None:
                    return found
            return None

        return extend(current, steps, [])

    def sample(self, rng: random.Random, config: WalkConfig) -> list[list[str]] | None:
        """One walk, or None when no path to the chosen goals could be found."""
        n_intents = _pick(rng, config.intents)
        intents: list[list[str]] = []
        walk: list[str] = []
        current = rng.choice(self.graph.entries)
        for index in range(n_intents):
            final = index == n_intents - 1
            goals = [
                g
                for g in self.goals
                if (final or self.nodes[g].role != "terminal") and walk.count(g) < self._cap(g)
            ]
            if not goals:
                return None  # a small domain's goals are all used up (their call limits)
            weights = [TRANSFER_WEIGHT if self.nodes[g].role == "terminal" else 1.0 for g in goals]
            goal = rng.choices(goals, weights)[0]
            length = _pick(rng, config.lengths)
            first = [current] if index == 0 else []
            path = self._path(rng, current, goal, length - len(first), walk + first)
            if path is None:
                return None
            intent = first + path
            intents.append(intent)
            walk += intent
            current = goal
        return intents if self.valid(intents) else None

    def valid_prefix(self, flat: Sequence[str]) -> bool:
        return self.valid([list(flat)], partial=True)

    def valid(self, intents: Sequence[Sequence[str]], partial: bool = False) -> bool:
        """Policy order, call limits, and every needed entity produced earlier."""
        flat = [t for intent in intents for t in intent]
        produced: set[str] = set()
        for i, name in enumerate(flat):
            node = self.nodes.get(name)
            if node is None:
                return False
            before = set(flat[:i])
            if not set(self.graph.requires.get(name, [])) <= before:
                return False
            alternatives = self.graph.requires_any.get(name)
            if alternatives is None and node.kind == "write":
                alternatives = self.graph.requires_any.get("*write")
            if alternatives and not any(set(alt) <= before for alt in alternatives):
                return False
            missing = [p for p in node.needs if p not in produced and p not in self.knowable]
            if i > 0 and missing:
                return False
            if node.role == "terminal" and i != len(flat) - 1 and not partial:
                return False
            if flat.count(name) > self._cap(name):
                return False
            produced.update(node.produces)
        return True


def walk_domain(
    profile: Profile,
    graph: ToolGraph,
    n: int,
    seed: int,
    test_walks: int,
    config: WalkConfig | None = None,
) -> list[Walk]:
    """Sample `n` walks, drop repeated tool sequences, and split them: the first `test_walks`
    distinct ones form the test pool, the rest the train pool. Train never gets a sequence
    that a seed test task uses either."""
    config = config or WalkConfig()
    test_config = config
    if config.test_intents is not None:
        test_config = WalkConfig(intents=config.test_intents, lengths=config.lengths)
    rng = random.Random(f"tracer/walks/{graph.domain}/{seed}")
    walker = Walker(profile, graph)
    seed_test = {trace_key(t) for t in profile.seed_traces.get("test", [])}
    seen: set[str] = set()
    walks: list[Walk] = []
    n_test = 0
    for _ in range(n):
        intents = None
        drawing = test_config if n_test < test_walks else config
        for _ in range(TRIES_PER_WALK):
            intents = walker.sample(rng, drawing)
            if intents is not None:
                break
        if intents is None:
            continue
        key = trace_key([t for intent in intents for t in intent])
        if key in seen:
            continue
        seen.add(key)
        split = "test" if n_test < test_walks else "train"
        if split == "train" and key in seed_test:
            continue
        n_test += split == "test"
        walks.append(
            Walk(
                id=f"{graph.domain}-w{len(walks):05d}",
                domain=graph.domain,
                split=split,
                intents=intents,
            )
        )
    return walks


def walk_settings(
    graph: ToolGraph, seed: int, test_walks: int, config: WalkConfig | None = None
) -> Settings:
    """What a walks file depends on: not the number of samples, since drawing more only
    extends the same sequence of walks (how a build grows its train pool), but the seed,
    the test pool, the intents and lengths, and the graph walked."""
    config = config or WalkConfig()
    digest = hashlib.sha256(graph.model_dump_json().encode("utf-8")).hexdigest()[:16]
    return {
        "seed": seed,
        "test_walks": test_walks,
        "intents": dict(config.intents),
        "lengths": dict(config.lengths),
        "test_intents": dict(config.test_intents) if config.test_intents is not None else None,
        "graph": digest,
    }


def run_walks(
    profile: Profile,
    graph: ToolGraph,
    out: Path,
    n: int,
    seed: int,
    test_walks: int,
    config: WalkConfig | None = None,
    show: bool = True,
) -> list[Walk]:
    """The walk stage over files: append the walks `out` does not hold yet; return them all.
    A file made with other settings is refused (`InputError`): its ids would match the new
    walks' by number only, and both runs' walks would mix."""
    settings = walk_settings(graph, seed, test_walks, config)
    check_settings(out, settings)
    walks = walk_domain(profile, graph, n, seed, test_walks, config)
    have = resume_from(out, "id", settings)
    with appender(out) as add, progress(out, len(walks), show) as tick:
        for w in walks:
            if w.id not in have:
                add(w)
            tick()
    return read_jsonl(out, Walk)
