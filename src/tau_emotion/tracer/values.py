"""Values seen in tool outputs and records, and which tool parameters they can fill.

A tool result is flattened into observations: every scalar leaf, with the names of the
parameters it can fill and the object that holds it (to describe the value the way a
customer would: "Visa ending 1234", not "pm_1234"). Matching is by name, the interface rule
of the issue: a key in A's result that matches a parameter of B. A leaf's names are its key,
plus the owner's noun for generic keys (``reservations[].code`` -> ``reservation_code``,
``payment_methods[].id`` -> ``payment_method_id``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

_VERBS = ("get_", "list_", "search_", "find_", "check_", "quote_", "verify_", "send_")
_GENERIC_KEYS = frozenset({"id", "code", "number", "name"})
# Parameter-name prefixes that name a second entity of a kind the output already names.
_PREFIXES = ("new_", "from_", "to_", "other_", "old_")
# Parameter names whose values a tool shows under another key.
ALIASES: Mapping[str, tuple[str, ...]] = {
    "drug_name": ("drug",),
    "phone_number": ("phone",),
    "phone": ("phone_number",),
    "txn_id": ("transaction_id",),
    "camper_name": ("camper",),
    "refund_method_id": ("payment_method_id", "method_id"),
    "payment_method_id": ("method_id",),
    "time": ("available_time",),
    "start": ("open_slot",),
}


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tool_noun(tool: str) -> str:
    """The entity a tool's top-level result describes: get_reservation_details -> reservation."""
    name = tool
    for verb in _VERBS:
        if name.startswith(verb):
            name = name[len(verb) :]
            break
    name = re.sub(r"_(details|by_.*|overview|record|availability)$", "", name)
    return singular(name.split("_")[-1]) if name else tool


def leaf_names(key: str, owner: str | None) -> tuple[str, ...]:
    """Parameter names a leaf can fill, from its key and its owner's noun."""
    names = [key]
    if owner and key in _GENERIC_KEYS:
        # A camp_registration's id fills registration_id too; a ticket_order's, order_id.
        for noun in dict.fromkeys((owner, owner.split("_")[-1])):
            names.append(f"{noun}_{key}")
            if key == "id":
                names.append(f"{noun}_code")
    if owner and key.endswith("_ids"):
        names.append(key[:-1])
    return tuple(dict.fromkeys(names))


def list_item_names(list_key: str) -> tuple[str, ...]:
    """Names of a scalar inside a list: reservations -> reservation, reservation_code, ..."""
    if list_key.endswith("_ids"):
        return (list_key[:-1],)
    one = singular(list_key)
    return (one, f"{one}_id", f"{one}_code", f"{one}_number")


@dataclass(frozen=True)
class Obs:
    """One scalar seen in a tool result (or a record), with what it can fill."""

    key: str
    names: tuple[str, ...]
    value: Any
    context: Mapping[str, Any] | None
    group: str
    """Path of the list that holds the context object ('' when not in a list)."""
    step: int
    """Index of the call that produced it; -1 for the customer's record."""
    owner: str = ""
    """Noun of the object that holds it (a list's item, or the tool's entity)."""


FREE_TEXT = frozenset({"summary", "description"})
"""Parameters the customer fills in their own words (a complaint's summary), never a value
from a record: grounding writes them, the writer and validation leave them out of the facts."""


@dataclass(frozen=True)
class Choice:
    """One candidate value for one parameter, and where it came from.

    Grounding ranks and picks these; the writer reads the picked ones to tell the customer's
    side. It lives here, beside `Obs`, rather than in `ground/`, because both stages use it
    and the ground stage calls the writer: the writer importing from `ground/` was a cycle.
    """

    value: Any
    source: str
    """customer | fact | code | seen | enum | pool | made | text"""
    context: Mapping[str, Any] | None = None
    step: int = -1
    describe: str = ""
    """How the customer names it when the value itself is internal ('' otherwise)."""
    fact: str | None = None
    """known_facts key, when the customer states the value."""


def observe(data: Any, step: int, owner: str) -> list[Obs]:
    """Flatten a parsed tool result into observations."""
    out: list[Obs] = []

    def walk(node: Any, noun: str, group: str, ctx: Mapping[str, Any] | None, key: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, dict | list):
                    walk(v, singular(k), f"{group}.{k}", node, k)
                else:
                    out.append(Obs(k, leaf_names(k, noun), v, node, group, step, noun))
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, dict):
                    walk(item, noun, group, item, key)
                elif not isinstance(item, list):
                    out.append(Obs(key, list_item_names(key), item, ctx, group, step, noun))

    walk(data, owner, "", None, owner)
    return out


