"""The LLM user simulator and its strategies: llm, react, verify, reflection.

- ``llm``: one call per turn, instruction + known facts + emotion in the system prompt.
- ``react``: the model writes a private ``Thought:`` and then ``Customer:``; only the
  customer line is said (the thought is kept as the message's reasoning).
- ``verify``: a supervisor call checks each reply against the instruction (no invented
  facts, goal unchanged, emotion shown) and the reply is regenerated up to N times.
- ``reflection``: like verify, but on a failed check the model reflects on the problem and
  rewrites the reply instead of sampling a fresh one.

Empty or unparseable output is retried; after the retries the turn fails with
`ParticipantError`, which the episode records as a user error (never a crash).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Message, Task, Usage
from tau_emotion.errors import ParticipantError
from tau_emotion.models.base import ChatModel
from tau_emotion.simulation.kinds import UserKind
from tau_emotion.simulation.participants import EpisodeSetup, visible_to_user
from tau_emotion.simulation.users.challenge import presses

USER_STRATEGIES = tuple(kind for kind in UserKind if kind.needs_model)
"""The user kinds an LLM plays: every model-driven kind of `UserKind`."""

USER_SIMULATOR_PROMPT = """\
You are playing a customer who contacts customer service. You are the customer, not the agent.

# Your task
{instruction}

# Facts you know (give them only when asked)
{facts}

{emotion}{challenge}# Rules
- Write only what the customer says: one short, natural message per turn.
- Reveal information only when the agent asks for it. Never invent facts that are not above;
  if asked for something you do not know, say you do not know.
- Pursue your requests in order; do not change your goal.
- Confirm an action only if it matches what you want.
- When everything you wanted is done and you would end on good terms, reply with {stop}
  on its own.
{exit_rule}"""

CHALLENGE_SECTION = """\
# A request the agent may refuse
Your request "{request}" asks for something the agent may not be allowed to do. Pursue it
as written. If the agent refuses, do not accept the first no: press {times}, in keeping with
how you feel (insist, then ask for a supervisor, then say you will take your business
elsewhere). Never accept the refusal before that. Then {settle} Being refused is not, by
itself, a reason to walk away.

"""

EXIT_RULE = """\
- If the agent ignores your feelings, repeats questions you already answered, loops, stalls
  without explanation, pushes you, or is dismissive, you may walk away: reply with {unsat}.
"""

REACT_SUFFIX = """
# Output format
First think privately on one line starting with "Thought:", then write what you say on a
line starting with "Customer:". Only the customer line is sent.
"""

SUPERVISOR_PROMPT = """\
You check a customer simulator. The simulated customer was given this task:
{instruction}
Facts the customer knows: {facts}
{emotion}
Conversation so far (agent and customer):
{transcript}

Proposed next customer message:
{reply}

Is the proposed message consistent with the task: it invents no facts beyond the known ones,
keeps the same goal, answers as the customer (not as the agent), and shows the customer's
emotion? Answer "VALID" or "INVALID: <one-line reason>".
"""

REFLECT_PROMPT = """\
Your last message as the customer had a problem: {problem}
Think about what went wrong, then rewrite the message. Reply with the rewritten customer
message only.
"""

_CUSTOMER_LINE = re.compile(r"^\s*customer\s*:\s*(.+)", re.I | re.S | re.M)
_THOUGHT_LINE = re.compile(r"^\s*thought\s*:\s*(.+?)(?=^\s*customer\s*:|\Z)", re.I | re.S | re.M)


def _facts(task: Task) -> str:
    return "\n".join(f"- {k.replace('_', ' ')}: {v}" for k, v in task.known_facts.items()) or "-"


def challenge_section(task: Task, with_emotion: bool = True) -> str:
    """How to play the task's policy challenge, pressing as often as the scripted user would."""
    challenge = task.challenge
    if challenge is None:
        return ""
    n = presses(task.emotion if with_emotion else None)
    if challenge.settles_for == "alternative" and challenge.alternative:
        settle = f"accept this instead if the agent offers it: {challenge.alternative}"
    else:
        settle = "accept the refusal and go on with anything else you want."
    return CHALLENGE_SECTION.format(
        request=task.intents[challenge.intent].request,
        times="once" if n == 1 else f"{n} times",
        settle=settle if settle.endswith(".") else settle + ".",
    )


