"""How a customer names a value and tells one goal: the writer's words for one task.

`Writer` turns a grounded call into a clause in the customer's voice: an id becomes what the
customer knows about it ("your Visa ending 1234"), a receipt code stays as it is, a value
picked from a public list becomes the preference that picks it ("the earliest slot
available"), and a transfer says what it is about and why. It records, as it goes, the facts
the customer holds, the values the text names by a description, and those it names by a
preference. The stage (`tracer.write`) puts the clauses together into the instruction.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from tau_emotion.data import Action
from tau_emotion.tracer.declaration import Phrase, TransferReason
from tau_emotion.tracer.declaration import (
    slot as slot,
)  # its home; the writer's tests import it here
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.preference import Preference, preference_of
from tau_emotion.tracer.profile import FACT_KEYS, Profile
from tau_emotion.tracer.values import FREE_TEXT, Choice, humanize, looks_like_id, parse_result
from tau_emotion.tracer.variant import relative_variant

TRANSFER: Phrase = (
    "speak to a human agent about {about}",
    "talk to a human agent about {about}",
)
"""How a customer asks for a transfer, in every domain (`TracerSpec.phrases` the rest)."""
_SUFFIX = re.compile(r"_(id|ids|code|number)$")
_NOUNS = {"txn": "transaction", "addon": "add-on", "new_plan": "plan", "pass": "season pass"}
_PAY = {
    "payment_method_id": "paying with your {d}",
    "refund_method_id": "with the refund going to your {d}",
    "guarantee_payment_method_id": "holding the booking with your {d}",
    "certificate_id": "using your {d}",
}
_CODE_NOUNS = {"member_id": "member id"}
_DETAIL = {"to_account_id": "into {d}", "payee_id": "to {d}"}
LABELS = {"line1": "street", "line2": "address line 2", "street": "street"}
_SECOND_PERSON = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "i'm": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
}
_PERSON_WORD = re.compile(r"\b(?:i'm|i've|i'd|i'll|i am|i was|i|me|my|mine|myself)\b", re.I)


def second_person(text: str) -> str:
    """A customer's first-person words as the instruction tells them to the customer ("my
    trip has started" -> "your trip has started"); "we" and "our" stay, as a family's."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0).lower()
        if word == "i am":
            return "you are"
        if word == "i was":
            return "you were"
        return _SECOND_PERSON[word]

    return _PERSON_WORD.sub(swap, text)


def noun(param: str) -> str:
    base = _SUFFIX.sub("", param)
    for prefix in ("new_", "from_", "to_", "other_"):
        base = base.removeprefix(prefix)
    return _NOUNS.get(base, base.replace("_", " "))


def _owned(
    choice: Choice, calls: Sequence[tuple[str, Mapping[str, Any]]], public: set[str]
) -> bool:
    """Whether the value came from the customer's own records, not a public catalogue (a
    lookup that needs no entity: the plan list, a flight search)."""
    if choice.source == "code":
        return True
    if 0 <= choice.step < len(calls):
        return calls[choice.step][0] not in public
    return True


