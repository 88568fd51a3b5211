"""Candidate values for a tool call's parameters, from what the conversation has shown so far.

Sources, in the order a real agent would use them: the customer's own facts (for identity
lookups), receipt codes the customer holds, values in earlier tool outputs (matched by
parameter name), the schema's enums, and values that exist in the database (for literals
the customer states: a date, a party size, a new address). An internal id is only ever taken
from an earlier output, so every id in a gold call is one the agent could have seen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.scene import (
    Scene,
    code_choices,
    enum_of,
    fact_choice,
    seen_choices,
    type_of,
)
from tau_emotion.tracer.values import FREE_TEXT, Choice, describe

MONEY_KEYS = ("amount", "balance", "total", "remaining_balance", "unrefunded", "price")

AMOUNT_STEPS = (50.0, 100.0, 250.0, 500.0, 1000.0, 1500.0, 2500.0, 5000.0)


def param_choices(
    tool: str, param: str, schema: Mapping[str, Any], scene: Scene, chosen: Mapping[str, Choice]
) -> list[Choice]:
    """Every candidate for one parameter, best first (before coherence ranking)."""
    profile = scene.profile
    if param == profile.customer_param:
        return [Choice(scene.customer_id, "customer")]
    if tool in profile.auth_tools or param in profile.record_aliases:
        fact = fact_choice(param, scene)
        return [fact] if fact else []
    if param in profile.known_codes:
        seen = seen_choices(param, scene)
        known = {repr(c.value) for c in seen}
        codes = [c for c in code_choices(param, scene) if repr(c.value) not in known]
        if seen and profile.domain.tool_kinds[tool] == "write":
            codes = []  # act on a record the conversation looked at, not a fresh one
        key = profile.known_codes[param]
        out = [Choice(c.value, "code", c.context, c.step, "", key) for c in seen] + codes
        if not out and scene.pools.get(param):
            # A new code the customer brings (the member id on a new insurance card).
            made = _mutate(scene.rng.choice(scene.pools.get(param)), scene.rng)
            out = [Choice(made, "code", None, -1, "", key)]
        return out
    kind = type_of(schema)
    if kind == "array" and isinstance(schema.get("items"), dict):
        if "properties" in schema["items"]:
            return _object_list_choices(tool, param, schema, scene)
        return _id_list_choices(param, scene, chosen)
    if kind == "object":
        return _catalogue_map_choices(scene)
    if is_entity_param(param):
        return seen_choices(param, scene)
    enum = enum_of(schema)
    if enum:
        choices = _enum_choices(param, enum, scene, chosen)
        if changes(tool):
            current = {repr(c.context.get(param)) for c in chosen.values() if c.context}
            choices = [c for c in choices if repr(c.value) not in current] or choices
        return choices
    if kind == "boolean":
        values = [True, False]
        scene.rng.shuffle(values)
        return [Choice(v, "made") for v in values]
    if kind in ("integer", "number"):
        return _range_choices(param, chosen) + _number_choices(tool, param, schema, scene)
    if param in FREE_TEXT:
        return [_text(param, tool, scene)]
    mates = [
        Choice(c.context[param], "pool", c.context)
        for c in chosen.values()
        if c.source == "pool" and c.context is not None and c.context.get(param) is not None
    ]
    if mates:
        return mates  # the birth date of the camper just named, the city of that street
    seen = seen_choices(param, scene)
    fact = fact_choice(param, scene)
    if changes(tool) and param in CONTACT:
        return [_new_contact(param, scene)]
    fresh = _fresh(param, scene, {repr(c.value) for c in seen})
    if changes(tool):
        return fresh + seen + ([fact] if fact else [])
    return seen + ([fact] if fact else []) + fresh


def coherent_pick(
    pick: Choice,
    tool: str,
    param: str,
    schema: Mapping[str, Any],
    chosen: Mapping[str, Choice],
    scene: Scene,
    params: frozenset[str],
) -> Choice:
    """`pick`, or the same parameter of another database value that agrees with what this
    call already holds. Candidates are kept across the attempts at a call, and a later
    attempt may take another street or the customer's own city: a zip code kept from an
    earlier attempt's address would then sit in the wrong city (the build once wrote
    "7108 Park Place, San Diego, NC"). Only values made of the call's parameters (an
    address) are held together; a record that shares a field or two with the call (a
    reservation whose time is being moved) is not; nor are ids, codes, enums, numbers and
    free text, which `param_choices` fills by their own rules."""
    if not _literal(tool, param, schema, scene):
        return pick
    for c in chosen.values():
        obj = c.context
        if (
            c.source in ("pool", "seen")
            and obj is not None
            and obj.get(param) is not None
            and _value_object(obj, params)
        ):
            # The city of the street this attempt took, whatever the kept list offers.
            same = repr(obj[param]) == repr(pick.value)
            return pick if same else Choice(obj[param], c.source, obj, c.step)
    ctx = pick.context
    if pick.source != "pool" or ctx is None or not _value_object(ctx, params):
        return pick
    held = {
        p: c.value
        for p, c in chosen.items()
        if p != param and p in ctx and (c.context is not None or c.source == "fact")
    }
    if _agrees(ctx, held):
        return pick
    for obj in scene.pools.objects.get(param, []):
        if _value_object(obj, params) and _agrees(obj, held):
            return Choice(obj[param], "pool", obj)
    return pick


def _literal(tool: str, param: str, schema: Mapping[str, Any], scene: Scene) -> bool:
    """Whether `param_choices` fills `param` as a stated literal (a street, a city): the
    parameters a database object's mates are taken for. It restates the conditions of that
    function's early returns, so the two must change together."""
    profile = scene.profile
    kind = type_of(schema)
    return not (
        param == profile.customer_param
        or tool in profile.auth_tools
        or param in profile.record_aliases
        or param in profile.known_codes
        or kind in ("array", "object", "boolean", "integer", "number")
        or is_entity_param(param)
        or bool(enum_of(schema))
        or param in FREE_TEXT
    )


