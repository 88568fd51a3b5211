"""Reads with a purpose: the gold keeps a lookup only when the work needs it.

A walk draws reads along with its writes, and the search grounds them all; but a gold path
that looks up the airport list before a cabin change, or a second booking nobody acts on,
asks the customer to request lookups nothing scores and teaches the agent aimless calls.
A read stays in the gold when it

- identifies the customer (the domain's identity tools: the policy wants them first);
- shows a value a later kept call uses that no earlier kept call shows (an argument chosen
  from its result; the customer's own id does not count, the identity lookup gives it, nor
  does a value made from the result, nor a plain literal such as a street or a cinema's
  name: the customer states those, so only ids and codes keep a read alive);
- reads a record that a later write acts on (the agent must see the booking before it
  changes or refuses it: the same id or code among both calls' arguments). A read that
  names a record besides the customer (an order, with the customer's id beside it) is about
  that record: a later write on the customer's account does not give it a purpose, or every
  lookup in a domain whose tools all take the customer's id would stay.

A value shown by a read of one record does not give the read a purpose for a call on
another record of the same kind: a time listed by the availability of one location, taken
for a booking at another, says nothing about the second (the customer states it).

Every other read is dropped, with its intent when that leaves the intent empty; the writer
then neither describes it nor asks the customer to want it. Reads change nothing, so the
final state and its hash stay as the search left them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.ground.fill import handoff_summary
from tau_emotion.tracer.profile import Profile
from tau_emotion.tracer.values import Choice, looks_like_id

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Grounded:
    """A task's grounded calls as the writer takes them: parallel lists, one entry a call."""

    calls: list[Call]
    results: list[str]
    choices: list[dict[str, Choice]]
    intent_of: list[int]
    challenged: int | None = None
    offer: tuple[int, str] | None = None
    """(step, words) of the alternative the customer settles for."""


