"""Export rollouts for fine-tuning: TRL conversational tool calling, LLaMA-Factory sharegpt.

**TRL** (``trl.jsonl``): one row per rollout, ``{"id", "messages", "tools"}``, in the shape
TRL's tool-calling datasets use. Messages: the system prompt, user turns, assistant turns with
``tool_calls`` as ``{"id", "type": "function", "function": {"name", "arguments"}}`` and tool
results as ``{"role": "tool", "tool_call_id", "name", "content"}``; kept reasoning goes in the
assistant's ``reasoning_content`` (the key Qwen3-style chat templates read). ``arguments`` is
an *object*, as chat templates expect: Qwen2.5- and Llama-3.1-style templates render it with
``arguments | tojson``, which would encode a JSON string a second time. ``datasets`` 5 (the
version the ``train`` extra requires) loads such objects as its ``Json`` type, so rows with
different argument keys do not get each other's keys as nulls. ``tools`` stays a JSON string:
TRL's SFTTrainer decodes it, and the schemas come back byte-identical from any ``datasets``.

**LLaMA-Factory** (``sharegpt.json`` + ``dataset_info.json``): ``conversations`` alternate
human/observation with gpt/function_call as LLaMA-Factory requires; a function_call's value
is ``{"name", "arguments"}`` (a list for parallel calls), consecutive tool results are one
observation, and reasoning is kept as a ``<think>...</think>`` prefix, which its reasoning
templates split off again. Text an assistant sent in the same turn as a tool call has no
place in that format and is dropped there (TRL rows keep it).

Both: the conversation ends at the last assistant turn (later turns carry no loss), and a
rollout with a malformed tool call is skipped: it succeeded despite the call, and a model
should not learn to emit it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.data import Episode, Message
from tau_emotion.domains import load_domain

TRL_FILE = "trl.jsonl"
SHAREGPT_FILE = "sharegpt.json"
DATASET_INFO_FILE = "dataset_info.json"


class ExportReport(BaseModel):
    """What an export wrote and what it skipped."""

    model_config = ConfigDict(extra="forbid")

    format: str = Field(description="trl or sharegpt.")
    path: str = Field(description="The file written.")
    rows: int = Field(description="Rows written.")
    skipped_malformed: int = Field(default=0, description="Rollouts with a malformed call.")
    skipped_shape: int = Field(default=0, description="Rollouts the format cannot represent.")
    dropped_texts: int = Field(
        default=0, description="Assistant texts sent alongside tool calls (sharegpt only)."
    )
    reasoning: bool = Field(description="Reasoning content kept.")


def has_malformed_call(episode: Episode) -> bool:
    return any(c.parse_error for m in episode.messages for c in m.tool_calls or [])


def trainable_messages(episode: Episode) -> list[Message]:
    """The conversation up to and including the last assistant turn."""
    last = max((i for i, m in enumerate(episode.messages) if m.role == "assistant"), default=-1)
    return episode.messages[: last + 1]


@cache
def tools_json(domain: str) -> str:
    """A domain's tool schemas as the JSON string TRL rows carry (built once per domain)."""
    return json.dumps(load_domain(domain).tool_schemas(), ensure_ascii=False)


@cache
def functions_json(domain: str) -> str:
    """The bare function objects (name, description, parameters) LLaMA-Factory reads."""
    schemas = load_domain(domain).tool_schemas()
    return json.dumps([s.get("function", s) for s in schemas], ensure_ascii=False)


def rollout_id(episode: Episode) -> str:
    return f"{episode.domain}/{episode.task_id}/{episode.trial}"


# --- TRL ---------------------------------------------------------------------------------


def trl_message(message: Message, keep_reasoning: bool) -> dict[str, Any]:
    if message.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id,
            "name": message.name,
            "content": message.content or "",
        }
    # Empty string, not null: some chat templates apply string filters to every content.
    out: dict[str, Any] = {"role": message.role, "content": message.content or ""}
    if message.role != "assistant":
        return out
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": dict(c.arguments)},
            }
            for c in message.tool_calls
        ]
    if keep_reasoning and message.reasoning:
        out["reasoning_content"] = message.reasoning
    return out


def trl_row(episode: Episode, keep_reasoning: bool = True) -> dict[str, Any]:
    """One TRL conversational row: ``messages`` and ``tools`` (a JSON string)."""
    return {
        "id": rollout_id(episode),
        "messages": [trl_message(m, keep_reasoning) for m in trainable_messages(episode)],
        "tools": tools_json(episode.domain),
    }


