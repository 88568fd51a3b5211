"""The scripted emotional user: deterministic, offline, and impatient in documented ways.

It works from the task's known facts and intents. Each agent text turn is classified and
answered, in this order:

- a confirmation question whose described action matches a write of the current intent (one
  of its argument values or its tool name is mentioned): yes;
- a question naming known facts: the facts, even when it says "confirm" or "proceed"
  ("Could you please confirm your email?" asks for the email, not for consent);
- any other confirmation question: no, with the request restated;
- a hand-back ("anything else?") that asks neither of those: the next intent, or STOP when
  none is left (a courtesy "anything else?" after a question does not end the conversation);
- another question: the facts of its request it can state, or "I don't know";
- anything else: a nudge to make progress.

The customer sees only what the agent says and takes its word for it: STOP means it believes
every request is done. Whether it is, is the reward's business (it compares the database),
never the customer's.

During an intent that poses a policy challenge (`Task.challenge`), it first plays the
challenge (`challenge.ChallengePlay`): it consents to the forbidden write if offered, presses
every other reply `temperament.presses` times (answering identity questions in between), then
settles for the refusal or the alternative, and only then goes back to the rules above.

Patience is set by the emotion condition (see `temperament`) and spent by friction: a
question about a fact it already gave (2), a turn without progress (1), an overlong message
when urgency is high (1), and, for conditions that need reassurance (fear, sadness, or
skeptical trust), every agent text turn while no agent turn has yet acknowledged its
feelings (1). Pressing a refusal costs nothing, and neither does a question that asks its
consent to the current request's own write (the policy requires it) or the closing hand-back
it answers with STOP. At zero it walks away with ###UNSATISFIED### (unless exits are
disabled), but never in place of a STOP: once every request is done it leaves satisfied.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Action, EmotionSpec, Intent, Message
from tau_emotion.emotions.space import NEUTRAL, Family
from tau_emotion.evaluation.reward import output_communicated
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import phrases as P
from tau_emotion.simulation.users.challenge import ChallengePlay, presses
from tau_emotion.simulation.users.reading import (
    acknowledges_feelings,
    asked_facts,
    asks_unknown_fact,
    clarify,
    fact_patterns,
    responds_to_feelings,
    sentences,
)

__all__ = ["ScriptedUser", "Temperament", "acknowledges_feelings", "fact_patterns", "temperament"]

_CONFIRM = re.compile(
    # "confirmation number 4411" and "I've confirmed it" ask for no consent.
    r"(confirm(?!ation|ed)|proceed|shall i|should i|go ahead|would you like me to"
    r"|do you want me to|ok to)",
    re.I,
)
_DONE = re.compile(r"(anything else|something else|further help|all set)", re.I)
# "Could you confirm your date of birth?" says "confirm" but asks for a fact; one the customer
# holds is answered by `_asked_facts`, one it lacks gets "I don't know", never a refusal.
_CONFIRM_A_FACT = re.compile(
    r"\b(confirm|verify)\s+(your|the)\s+(\w+\s+){0,3}?"
    r"(number|code|id|birth|address|zip|phone|email|name)\b",
    re.I,
)
# The customer's first request is written as its opening line ("Hi, I booked..."); where the
# scripted user adds its own greeting, or restates the request mid-conversation, that
# greeting would be said twice or out of place.
_GREETING = re.compile(
    r"^(?:hi|hello|hey|good (?:morning|afternoon|evening|day)|morning)(?: there)?[,.!]*\s+", re.I
)
OVERLONG_CHARS = 600


@dataclass(frozen=True)
class Temperament:
    """What an emotion condition means for the scripted user's behaviour."""

    patience: int
    needs_reassurance: bool
    politeness: str
    urgency: str
    trust: str
    family: str
    emotion: str | None
    presses: int
    """How often a refused challenge request is pressed before settling (see `challenge`)."""


_URGENCY_PATIENCE = {"low": 10, "moderate": 8, "high": 6}
_TRUST_PATIENCE = {"trusting": 2, "cautious": 0, "skeptical": -2}
_FAMILY_PATIENCE: dict[str, int] = {
    Family.ANGER: -2,
    Family.DISGUST: -1,
    Family.FEAR: 0,
    Family.SADNESS: 0,
    Family.ENJOYMENT: 2,
}
NEUTRAL_PATIENCE = 12


