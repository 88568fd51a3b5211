"""The LLM user simulator and its strategies: llm, react, verify, reflection.

- ``llm``: one call per turn; the system prompt carries the instruction, the known facts
  (split by when they may be given), the emotion and the rules of play.
- ``react``: the model writes a private ``Thought:`` and then ``Customer:``; only the
  customer line is said (the thought is kept as the message's reasoning).
- ``verify``: each reply is checked (a local check that it does not recite the task, then a
  supervisor call for the rules of play) and regenerated up to N times.
- ``reflection``: like verify, but on a failed check the model reflects on the problem and
  rewrites the reply instead of sampling a fresh one.

Empty, unparseable or runaway output (over `MAX_REPLY_CHARS`) is retried; after the retries
the turn fails with `UserTurnError` (a `ParticipantError` that carries the usage of the turn's
calls), which the episode records as a user error (never a crash). Near-miss spellings of the
end tokens ("###stop###", "### STOP ###") are written as the real tokens before the episode
loop reads the reply (`normalise_tokens`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_emotion.data import UNSATISFIED_TOKEN, Message, Usage
from tau_emotion.errors import ParticipantError
from tau_emotion.models.base import ChatModel
from tau_emotion.simulation.kinds import UserKind
from tau_emotion.simulation.participants import EpisodeSetup, visible_to_user
from tau_emotion.simulation.users.llm_prompts import (
    REACT_SUFFIX,
    RECITED,
    REFLECT_PROMPT,
    recites_task,
    supervisor_prompt,
    user_system_prompt,
)
from tau_emotion.simulation.users.model_replies import (
    MAX_REPLY_CHARS,
    ends_episode,
    normalise_tokens,
    parse_react,
    read_verdict,
)

USER_STRATEGIES = tuple(kind for kind in UserKind if kind.needs_model)
"""The user kinds an LLM plays: every model-driven kind of `UserKind`."""

GREETING = "Hello, how can I help you today?"
"""The agent's opening line, at the head of every user-model request (see `flip_roles`)."""
EMPTY_AGENT_TURN = "(The agent sent an empty message.)"
"""Stands in for an agent turn with no text, so the user model's roles still alternate."""


def flip_roles(messages: Sequence[Message]) -> list[Message]:
    """The conversation as the user model hears it, alternating user/assistant every turn.

    The user model speaks as 'assistant' and hears the agent as 'user'. Chat templates that
    enforce strict alternation (Mistral, Gemma, many llama.cpp ones) answer 400 to anything
    else, so the shape is the same on every turn: it opens with the agent's `GREETING`
    (the customer speaks first in an episode, and the greeting is what it answered on turn
    one), the agent's messages of one turn (text said before and after tool calls) are
    joined into one, and where an agent turn was empty (removed by `visible_to_user`, so
    two customer messages meet) an `EMPTY_AGENT_TURN` stands in for it, which also tells the
    customer that the agent said nothing.
    """
    flipped: list[Message] = []
    for m in visible_to_user(messages):
        role = "assistant" if m.role == "user" else "user"
        if not flipped and role == "assistant":
            flipped.append(Message(role="user", content=GREETING))
        if flipped and flipped[-1].role == role:
            if role == "user":
                joined = f"{flipped[-1].content or ''}\n\n{m.content or ''}"
                flipped[-1] = Message(role="user", content=joined)
                continue
            flipped.append(Message(role="user", content=EMPTY_AGENT_TURN))
        flipped.append(Message(role=role, content=m.content))
    if not flipped:
        return [Message(role="user", content=GREETING)]
    if flipped[-1].role == "assistant":
        # The customer is asked to speak again after an empty agent reply.
        flipped.append(Message(role="user", content=EMPTY_AGENT_TURN))
    return flipped


class UserTurnError(ParticipantError):
    """A user turn that failed, with the usage of every call it made.

    The endpoint received (and bills) the calls of a failed turn too, so the episode's
    user usage has to count them: whoever records the failure adds `usage`.
    """

    def __init__(self, message: str, usage: Usage) -> None:
        super().__init__(message)
        self.usage = usage


