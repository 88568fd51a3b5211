"""Simulated users: an LLM playing the customer, and a deterministic scripted customer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Message, Task
from tau_emotion.errors import ParticipantError
from tau_emotion.models.base import ChatModel
from tau_emotion.simulation.participants import EpisodeSetup, last_agent_text, visible_to_user

USER_SIMULATOR_PROMPT = """\
You are playing a customer who contacts customer service. You are the customer, not the agent.

# Your task
{instruction}

# Facts you know (give them only when asked)
{facts}

{emotion}# Rules
- Write only what the customer says: one short, natural message per turn.
- Reveal information only when the agent asks for it. Never invent facts that are not above;
  if asked for something you do not know, say you do not know.
- Pursue your requests in order; do not change your goal.
- Confirm an action only if it matches what you want.
- When everything you wanted is done and you would end on good terms, reply with {stop}
  on its own.
- If the agent ignores your feelings, repeats questions you already answered, loops, stalls
  without explanation, pushes you, or is dismissive, you may walk away: reply with {unsat}.
"""


def user_system_prompt(task: Task, with_emotion: bool = True) -> str:
    facts = "\n".join(f"- {k.replace('_', ' ')}: {v}" for k, v in task.known_facts.items()) or "-"
    emotion = ""
    if with_emotion and task.emotion is not None:
        emotion = f"# How you feel and behave\n{task.emotion.instruction}\n\n"
    return USER_SIMULATOR_PROMPT.format(
        instruction=task.instruction,
        facts=facts,
        emotion=emotion,
        stop=STOP_TOKEN,
        unsat=UNSATISFIED_TOKEN,
    )


def flip_roles(messages: Sequence[Message]) -> list[Message]:
    """The user model speaks as 'assistant' and hears the agent as 'user'."""
    flipped: list[Message] = []
    for m in visible_to_user(messages):
        role = "assistant" if m.role == "user" else "user"
        flipped.append(Message(role=role, content=m.content))
    return flipped


class LLMUser:
    """An LLM customer: instruction, known facts and emotion in the system prompt."""

    def __init__(
        self, setup: EpisodeSetup, model: ChatModel, with_emotion: bool = True, retries: int = 2
    ) -> None:
        self.model = model
        self._system = Message(role="system", content=user_system_prompt(setup.task, with_emotion))
        self._retries = retries

    async def respond(self, messages: Sequence[Message]) -> Message:
        history = flip_roles(messages)
        if not history:
            history = [Message(role="user", content="Hello, how can I help you today?")]
        for _ in range(self._retries + 1):
            reply = await self.model.complete([self._system, *history])
            if reply.content and reply.content.strip():
                return Message(
                    role="user",
                    content=reply.content.strip(),
                    usage=reply.usage,
                    latency_s=reply.latency_s,
                )
        raise ParticipantError(f"user simulator gave no text after {self._retries + 1} attempts")


# Words an agent uses when it asks for a fact, per fact key (the key itself always counts).
FACT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "email": ("email", "e-mail"),
    "phone": ("phone", "mobile number", "phone number"),
    "full_name": ("name",),
    "zip_code": ("zip", "postal code", "postcode"),
    "date_of_birth": ("date of birth", "birth", "dob", "birthday"),
}
_CONFIRM = re.compile(
    r"(confirm|proceed|shall i|should i|go ahead|would you like me to|do you want me to|ok to)",
    re.I,
)
_DONE = re.compile(r"(anything else|something else|further help)", re.I)


def fact_patterns(key: str) -> tuple[str, ...]:
    words = key.replace("_", " ")
    extra = FACT_SYNONYMS.get(key, ())
    head = key.split("_")[0]
    # "order_number", "reservation_code", "member_id": the entity word alone is how agents ask.
    entity = (head,) if key.endswith(("_number", "_code", "_id")) and len(head) > 3 else ()
    return (words, *extra, *entity)


class ScriptedUser:
    """A deterministic customer working from the task's known facts and intents.

    It opens with its first request, answers questions that name one of its known facts,
    says yes to confirmation questions, asks for its next request when the agent asks if
    there is anything else, and ends with STOP when every request has been made and handled.
    """

    def __init__(self, setup: EpisodeSetup) -> None:
        self._task = setup.task
        self._next_intent = 0

    def _request(self) -> str:
        request = self._task.intents[self._next_intent].request
        self._next_intent += 1
        return request

    async def respond(self, messages: Sequence[Message]) -> Message:
        if not any(m.role == "user" for m in messages):
            return Message(role="user", content=self._request())
        text = last_agent_text(messages)
        lower = text.lower()
        asked = [
            (k, v)
            for k, v in self._task.known_facts.items()
            if any(p in lower for p in fact_patterns(k))
        ]
        if _DONE.search(text):
            if self._next_intent < len(self._task.intents):
                return Message(role="user", content=self._request())
            return Message(role="user", content=f"No, that is everything. Thank you. {STOP_TOKEN}")
        if _CONFIRM.search(text) and "?" in text:
            return Message(role="user", content="Yes, please go ahead.")
        if asked:
            said = "; ".join(f"my {k.replace('_', ' ')} is {v}" for k, v in asked)
            return Message(role="user", content=said[0].upper() + said[1:] + ".")
        if "?" in text:
            return Message(role="user", content="I'm sorry, I don't know that.")
        current = self._task.intents[max(self._next_intent - 1, 0)].request
        return Message(role="user", content=f"Could you please help me with this? {current}")