def parse_result(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


@dataclass
class Vocabulary:
    """How one domain names things: the generic aliases and name keys below, plus those the
    domain declares (`TracerSpec.param_aliases`, `TracerSpec.name_keys`)."""

    aliases: Mapping[str, tuple[str, ...]]
    names: tuple[str, ...]
    _wanted: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def extended(cls, aliases: Mapping[str, tuple[str, ...]], names: tuple[str, ...]) -> Vocabulary:
        return cls({**ALIASES, **aliases}, (*_NAMES, *names))

    def wanted_names(self, param: str) -> frozenset[str]:
        """Observation names that can fill a parameter (by name, the interface rule)."""
        if param not in self._wanted:
            bases = {param}
            for prefix in _PREFIXES:
                if param.startswith(prefix):
                    bases.add(param[len(prefix) :])
            wanted = set(bases)
            for base in bases:
                if base.endswith("_ids"):
                    wanted.add(base[:-1])
            for name in list(wanted):
                wanted.update(self.aliases.get(name, ()))
            self._wanted[param] = frozenset(wanted)
        return self._wanted[param]

    def param_matches(self, param: str, obs: Obs) -> bool:
        """Whether an observation can fill a parameter."""
        wanted = self.wanted_names(param)
        return any(n in wanted for n in obs.names)


# --- describing a value the way its owner would -------------------------------------------------

# Keys that name a thing, in the order a customer would reach for them.
_NAMES = (
    "label",
    "name",
    "title",
    "full_name",
    "product",
    "drug",
    "course",
    "model",
    "nickname",
    "phone_number",
    "description",
    "opponent",
    "provider_name",
    "plan_name",
    "plan",
)
# Keys that place it in time or otherwise tell two of a kind apart.
_DETAILS = (
    "payer",
    "date_of_birth",
    "start",
    "starts_at",
    "game_start",
    "date",
    "start_date",
    "visit_date",
    "posted_on",
    "placed",
    "placed_on",
    "period",
    "due_on",
    "due_date",
    "origin",
    "destination",
    "last4",
    "number_last4",
    "kind",
    "zone",
    "size",
    "seat",
    "amount",
    "total",
    "price",
    "balance",
)
_PHRASE = {
    "date_of_birth": "born {v}",
    "payer": "from {v}",
    "last4": "ending {v}",
    "number_last4": "ending {v}",
    "phone_number": "number {v}",
    "start": "on {v}",
    "starts_at": "on {v}",
    "game_start": "on {v}",
    "date": "on {v}",
    "start_date": "starting {v}",
    "visit_date": "on {v}",
    "posted_on": "posted {v}",
    "placed": "placed {v}",
    "placed_on": "placed {v}",
    "due_on": "due {v}",
    "due_date": "due {v}",
    "origin": "from {v}",
    "destination": "to {v}",
    "amount": "for {v}",
    "total": "total {v}",
    "price": "price {v}",
    "balance": "balance {v}",
    "opponent": "against {v}",
    "provider_name": "with {v}",
    "period": "for {v}",
    "status": "{v}",
}
_ID_LIKE = re.compile(r"^[A-Za-z]{1,5}[-_]?[A-Za-z]*\d{2,}[\w-]*$")


def looks_like_id(value: Any) -> bool:
    return isinstance(value, str) and bool(_ID_LIKE.match(value)) and " " not in value


def humanize(value: Any) -> str:
    """How a value reads in a sentence: enums lose their underscores, times their 'T'."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.2f}"
    text = str(value)
    if re.fullmatch(r"[a-z]+(_[a-z0-9]+)+", text):
        return text.replace("_", " ")
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?", text)
    if m:
        return f"{m.group(1)} at {m.group(2)}"
    return text


_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def spoken_dates(value: str) -> list[str]:
    """How a customer may say an ISO date instead ("June 3", "June 3rd", "3 June"), lower
    case; none for anything else. The agent turns them back into the date the tools take."""
    m = re.fullmatch(r"\d{4}-(\d{2})-(\d{2})", value)
    if not m or not 1 <= int(m.group(1)) <= 12:
        return []
    month, day = _MONTHS[int(m.group(1)) - 1], int(m.group(2))
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    nth = f"{day}{suffix}"
    return [f"{month} {nth}", f"{month} {day}", f"{day} {month}", f"{nth} of {month}"]


def _usable(v: Any, value: Any) -> bool:
    if v is None or v == value or isinstance(v, dict | list | bool) or looks_like_id(v):
        return False
    return not (isinstance(v, str) and (not v.strip() or len(v) > 80))


def describe(
    context: Mapping[str, Any] | None,
    value: Any,
    limit: int = 3,
    names: tuple[str, ...] = _NAMES,
) -> str:
    """A customer's words for the entity that holds `value` ('' when nothing describes it):
    its name (the first of `names` it has), then a variant's options and what places it (a
    date, a route), e.g. 'Harbor Lights on 2025-06-18 at 16:00', 'Visa ending 1234', 'from
    DEN to LAX', 'Rain Jacket in size L and color black'."""
    if not context:
        return ""
    if isinstance(context.get("brand"), str) and context.get("last4") and not context.get("label"):
        return f"{context['brand']} ending {context['last4']}"
    parts: list[str] = []
    named = False
    for key in names:
        v = context.get(key)
        if _usable(v, value):
            parts.append(_PHRASE.get(key, "{v}").format(v=humanize(v)))
            named = True
            break
    if named and key == "label":
        return parts[0]
    options = option_values(context)
    if options:
        parts.append(f"in {options_phrase(options)}")
    for key in _DETAILS:
        if len(parts) >= (2 if named else limit):
            break
        v = context.get(key)
        if _usable(v, value):
            parts.append(_PHRASE.get(key, "{v}").format(v=humanize(v)))
    return " ".join(parts)


