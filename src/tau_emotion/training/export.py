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
should not learn to emit it. A row's ``id`` is ``<domain>/<task>/<trial>/<digest>``, the digest
being the first 10 hex digits of `training_digest`: two collections can hold the same
(domain, task, trial), and the digest keeps their rows apart. A rollout whose training content
equals an earlier one's (same digest) is skipped, so no row, and no id, appears twice in a file.

`export_all` builds every output in memory (reading an existing ``dataset_info.json`` first) and
only then replaces the files, each atomically: a bad input leaves the folder as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.data import Episode, Message
from tau_emotion.domains import load_domain
from tau_emotion.errors import TauEmotionError
from tau_emotion.inputs import InputError, read_text
from tau_emotion.storage import write_atomic

TRL_FILE = "trl.jsonl"
SHAREGPT_FILE = "sharegpt.json"
DATASET_INFO_FILE = "dataset_info.json"
FORMATS = ("trl", "sharegpt")


class ExportError(TauEmotionError):
    """An export's source or output folder cannot be used; the message names it."""


class ExportReport(BaseModel):
    """What an export wrote and what it skipped."""

    model_config = ConfigDict(extra="forbid")

    format: str = Field(description="trl or sharegpt.")
    path: str = Field(description="The file written.")
    rows: int = Field(description="Rows written.")
    skipped_malformed: int = Field(default=0, description="Rollouts with a malformed call.")
    skipped_shape: int = Field(default=0, description="Rollouts the format cannot represent.")
    skipped_duplicate: int = Field(
        default=0, description="Rollouts whose training content an earlier row already holds."
    )
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


DIGEST_CHARS = 10
"""Hex digits of the training digest in a row id (40 bits: no collision in any real file)."""


def training_digest(episode: Episode, keep_reasoning: bool = True) -> str:
    """SHA-1 of what a training row holds: the domain (its tools) and every trainable
    message's role, text, reasoning (when kept), tool calls (name and arguments) and tool
    results. Call ids, seeds, timings and usage are left out: rollouts that differ only
    there give the same row, so they are duplicates for training."""
    content = [episode.domain] + [
        [
            m.role,
            m.content or "",
            (m.reasoning or "") if keep_reasoning else "",
            [[c.name, c.arguments] for c in m.tool_calls or []],
            m.name or "",
        ]
        for m in trainable_messages(episode)
    ]
    # ASCII and sorted keys: one text per content, whatever the key order or stray surrogates.
    text = json.dumps(content, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


def rollout_id(episode: Episode, keep_reasoning: bool = True) -> str:
    """A row's id: ``<domain>/<task>/<trial>/<digest>``, unique within an export."""
    digest = training_digest(episode, keep_reasoning)[:DIGEST_CHARS]
    return f"{episode.domain}/{episode.task_id}/{episode.trial}/{digest}"


def distinct_rows(episodes: Iterable[Episode], keep_reasoning: bool) -> tuple[list[Episode], int]:
    """The episodes whose training content no earlier one has (first kept), and how many were
    dropped: a duplicate would double a rollout's weight and repeat its row id."""
    seen: set[str] = set()
    kept: list[Episode] = []
    dropped = 0
    for e in episodes:
        digest = training_digest(e, keep_reasoning)
        if digest in seen:
            dropped += 1
        else:
            seen.add(digest)
            kept.append(e)
    return kept, dropped


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
        "id": rollout_id(episode, keep_reasoning),
        "messages": [trl_message(m, keep_reasoning) for m in trainable_messages(episode)],
        "tools": tools_json(episode.domain),
    }


def trl_export(
    episodes: Iterable[Episode], path: Path, keep_reasoning: bool = True
) -> tuple[str, ExportReport]:
    """The text of ``trl.jsonl`` at `path` and its report; nothing is written."""
    lines: list[str] = []
    malformed = 0
    episodes, duplicates = distinct_rows(episodes, keep_reasoning)
    for e in episodes:
        if has_malformed_call(e):
            malformed += 1
            continue
        lines.append(json.dumps(trl_row(e, keep_reasoning), ensure_ascii=False) + "\n")
    report = ExportReport(
        format="trl",
        path=str(path),
        rows=len(lines),
        skipped_malformed=malformed,
        skipped_duplicate=duplicates,
        reasoning=keep_reasoning,
    )
    return "".join(lines), report


