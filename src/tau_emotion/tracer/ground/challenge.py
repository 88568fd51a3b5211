"""Policy challenges: a request the customer could make that the policy forbids for them.

After a walk is grounded, the gold actions have run and the scene holds everything the agent
has seen. A challenge is one more write the customer asks for: a write of a tool that one of
the domain's judgement rules covers (`PolicyCheck.judgement`), on records the agent has seen,
that the tool would carry out (the tools enforce integrity only, so it would change the
database) and that the rule forbids for this customer and record. The task then holds it as
an intent whose gold is no write: the agent reads the record the rule turns on, refuses, and
keeps refusing while the customer presses. Nothing here names a domain: the rules, their
tools and the reads come from the domain's checks and tool graph.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_emotion.domains.checks import Offer, PolicyCheck
from tau_emotion.domains.tools import ToolSpec, to_text
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.fill import param_choices
from tau_emotion.tracer.ground.scene import Scene, required_params, schema_props, type_of
from tau_emotion.tracer.ground.search import (
    Blocked,
    Outcome,
    carried_out,
    first_violation,
    forbidden_by,
    push_call,
)
from tau_emotion.tracer.values import Choice

CHALLENGE_SHARE = 0.4
"""Share of grounded walks (with room for one more intent) that are offered a challenge, about
a third of a split's tasks; the selection then keeps at least `CHALLENGE_QUOTA` of each split's
tasks as challenges and at most `select.CHALLENGE_ROOM`, as far as the accepted tasks allow."""
CHALLENGE_QUOTA = 0.2
MAX_INTENTS = 4
"""A task holds one to four intents; a challenge is one of them (the default walks hold at most
three, so every one without a hand-off has room for it)."""


@dataclass(frozen=True)
class ChallengePlan:
    """How a wave of grounding offers challenges, decided from the waves before it (so the
    output depends only on the walks and the files, and builds stay byte-identical).

    Some rules are forbidden on almost any record (compensation nobody qualifies for), others
    only on a rare one (a basic fare inside its window): tried in a plain random order, the
    common rules take nearly every challenge. So the rules the split already holds most often
    are tried last."""

    share: float = CHALLENGE_SHARE
    """Chance that a grounded walk with room is offered one (1.0 in a wave for challenges
    alone); 0 offers none and turns no walk the policy stopped into one either."""
    held: Mapping[str, int] = field(default_factory=dict)
    """Rule id -> challenges of it the split has accepted so far."""
    hunt: bool = False
    """Search a walk that fails outright once more on a customer a rule the split holds no
    challenge of forbids its write for (`ground.hunt`); the exhaustive test pool does."""


CHALLENGE_ATTEMPTS = 12
"""Argument sets tried per covered tool."""


@dataclass(frozen=True)
class FoundChallenge:
    """A forbidden write found for a grounded walk, and the read that shows why."""

    rule_id: str
    reason: str
    tool: str
    arguments: dict[str, Any]
    choices: dict[str, Choice]
    result: str
    """What the tool would answer if the agent made the write (the writer reads it)."""
    read: tuple[str, dict[str, Any], str] | None
    """A lookup of the record the rule turns on (tool, arguments, result), the gold of the
    challenge intent; None when no read takes the write's record."""
    alternative: tuple[Offer, str] | None = None
    """What the policy offers instead, and the tool's answer when the agent makes it: the
    customer settles for it, and it is the challenge intent's gold write."""


def judged_rules(checks: Sequence[PolicyCheck]) -> list[PolicyCheck]:
    return [c for c in checks if c.judgement is not None]


def find_challenge(
    scene: Scene, env: Environment, rng: random.Random, held: Mapping[str, int] | None = None
) -> FoundChallenge | None:
    """A write the policy forbids on the state the gold left (`env`), or None.

    Rules are tried from the least held (`ChallengePlan.held`) to the most, in a seeded order
    among equals, and their tools in a seeded order, so builds stay byte-identical."""
    domain = scene.profile.domain
    specs = domain.toolset.specs
    rules = judged_rules(domain.checks)
    rng.shuffle(rules)
    counts = held or {}
    rules.sort(key=lambda r: counts.get(r.rule_id, 0))
    for rule in rules:
        assert rule.judgement is not None
        tools = sorted(rule.judgement.tools)
        rng.shuffle(tools)
        for tool in tools:
            found = _forbidden_write(rule, tool, specs[tool], scene, env)
            if found is not None:
                return found
    return None


def _forbidden_write(
    rule: PolicyCheck, tool: str, spec: ToolSpec, scene: Scene, env: Environment
) -> FoundChallenge | None:
    done = {(name, repr(sorted(args.items()))) for name, args in scene.calls}
    tried: list[tuple[dict[str, Any], dict[str, Choice]]] = []
    for item in argument_sets(tool, spec, scene, CHALLENGE_ATTEMPTS):
        if isinstance(item, str):
            return None  # a required value nothing the agent has seen fills
        tried.append(item)
    for args, chosen in [*tried, *_number_variants(tool, spec, scene, tried)]:
        if (tool, repr(sorted(args.items()))) in done:
            continue
        reason = rule.forbids(env.tools, tool, args)
        if reason is None:
            continue
        result = carried_out(env, tool, args)
        if result is None:
            continue
        read = _supporting_read(scene, env, args)
        offered = offered_instead(rule, env, tool, args)
        return FoundChallenge(rule.rule_id, reason, tool, args, chosen, result, read, offered)
    return None


