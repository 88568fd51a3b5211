"""Tool use vs follow-up: does the agent look things up, or ask the customer?

Per trajectory:
- tool calls (read / write / terminal, by the domain's tool kinds);
- follow-ups: agent text turns that ask the customer something (contain a '?'), except the
  closing "anything else?", which invites the next request rather than asking for data;
- lookupable asks: follow-ups whose answer the agent could have had without asking. The
  answer is the customer's next message; its checkable values (`analysis.values`: emails,
  codes, numbers, dates...) that the question itself did not already contain are compared
  with the tool results. An ask is lookupable when an answer value
  - already appeared in a tool result before the question ("earlier_result"), or
  - is returned by a read tool in this trajectory and was not an argument of any call
    before that result ("read_tool"): the value came out of a lookup the agent could do,
    rather than being the key it needed to do the lookup (an email used to authenticate).
  This is a heuristic on the customer's answer, so it only sees checkable values.

Across trajectories: the share with more tool calls than follow-ups and success in each
group, mean counts for successes and failures, and success with / without lookupable asks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from tau_emotion.analysis.runs import EpisodeRow, episode_fields, tool_kinds
from tau_emotion.analysis.stats import Rate, mean_or_none, rate, success_rate
from tau_emotion.analysis.values import Corpus, extract_values
from tau_emotion.data import Episode, Message
from tau_emotion.domains.tools import ToolKind

KindsFor = Callable[[str], Mapping[str, ToolKind]]


class LookupableAsk(BaseModel):
    """A follow-up question whose answer the tools had or could have given."""

    message_index: int = Field(description="Index of the agent's question.")
    value: str = Field(description="The value in the customer's answer.")
    reason: Literal["earlier_result", "read_tool"] = Field(description="Where it was available.")


class TrajectoryToolUse(EpisodeRow):
    """Tool use and follow-ups of one episode."""

    success: bool = Field(description="Reward 1.")
    tool_calls: int = Field(description="All tool calls.")
    read_calls: int = Field(description="Calls of read tools.")
    write_calls: int = Field(description="Calls of write tools.")
    follow_ups: int = Field(description="Agent text turns asking the customer something.")
    lookupable: list[LookupableAsk] = Field(description="Follow-ups the agent could have avoided.")


class ToolUseReport(BaseModel):
    """Tool use vs follow-up over a set of episodes."""

    trajectories: list[TrajectoryToolUse] = Field(description="One per episode.")
    more_tools: Rate = Field(description="Trajectories with more tool calls than follow-ups.")
    success_more_tools: Rate = Field(description="Success among those.")
    success_other: Rate = Field(description="Success among the rest.")
    mean_tools_success: float | None = Field(
        description="Mean tool calls of successful episodes; None when none succeeded."
    )
    mean_tools_failure: float | None = Field(
        description="Mean tool calls of failed episodes; None when none failed."
    )
    mean_follow_ups_success: float | None = Field(
        description="Mean follow-ups of successful episodes; None when none succeeded."
    )
    mean_follow_ups_failure: float | None = Field(
        description="Mean follow-ups of failed episodes; None when none failed."
    )
    with_lookupable: Rate = Field(description="Trajectories with at least one lookupable ask.")
    success_with_lookupable: Rate = Field(description="Success among those.")
    success_without_lookupable: Rate = Field(description="Success among the rest.")


_CLOSING = re.compile(
    r"(anything else|something else|further help|all set|else (i|we) can (help|do))", re.I
)


def is_follow_up(message: Message) -> bool:
    """An agent text turn that asks the customer something, other than "anything else?"

    The closing question invites the next request rather than asking for information, so
    it neither counts as a follow-up nor can be a lookupable ask.
    """
    text = message.content or ""
    return message.role == "assistant" and "?" in text and not _CLOSING.search(text)


def _next_user_text(messages: Sequence[Message], index: int) -> str | None:
    for m in messages[index + 1 :]:
        if m.role == "user":
            return m.content or ""
    return None


def lookupable_asks(
    messages: Sequence[Message], kinds: Mapping[str, ToolKind]
) -> list[LookupableAsk]:
    """Follow-ups whose answer was in an earlier tool result or comes out of a read tool."""
    call_at: dict[str, tuple[int, str, str]] = {}  # call id -> (index, tool, arguments json)
    for i, m in enumerate(messages):
        for c in m.tool_calls or []:
            call_at[c.id] = (i, c.name, json.dumps(c.arguments, sort_keys=True))
    # Read results with the arguments of every call made before them (unknown kinds count
    # as reads: without a domain we cannot tell, and reads are the common case).
    reads: list[tuple[int, Corpus, Corpus]] = []
    for j, m in enumerate(messages):
        if m.role != "tool" or m.error or not m.content:
            continue
        _, tool, _ = call_at.get(m.tool_call_id or "", (j, m.name or "", ""))
        if kinds.get(tool, "read") != "read":
            continue
        before = Corpus(args for (i, _, args) in call_at.values() if i < j)
        reads.append((j, Corpus([m.content]), before))
    asks: list[LookupableAsk] = []
    for i, m in enumerate(messages):
        if not is_follow_up(m):
            continue
        answer = _next_user_text(messages, i)
        values = extract_values(answer) if answer else []
        if not values:
            continue  # most answers ("yes", "no") hold nothing to compare: skip the corpora
        question = Corpus([m.content or ""])
        earlier = Corpus(r.content or "" for r in messages[:i] if r.role == "tool" and not r.error)
        for value in values:
            if question.supports(value):
                continue  # the agent read it out and asked for a yes: not a lookup it skipped
            if earlier.supports(value):
                asks.append(
                    LookupableAsk(message_index=i, value=value.text, reason="earlier_result")
                )
                break
            if any(res.supports(value) and not args.supports(value) for _, res, args in reads):
                asks.append(LookupableAsk(message_index=i, value=value.text, reason="read_tool"))
                break
    return asks


def trajectory_tool_use(episode: Episode, kinds: Mapping[str, ToolKind]) -> TrajectoryToolUse:
    calls = [c for m in episode.messages for c in m.tool_calls or []]
    return TrajectoryToolUse(
        **episode_fields(episode),
        success=episode.success,
        tool_calls=len(calls),
        read_calls=sum(kinds.get(c.name) == "read" for c in calls),
        write_calls=sum(kinds.get(c.name) == "write" for c in calls),
        follow_ups=sum(is_follow_up(m) for m in episode.messages),
        lookupable=lookupable_asks(episode.messages, kinds),
    )


def tool_use_analysis(
    episodes: Sequence[Episode], kinds_for: KindsFor = tool_kinds
) -> ToolUseReport:
    kinds_cache: dict[str, Mapping[str, ToolKind]] = {}
    rows = []
    for e in episodes:
        if e.domain not in kinds_cache:
            kinds_cache[e.domain] = kinds_for(e.domain)
        rows.append(trajectory_tool_use(e, kinds_cache[e.domain]))
    more = [r for r in rows if r.tool_calls > r.follow_ups]
    other = [r for r in rows if r.tool_calls <= r.follow_ups]
    ok = [r for r in rows if r.success]
    failed = [r for r in rows if not r.success]
    with_ask = [r for r in rows if r.lookupable]
    without_ask = [r for r in rows if not r.lookupable]
    return ToolUseReport(
        trajectories=rows,
        more_tools=rate(len(more), len(rows)),
        success_more_tools=success_rate(more),
        success_other=success_rate(other),
        mean_tools_success=mean_or_none(r.tool_calls for r in ok),
        mean_tools_failure=mean_or_none(r.tool_calls for r in failed),
        mean_follow_ups_success=mean_or_none(r.follow_ups for r in ok),
        mean_follow_ups_failure=mean_or_none(r.follow_ups for r in failed),
        with_lookupable=rate(len(with_ask), len(rows)),
        success_with_lookupable=success_rate(with_ask),
        success_without_lookupable=success_rate(without_ask),
    )