def export_trl(
    episodes: Iterable[Episode], path: Path, keep_reasoning: bool = True
) -> ExportReport:
    """Write ``trl.jsonl``: load it with ``datasets.load_dataset("json", data_files=...)``."""
    text, report = trl_export(episodes, path, keep_reasoning)
    write_atomic(path, text)
    return report


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
        "id": rollout_id(episode, keep_reasoning),
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


def read_dataset_info(folder: Path) -> dict[str, Any]:
    """The datasets ``dataset_info.json`` in `folder` declares ({} when there is none), or
    `ExportError` naming the file: an export merges its entry into the others there."""
    path = folder / DATASET_INFO_FILE
    if not path.exists():
        return {}
    try:
        text = read_text(path, "dataset info")
    except InputError as exc:
        raise ExportError(str(exc)) from None
    try:
        info = json.loads(text)
    except json.JSONDecodeError as exc:
        # Refused, not overwritten: it may declare datasets other exports put there.
        raise ExportError(f"{path} is not valid JSON ({exc}); fix or remove it") from None
    if not isinstance(info, dict):
        kind = type(info).__name__
        raise ExportError(f"{path} must hold a JSON object of datasets, not a {kind}")
    return info


def sharegpt_export(
    episodes: Iterable[Episode],
    folder: Path,
    dataset_name: str,
    keep_reasoning: bool = True,
) -> tuple[dict[Path, str], ExportReport]:
    """The texts of ``sharegpt.json`` and the merged ``dataset_info.json`` in `folder`, by
    path, and the report; the existing ``dataset_info.json`` is read, nothing written."""
    info = read_dataset_info(folder)
    rows: list[dict[str, Any]] = []
    malformed = shape = dropped = 0
    episodes, duplicates = distinct_rows(episodes, keep_reasoning)
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
    info[dataset_name] = dataset_info_entry(SHAREGPT_FILE)
    files = {
        path: json.dumps(rows, ensure_ascii=False, indent=1) + "\n",
        folder / DATASET_INFO_FILE: json.dumps(info, indent=2) + "\n",
    }
    report = ExportReport(
        format="sharegpt",
        path=str(path),
        rows=len(rows),
        skipped_malformed=malformed,
        skipped_shape=shape,
        skipped_duplicate=duplicates,
        dropped_texts=dropped,
        reasoning=keep_reasoning,
    )
    return files, report


def export_sharegpt(
    episodes: Iterable[Episode],
    folder: Path,
    dataset_name: str,
    keep_reasoning: bool = True,
) -> ExportReport:
    """Write ``sharegpt.json`` and merge its entry into ``dataset_info.json`` in `folder`."""
    return export_all(episodes, folder, ("sharegpt",), dataset_name, keep_reasoning)[0]


def export_all(
    episodes: Iterable[Episode],
    folder: Path,
    formats: Iterable[str],
    dataset_name: str,
    keep_reasoning: bool = True,
) -> list[ExportReport]:
    """Write the `formats` (of `FORMATS`) into `folder`, one report each.

    Every output is built and every input read (an existing ``dataset_info.json``) before
    the first file is replaced, so a damaged input fails with the folder as it was.
    """
    episodes = list(episodes)  # read once per format
    files: dict[Path, str] = {}
    reports: list[ExportReport] = []
    for fmt in formats:
        if fmt == "trl":
            text, report = trl_export(episodes, folder / TRL_FILE, keep_reasoning)
            files[folder / TRL_FILE] = text
        elif fmt == "sharegpt":
            texts, report = sharegpt_export(episodes, folder, dataset_name, keep_reasoning)
            files |= texts
        else:
            raise ExportError(f"unknown export format {fmt!r}: use {' or '.join(FORMATS)}")
        reports.append(report)
    for path in files:
        if path.is_dir():  # checked for all first: one in the way must not stop half-way
            raise ExportError(f"{path} is a folder, not a file; move it to export here")
    for path, text in files.items():
        write_atomic(path, text)
    return reports
