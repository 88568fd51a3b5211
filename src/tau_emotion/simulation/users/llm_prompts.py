"""What the LLM customer is told, and the local check of what it says.

The system prompt (`user_system_prompt`) carries the instruction, the known facts split by
when they may be given (`plan_facts`), the emotion and the rules of play; the supervisor
prompt (`supervisor_prompt`) asks a model whether one reply keeps those rules; `recites_task`
is the check made before any model call, that the reply is not the task text pasted. The
simulator that sends them is `llm.LLMUser`.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import NamedTuple

from tau_emotion.data import STOP_TOKEN, UNSATISFIED_TOKEN, Message, Task
from tau_emotion.simulation.users.challenge import presses

# The prompt is assembled from sections so that a task without an emotion or a challenge,
# or a run without the exit option, gets a prompt with no dangling rule: every rule that
# is present is one the customer can follow.
USER_SIMULATOR_PROMPT = """\
You are playing a customer who has contacted customer service. You are the customer, not \
the agent: you never look anything up, decide what the rules allow, or offer help.

# Your situation and what you want
{instruction}

# What you know
{facts}

{emotion}{challenge}# How you talk
- Write only what the customer says: one short, natural message per turn, with no \
narration, stage directions or labels.
- Take your requests one at a time, in the order given above. Your first message makes \
the first request only; move on to the next one when the agent has dealt with the current \
one or asks what else you need.
- Put everything in your own words. Never paste or recite the text above, never lay out \
the whole task in one message, and never repeat a request word for word: if you have to \
ask again, say it differently.
- Never invent a fact that is not written above: no names, numbers, dates, orders, \
amounts or past events of your own making. If the agent asks for something you do not \
know, say that you do not know it.
- Keep your goal: do not change what you want, drop a request, or add one the task does \
not give you.
- Confirm an action only if it matches what you want; otherwise say no and say what you \
want instead.
{manner}
# Ending the conversation
- Once every request of yours is done{settled}, end the conversation: reply with {stop} \
on its own. Do not end it before that.
{exit_rule}"""

FACT_GROUPS = (
    "Facts your first request itself names (you may say them in your opening message):",
    "Facts a later request names (say each one when you come to that request, not before):",
    "Facts to give only when the agent asks for them:",
)
"""Headings of the three groups of known facts, in the order the customer may give them."""
SUPERVISOR_FACT_GROUPS = (
    "Named by the first request itself (may be said in the opening message):",
    "Named by a later request (may be said with that request, not before):",
    "To be given only when the agent asks for them:",
)
"""The same groups, as the supervisor reads them."""

NO_FACTS = (
    "No account details beyond what the task says. If the agent asks for one, say you "
    "do not know it."
)

EMOTION_SECTION = """\
# How you feel and behave
{feeling}
This describes your mood and manner only. If it mentions things that happened to you, \
treat them as mood, not facts: do not tell them to the agent as part of your case.

"""

EMOTION_MANNER = """\
- Let how you feel show in every message you write, in your words, rhythm and tone, \
without naming the feeling like a label; it does not fade as the conversation goes on.
- Your feeling also sets how you cooperate: how readily you answer the agent's questions \
(you may hesitate, ask why, or answer curtly, but you do answer), how much you say beyond \
what was asked (within the rules on facts above), and how quickly you accept what the \
agent proposes. It never changes what you want or what you know.
"""

NEUTRAL_MANNER = """\
- You are calm and matter-of-fact: answer questions plainly and accept a proposal that \
matches what you want.
"""

CHALLENGE_SECTION = """\
# A request the agent may refuse
Your request "{request}" asks for something the agent may not be allowed to do. Pursue it \
as the task says. If the agent refuses, do not accept the first no: press {times}, in \
keeping with how you feel (insist, then ask for a supervisor, then say you will take your \
business elsewhere). Never accept the refusal before that. Then {settle} Being refused is \
not, by itself, a reason to walk away: once you have settled, that request counts as \
settled and you go on with the rest.