def temperament(emotion: EmotionSpec | None) -> Temperament:
    """Patience 2 (angry, urgent, skeptical) to 14 (calm enjoyment, trusting); neutral 12."""
    if emotion is None:
        return Temperament(
            NEUTRAL_PATIENCE, False, "neutral", "low", "trusting", NEUTRAL, None, presses(None)
        )
    patience = (
        _URGENCY_PATIENCE[emotion.urgency]
        + _TRUST_PATIENCE[emotion.trust]
        + _FAMILY_PATIENCE.get(emotion.family, 0)
    )
    return Temperament(
        patience=max(patience, 2),
        needs_reassurance=emotion.family in (Family.FEAR, Family.SADNESS)
        or emotion.trust == "skeptical",
        politeness=emotion.politeness,
        urgency=emotion.urgency,
        trust=emotion.trust,
        family=emotion.family,
        emotion=emotion.emotion,
        presses=presses(emotion),
    )


def _mentions(action: Action, text: str) -> bool:
    lower = text.lower()
    if action.name.replace("_", " ") in lower:
        return True
    for value in action.arguments.values():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, bool):
                continue
            if isinstance(item, int | float) and output_communicated(str(item), [text]):
                return True
            if isinstance(item, str) and len(item) >= 2 and item.lower() in lower:
                return True
    return False


def asks_consent(text: str) -> bool:
    """Whether an agent turn asks for consent to an action.

    A question that carries the consent phrase always does ("To confirm, I am about to ...
    Shall I proceed?"); so does a proposal followed by a bare question ("I'll go ahead and
    cancel it. Is that OK?"), except in a turn that also hands back: there only a question
    counts, so "For your records: ... proceeds in 5 days. Anything else?" asks no consent.
    """
    questions = [s for s in sentences(text) if "?" in s]
    if any(_CONFIRM.search(s) for s in questions):
        return True
    return bool(questions) and not _DONE.search(text) and bool(_CONFIRM.search(text))


_QUOTED = re.compile(r'"([^"]*)"|\u201c([^\u201d]*)\u201d')


def own_words(text: str, messages: Sequence[Message]) -> str:
    """The agent's turn without its quotes of a whole customer message.

    'You said: "... Should I take an extra pill?"' is the customer's question echoed, not
    the agent asking for consent; read as the agent's, the customer refused its own words
    until the step limit. Only a quote of a whole message counts, so a quoted value in a
    described action ('reason="moving abroad"') stays.
    """
    heard = {" ".join((m.content or "").split()) for m in messages if m.role == "user"}

    def echo(match: re.Match[str]) -> str:
        quoted = " ".join((match.group(1) or match.group(2) or "").split())
        return "" if quoted and quoted in heard else match.group(0)

    return _QUOTED.sub(echo, text)


def without_greeting(request: str) -> str:
    """`request` without its own leading greeting ("Hi, I booked..." -> "I booked...")."""
    rest = _GREETING.sub("", request, count=1)
    if not rest or rest == request:
        return request
    return rest[0].upper() + rest[1:]