class LLMUser:
    """An LLM customer with one of the four strategies."""

    def __init__(
        self,
        setup: EpisodeSetup,
        model: ChatModel,
        with_emotion: bool = True,
        strategy: UserKind | str = UserKind.LLM,
        retries: int = 2,
        verify_attempts: int = 2,
        allow_exit: bool = True,
    ) -> None:
        kind = UserKind(strategy) if strategy in tuple(UserKind) else None
        if kind is None or kind not in USER_STRATEGIES:
            names = ", ".join(USER_STRATEGIES)
            raise ValueError(f"unknown user strategy {str(strategy)!r}; choose from {names}")
        self.model = model
        self.strategy = kind
        self._task = setup.task
        self._with_emotion = with_emotion
        self._allow_exit = allow_exit
        prompt = user_system_prompt(setup.task, with_emotion, allow_exit)
        if kind is UserKind.REACT:
            prompt += REACT_SUFFIX
        self._system = Message(role="system", content=prompt)
        self._retries = retries
        self._verify_attempts = verify_attempts
        self.rejections: list[str] = []
        """Objections that rejected a reply, local or the supervisor's (for tests and analysis)."""

    def _allowed(self, text: str) -> str:
        """The reply with its end tokens spelled right, and the walk-away token removed where
        exits are off (a near-miss spelling is removed too)."""
        text = normalise_tokens(text)
        if self._allow_exit:
            return text
        return text.replace(UNSATISFIED_TOKEN, "").strip() or "Please keep going."

    async def _generate(self, history: list[Message]) -> tuple[str, str | None, Usage]:
        """One usable reply (text, thought), retrying empty, unparseable or overlong output."""
        usage = Usage()
        for _ in range(self._retries + 1):
            reply = await self.model.complete([self._system, *history])
            usage = usage + (reply.usage or Usage())
            text = (reply.content or "").strip()
            thought = reply.reasoning
            if self.strategy is UserKind.REACT and text:
                thought, said = parse_react(text)
                if said is None and thought is None and ends_episode(text):
                    # No labels, but an end token: the main prompt says to reply with the
                    # token on its own, and a customer who has ended is not unusable.
                    said = text
                text = said or ""
            if not text or len(text) > MAX_REPLY_CHARS:
                continue
            return self._allowed(text), thought, usage
        raise UserTurnError(
            f"user simulator ({self.strategy}) gave no usable reply after "
            f"{self._retries + 1} attempts",
            usage,
        )

    async def _check(self, history: list[Message], reply: str) -> tuple[str | None, Usage]:
        """The objection to a reply (local, then the supervisor's), or None if it is valid.

        Replies that end the conversation are checked too: stopping before the goal is met
        and walking away after it are the breaches that cost an episode outright.
        """
        if recites_task(reply, self._task.instruction):
            return RECITED, Usage()
        prompt = supervisor_prompt(self._task, history, reply, self._with_emotion, self._allow_exit)
        verdict = await self.model.complete([Message(role="user", content=prompt)])
        valid, problem = read_verdict(verdict.content or "")
        return (None if valid else problem), verdict.usage or Usage()

    async def respond(self, messages: Sequence[Message]) -> Message:
        history = flip_roles(messages)
        text, thought, usage = await self._generate(history)
        if self.strategy.checks_replies:
            for _ in range(self._verify_attempts):
                problem, used = await self._check(history, text)
                usage = usage + used
                if problem is None:
                    break
                self.rejections.append(problem)
                if self.strategy is UserKind.VERIFY:
                    try:
                        text, thought, used = await self._generate(history)
                    except UserTurnError as exc:
                        # The turn's earlier calls were made too: count them with the failure.
                        raise UserTurnError(str(exc), usage + exc.usage) from exc
                else:
                    reflect = Message(role="user", content=REFLECT_PROMPT.format(problem=problem))
                    rewrite = await self.model.complete(
                        [self._system, *history, Message(role="assistant", content=text), reflect]
                    )
                    used = rewrite.usage or Usage()
                    rewritten = (rewrite.content or "").strip()
                    if rewritten and len(rewritten) <= MAX_REPLY_CHARS:
                        text = self._allowed(rewritten)
                usage = usage + used
        return Message(role="user", content=self._allowed(text), reasoning=thought, usage=usage)