def _record_keys(profile: Profile, args: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The records a call names: its customer, ids and codes, as (parameter, value)."""
    out: set[tuple[str, str]] = set()
    for param, value in args.items():
        if isinstance(value, list | dict) or value is None:
            continue
        if (
            param == profile.customer_param
            or is_entity_param(param)
            or param in profile.known_codes
        ):
            out.add((param, str(value)))
    return out


@dataclass(frozen=True)
class Purpose:
    """Which calls the gold keeps, and where a kept call's choice now finds its value."""

    keep: list[bool]
    found_at: dict[tuple[int, str], int]
    """(call, parameter) -> the earlier kept call whose result also shows the value, for a
    choice that pointed at a dropped read (a value shows in every result after it appears)."""


def _shows(result: str, value: Any) -> bool:
    return isinstance(value, str) and len(value) >= 3 and f'"{value}"' in result


def purpose(profile: Profile, grounded: Grounded) -> Purpose:
    """Which reads have a purpose (see the module's docstring). A choice records the last
    result its value was seen in, so before it keeps a read alive, an earlier kept call
    whose result shows the same value is looked for: that call is where the agent has it."""
    kinds = profile.domain.tool_kinds
    calls = grounded.calls
    keep = [kinds[name] != "read" or name in profile.auth_tools for name, _ in calls]
    written: set[str] = set()
    for step in range(len(calls) - 1, -1, -1):
        name, args = calls[step]
        keys = _record_keys(profile, args)
        if kinds[name] != "read":
            written |= {value for _, value in keys}
            continue
        looked_at = {(p, v) for p, v in keys if p != profile.customer_param} or keys
        if not keep[step] and any(value in written for _, value in looked_at):
            keep[step] = True
    found_at: dict[tuple[int, str], int] = {}
    # Backwards: only a kept call's choices keep a read alive, and a read kept that way
    # has its own choices seen to in turn (they point further back).
    for step in range(len(calls) - 1, -1, -1):
        if not keep[step]:
            continue
        for param, choice in grounded.choices[step].items():
            # The customer's own id shows in nearly every result; the identity lookup is
            # what gives it to the agent. A made value (a party of two where the lookup
            # checked one) points at the result it was made from, but the customer states
            # it, as they state every plain literal: the agent never takes it from that result.
            if param == profile.customer_param or not 0 <= choice.step < len(calls):
                continue
            if choice.source == "made" or _stated(profile, param, choice):
                continue
            if keep[choice.step] or _about_another(profile, calls[choice.step][1], calls[step][1]):
                continue
            value = calls[step][1].get(param)
            shown = [k for k in range(step) if keep[k] and _shows(grounded.results[k], value)]
            if shown:
                found_at[(step, param)] = shown[-1]
            else:
                keep[choice.step] = True
    return Purpose(keep, found_at)


def _stated(profile: Profile, param: str, choice: Choice) -> bool:
    """Whether the customer states a seen value in their own words: a plain literal (a
    cinema's name, a street, a date) or a list of them (seats), which the writer spells
    out whatever result showed it. The agent takes it from the customer, so the read that
    showed it has no purpose for it (an order read only for the address the customer then
    dictates). Ids and receipt codes are named otherwise, or described, and stay with
    their read; so do lists the writer describes (the items an exchange takes). This
    restates which values `write.clause.Writer.render` spells out: the two change together."""
    if choice.source != "seen" or choice.fact is not None or choice.describe:
        return False
    if param in profile.known_codes or is_entity_param(param):
        return False
    value = choice.value
    if isinstance(value, list):
        return bool(value) and all(_literal(item) for item in value)
    return _literal(value) and not looks_like_id(value)


def _literal(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _about_another(profile: Profile, read: Mapping[str, Any], call: Mapping[str, Any]) -> bool:
    """Whether a read names a record (besides the customer) of which the call names another
    one under the same parameter: the availability of location L1 for a booking at L2."""
    mine = dict(_record_keys(profile, call))
    return any(
        param != profile.customer_param and param in mine and mine[param] != value
        for param, value in _record_keys(profile, read)
    )


def purposeful(profile: Profile, grounded: Grounded) -> list[bool]:
    """For each call, whether the gold keeps it: every write, and the reads with a purpose."""
    return purpose(profile, grounded).keep


def without_aimless_reads(profile: Profile, grounded: Grounded, customer: str) -> Grounded:
    """The grounded calls less the reads without a purpose (see the module's docstring);
    steps the choices and the offer point at, and intent numbers, follow the calls. A
    hand-off summary naming a dropped read is retold for `customer` (`fill.customer_name`)."""
    why = purpose(profile, grounded)
    keep = why.keep
    if all(keep):
        return grounded
    new_step: dict[int, int] = {}
    for step, kept in enumerate(keep):
        if kept:
            new_step[step] = len(new_step)
    intents = sorted({grounded.intent_of[s] for s in new_step})
    new_intent = {old: new for new, old in enumerate(intents)}

    def moved(step: int, param: str, choice: Choice) -> Choice:
        if not 0 <= choice.step < len(keep):
            return choice
        if (step, param) in why.found_at:
            return replace(choice, step=new_step[why.found_at[(step, param)]])
        if keep[choice.step]:
            return replace(choice, step=new_step[choice.step])
        # The customer's id (or a choice of a dropped call): the last kept call before.
        earlier = [new_step[s] for s in range(choice.step + 1) if keep[s]]
        return replace(choice, step=earlier[-1] if earlier else -1)

    challenged = grounded.challenged
    offer = grounded.offer
    calls = [_retold(grounded, keep, s, customer) for s in new_step]
    return Grounded(
        calls=calls,
        results=[grounded.results[s] for s in new_step],
        choices=[
            {
                p: replace(moved(s, p, c), value=calls[new_step[s]][1][p])
                if c.source == "text" and p in calls[new_step[s]][1]
                else moved(s, p, c)
                for p, c in grounded.choices[s].items()
            }
            for s in new_step
        ],
        intent_of=[new_intent[grounded.intent_of[s]] for s in new_step],
        challenged=None if challenged is None else new_intent[challenged],
        offer=None if offer is None else (new_step[offer[0]], offer[1]),
    )


def _retold(grounded: Grounded, keep: Sequence[bool], step: int, customer: str) -> Call:
    """The call at `step`, its hand-off summary retold when it named a dropped read (the
    summary says which call the conversation got to; that call must still be in it)."""
    name, args = grounded.calls[step]
    out = dict(args)
    for param, choice in grounded.choices[step].items():
        if choice.source != "text" or step == 0 or keep[step - 1]:
            continue
        if out.get(param) != handoff_summary(customer, grounded.calls[step - 1][0]):
            continue
        kept = [grounded.calls[s][0] for s in range(step) if keep[s]]
        out[param] = handoff_summary(customer, kept[-1] if kept else None)
    return name, out


def aimless_reads(profile: Profile, grounded: Grounded) -> Sequence[str]:
    """Names of the reads `without_aimless_reads` drops (for reports and tests)."""
    keep = purposeful(profile, grounded)
    return [name for (name, _), kept in zip(grounded.calls, keep, strict=True) if not kept]
