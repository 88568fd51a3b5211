"""User hallucination: simulated-user turns stating facts the user was never given.

A simulated customer may only know its task: the instruction, its known facts, its request
texts, its emotion and feeling descriptions, and whatever the agent has told it so far.
Deterministic check first: every checkable value (`analysis.values`: email, date, time,
phone, code, number) in a user turn must appear in those texts or in an earlier turn of the
conversation; a value that appears nowhere is flagged at the turn that first states it.
An optional judge then reads the episodes without such flags (by default only the failed
ones, where a hallucination could have caused a false failure) for claims that are not
values ("I was told on the phone that the fee is waived").

Failed episodes with a flag are candidate false failures: the report counts them and, on
request, leaves them out of every other analysis.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from tau_emotion.analysis.judge import (
    JudgedReport,
    ask_json,
    gather_limited,
    judge_use,
    transcript,
)
from tau_emotion.analysis.runs import EpisodeRow, TaskKey, episode_fields
from tau_emotion.analysis.stats import Rate, rate
from tau_emotion.analysis.values import Corpus, extract_values
from tau_emotion.data import Episode, Task
from tau_emotion.models.base import ChatModel

EpisodeKey = tuple[str, str, int]

JUDGE_SYSTEM = """\
You check a simulated customer in a customer-service conversation. The customer may only
state facts from its task (below) or facts the agent told it earlier. List customer turns
that state a fact (an identity detail, a number, a date, a booking, a promise someone made,
an event) that the task does not contain and the agent did not say. Ignore feelings,
opinions, greetings and requests. Answer with one JSON object:
{"flags": [{"message_index": <index>, "claim": "<the invented fact>"}]}
(an empty list when there is none)."""


class HallucinationFlag(BaseModel):
    """One user turn stating something the user could not know."""

    message_index: int = Field(description="Index of the user turn.")
    value: str = Field(description="The unsupported value or claim.")
    kind: str = Field(description="Value kind (email, date, ...) or 'claim' from the judge.")
    source: Literal["rule", "judge"] = Field(description="Who flagged it.")


class EpisodeHallucination(EpisodeRow):
    """Flags of one episode."""

    success: bool = Field(description="Reward 1.")
    flags: list[HallucinationFlag] = Field(description="Flags, in conversation order.")


class HallucinationReport(JudgedReport):
    """How often the simulated user invented facts, and which failures that may explain."""

    method: Literal["rule", "rule+judge"] = Field(
        description="How turns were checked: '+judge' only when the judge answered."
    )
    checked: int = Field(description="Episodes whose task was found and checked.")
    unchecked: int = Field(description="Episodes whose task is unknown here (not checked).")
    flagged: Rate = Field(description="Checked episodes with at least one flag.")
    flagged_failures: Rate = Field(description="Failed checked episodes with a flag.")
    episodes: list[EpisodeHallucination] = Field(description="Episodes with flags only.")


def task_corpus(task: Task, episode: Episode | None = None) -> Corpus:
    """Everything the simulated user was given before the conversation started."""
    texts = [task.instruction, task.feeling or ""]
    texts += [f"{k} {v}" for k, v in task.known_facts.items()]
    texts += [intent.request for intent in task.intents]
    emotion = (episode.emotion if episode else None) or task.emotion
    if emotion is not None:
        texts.append(emotion.instruction)
    return Corpus(texts)


def check_episode(episode: Episode, task: Task) -> list[HallucinationFlag]:
    """Rule flags: values in user turns found neither in the task nor earlier in the talk."""
    corpus = task_corpus(task, episode)
    flags: list[HallucinationFlag] = []
    for i, m in enumerate(episode.messages):
        text = m.content or ""
        if m.role == "user":
            for value in extract_values(text):
                if not corpus.supports(value):
                    flags.append(
                        HallucinationFlag(
                            message_index=i, value=value.text, kind=value.kind, source="rule"
                        )
                    )
        # Later turns may repeat what was said (by either side) without being flagged again.
        if m.role in ("user", "assistant") and text:
            corpus.add(text)
    return flags


def _task_prompt(task: Task, episode: Episode) -> str:
    facts = "\n".join(f"- {k}: {v}" for k, v in task.known_facts.items()) or "- (none)"
    requests = "\n".join(f"- {i.request}" for i in task.intents)
    return (
        f"# Task instruction\n{task.instruction}\n\n# Known facts\n{facts}\n\n"
        f"# Requests\n{requests}\n\n# Conversation\n{transcript(episode)}"
    )


async def judge_episode(episode: Episode, task: Task, judge: ChatModel) -> list[HallucinationFlag]:
    """Judge flags; indices that are not user turns are dropped (the judge can misnumber)."""
    return await _judged_flags(episode, task, judge) or []


async def _judged_flags(
    episode: Episode, task: Task, judge: ChatModel
) -> list[HallucinationFlag] | None:
    """Judge flags, or None when the judge gave no usable answer (which is not "none")."""
    answer = await ask_json(judge, JUDGE_SYSTEM, _task_prompt(task, episode))
    raw = answer.get("flags") if answer else None
    if not isinstance(raw, list):
        return None
    flags: list[HallucinationFlag] = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        index, claim = item.get("message_index"), item.get("claim")
        if (
            isinstance(index, int)
            and 0 <= index < len(episode.messages)
            and episode.messages[index].role == "user"
        ):
            flags.append(
                HallucinationFlag(
                    message_index=index, value=str(claim or ""), kind="claim", source="judge"
                )
            )
    return flags


async def hallucination_analysis(
    episodes: Sequence[Episode],
    tasks: Mapping[TaskKey, Task],
    judge: ChatModel | None = None,
    judge_all: bool = False,
    concurrency: int = 8,
) -> HallucinationReport:
    """Rule flags for every episode; judge flags for the unflagged failed ones (or all)."""
    checked = [e for e in episodes if (e.domain, e.task_id) in tasks]
    flags = {e.key: check_episode(e, tasks[(e.domain, e.task_id)]) for e in checked}
    use = None
    if judge is not None:
        todo = [e for e in checked if not flags[e.key] and (judge_all or not e.success)]
        judged = await gather_limited(
            (_judged_flags(e, tasks[(e.domain, e.task_id)], judge) for e in todo), concurrency
        )
        for e, found in zip(todo, judged, strict=True):
            flags[e.key] = found or []
        use = judge_use(judged)
    failed = [e for e in checked if not e.success]
    return HallucinationReport(
        method="rule+judge" if use is not None and use.answered else "rule",
        judge=use,
        checked=len(checked),
        unchecked=len(episodes) - len(checked),
        flagged=rate(sum(bool(flags[e.key]) for e in checked), len(checked)),
        flagged_failures=rate(sum(bool(flags[e.key]) for e in failed), len(failed)),
        episodes=[
            EpisodeHallucination(**episode_fields(e), success=e.success, flags=flags[e.key])
            for e in checked
            if flags[e.key]
        ],
    )


def false_failures(report: HallucinationReport) -> set[EpisodeKey]:
    """Failed episodes with a user hallucination flag: candidate false failures."""
    return {(r.domain, r.task_id, r.trial) for r in report.episodes if not r.success}


def exclude_false_failures(
    episodes: Iterable[Episode], report: HallucinationReport
) -> list[Episode]:
    """The episodes without the candidate false failures (for `--exclude-user-hallucinations`)."""
    drop = false_failures(report)
    return [e for e in episodes if e.key not in drop]