class Writer:
    """Writes one task's text from its grounded calls."""

    def __init__(
        self,
        profile: Profile,
        customer_id: str,
        facts: Mapping[str, str],
        calls: Sequence[tuple[str, dict[str, Any]]],
        choices: Sequence[Mapping[str, Choice]],
        results: Sequence[str] = (),
        held: frozenset[str] = frozenset(),
    ) -> None:
        self.results = list(results) or [""] * len(calls)
        self.public = public_lookups(profile)
        self.held = held
        """Codes the customer holds before the conversation."""
        self.profile = profile
        self.customer_id = customer_id
        self.facts = facts
        self.calls = calls
        self.choices = choices
        self.known: dict[str, str] = {}
        self.mentions: dict[str, str] = {}
        self.preferred: dict[str, Preference] = {}
        """Gold values the text names by a preference (`preference`) -> that preference."""

    # --- one value ---------------------------------------------------------------------------
    def _code_fact(self, key: str, value: str) -> str:
        """The known_facts key for a code; a second one of a kind gets an 'other_' key."""
        for k, v in self.known.items():
            if v == value:
                return k
        name, n = key, 1
        while name in self.known:
            n += 1
            name = f"other_{key}" if n == 2 else f"{key}_{n}"
        self.known[name] = value
        return name

    def render(self, param: str, choice: Choice, pos: str) -> str:
        """How the customer names one argument value."""
        value = choice.value
        if choice.fact is not None and param in self.profile.known_codes:
            if self._created(choice):
                return f"the new {noun(param)}"
            self._code_fact(choice.fact, str(value))
            return f"{pos} {_CODE_NOUNS.get(param, noun(param))} {value}"
        if choice.fact is not None:
            self.known.setdefault(FACT_KEYS.get(choice.fact, choice.fact), str(value))
            return humanize(value)
        if isinstance(value, list):
            return self._render_list(param, choice)
        if isinstance(value, dict):
            self.mentions[repr(value)] = choice.describe
            return choice.describe or ", ".join(f"{q} x {k}" for k, q in value.items())
        if is_entity_param(param) or looks_like_id(value):
            preferred = self._preference(choice)
            phrase = self._preferred_phrase(preferred, param, choice, pos) if preferred else None
            if preferred is not None and phrase is not None:
                self.mentions[str(value)] = phrase
                self.preferred[str(value)] = preferred
                return phrase
            desc = choice.describe
            if desc:
                self.mentions[str(value)] = desc
                if param in _PAY:
                    return desc
                if _owned(choice, self.calls, self.public):
                    return f"{pos} {noun(param)} ({desc})"
                return desc
            return str(value)
        return humanize(value)

    def _replacement(self, param: str, choice: Choice, chosen: Mapping[str, Choice]) -> str:
        """'the same Rain Jacket in size S' for a `new_` value that replaces the record its
        base parameter names (`variant.relative_variant`); '' when it cannot be named so."""
        base = chosen.get(param.removeprefix("new_")) if param.startswith("new_") else None
        value = choice.value
        if isinstance(value, list):
            value = value[0] if len(value) == 1 else None
        if base is None or value is None or not 0 <= choice.step < len(self.results):
            return ""
        found = relative_variant(
            base.context, choice.context, parse_result(self.results[choice.step])
        )
        if found is None:
            return ""
        phrase, difference = found
        self.mentions[str(value)] = difference
        return phrase

    def _preference(self, choice: Choice) -> Preference | None:
        """The preference that pins a value from a public lookup down (the earliest slot it
        lists), if any: a customer asks for that, not for a record they have not seen."""
        if choice.source != "seen" or _owned(choice, self.calls, self.public):
            return None
        if not 0 <= choice.step < len(self.results):
            return None
        return preference_of(choice.value, parse_result(self.results[choice.step]))

    def _preferred_phrase(
        self, preferred: Preference, param: str, choice: Choice, pos: str
    ) -> str | None:
        """'the earliest slot available (provider: Kevin Mensah, date: 2025-03-12)': the
        preference, with the lookup's filters that say which list it is the end of; None
        when a filter is a record the customer cannot name (the list would be another)."""
        args = self.calls[choice.step][1]
        chosen = self.choices[choice.step]
        details = []
        for p in args:
            if p == self.profile.customer_param or p not in chosen or p in FREE_TEXT:
                continue
            value = chosen[p].value
            if (is_entity_param(p) or looks_like_id(value)) and not chosen[p].describe:
                # A filter on a record the customer names by the name the listed record
                # carries beside its id (a slot's provider_name beside its provider_id).
                record = choice.context or {}
                fields = [f"{p.removesuffix('_id')}_{kind}" for kind in ("name", "title")]
                name = next((record[f] for f in fields if f in record), None)
                if record.get(p) != value or not isinstance(name, str) or not name:
                    return None
                self.mentions.setdefault(str(value), name)
                details.append(self._detail(p, name, pos))
                continue
            details.append(self._detail(p, self.render(p, chosen[p], pos), pos))
        phrase = f"the {preferred} {noun(param)} available"
        return phrase + (f" ({', '.join(details)})" if details else "")

    def _created(self, choice: Choice) -> bool:
        """Whether a code first appeared in the result of a write of this task (a booking
        just made): the customer cannot know it in advance."""
        value = str(choice.value)
        if value in self.held or choice.step < 0:
            return False
        for (name, _), text in zip(self.calls, self.results, strict=True):
            if value in text:
                return self.profile.domain.tool_kinds[name] == "write"
        return False

    def _render_list(self, param: str, choice: Choice) -> str:
        items = choice.value
        if all(isinstance(i, dict) for i in items):
            return "; ".join(_render_object(i) for i in items)
        if choice.describe:
            for v in items:
                self.mentions[str(v)] = choice.describe
            return choice.describe
        return ", ".join(humanize(v) for v in items)

    # --- one action --------------------------------------------------------------------------
    def _entity(self, action: Action, chosen: Mapping[str, Choice]) -> str | None:
        for param in action.arguments:
            if param in self.profile.known_codes and param in chosen:
                return param
        for param in action.arguments:
            if param in _PAY or param == self.profile.customer_param:
                continue
            if is_entity_param(param):
                return param
        return None

    def clause(self, step: int, mine: bool) -> str:
        """The goal ('you' form) or request ('I' form) of one write or transfer."""
        name, args = self.calls[step]
        chosen = self.choices[step]
        pos = "my" if mine else "your"
        action = Action(name=name, arguments=args)
        if self.profile.domain.tool_kinds[name] == "terminal":
            about = (TRANSFER[1] if mine else TRANSFER[0]).format(about=self._about(step, pos))
            situation = self.transfer_reason(step).situation
            return f"{about}, because {situation if mine else second_person(situation)}"
        goal, request = self.profile.spec.phrases.get(name, self._fallback(name))
        template = request if mine else goal
        slots: dict[str, str] = {}
        said: set[str] = set()  # slots a preference phrase took out of the template
        entity = self._entity(action, chosen)
        swaps: dict[str, str] = {}  # a replaced record's param -> its replacement's
        for param, choice in chosen.items():
            if param == self.profile.customer_param or param in FREE_TEXT:
                continue
            key = slot(param, self.profile.known_codes)
            slots[key] = self._replacement(param, choice, chosen)
            if slots[key]:
                swaps[param.removeprefix("new_")] = param
            else:
                slots[key] = self.render(param, choice, pos)
            if param == entity:
                slots["entity"] = slots[key]
            if str(choice.value) in self.preferred:
                fitted = _fit(template, key, slots[key], noun(param))
                if fitted != template:
                    template, said = fitted, {*said, key}
        used = said | set(re.findall(r"\{(\w+)\}", template))
        text = template.format_map(_Slots(slots))
        details = []
        for param in chosen:
            key = slot(param, self.profile.known_codes)
            if param == self.profile.customer_param or param in FREE_TEXT or key in used:
                continue
            if param == entity and "entity" in used:
                continue
            if param in swaps and slot(swaps[param], self.profile.known_codes) not in used:
                continue  # told with its replacement: "your jacket ... for the same one in S"
            base = slot(param.removeprefix("new_"), self.profile.known_codes)
            if param in swaps.values() and base not in used:
                details.append(f"{slots[base]} for {slots[key]}")
                continue
            if slots.get(key, "").strip():
                details.append(self._detail(param, slots[key], pos))
        return text + ("" if not details else ", " + ", ".join(details))

    def reason(self, steps: Sequence[int]) -> str | None:
        """Why the customer wants an intent's writes: one of the domain's reasons for its first
        write with any, picked by the customer and the step; None when none has any."""
        for step in steps:
            name = self.calls[step][0]
            said = self.profile.spec.reasons.get(name, ())
            if said:
                return said[zlib.crc32(f"{self.customer_id}/{step}/{name}".encode()) % len(said)]
        return None

    def transfer_reason(self, step: int) -> TransferReason:
        """The out-of-scope situation a transfer at `step` is for: one of the domain's, picked
        by the customer and the step (stable across builds, varied across tasks)."""
        reasons = self.profile.spec.transfer_reasons
        if not reasons:
            raise ValueError(f"{self.profile.name} declares no transfer_reasons")
        return reasons[zlib.crc32(f"{self.customer_id}/{step}".encode()) % len(reasons)]

    def _detail(self, param: str, rendered: str, pos: str) -> str:
        if param in _PAY:
            return _PAY[param].format(d=rendered).replace("your", pos)
        if param in _DETAIL:
            return _DETAIL[param].format(d=rendered)
        label = noun(param) if is_entity_param(param) else LABELS.get(param, param)
        return f"{label.replace('_', ' ')}: {rendered}"

    def _about(self, step: int, pos: str) -> str:
        """What a transfer is about: the last record of the customer's own that the
        conversation looked at (a receipt code first), else their account."""
        owned: list[tuple[str, Choice]] = []
        for earlier in range(step - 1, -1, -1):
            for param, choice in self.choices[earlier].items():
                if param == self.profile.customer_param or param in _PAY:
                    continue
                if param in self.profile.known_codes and choice.fact is not None:
                    return self.render(param, choice, pos)
                described = is_entity_param(param) and choice.describe
                if described and _owned(choice, self.calls, self.public):
                    owned.append((param, choice))
        if owned:
            return self.render(*owned[0], pos)
        return f"{pos} account"

    @staticmethod
    def _fallback(name: str) -> tuple[str, str]:
        words = name.replace("_", " ")
        return (f"have the agent {words}", f"ask you to {words}")