def option_values(context: Mapping[str, Any] | None) -> dict[str, str]:
    """A variant's options as the customer names them ({"size": "L", "color": "black"}):
    the record's `options` when it is a mapping of short scalars, else none."""
    options = (context or {}).get("options")
    if not isinstance(options, dict) or not options:
        return {}
    if not all(isinstance(v, str | int | float) and len(str(v)) <= 40 for v in options.values()):
        return {}
    return {str(k): humanize(v) for k, v in options.items()}


def options_phrase(options: Mapping[str, str]) -> str:
    """'size L and color black': which variant, by what tells it from its siblings."""
    return " and ".join(f"{k} {v}" for k, v in options.items())


# --- scalar leaves of records (DB pools, the customer's record) ----------------------------------


def is_scalar(value: Any) -> bool:
    """A set leaf of a record: not missing, not a nested object or list."""
    return value is not None and not isinstance(value, dict | list)


def scalars(value: Any, keys: bool = False) -> Iterator[Any]:
    """Every scalar in a JSON-like value (None and booleans left out), depth first; with
    `keys`, each dict key before its value too (validation looks for ids in either)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if keys:
                yield k
            yield from scalars(v, keys)
    elif isinstance(value, list):
        for v in value:
            yield from scalars(v, keys)
    elif value is not None and not isinstance(value, bool):
        yield value


def leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(key, value) of every scalar in a JSON-like structure."""
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, dict | list):
                yield from leaves(v, k)
            else:
                yield k, v
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict | list):
                yield from leaves(item, prefix)
            else:
                yield prefix, item


@dataclass
class Pools:
    """Distinct values per key over a whole database, in first-seen order (deterministic),
    and a sample of the objects that hold them (so an address's street, city and zip code
    can be taken together)."""

    values: dict[str, list[Any]] = field(default_factory=dict)
    objects: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Key -> objects (nested records) holding it with at least one other scalar."""
    limit: int = 400

    def add(self, key: str, value: Any) -> None:
        bucket = self.values.setdefault(key, [])
        if len(bucket) < self.limit and value not in bucket:
            bucket.append(value)

    def add_object(self, obj: dict[str, Any]) -> None:
        scalars = [k for k, v in obj.items() if is_scalar(v)]
        if len(scalars) < 2:
            return
        for k in scalars:
            bucket = self.objects.setdefault(k, [])
            if len(bucket) < 60:
                bucket.append(obj)

    def get(self, key: str) -> list[Any]:
        return self.values.get(key, [])


def nested_objects(data: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside a JSON-like structure, the structure itself included."""
    if isinstance(data, dict):
        yield data
        for v in data.values():
            yield from nested_objects(v)
    elif isinstance(data, list):
        for v in data:
            yield from nested_objects(v)
