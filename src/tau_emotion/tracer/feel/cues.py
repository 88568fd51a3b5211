"""How a customer plausibly feels, written offline from the request alone (never the database).

The text is in the second person ("You have to cancel your order, and you feel let down"),
like the conditions' own descriptions, so the mapper reads it in its own terms.

The kind of request sets the likely emotions: losing something (a cancellation, a refund, a
dispute) brings frustration or disappointment; a disrupted or lost thing brings anxiety; a
complaint about quality brings distaste; a new booking or an upgrade brings excitement; an
urgent change brings nervousness. A seeded choice picks one, and the wording varies: an
emotion phrase, the situation in the customer's words, and cues for how polite, hurried and
trusting they are.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tau_emotion.emotions.space import Emotion as E

# Request kinds: which words in a tool name or an argument value signal them.
KIND_WORDS: Mapping[str, tuple[str, ...]] = {
    "grief": ("bereavement", "family_emergency", "funeral"),
    "alarm": ("lost", "stolen", "fraud", "unauthorized", "suspend", "freeze", "emergency"),
    "complaint": (
        "complaint",
        "incident",
        "damaged",
        "quality",
        "wrong",
        "late_delivery",
        "dispute",
        "not_received",
    ),
    "loss": (
        "cancel",
        "refund",
        "return",
        "reverse",
        "waive",
        "claim",
        "compensation",
        "credit",
        "drop",
        "release",
    ),
    "handoff": ("transfer_to_human",),
    "money": ("pay", "payment_plan", "transfer_funds", "autopay", "limit"),
    "gain": (
        "book",
        "buy",
        "purchase",
        "register",
        "enroll",
        "upgrade",
        "add",
        "order",
        "waitlist",
        "insurance",
        "voucher",
        "pass",
        "create",
        "place",
    ),
    "fix": (
        "change",
        "modify",
        "update",
        "correct",
        "reschedule",
        "exchange",
        "move",
        "reactivate",
        "reset",
        "unlock",
        "swap",
        "replace",
        "report",
        "open_ticket",
        "set",
    ),
}
KIND_ORDER = ("grief", "alarm", "complaint", "handoff", "loss", "money", "gain", "fix")

KIND_EMOTIONS: Mapping[str, tuple[E, ...]] = {
    "grief": (E.SORROW, E.HOPELESSNESS, E.HELPLESSNESS, E.DISCOURAGEMENT),
    "alarm": (E.ANXIETY, E.DREAD, E.DESPERATION, E.NERVOUSNESS, E.FRUSTRATION),
    "complaint": (E.DISTASTE, E.DISLIKE, E.AVERSION, E.REPUGNANCE, E.ANNOYANCE, E.BITTERNESS),
    "loss": (
        E.FRUSTRATION,
        E.DISAPPOINTMENT,
        E.ANNOYANCE,
        E.EXASPERATION,
        E.DISCOURAGEMENT,
        E.BITTERNESS,
        E.ARGUMENTATIVENESS,
        E.RELIEF,
    ),
    "handoff": (
        E.EXASPERATION,
        E.DESPERATION,
        E.HOPELESSNESS,
        E.ARGUMENTATIVENESS,
        E.FRUSTRATION,
        E.AVERSION,
    ),
    "money": (E.ANXIETY, E.HELPLESSNESS, E.RELIEF, E.NERVOUSNESS, E.PEACE, E.PRIDE),
    "gain": (E.EXCITEMENT, E.PRIDE, E.PEACE, E.RELIEF, E.NERVOUSNESS),
    "fix": (E.ANNOYANCE, E.NERVOUSNESS, E.ANXIETY, E.FRUSTRATION, E.PEACE, E.DISLIKE, E.RELIEF),
    # A request the policy will refuse: mostly anger and sadness at being told no, though
    # anyone can bring it (an anxious or hopeful customer asks too).
    "refused": (
        E.FRUSTRATION,
        E.EXASPERATION,
        E.ARGUMENTATIVENESS,
        E.BITTERNESS,
        E.DISAPPOINTMENT,
        E.DISCOURAGEMENT,
        E.DESPERATION,
        E.AVERSION,
        E.EXCITEMENT,
    ),
}

# Ways to say each emotion without naming the label itself (the mapper should read the
# feeling, not a keyword): how it feels, and what goes through the customer's head. Each
# follows "and you feel", so each is what one can feel ("braced for", not "bracing for").
EMOTION_PHRASES: Mapping[str, tuple[str, ...]] = {
    E.ANNOYANCE: ("irritated by the hassle", "mildly put out", "bothered by a petty nuisance"),
    E.FRUSTRATION: (
        "stuck and blocked at every turn",
        "worn down by going in circles",
        "thwarted after trying again and again",
    ),
    E.EXASPERATION: ("at the end of your rope", "completely fed up", "out of patience entirely"),
    E.ARGUMENTATIVENESS: (
        "ready to dispute every point",
        "set on proving the rules wrong",
        "combative and keen to contest the decision",
    ),
    E.BITTERNESS: (
        "resentful and let down",
        "cheated and still holding a grudge",
        "sour about how you were treated",
    ),
    E.NERVOUSNESS: ("jittery and on edge", "uneasy and a little shaky", "tense about a small risk"),
    E.ANXIETY: (
        "worried sick about what might go wrong",
        "tense and fearing the worst",
        "unable to stop worrying",
    ),
    E.DREAD: (
        "afraid of the bad news that is coming",
        "filled with a heavy sense of doom",
        "braced for something terrible",
    ),
    E.DESPERATION: (
        "desperate for help with no other option left",
        "cornered, as this is your last chance",
        "frantic to get this saved",
    ),
    E.DISLIKE: (
        "unimpressed and put off",
        "displeased with how this was handled",
        "mildly averse to the whole thing",
    ),
    E.AVERSION: (
        "eager to keep away from this company",
        "repelled at having to deal with it again",
        "done with it and wanting no more of it",
    ),
    E.DISTASTE: (
        "put off by something unpleasant",
        "left with a bad taste",
        "mildly disgusted by what happened",
    ),
    E.REPUGNANCE: ("revolted by what happened", "sickened and appalled", "disgusted to the core"),
    E.DISAPPOINTMENT: (
        "let down because it fell short of what you hoped",
        "deflated by a broken promise",
        "crestfallen",
    ),
    E.DISCOURAGEMENT: (
        "disheartened",
        "worn out and ready to give up trying",
        "dispirited after too many setbacks",
    ),
    E.HELPLESSNESS: (
        "powerless to fix this on your own",
        "out of your depth and dependent on help",
        "unable to do anything about it yourself",
    ),
    E.HOPELESSNESS: (
        "sure that nothing will improve",
        "without any hope it will work out",
        "resigned to a bad outcome",
    ),
    E.SORROW: ("grieving and heartbroken", "weighed down by a loss", "deeply sad"),
    E.RELIEF: (
        "relieved that the worry is finally over",
        "glad the scare has passed",
        "lighter now that a fix is in sight",
    ),
    E.PEACE: ("calm and at ease", "serene and unhurried", "content and settled"),
    E.PRIDE: (
        "proud of what you achieved",
        "pleased with yourself for a job well done",
        "satisfied with your own accomplishment",
    ),
    E.EXCITEMENT: ("thrilled and eager", "buzzing with anticipation", "impatient for it to happen"),
}

POLITENESS_CUES: Mapping[str, tuple[str, ...]] = {
    "warm": ("speak kindly and thank the agent", "stay friendly and courteous"),
    "neutral": ("keep it matter-of-fact", "speak plainly, without small talk"),
    "cold": ("are curt and skip the pleasantries", "answer in short, cold sentences"),
}
URGENCY_CUES: Mapping[str, tuple[str, ...]] = {
    "low": ("have plenty of time", "are in no rush at all"),
    "moderate": ("want it done today", "would like it handled soon"),
    "high": ("need it sorted right now", "are in a hurry and every minute counts"),
}
TRUST_CUES: Mapping[str, tuple[str, ...]] = {
    "trusting": ("expect the agent to get it right", "believe what the company tells you"),
    "cautious": ("want to double-check what is done", "are careful about the details"),
    "skeptical": ("doubt the company will get it right", "suspect you will be shortchanged"),
}


OPENERS = (
    "You have to {situation}",
    "You need to {situation}",
    "You are calling to {situation}",
    "You want to {situation}",
)


def request_kind(tools: Sequence[str], values: Sequence[str], challenged: bool = False) -> str:
    """The dominant kind of a task's requests, from its goal tools and argument values;
    'refused' for a task that asks for something its policy forbids."""
    if challenged:
        return "refused"
    words = " ".join([*tools, *values]).lower()
    for kind in KIND_ORDER:
        if any(w in words for w in KIND_WORDS[kind]):
            return kind
    return "fix"


def write_feeling(
    name: str,
    situation: str,
    kind: str,
    rng: random.Random,
    emotion: str | None = None,
    dims: tuple[str, str, str] | None = None,
) -> tuple[str, str, tuple[str, str, str]]:
    """A feeling text, and the emotion and (politeness, urgency, trust) it was written for."""
    emotion = emotion or rng.choice(KIND_EMOTIONS[kind])
    if dims is None:
        dims = (
            rng.choice(("warm", "neutral", "neutral", "cold")),
            rng.choice(("low", "moderate", "moderate", "high")),
            rng.choice(("trusting", "cautious", "cautious", "skeptical")),
        )
    politeness, urgency, trust = dims
    opener = rng.choice(OPENERS).format(situation=situation)
    text = (
        f"{opener}, and you feel {rng.choice(EMOTION_PHRASES[emotion])}. "
        f"You {rng.choice(URGENCY_CUES[urgency])}, "
        f"{rng.choice(POLITENESS_CUES[politeness])}, and {rng.choice(TRUST_CUES[trust])}."
    )
    return text, emotion, dims