def _render_object(item: Mapping[str, Any]) -> str:
    """A person as 'Ana Lee (born 1990-01-02)', a flight as 'LK101 on 2025-06-20'."""
    name = item.get("full_name") or " ".join(
        str(item[k]) for k in ("first_name", "last_name") if item.get(k)
    )
    if name:
        born = item.get("date_of_birth")
        return f"{name} (born {born})" if born else str(name)
    if "flight_number" in item:
        return f"{item['flight_number']} on {item.get('date', '')}".strip()
    return ", ".join(humanize(v) for v in item.values())


def public_lookups(profile: Profile) -> set[str]:
    """Reads that need no entity: catalogues and searches anyone may run."""
    return {n.name for n in profile.graph.nodes if n.role == "read" and not n.needs}


_PREPOSITIONS = frozenset({"to", "for", "into", "onto", "at", "on", "with", "from", "in"})


def _fit(template: str, key: str, phrase: str, thing: str) -> str:
    """The template with a preference phrase where it names the value, fitted to the words
    around it: 'add the {addon}' -> 'add the cheapest addon available', 'to the {new_plan}
    plan' -> 'to the cheapest plan available', 'a video visit {slot}' -> 'a video visit in
    the earliest slot available'. A template that names it otherwise is left as it is."""
    for name in (key, "entity"):
        found = re.search(rf"(\S+ )?(the )?\{{{name}\}}( {re.escape(thing)}\b)?", template)
        if found is not None:
            break
    else:
        return template
    before = (found.group(1) or "").strip()
    said = phrase.replace("{", "{{").replace("}", "}}")
    if found.group(2) is None and before and before not in _PREPOSITIONS and found.start() > 0:
        said = "in " + said  # after a noun ('a video visit'), not a verb or a preposition
    return template[: found.start()] + (found.group(1) or "") + said + template[found.end() :]


class _Slots(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "it"
