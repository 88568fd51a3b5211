"""The scripted emotional user: deterministic, offline, and impatient in documented ways.

It works from the task's known facts and intents. Each agent text turn is classified (done /
confirmation question / fact question / other question / statement) and answered:

- done ("anything else?"): ask for the next intent, or end with STOP when none is left;
- a confirmation question: yes if the described action matches a write of the current
  intent (one of its argument values or its tool name is mentioned), otherwise no;
- a question naming known facts: the facts; a question it cannot answer: "I don't know";
- anything else: a nudge to make progress.

During an intent that poses a policy challenge (`Task.challenge`), it first plays the
challenge (`challenge.ChallengePlay`): it consents to the forbidden write if offered, presses
every other reply `temperament.presses` times (answering identity questions in between), then
settles for the refusal or the alternative, and only then goes back to the rules above.

Patience is set by the emotion condition (see `temperament`) and spent by friction: a
question about a fact it already gave (2), a turn without progress (1), an overlong message
when urgency is high (1), and, for conditions that need reassurance (fear, sadness, or
skeptical trust), every agent text turn while no agent turn has yet acknowledged its
feelings (1). Pressing a refusal costs nothing. At zero it walks away with ###UNSATISFIED###
(unless exits are disabled).
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
)

__all__ = ["ScriptedUser", "Temperament", "acknowledges_feelings", "fact_patterns", "temperament"]

_CONFIRM = re.compile(
    r"(confirm|proceed|shall i|should i|go ahead|would you like me to|do you want me to|ok to)",
    re.I,
)
_DONE = re.compile(r"(anything else|something else|further help|all set)", re.I)
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
        confirm = bool(_CONFIRM.search(text)) and "?" in text
        if confirm and any(_mentions(a, text) for a in play.challenge.forbidden):
            return P.YES[politeness]  # exactly what the customer asked for
        if not play.pressing:
            if confirm or _DONE.search(text):
                play.settle()  # the alternative offered or the conversation moving on: accept
                return None
            return play.settle()
        if "?" in text and not confirm and self._asked_facts(text):
            return None
        return play.press()

    # --- the turn ------------------------------------------------------------------------
    async def respond(self, messages: Sequence[Message]) -> Message:
        if not any(m.role == "user" for m in messages):
            greeting = "" if self.temper.urgency == "high" else P.GREETING[self.temper.politeness]
            return self._say(
                greeting, self._feeling(), self._request(), P.URGENCY[self.temper.urgency]
            )
        text = next((m.content or "" for m in reversed(messages) if m.role == "assistant"), "")
        reply = self._answer(text, messages)
        if self._allow_exit and self.patience <= 0:
            return self._say(P.WALK_AWAY[self.temper.politeness], UNSATISFIED_TOKEN)
        return reply

    def _answer(self, text: str, messages: Sequence[Message]) -> Message:
        politeness = self.temper.politeness
        # Only a customer who needs reassurance and has not had it reads the turn for it.
        if self.temper.needs_reassurance and not self._reassured:
            said = [m.content or "" for m in messages if m.role == "user"]
            if responds_to_feelings(text, said, self.temper.family):
                self._reassured = True
            else:
                self._spend(1, "no acknowledgment of feelings")
        if self.temper.urgency == "high" and len(text) > OVERLONG_CHARS:
            self._spend(1, "overlong message under high urgency")

        play = self._active_challenge(messages)
        if play is not None:
            played = self._challenge_turn(play, text)
            if played is not None:
                return self._say(played, self._colour())

        if _DONE.search(text):
            if self._next_intent < len(self._task.intents):
                return self._say(self._request(), self._colour())
            return self._say(P.DONE[politeness], STOP_TOKEN)

        if _CONFIRM.search(text) and "?" in text:
            current = self._current_intent()
            writes = [a for a in current.actions if self._kinds.get(a.name) == "write"]
            if any(_mentions(a, text) for a in writes):
                # The feeling, but no trust line: a doubt beside a yes would blur the consent.
                yes = (P.YES[politeness], P.DOUBLE_CHECK[self.temper.trust], self._feeling())
                return self._say(*yes)
            return self._say(P.REFUSE[politeness], current.request, self._colour())

        asked = self._asked_facts(text)
        if asked:
            repeated = [k for k, _ in asked if k in self._given]
            if repeated:
                self._spend(2, "asked again for " + ", ".join(repeated))
            self._given.update(k for k, _ in asked)
            facts = "; ".join(f"my {k.replace('_', ' ')} is {v}" for k, v in asked)
            prefix = P.REPEATED[politeness] if repeated else ""
            return self._say(prefix, facts[0].upper() + facts[1:] + ".", self._colour())
        if "?" in text:
            return self._say(self._clarification(text), self._colour())
        if not self._progress_since_last_user_turn(messages):
            self._spend(1, "turn without progress")
        return self._say(
            P.NO_PROGRESS[self.temper.urgency], self._current_intent().request, self._colour()
        )

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
        return f"{P.CLARIFY[self.temper.politeness]} {intent.request}"