def _value_object(obj: Mapping[str, Any], params: frozenset[str]) -> bool:
    """Whether a record is a value made of the call's parameters (an address: street, city,
    state, zip code) rather than a record that merely shares some of them: it has no id of
    its own, and few fields the call does not take."""
    if any(is_entity_param(k) or k in ("id", "code", "number") for k in obj):
        return False  # a record with an identity of its own, not a value
    return len(params & obj.keys()) >= 3 and len(obj.keys() - params) <= 1


def _agrees(obj: Mapping[str, Any], held: Mapping[str, Any]) -> bool:
    return all(repr(obj.get(p)) == repr(v) for p, v in held.items())


CHANGE_VERBS = ("update_", "change_", "correct_", "modify_", "set_")

CONTACT = frozenset({"email", "phone", "phone_number"})


def _new_contact(param: str, scene: Scene) -> Choice:
    """A new email or phone: made up, since a real one belongs to someone else."""
    first = scene.facts.get("first_name", "pat").lower()
    last = scene.facts.get("last_name", "lee").lower()
    n = scene.rng.randrange(10, 99)
    if param == "email":
        return Choice(f"{first}.{last}.{n}@newmail.example", "made")
    area = scene.facts.get("phone", "555-555-0100")[:3]
    area = area if area.isdigit() else "555"
    return Choice(f"{area}-555-{scene.rng.randrange(1000, 9999)}", "made")


def changes(tool: str) -> bool:
    """A write that replaces a value: it wants a new one, not the one on file."""
    return tool.startswith(CHANGE_VERBS)


def _fresh(param: str, scene: Scene, exclude: set[str]) -> list[Choice]:
    """Real values from elsewhere in the database, each with its object so that related
    parameters (street, city, zip code) are taken together."""
    out: list[Choice] = []
    objects = scene.pools.objects.get(param, [])
    for obj in _sample(objects, scene.rng, 6):
        if repr(obj[param]) not in exclude:
            out.append(Choice(obj[param], "pool", obj))
    values = [
        v
        for name in sorted(scene.profile.vocabulary.wanted_names(param))
        for v in scene.pools.get(name)
    ]
    out += [Choice(v, "pool") for v in _sample(values, scene.rng, 6) if repr(v) not in exclude]
    return out


