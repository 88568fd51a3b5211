"""OpenAI-compatible Chat Completions client (vLLM, SGLang, Ollama, llama.cpp server, hosted APIs).

Retries with exponential backoff on 429, 5xx, timeouts and connection errors, honouring
``Retry-After``; a per-endpoint semaphore caps concurrent requests. A tool call whose
argument string is not a JSON object is kept with its raw text and a parse error, so the
agent's malformed call becomes the agent's failed turn rather than a crash.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.data import Message, ToolCall, Usage
from tau_emotion.errors import ModelError


class ModelConfig(BaseModel):
    """How to reach one OpenAI-compatible model."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="Model name as the endpoint knows it.")
    base_url: str | None = Field(default=None, description="e.g. http://127.0.0.1:8000/v1")
    api_key_env: str = Field(
        default="OPENAI_API_KEY", description="Environment variable holding the API key."
    )
    temperature: float = Field(default=0.0, description="Sampling temperature.")
    top_p: float | None = Field(default=None, description="Nucleus sampling.")
    max_tokens: int | None = Field(default=None, ge=1, description="Cap on completion tokens.")
    seed: int | None = Field(
        default=None, description="Sampling seed sent with each request (if the backend uses it)."
    )
    timeout_s: float = Field(default=120.0, description="Per-request timeout in seconds.")
    max_retries: int = Field(default=5, ge=0, description="Retries on 429 / 5xx / timeouts.")
    backoff_s: float = Field(default=1.0, description="First backoff delay; doubles per retry.")
    max_concurrency: int = Field(default=64, description="Concurrent requests to this endpoint.")
    price_input_per_mtok: float = Field(default=0.0, description="USD per million input tokens.")
    price_output_per_mtok: float = Field(default=0.0, description="USD per million output tokens.")
    send_reasoning: bool = Field(
        default=False,
        description="Send earlier reasoning back as `reasoning_content` (some backends need it).",
    )
    extra_body: dict[str, Any] = Field(
        default_factory=dict, description="Extra request fields, e.g. chat_template_kwargs."
    )


def to_openai_messages(messages: Sequence[Message], send_reasoning: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content or ""})
            continue
        entry: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.tool_calls:
            entry["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {
                        "name": c.name,
                        "arguments": c.raw_arguments
                        if c.raw_arguments is not None
                        else json.dumps(c.arguments),
                    },
                }
                for c in m.tool_calls
            ]
        if send_reasoning and m.reasoning:
            entry["reasoning_content"] = m.reasoning
        if entry["content"] is None and m.role != "assistant":
            entry["content"] = ""
        out.append(entry)
    return out


def parse_tool_call(call_id: str, name: str, raw: str | None) -> ToolCall:
    """Parse a tool call's argument string; keep it raw with the reason when it is not JSON."""
    text = raw or "{}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return ToolCall(
            id=call_id, name=name, parse_error=f"invalid JSON ({exc})", raw_arguments=text
        )
    if not isinstance(value, dict):
        return ToolCall(
            id=call_id, name=name, parse_error="arguments are not a JSON object", raw_arguments=text
        )
    return ToolCall(id=call_id, name=name, arguments=value)


class OpenAICompatibleModel:
    """`ChatModel` over any OpenAI-compatible endpoint."""

    def __init__(self, config: ModelConfig) -> None:
        import openai  # deferred: keeps `tau-emotion --help` fast

        self.config = config
        self.name = config.model
        self._openai = openai
        self._client = openai.AsyncOpenAI(
            base_url=config.base_url,
            api_key=os.environ.get(config.api_key_env) or "EMPTY",
            timeout=config.timeout_s,
            max_retries=0,  # retries are ours, so that they are visible and tested
        )
        self._semaphore = asyncio.Semaphore(config.max_concurrency)

    async def _send(self, request: dict[str, Any]) -> Any:
        return await self._client.chat.completions.create(**request)

    def _retryable(self, exc: Exception) -> tuple[bool, float | None]:
        o = self._openai
        if isinstance(exc, o.APITimeoutError | o.APIConnectionError):
            return True, None
        if isinstance(exc, o.APIStatusError):
            retry_after = exc.response.headers.get("retry-after")
            delay = (
                float(retry_after)
                if retry_after and retry_after.replace(".", "").isdigit()
                else None
            )
            return exc.status_code == 429 or exc.status_code >= 500, delay
        return False, None

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        cfg = self.config
        request: dict[str, Any] = {
            "model": cfg.model,
            "messages": to_openai_messages(messages, cfg.send_reasoning),
            "temperature": cfg.temperature,
        }
        if tools:
            request["tools"] = list(tools)
        if cfg.top_p is not None:
            request["top_p"] = cfg.top_p
        if cfg.max_tokens is not None:
            request["max_tokens"] = cfg.max_tokens
        if cfg.seed is not None:
            request["seed"] = cfg.seed
        if cfg.extra_body:
            request["extra_body"] = cfg.extra_body
        last_error = ""
        for attempt in range(cfg.max_retries + 1):
            started = time.perf_counter()
            try:
                async with self._semaphore:
                    response = await self._send(request)
                return self._to_message(response, time.perf_counter() - started)
            except Exception as exc:
                retry, delay = self._retryable(exc)
                last_error = f"{type(exc).__name__}: {exc}"
                if not retry:
                    raise ModelError(f"{cfg.model} at {cfg.base_url}: {last_error}") from exc
                if attempt == cfg.max_retries:
                    break
                backoff = cfg.backoff_s * (2**attempt) * (0.5 + random.random() / 2)
                await asyncio.sleep(delay if delay is not None else backoff)
        raise ModelError(
            f"{cfg.model} at {cfg.base_url}: "
            f"failed after {cfg.max_retries + 1} attempts: {last_error}"
        )

    def _to_message(self, response: Any, latency: float) -> Message:
        if not getattr(response, "choices", None):
            raise ModelError(f"{self.config.model}: response has no choices")
        msg = response.choices[0].message
        extra = getattr(msg, "model_extra", None) or {}
        reasoning = extra.get("reasoning_content") or extra.get("reasoning")
        calls = [
            parse_tool_call(c.id or f"call_{i}", c.function.name, c.function.arguments)
            for i, c in enumerate(msg.tool_calls or [])
        ]
        usage = Usage(calls=1)
        if response.usage is not None:
            p, c = response.usage.prompt_tokens or 0, response.usage.completion_tokens or 0
            cost = (
                p * self.config.price_input_per_mtok + c * self.config.price_output_per_mtok
            ) / 1e6
            usage = Usage(prompt_tokens=p, completion_tokens=c, cost_usd=cost, calls=1)
        return Message(
            role="assistant",
            content=msg.content,
            tool_calls=calls or None,
            reasoning=reasoning if isinstance(reasoning, str) else None,
            usage=usage,
            latency_s=latency,
        )