class ScriptedUser:
    """Deterministic emotional customer; the default user when no user model is configured."""

    def __init__(self, setup: EpisodeSetup, allow_exit: bool = True) -> None:
        self._task = setup.task
        self._kinds = setup.domain.tool_kinds
        self._rng = random.Random(setup.seed)
        self.temper = temperament(setup.task.emotion)
        self.patience = self.temper.patience
        self._allow_exit = allow_exit
        self._next_intent = 0
        self._given: set[str] = set()
        self._reassured = False
        self._said: tuple[str, ...] = ()
        self._turns = 0
        challenge = setup.task.challenge
        self._play = (
            ChallengePlay(challenge, self.temper.politeness, self.temper.presses)
            if challenge is not None
            else None
        )
        self.friction: list[str] = []
        """Why patience was spent, one entry per point (for tests and docs)."""

    # --- wording -------------------------------------------------------------------------
    def _say(self, *parts: str) -> Message:
        text = " ".join(p for p in parts if p).strip()
        return Message(role="user", content=text)

    def _feeling(self) -> str:
        if self.temper.emotion is None:
            return ""
        return self._fresh(P.FEELING[self.temper.emotion])

    def _fresh(self, bank: Sequence[str]) -> str:
        """A seeded draw from `bank` that is not the line said last time."""
        line = self._rng.choice([b for b in bank if b not in self._said] or list(bank))
        self._said = (*self._said[-3:], line)
        return line

    def _colour(self) -> str:
        """The emotion in this turn: a line of the feeling, every other turn one of urgency
        or trust, and a plea for reassurance while no agent turn has answered the feeling."""
        if self.temper.emotion is None:
            return ""
        self._turns += 1
        parts = [self._feeling()]
        if self._turns % 2 == 0:
            by_dimension = (
                P.URGENCY_LINES[self.temper.urgency]
                if self._turns % 4 == 0
                else P.TRUST_LINES[self.temper.trust]
            )
            parts.append(self._fresh(by_dimension))
        if self.temper.needs_reassurance and not self._reassured:
            parts.append(P.NEED_REASSURANCE.get(self.temper.family, ""))
        return " ".join(p for p in parts if p)

    def _request(self) -> str:
        request = self._task.intents[self._next_intent].request
        self._next_intent += 1
        return request

    # --- patience ------------------------------------------------------------------------
    def _spend(self, points: int, reason: str) -> None:
        self.patience -= points
        self.friction.extend([reason] * points)

    def _progress_since_last_user_turn(self, messages: Sequence[Message]) -> bool:
        for m in reversed(messages):
            if m.role == "user":
                return False
            if m.role == "tool" and not m.error:
                return True
        return False

    def _asked_facts(self, text: str) -> list[tuple[str, str]]:
        return asked_facts(text, self._task.known_facts)

    # --- a policy challenge --------------------------------------------------------------
    def _active_challenge(self, messages: Sequence[Message]) -> ChallengePlay | None:
        """The challenge of the intent under way, while it is still the customer's to play."""
        play = self._play
        if play is None or play.settled or self._next_intent - 1 != play.challenge.intent:
            return None
        return None if play.forbidden_done(messages) else play

    def _challenge_turn(self, play: ChallengePlay, text: str) -> str | None:
        """Press, consent to the forbidden write, or settle; None leaves the turn to `_answer`.

        Identity questions are answered as usual (the agent must authenticate first). A press
        spends no patience: being refused is what the customer expects to fight.
        """
        politeness = self.temper.politeness
        confirm = asks_consent(text)
        if confirm and any(_mentions(a, text) for a in play.challenge.forbidden):
            return P.YES[politeness]  # exactly what the customer asked for
        if not play.pressing:
            if confirm or _DONE.search(text):
                play.settle()  # the alternative offered or the conversation moving on: accept
                return None
            return play.settle()
        # A fact question gets its fact even when it says "confirm" ("Could you confirm your
        # email?"); an offer of the alternative that names it ("Shall I rebook 8TQVHG
        # instead?") is pressed, though the entity word reads as a fact.
        offers = confirm and self._confirms_current_write(text)
        if "?" in text and not offers and self._asked_facts(text):
            return None
        return play.press()

    def _confirms_current_write(self, text: str) -> bool:
        """Whether `text` describes a write of the current intent (its consent question)."""
        current = self._current_intent()
        writes = [a for a in current.actions if self._kinds.get(a.name) == "write"]
        return any(_mentions(a, text) for a in writes)

    def _hands_back(self, text: str) -> bool:
        """Whether the turn hands the conversation back ("anything else?") and asks nothing:
        a courtesy line after a consent or fact question leaves that question to answer."""
        return bool(_DONE.search(text)) and not asks_consent(text) and not self._asked_facts(text)

    # --- the turn ------------------------------------------------------------------------
    async def respond(self, messages: Sequence[Message]) -> Message:
        if not any(m.role == "user" for m in messages):
            # The greeting is the condition's alone: the request's own "Hi," would come a
            # second time after it, or after the feeling line, and from a cold or hurried
            # customer, who greets nobody.
            greeting = "" if self.temper.urgency == "high" else P.GREETING[self.temper.politeness]
            request = without_greeting(self._request())
            return self._say(greeting, self._feeling(), request, P.URGENCY[self.temper.urgency])
        said = next((m.content or "" for m in reversed(messages) if m.role == "assistant"), "")
        reply = self._answer(own_words(said, messages), messages, said)
        if STOP_TOKEN in (reply.content or ""):
            # Every request is done and the customer says so: no friction on the way out turns
            # that into a walk-away (docs/users.md: once everything is done it never leaves).
            return reply
        if self._allow_exit and self.patience <= 0:
            return self._say(P.WALK_AWAY[self.temper.politeness], UNSATISFIED_TOKEN)
        return reply

    def _charge(self, text: str, said: str, messages: Sequence[Message]) -> None:
        """Spend patience on the agent's turn: `said` as sent, `text` its own words (see
        `own_words`). The feeling is read on every turn, so a consent question that also
        acknowledges it still reassures."""
        # The closing hand-back, answered with STOP, and a question asking consent to the
        # current request's own write (the policy requires one) are no friction: charging
        # them made the oracle lose customers it had served in full, and made skipping
        # consent pay (no-confirm beat the oracle).
        closing = (
            self._next_intent >= len(self._task.intents)
            and self._active_challenge(messages) is None
            and self._hands_back(text)
        )
        consent = asks_consent(text) and self._confirms_current_write(text)
        # Only a customer who needs reassurance and has not had it reads the turn for it, in
        # the agent's own words: its feeling quoted back to it ('You said: "...it's
        # maddening..."') names nothing the agent said.
        if self.temper.needs_reassurance and not self._reassured:
            heard = [m.content or "" for m in messages if m.role == "user"]
            if responds_to_feelings(text, heard, self.temper.family):
                self._reassured = True
            elif not (closing or consent):
                self._spend(1, "no acknowledgment of feelings")
        # The length is the agent's own choice, so a long consent question still costs.
        if self.temper.urgency == "high" and len(said) > OVERLONG_CHARS and not closing:
            self._spend(1, "overlong message under high urgency")

    def _answer(self, text: str, messages: Sequence[Message], said: str) -> Message:
        politeness = self.temper.politeness
        self._charge(text, said, messages)

        play = self._active_challenge(messages)
        if play is not None:
            played = self._challenge_turn(play, text)
            if played is not None:
                return self._say(played, self._colour())

        confirm = asks_consent(text)
        current = self._current_intent()
        if confirm and self._confirms_current_write(text):
            # The feeling, but no trust line: a doubt beside a yes would blur the consent.
            yes = (P.YES[politeness], P.DOUBLE_CHECK[self.temper.trust], self._feeling())
            return self._say(*yes)

        # A fact question is answered as one however it is phrased ("Could you please
        # confirm your email?", "To proceed, may I have your email?"): only consent to an
        # action gets a yes or a no.
        asked = self._asked_facts(text)
        if asked:
            repeated = [k for k, _ in asked if k in self._given]
            if repeated:
                self._spend(2, "asked again for " + ", ".join(repeated))
            self._given.update(k for k, _ in asked)
            facts = "; ".join(f"my {k.replace('_', ' ')} is {v}" for k, v in asked)
            prefix = P.REPEATED[politeness] if repeated else ""
            return self._say(prefix, facts[0].upper() + facts[1:] + ".", self._colour())

        if confirm and _CONFIRM_A_FACT.search(text) and asks_unknown_fact(text):
            return self._say(P.DONT_KNOW[politeness], self._colour())
        if confirm:
            return self._say(P.REFUSE[politeness], self._restated(current), self._colour())

        # A hand-back only now: "Shall I proceed? Let me know if you need anything else." asks
        # for consent, and stopping on it would leave the request undone.
        if _DONE.search(text):
            if self._next_intent < len(self._task.intents):
                return self._say(self._request(), self._colour())
            return self._say(P.DONE[politeness], STOP_TOKEN)

        if "?" in text:
            return self._say(self._clarification(text), self._colour())
        if not self._progress_since_last_user_turn(messages):
            self._spend(1, "turn without progress")
        return self._say(
            P.NO_PROGRESS[self.temper.urgency], self._restated(current), self._colour()
        )

    def _restated(self, intent: Intent) -> str:
        """A request said again: without the greeting it opened the conversation with."""
        return without_greeting(intent.request)

    def _current_intent(self) -> Intent:
        return self._task.intents[max(self._next_intent - 1, 0)]

    def _clarification(self, question: str) -> str:
        """An answer to a question that asks for none of its facts: "I don't know" to an
        identifying fact it lacks; otherwise what it wants, from its own words."""
        if asks_unknown_fact(question):
            return P.DONT_KNOW[self.temper.politeness]
        intent = self._current_intent()
        stated = " ".join([self._task.instruction, *(i.request for i in self._task.intents)])
        values = clarify(question, intent, stated)
        if values:
            text = "; ".join(values)
            return text[0].upper() + text[1:] + "."
        return f"{P.CLARIFY[self.temper.politeness]} {self._restated(intent)}"