def _object_list_choices(
    tool: str, param: str, schema: Mapping[str, Any], scene: Scene
) -> list[Choice]:
    key = f"objects:{tool}:{param}"
    if key not in scene.memo:
        scene.memo[key] = _object_lists(tool, param, schema, scene)
    return scene.memo[key]


def _object_lists(tool: str, param: str, schema: Mapping[str, Any], scene: Scene) -> list[Choice]:
    """Arrays of objects (flights, passengers, travellers): lists and single objects seen."""
    items = schema.get("items", {})
    keys: list[str] = items.get("required") or list(items.get("properties", {}))
    groups: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    singles: list[tuple[int, Mapping[str, Any]]] = []
    done: set[int] = set()
    for o in scene.obs:
        ctx = o.context
        if ctx is None or id(ctx) in done or not all(k in ctx for k in keys):
            continue
        done.add(id(ctx))
        singles.append((o.step, ctx))
        if o.group:
            groups.setdefault((o.step, o.group), []).append(ctx)
    out: list[Choice] = []
    for (step, _), ctxs in sorted(groups.items(), key=lambda kv: -kv[0][0]):
        value = [{k: c[k] for k in keys} for c in ctxs]
        if len(value) <= 6:
            out.append(Choice(value, "seen", None, step))
            # A changed list: one element replaced by a like object from another output.
            others = [c for s, c in singles if s != step]
            if others:
                i = scene.rng.randrange(len(value))
                swap = scene.rng.choice(others)
                changed = list(value)
                changed[i] = {k: swap[k] for k in keys}
                out.append(Choice(changed, "seen", swap, step))
            # A corrected list: one field of one element set to another real value.
            i = scene.rng.randrange(len(value))
            k = scene.rng.choice(keys)
            pool = [v for v in scene.pools.get(k) if v != value[i][k]]
            if pool:
                fixed = list(value)
                fixed[i] = {**value[i], k: scene.rng.choice(pool)}
                out.append(Choice(fixed, "made", None, step))
    for step, ctx in sorted(singles, key=lambda sc: -sc[0])[:12]:
        out.append(Choice([{k: ctx[k] for k in keys}], "seen", ctx, step))
    if changes(tool):
        # A change keeps the list's length and alters it: edited lists first.
        edited = [c for c in out if c.source == "made" or c.context is not None]
        lists = [c for c in edited if len(c.value) > 1 or c.source == "made"]
        return lists + [c for c in edited if c not in lists] + [c for c in out if c not in edited]
    return out


def _id_list_choices(param: str, scene: Scene, chosen: Mapping[str, Choice]) -> list[Choice]:
    """Arrays of ids (item_ids, traveller_ids): one or two siblings from one output list."""
    singles = seen_choices(param, scene)
    base = chosen.get(param.removeprefix("new_")) if param.startswith("new_") else None
    want = len(base.value) if base is not None and isinstance(base.value, list) else None
    out: list[Choice] = []
    for c in singles:
        if want in (None, 1):
            out.append(Choice([c.value], c.source, c.context, c.step, c.describe))
    groups: dict[int, list[Choice]] = {}
    for c in singles:
        groups.setdefault(c.step, []).append(c)
    for step, cs in sorted(groups.items(), key=lambda kv: -kv[0]):
        n = want or 2
        if len(cs) >= n > 1:
            pick = scene.rng.sample(cs, n)
            desc = "; ".join(p.describe for p in pick if p.describe)
            out.append(Choice([p.value for p in pick], "seen", None, step, desc))
    return out