def export_trl(
    episodes: Iterable[Episode], path: Path, keep_reasoning: bool = True
) -> ExportReport:
    """Write ``trl.jsonl``: load it with ``datasets.load_dataset("json", data_files=...)``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = malformed = 0
    with path.open("w", encoding="utf-8") as fh:
        for e in episodes:
            if has_malformed_call(e):
                malformed += 1
                continue
            fh.write(json.dumps(trl_row(e, keep_reasoning), ensure_ascii=False) + "\n")
            rows += 1
    return ExportReport(
        format="trl",
        path=str(path),
        rows=rows,
        skipped_malformed=malformed,
        reasoning=keep_reasoning,
    )


# --- LLaMA-Factory sharegpt --------------------------------------------------------------


def _think(message: Message, keep_reasoning: bool) -> str:
    if keep_reasoning and message.reasoning:
        return f"<think>\n{message.reasoning.strip()}\n</think>\n\n"
    return ""


def sharegpt_row(episode: Episode, keep_reasoning: bool = True) -> tuple[dict[str, Any], int]:
    """One sharegpt row and the number of assistant texts dropped beside tool calls."""
    messages = trainable_messages(episode)
    system = (messages[0].content or "") if messages and messages[0].role == "system" else ""
    turns: list[dict[str, str]] = []
    dropped = 0
    for m in messages:
        if m.role == "user":
            turns.append({"from": "human", "value": m.content or ""})
        elif m.role == "tool":
            if turns and turns[-1]["from"] == "observation":  # parallel results: one turn
                turns[-1]["value"] += "\n\n" + (m.content or "")
            else:
                turns.append({"from": "observation", "value": m.content or ""})
        elif m.role == "assistant" and m.tool_calls:
            dropped += bool(m.content and m.content.strip())
            calls = [{"name": c.name, "arguments": c.arguments} for c in m.tool_calls]
            value = json.dumps(calls[0] if len(calls) == 1 else calls, ensure_ascii=False)
            turns.append({"from": "function_call", "value": _think(m, keep_reasoning) + value})
        elif m.role == "assistant":
            turns.append({"from": "gpt", "value": _think(m, keep_reasoning) + (m.content or "")})
    row = {
        "id": rollout_id(episode),
        "conversations": turns,
        "system": system,
        "tools": functions_json(episode.domain),
    }
    return row, dropped


def sharegpt_valid(turns: list[dict[str, str]]) -> bool:
    """LLaMA-Factory's rule: human/observation and gpt/function_call alternate, even count."""
    odd, even = ("human", "observation"), ("gpt", "function_call")
    return (
        len(turns) > 0
        and len(turns) % 2 == 0
        and all(t["from"] in (odd if i % 2 == 0 else even) for i, t in enumerate(turns))
    )


def dataset_info_entry(file_name: str) -> dict[str, Any]:
    """The ``dataset_info.json`` entry LLaMA-Factory needs for ``sharegpt.json``."""
    return {
        "file_name": file_name,
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "system": "system", "tools": "tools"},
        "tags": {
            "role_tag": "from",
            "content_tag": "value",
            "user_tag": "human",
            "assistant_tag": "gpt",
            "observation_tag": "observation",
            "function_tag": "function_call",
        },
    }


def export_sharegpt(
    episodes: Iterable[Episode],
    folder: Path,
    dataset_name: str,
    keep_reasoning: bool = True,
) -> ExportReport:
    """Write ``sharegpt.json`` and merge its entry into ``dataset_info.json`` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    malformed = shape = dropped = 0
    for e in episodes:
        if has_malformed_call(e):
            malformed += 1
            continue
        row, lost = sharegpt_row(e, keep_reasoning)
        if not sharegpt_valid(row["conversations"]):
            shape += 1
            continue
        dropped += lost
        rows.append(row)
    path = folder / SHAREGPT_FILE
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    info_path = folder / DATASET_INFO_FILE
    info = json.loads(info_path.read_text(encoding="utf-8")) if info_path.exists() else {}
    info[dataset_name] = dataset_info_entry(SHAREGPT_FILE)
    info_path.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return ExportReport(
        format="sharegpt",
        path=str(path),
        rows=len(rows),
        skipped_malformed=malformed,
        skipped_shape=shape,
        dropped_texts=dropped,
        reasoning=keep_reasoning,
    )


def load_source(source: Path) -> tuple[list[Episode], str]:
    """Successful rollouts and a name from a mix folder, a run directory or a JSONL file."""
    from tau_emotion.runner.results import RESULTS_FILE, load_episodes
    from tau_emotion.training.mixes import EPISODES_FILE, MixError, read_episodes
    from tau_emotion.training.outcomes import Outcome, classify

    if source.is_file():
        episodes, name = read_episodes(source), source.stem
    elif (source / EPISODES_FILE).exists():
        episodes, name = read_episodes(source / EPISODES_FILE), source.name
    elif (source / RESULTS_FILE).exists():
        episodes, name = list(load_episodes(source / RESULTS_FILE).values()), source.name
    else:
        raise MixError(
            f"{source}: expected a mix folder ({EPISODES_FILE}), a run directory "
            f"({RESULTS_FILE}) or a JSONL file of episodes"
        )
    # Only successes are training data, whatever the source holds.
    return [e for e in episodes if classify(e) == Outcome.SUCCESS], name
