"""Stage 4: the customer's side of a grounded trace, written offline from templates.

The instruction states the goal of each intent and the preferences the gold actions satisfy
(which card pays, how many bags, which showing), names no tool, and holds no internal id:
an id becomes what the customer knows about it ("your Visa ending 1234", "your line
number 702-555-3744"); receipt codes stay as they are. Alongside come the structured
`known_facts` the scripted user answers with, and one natural request per intent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tau_emotion.data import Action, Intent
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.preference import Preference
from tau_emotion.tracer.profile import FACT_KEYS, Profile
from tau_emotion.tracer.values import FREE_TEXT, Choice, humanize
from tau_emotion.tracer.write.clause import LABELS, Writer, second_person
from tau_emotion.tracer.write.outputs import outputs_of

PRESS = (
    "You feel entitled to it; if the agent says the policy does not allow it, you push back "
    "(you insist, you may ask for a supervisor or say you will take your business elsewhere) "
    "before you accept the answer, and in the end you accept it rather than leave"
)
"""How a customer asking for something the policy forbids holds out, then settles for the
refusal; how hard and how often they push is the emotion's (the scripted user's presses)."""
PRESS_OFFER = (
    "You feel entitled to it; if the agent says the policy does not allow it, you push back "
    "(you insist, you may ask for a supervisor or say you will take your business elsewhere) "
    "before you give in; in the end, rather than leave, you ask the agent to {offer}"
)
"""The same, for a customer who settles for the alternative the policy offers."""
_IDENTITY = {
    "email": "email address",
    "phone": "phone number",
    "phone_number": "phone number",
    "zip_code": "zip code",
    "date_of_birth": "date of birth",
    "full_name": "full name",
    "first_name": "full name",
    "last_name": "full name",
    "ssn_last4": "last four digits of your social security number",
    "verification_code": "one-time code texted to you",
}


@dataclass
class Written:
    """The customer's side of one task."""

    instruction: str
    known_facts: dict[str, str]
    intents: list[Intent]
    mentions: dict[str, str]
    """Gold values the text names by a description -> that description."""
    preferred: dict[str, Preference]
    """Gold values the text names by a preference -> that preference."""
    situation: str
    """What the customer has to do, in their words (see `situation_of`)."""


def situation_of(clauses: Sequence[str]) -> str:
    """The first request's goal as the customer would tell a friend ("cancel your order
    #W1"): its clauses in the 'your' form, up to the first comma or full stop, as the feel
    stage writes it into the feeling."""
    text = re.sub(r"\s+", " ", " and ".join(clauses) + ".").lstrip(" ")
    # All of the customer's words turn round ("change how I pay" -> "how you pay"), not
    # just "my": the feeling tells the customer their own situation.
    text = re.split(r"[,.](?!\d)", second_person(text), maxsplit=1)[0]
    return text.strip() or "sort out your account"


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text[0].upper() + text[1:] if text else text