"""

EXIT_RULE = """\
- While a request of yours is still not done{settled}, you may walk away if the agent \
{triggers}: reply with {unsat}.{refusal}
- Once everything you wanted is done{settled}, never walk away, however you still feel: \
end with {stop}.
"""

# The same walk-away triggers, said to the customer and about the agent to the supervisor.
_EXIT_TRIGGERS = (
    "repeats questions you already answered, goes in circles, stalls without explanation, "
    "pushes you, or is dismissive"
)
_EXIT_TRIGGERS_SEEN = (
    "repeated questions the customer already answered, gone in circles, stalled without "
    "explanation, pushed the customer, or been dismissive"
)

REACT_SUFFIX = f"""
# Output format
First think privately on one line starting with "Thought:", then write what you say on a
line starting with "Customer:". Only the customer line is sent, so an end token goes on it
too, for example "Customer: {STOP_TOKEN}".
"""

SUPERVISOR_PROMPT = """\
You review one message written by a customer simulator before it is sent. The simulated \
customer was given this task:
{instruction}

Facts the customer knows:
{facts}
{emotion}
Conversation so far (agent and customer):
{transcript}

Proposed next customer message:
{reply}

The message is INVALID if any of these holds:
- it speaks as the agent rather than as the customer;
- it states a fact that is neither among the known facts nor in the task (an invented \
name, number, date, order or past event);
- it changes the customer's goal: asks for something else, drops a request, or accepts an \
outcome the task does not want;
- it pastes or recites the task text, or lays out the whole task at once instead of one \
request at a time;
- it gives a known fact the agent has not asked for, where the facts above say to give it \
only when asked or only with a later request;
{checks}Otherwise it is VALID. Answer "VALID" or "INVALID: <one-line reason>".
"""

SUPERVISOR_EMOTION_CHECK = (
    "- it does not show the customer's emotion (described above) in its words or tone;\n"
)
SUPERVISOR_STOP_CHECK = (
    "- it ends the conversation with {stop} while something the customer wanted is still "
    "not done{settled};\n"
)
SUPERVISOR_EXIT_CHECK = (
    "- it walks away with {unsat} although everything the customer wanted is done{settled}, "
    "or although the agent has not {triggers} (a refusal the rules require is no reason);\n"
)

REFLECT_PROMPT = """\
Your last message as the customer had a problem: {problem}
Think about what went wrong, then rewrite the message: in your own words, one request at \
a time, no invented facts, the same goal, and your feelings showing as before. Reply with \
the rewritten customer message only.
"""

RECITED = "recites the task text word for word instead of speaking in the customer's words"
"""The local check's objection (see `recites_task`)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

RECITED_SENTENCE_WORDS = 8
"""A whole task sentence this long, said word for word, is a paste."""
RECITED_RUN_WORDS = 20
"""Any run of this many task words in a row is a paste, whatever the sentence breaks."""
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
"""The task speaks to the customer ("You want ..., your reservation ..."), which no customer
says of themselves: a recited span must hold one of these, so a customer who dictates a long
run of values in their own first person ("my Visa ending 5156, flights: ...") is no paste."""


class FactPlan(NamedTuple):
    """The customer's known facts by when they may give them (see `plan_facts`)."""

    opening: dict[str, str]
    """Named by the first request itself: a customer says them as they ask."""
    later: dict[str, str]
    """Named by a later request: said when that request comes up."""
    asked: dict[str, str]
    """Named by no request (identity details): given only when the agent asks."""


def _names(text: str, value: str) -> bool:
    """Whether `text` states `value` as a whole token run (so '1' does not match '12')."""
    value = value.strip()
    if not value:
        return False
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.I) is not None


def plan_facts(task: Task) -> FactPlan:
    """Split the known facts by the first intent whose request names the value.

    A real customer says "my booking 9HXJV4 was cancelled" in their first breath, so the
    facts the opening request states may be given at once; holding them back until asked
    would make the LLM customer stranger than the scripted one, which opens with that very
    request. Facts no request names (email, date of birth) are what an agent asks for.
    """
    plan = FactPlan({}, {}, {})
    for key, value in task.known_facts.items():
        first = next((i for i, it in enumerate(task.intents) if _names(it.request, value)), None)
        group = plan.asked if first is None else plan.opening if first == 0 else plan.later
        group[key] = value
    return plan


def _fact_lines(facts: dict[str, str]) -> list[str]:
    return [f"- {k.replace('_', ' ')}: {v}" for k, v in facts.items()]


def facts_section(task: Task, headings: tuple[str, str, str] = FACT_GROUPS) -> str:
    """The known facts under the heading that says when each may be given."""
    lines: list[str] = []
    for heading, group in zip(headings, plan_facts(task), strict=True):
        if group:
            lines += [heading, *_fact_lines(group)]
    return "\n".join(lines) or NO_FACTS