def _catalogue_map_choices(scene: Scene) -> list[Choice]:
    """An id -> quantity basket from the most recent priced list."""
    items = [
        o
        for o in reversed(scene.obs)
        if o.key in ("id", "item_id") and o.context is not None and "price" in o.context
    ]
    if not items:
        return []
    step = items[0].step
    items = [o for o in items if o.step == step]
    out: list[Choice] = []
    for _ in range(4):
        n = min(len(items), scene.rng.choice((1, 1, 2, 2, 3)))
        pick = scene.rng.sample(items, n)
        basket = {str(o.value): scene.rng.choice((1, 1, 2)) for o in pick}
        desc = ", ".join(
            f"{q} x {describe(o.context, o.value, 1, scene.profile.vocabulary.names)}"
            for o, q in zip(pick, basket.values(), strict=True)
        )
        out.append(Choice(basket, "seen", None, step, desc))
    return out


def _number_choices(tool: str, param: str, schema: Mapping[str, Any], scene: Scene) -> list[Choice]:
    integer = type_of(schema) == "integer"
    out: list[Choice] = []
    pays = any(w in tool for w in ("pay", "claim", "refund"))
    seen = seen_choices(param, scene) if integer or pays or param != "amount" else []
    for c in seen:
        if isinstance(c.value, int | float) or _is_decimal(c.value):
            v = float(c.value)
            for d in (1, 2) if integer else (0,):
                out.append(Choice(int(v) + d if integer else v, "made", c.context, c.step))
    if not integer and param in ("amount",):
        owed = [
            Choice(abs(float(o.value)), "seen", o.context, o.step)
            for o in reversed(scene.obs)
            if o.key in MONEY_KEYS and _is_decimal(o.value) and abs(float(o.value)) > 0
        ]
        steps = [Choice(v, "made") for v in AMOUNT_STEPS]
        # Paying or claiming takes an amount the records show; a limit or a transfer a round
        # sum the customer picks.
        out += owed + steps if pays else steps
    if integer:
        out += [Choice(v, "made") for v in (1, 2, 3, 4)]
    return out


def _is_decimal(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    try:
        float(str(value))
    except ValueError:
        return False
    return isinstance(value, str) and any(ch.isdigit() for ch in value)


def handoff_summary(name: str, last_tool: str | None) -> str:
    """The summary a hand-off carries: who, and the call the conversation got to."""
    last = last_tool.replace("_", " ") if last_tool else "their account"
    return f"{name} needs help after {last}; please take over."


def customer_name(facts: Mapping[str, str]) -> str:
    """How a hand-off summary names the customer."""
    return facts.get("full_name", "the customer")


def _text(param: str, tool: str, scene: Scene) -> Choice:
    name = customer_name(scene.facts)
    return Choice(handoff_summary(name, scene.calls[-1][0] if scene.calls else None), "text")


def _enum_choices(
    param: str, enum: Sequence[Any], scene: Scene, chosen: Mapping[str, Choice]
) -> list[Choice]:
    """Schema enums; values the chosen entity lists for it (a slot's visit types) first."""
    listed: list[Any] = []
    for c in chosen.values():
        if c.context is not None:
            v = c.context.get(param + "s")
            if isinstance(v, list):
                listed += [x for x in v if x in enum]
    rest = [v for v in enum if v not in listed]
    scene.rng.shuffle(rest)
    return [Choice(v, "enum") for v in listed + rest]


def _range_choices(param: str, chosen: Mapping[str, Choice]) -> list[Choice]:
    """An integer inside the bounds the chosen entity shows (a room's min/max guests)."""
    for c in chosen.values():
        ctx = c.context
        if ctx is None:
            continue
        lo, hi = ctx.get(f"min_{param}"), ctx.get(f"max_{param}")
        if isinstance(lo, int) and isinstance(hi, int) and lo <= hi:
            mid = (lo + hi) // 2
            return [Choice(v, "made", ctx) for v in dict.fromkeys((mid, lo, hi))]
    return []


def _mutate(value: Any, rng: random.Random) -> str:
    """Same shape, new digits: an identifier nobody in the database holds."""
    return "".join(str(rng.randrange(10)) if ch.isdigit() else ch for ch in str(value))


def _sample(values: Sequence[Any], rng: random.Random, n: int) -> list[Any]:
    values = list(values)
    return rng.sample(values, min(n, len(values)))