def write_task_text(
    profile: Profile,
    customer_id: str,
    facts: Mapping[str, str],
    calls: Sequence[tuple[str, dict[str, Any]]],
    results: Sequence[str],
    choices: Sequence[Mapping[str, Choice]],
    intent_of: Sequence[int],
    held: frozenset[str] = frozenset(),
    challenged: int | None = None,
    offer: tuple[int, str] | None = None,
) -> Written:
    """Instruction, known facts and intents (requests, gold actions, outputs) of one task.

    Intent `challenged`, when given, asks for writes the policy forbids (`ground.challenge`):
    its request and goal name them as any other, but its gold actions are its reads only, it
    has no outputs, and the instruction says the customer pushes when refused, then accepts.
    `offer` is (step, words) of the alternative they settle for, when the policy offers one:
    that write is the intent's gold, and only the words say it."""
    writer = Writer(profile, customer_id, facts, calls, choices, results, held)
    kinds = profile.domain.tool_kinds
    n_intents = max(intent_of) + 1
    name = facts.get("full_name", "a customer")
    writer.known["full_name"] = name
    goals: list[str] = []
    intents: list[Intent] = []
    situation = ""
    for k in range(n_intents):
        steps = [i for i, x in enumerate(intent_of) if x == k]
        offered = offer[0] if offer is not None and k == challenged else None
        acts = [i for i in steps if kinds[calls[i][0]] != "read" and i != offered]
        you = [writer.clause(i, mine=False) for i in acts]
        me = [writer.clause(i, mine=True) for i in acts]
        outputs: list[str] = []
        asks: list[str] = []
        for i in acts if k != challenged else []:
            said, words = outputs_of(results[i])
            outputs += said
            if words and words not in asks:
                asks.append(words)
        reason = writer.reason(acts) if k != challenged else None
        goal = " and to ".join(you)
        if reason is not None:
            goal += f", because {second_person(reason)}"
        if asks:
            goal += f", and you want to know {' and '.join(asks)}"
        if k == challenged:
            press = PRESS
            if offer is not None:
                press = PRESS_OFFER.format(offer=second_person(offer[1]))
            goal += f". {press}"
        goals.append(goal)
        if k == 0:
            situation = situation_of(me)
        opener = "Hi, I'd like to" if k == 0 else "Also, I'd like to"
        request = f"{opener} {' and '.join(me)}"
        request += f", because {reason}." if reason is not None else "."
        intents.append(
            Intent(
                request=_sentence(request),
                actions=[
                    Action(name=calls[i][0], arguments=calls[i][1])
                    for i in steps
                    if k != challenged or i not in acts
                ],
                outputs=outputs,
            )
        )
    _identity_facts(writer, calls, choices, profile)
    parts = [f"You are {name}."]
    if len(goals) == 1:
        parts.append(f"You want to {goals[0]}.")
    else:
        order = ["First", "Then", "After that", "Finally"][: len(goals)]
        if len(goals) > 2:
            order[-1] = "Finally"
        for word, goal in zip(order, goals, strict=True):
            parts.append(f"{word}, you want to {goal}.")
    parts += _lookups(writer, " ".join(parts), intent_of)
    parts.append(_identity_sentence(writer.known))
    parts.append("You agree to exactly these changes when the agent asks you to confirm.")
    return Written(
        instruction=" ".join(_sentence(p) for p in parts if p),
        known_facts=dict(writer.known),
        intents=intents,
        mentions=dict(writer.mentions),
        preferred=dict(writer.preferred),
        situation=situation,
    )


def _lookups(writer: Writer, text: str, intent_of: Sequence[int]) -> list[str]:
    """Sentences for what the customer asks about along the way: a lookup's arguments that
    the goals do not already state (a route they also want to see, a second booking)."""
    profile = writer.profile
    kinds = profile.domain.tool_kinds
    said = text.lower()
    out: list[str] = []
    for step, (name, args) in enumerate(writer.calls):
        if kinds[name] != "read" or name in profile.auth_tools:
            continue
        bits: list[str] = []
        codes_only = True
        for param, choice in writer.choices[step].items():
            value = args.get(param)
            if param == profile.customer_param or param in FREE_TEXT or value is None:
                continue
            if choice.source in ("fact", "customer"):
                continue  # identity details the customer gives when asked
            if isinstance(value, list | dict) or is_entity_param(param):
                if param not in profile.known_codes or str(value).lower() in said:
                    continue
            elif str(value).lower() in said or humanize(value).lower() in said:
                continue
            text = writer.render(param, choice, "your")
            literal = not (param in profile.known_codes or is_entity_param(param))
            bits.append(f"{LABELS.get(param, param).replace('_', ' ')} {text}" if literal else text)
            codes_only = codes_only and param in profile.known_codes
            said += " " + str(value).lower()
        if bits and codes_only:
            out.append(f"You also want to check on {' and '.join(bits)}.")
        elif bits:
            topic = name.split("_", 1)[-1].replace("_", " ")
            out.append(f"You also want to know about {topic} ({', '.join(bits)}).")
    return out


def _identity_facts(
    writer: Writer,
    calls: Sequence[tuple[str, dict[str, Any]]],
    choices: Sequence[Mapping[str, Choice]],
    profile: Profile,
) -> None:
    """Facts the customer gave to be identified or verified (email, date of birth...)."""
    for (_, args), chosen in zip(calls, choices, strict=True):
        for param, choice in chosen.items():
            if choice.source != "fact" or choice.fact is None:
                continue
            key = FACT_KEYS.get(choice.fact, choice.fact)
            if key in ("first_name", "last_name"):
                continue
            writer.known.setdefault(key, str(args[param]))


def _identity_sentence(known: Mapping[str, str]) -> str:
    said = [
        f"your {_IDENTITY[k]} is {v}"
        for k, v in known.items()
        if k in _IDENTITY and k not in ("full_name", "first_name", "last_name")
    ]
    if not said:
        return ""
    return "If the agent asks, " + "; ".join(said) + "."