def _words(text: str) -> list[str]:
    # Whitespace words without their punctuation, so a date or an email stays one word.
    return [w for w in (t.strip(string.punctuation) for t in text.lower().split()) if w]


def recites_task(reply: str, instruction: str) -> bool:
    """Whether a customer message pastes the task text instead of saying it in its own words.

    A local check, so the verify and reflection strategies catch the plainest breach of
    "never verbatim" without a supervisor call: a whole task sentence of at least
    `RECITED_SENTENCE_WORDS` words, or any `RECITED_RUN_WORDS` task words in a row (the
    whole task, if it is shorter), that speaks in the second person. Case and punctuation
    are ignored.
    """
    said = f" {' '.join(_words(reply))} "
    spans = [_words(sentence) for sentence in _SENTENCE_END.split(instruction)]
    spans = [words for words in spans if len(words) >= RECITED_SENTENCE_WORDS]
    task = _words(instruction)
    # A task shorter than the run is a paste when said whole (if it is not a mere phrase).
    run = min(RECITED_RUN_WORDS, len(task))
    if run >= RECITED_SENTENCE_WORDS:
        spans += [task[i : i + run] for i in range(len(task) - run + 1)]
    return any(
        not SECOND_PERSON.isdisjoint(span) and f" {' '.join(span)} " in said for span in spans
    )


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


def _shows_emotion(task: Task, with_emotion: bool) -> bool:
    return with_emotion and task.emotion is not None


def _triggers(emotional: bool, seen: bool = False) -> str:
    # Only a customer who has feelings to show can have them ignored.
    if seen:
        return ("ignored the customer's feelings, " if emotional else "") + _EXIT_TRIGGERS_SEEN
    return ("ignores your feelings, " if emotional else "") + _EXIT_TRIGGERS


def exit_rule(task: Task, with_emotion: bool = True) -> str:
    """When the customer may walk away: only while something is undone, never after."""
    challenged = task.challenge is not None
    return EXIT_RULE.format(
        settled=" or settled" if challenged else "",
        triggers=_triggers(_shows_emotion(task, with_emotion)),
        unsat=UNSATISFIED_TOKEN,
        stop=STOP_TOKEN,
        refusal=(
            " Being refused the request the agent may refuse is not, by itself, such a reason."
            if challenged
            else ""
        ),
    )


def user_system_prompt(task: Task, with_emotion: bool = True, allow_exit: bool = True) -> str:
    emotional = _shows_emotion(task, with_emotion)
    emotion = ""
    if emotional and task.emotion is not None:
        emotion = EMOTION_SECTION.format(feeling=task.emotion.instruction)
    return USER_SIMULATOR_PROMPT.format(
        instruction=task.instruction,
        facts=facts_section(task),
        emotion=emotion,
        challenge=challenge_section(task, with_emotion),
        manner=EMOTION_MANNER if emotional else NEUTRAL_MANNER,
        settled=" or settled as described above" if task.challenge is not None else "",
        stop=STOP_TOKEN,
        exit_rule=exit_rule(task, with_emotion) if allow_exit else "",
    )


def supervisor_prompt(
    task: Task,
    history: Sequence[Message],
    reply: str,
    with_emotion: bool = True,
    allow_exit: bool = True,
) -> str:
    """The supervisor's question about one proposed reply: the same rules the customer has."""
    emotional = _shows_emotion(task, with_emotion)
    transcript = "\n".join(
        f"{'Customer' if m.role == 'assistant' else 'Agent'}: {m.content}" for m in history
    )
    emotion = ""
    if emotional and task.emotion is not None:
        emotion = f"\nThe customer's emotion: {task.emotion.instruction}\n"
    settled = " or settled after a refusal" if task.challenge is not None else ""
    checks = SUPERVISOR_EMOTION_CHECK if emotional else ""
    checks += SUPERVISOR_STOP_CHECK.format(stop=STOP_TOKEN, settled=settled)
    if allow_exit:
        checks += SUPERVISOR_EXIT_CHECK.format(
            unsat=UNSATISFIED_TOKEN, settled=settled, triggers=_triggers(emotional, seen=True)
        )
    return SUPERVISOR_PROMPT.format(
        instruction=task.instruction,
        facts=facts_section(task, SUPERVISOR_FACT_GROUPS),
        emotion=emotion,
        transcript=transcript or "(none yet)",
        reply=reply,
        checks=checks,
    )