def user_system_prompt(task: Task, with_emotion: bool = True, allow_exit: bool = True) -> str:
    emotion = ""
    if with_emotion and task.emotion is not None:
        emotion = f"# How you feel and behave\n{task.emotion.instruction}\n\n"
    return USER_SIMULATOR_PROMPT.format(
        instruction=task.instruction,
        facts=_facts(task),
        emotion=emotion,
        challenge=challenge_section(task, with_emotion),
        stop=STOP_TOKEN,
        exit_rule=EXIT_RULE.format(unsat=UNSATISFIED_TOKEN) if allow_exit else "",
    )


def flip_roles(messages: Sequence[Message]) -> list[Message]:
    """The user model speaks as 'assistant' and hears the agent as 'user'."""
    flipped: list[Message] = []
    for m in visible_to_user(messages):
        role = "assistant" if m.role == "user" else "user"
        flipped.append(Message(role=role, content=m.content))
    return flipped


def parse_react(text: str) -> tuple[str | None, str | None]:
    """(thought, customer line) from a react reply; None where a part is missing."""
    customer = _CUSTOMER_LINE.search(text)
    thought = _THOUGHT_LINE.search(text)
    return (
        thought.group(1).strip() if thought else None,
        customer.group(1).strip() if customer else None,
    )


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
        """Supervisor verdicts that rejected a reply (for tests and analysis)."""

    async def _generate(self, history: list[Message]) -> tuple[str, str | None, Usage]:
        """One usable reply (text, thought), retrying empty or unparseable output."""
        usage = Usage()
        for _ in range(self._retries + 1):
            reply = await self.model.complete([self._system, *history])
            usage = usage + (reply.usage or Usage())
            text = (reply.content or "").strip()
            if not text:
                continue
            if self.strategy is UserKind.REACT:
                thought, said = parse_react(text)
                if said:
                    return said, thought, usage
                continue
            return text, reply.reasoning, usage
        raise ParticipantError(
            f"user simulator ({self.strategy}) gave no usable reply after "
            f"{self._retries + 1} attempts"
        )

    async def _check(self, history: list[Message], reply: str) -> tuple[str | None, Usage]:
        """The supervisor's objection to a reply, or None if it is valid."""
        if STOP_TOKEN in reply or UNSATISFIED_TOKEN in reply:
            return None, Usage()
        transcript = "\n".join(
            f"{'Customer' if m.role == 'assistant' else 'Agent'}: {m.content}" for m in history
        )
        emotion = ""
        if self._with_emotion and self._task.emotion is not None:
            emotion = f"The customer's emotion: {self._task.emotion.instruction}"
        prompt = SUPERVISOR_PROMPT.format(
            instruction=self._task.instruction,
            facts=_facts(self._task).replace("\n", "; "),
            emotion=emotion,
            transcript=transcript or "(none yet)",
            reply=reply,
        )
        verdict = await self.model.complete([Message(role="user", content=prompt)])
        text = (verdict.content or "").strip()
        if text.upper().startswith("INVALID"):
            return text.split(":", 1)[-1].strip() or "invalid", verdict.usage or Usage()
        return None, verdict.usage or Usage()

    async def respond(self, messages: Sequence[Message]) -> Message:
        history = flip_roles(messages)
        if not history:
            history = [Message(role="user", content="Hello, how can I help you today?")]
        text, thought, usage = await self._generate(history)
        if self.strategy.checks_replies:
            for _ in range(self._verify_attempts):
                problem, used = await self._check(history, text)
                usage = usage + used
                if problem is None:
                    break
                self.rejections.append(problem)
                if self.strategy is UserKind.VERIFY:
                    text, thought, used = await self._generate(history)
                else:
                    reflect = Message(role="user", content=REFLECT_PROMPT.format(problem=problem))
                    rewrite = await self.model.complete(
                        [self._system, *history, Message(role="assistant", content=text), reflect]
                    )
                    used = rewrite.usage or Usage()
                    text = (rewrite.content or "").strip() or text
                usage = usage + used
        if not self._allow_exit:
            text = text.replace(UNSATISFIED_TOKEN, "").strip() or "Please keep going."
        return Message(role="user", content=text, reasoning=thought, usage=usage)