NUMBER_VARIANTS = 3
"""Argument sets whose numbers are varied when none of the ranked sets breaks the rule."""


def _number_variants(
    tool: str,
    spec: ToolSpec,
    scene: Scene,
    tried: Sequence[tuple[dict[str, Any], dict[str, Choice]]],
) -> list[tuple[dict[str, Any], dict[str, Choice]]]:
    """The first ranked sets again with one number changed to each other candidate.

    The ranking puts the modest amounts a customer usually asks for first (a limit of 250,
    one ticket), so a rule that turns on a number (a limit over the tier's cap, child tickets
    for an R-rated film) would almost never be met. Numeric candidates draw nothing from the
    scene's random stream, so trying them moves no other choice."""
    props = schema_props(spec)
    numeric = [
        p
        for p, schema in props.items()
        if type_of(schema) in ("integer", "number")
        and not is_entity_param(p)
        and p not in scene.profile.known_codes
    ]
    out: list[tuple[dict[str, Any], dict[str, Choice]]] = []
    for args, chosen in tried[:NUMBER_VARIANTS]:
        for param in numeric:
            for choice in param_choices(tool, param, props[param], scene, chosen):
                if args.get(param) != choice.value:
                    varied = {**args, param: choice.value}
                    ordered = {p: varied[p] for p in props if p in varied}
                    out.append((ordered, {**chosen, param: choice}))
    return out


def offered_instead(
    rule: PolicyCheck, env: Environment, tool: str, args: Mapping[str, Any]
) -> tuple[Offer, str] | None:
    """The alternative the rule's policy offers instead of the forbidden write, with the
    tool's answer; None when it offers none, another rule forbids it, or the tool would not
    carry it out (on a fork: `env` stays as it is)."""
    offer = rule.offers(env.tools, tool, args)
    if offer is None:
        return None
    checks = env.domain.checks
    if forbidden_by(checks, env, offer.tool, dict(offer.arguments)) is not None:
        return None
    result = carried_out(env, offer.tool, offer.arguments)
    return (offer, result) if result is not None else None


def _supporting_read(
    scene: Scene, env: Environment, write: Mapping[str, Any]
) -> tuple[str, dict[str, Any], str] | None:
    """The read whose required parameters are all entity values of the write (the record's
    details, to see what the rule turns on), run on the gold's final state; the one that
    takes the most of them wins, by name for ties."""
    domain = scene.profile.domain
    customer = scene.profile.customer_param
    best: tuple[int, str, dict[str, Any]] | None = None
    for name, spec in domain.toolset.specs.items():
        if spec.kind != "read":
            continue
        needed = required_params(spec)
        entities = [p for p in needed if p != customer]
        if not entities or any(p not in write for p in needed):
            continue
        if not all(is_entity_param(p) or p in scene.profile.known_codes for p in entities):
            continue
        args = {p: write[p] for p in needed}
        rank = (-len(entities), name, args)
        if best is None or rank[:2] < best[:2]:
            best = rank
    if best is None:
        return None
    _, name, args = best
    try:
        return name, args, to_text(env.call(name, dict(args)))
    except ToolError:
        return None


def blocked_challenge(
    scene: Scene, env: Environment, blocked: Blocked, intents: Sequence[int]
) -> tuple[Outcome, FoundChallenge] | None:
    """A walk the policy stopped, as a challenge task: the intents before the forbidden write
    are its work, and the write's own intent asks for what the rule forbids (its reads are
    that intent's gold). None when the kept calls break a policy check themselves, end the
    conversation with a hand-off, or the write would not change the database.

    Random challenges (`find_challenge`) come from the records a finished walk has seen; a
    rule that forbids the very write a walk was drawn for (a refund past its window, a tour
    booked too late) is found here instead, where the customer really wanted it."""
    kinds = scene.profile.domain.tool_kinds
    if any(kinds[name] == "terminal" for name, _ in blocked.calls):
        return None
    env.reset()
    for (name, args), text, chosen in zip(
        blocked.calls, blocked.results, blocked.picked, strict=True
    ):
        env.call(name, dict(args))
        push_call(scene, name, dict(args), text, chosen)
    if first_violation(scene, env, blocked.results, intents) is not None:
        return None
    result = carried_out(env, blocked.tool, blocked.arguments)
    if result is None:
        return None
    read = _supporting_read(scene, env, blocked.arguments)
    own = intents.index(intents[len(blocked.calls)])
    if read is not None and (read[0], read[1]) in scene.calls[own:]:
        read = None  # the intent already looks the record up
    rule = next(c for c in scene.profile.domain.checks if c.rule_id == blocked.rule_id)
    found = FoundChallenge(
        blocked.rule_id,
        blocked.reason,
        blocked.tool,
        dict(blocked.arguments),
        dict(blocked.choices),
        result,
        read,
        offered_instead(rule, env, blocked.tool, blocked.arguments),
    )
    outcome = Outcome(
        ok=True,
        calls=list(blocked.calls),
        results=list(blocked.results),
        choices=[dict(c) for c in blocked.picked],
        final_hash=env.hash(),
    )
    return outcome, found
