"""OpenAI-compatible Chat Completions client (vLLM, SGLang, Ollama, llama.cpp server, hosted APIs).

A request is built once as plain JSON (`wire.py`: each message serialised once per message,
tool schemas once per episode) and sent as bytes over a shared keep-alive transport
(`transport.py`), never through the OpenAI SDK's typed request transform, which walked every
message and tool schema on every request and made an episode's cost quadratic in its length.
The reply is parsed from the raw body (`completion.py`).

Retries (`retry.py`) with exponential backoff on 408/409/429, 5xx, timeouts, dropped
connections and 200 bodies that are cut off or not a completion, honouring ``Retry-After``;
each attempt is bounded by ``timeout_s``. A tool call whose arguments are not a JSON object of
finite values is kept with its raw text and a parse error, so the agent's malformed call
becomes the agent's failed turn rather than a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import weakref
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tau_emotion import __version__
from tau_emotion.data import Message
from tau_emotion.errors import ModelError
from tau_emotion.inputs import key_variable_field
from tau_emotion.models.completion import Undecodable, to_message
from tau_emotion.models.http1 import ProtocolError, Response
from tau_emotion.models.retry import Retryable, retry_after, with_retries
from tau_emotion.models.sanitize import clean_text
from tau_emotion.models.sanitize import parse_tool_call as parse_tool_call
from tau_emotion.models.transport import Transport, make_transport
from tau_emotion.models.wire import BodyBuilder
from tau_emotion.models.wire import to_openai_messages as to_openai_messages

DELIVERY_FIELDS = frozenset(
    {
        # Authentication, not content; and the variable's value is a secret.
        "api_key_env",
        # How a request is sent and retried, not what comes back.
        "timeout_s",
        "max_retries",
        "backoff_s",
        "max_concurrency",
        # Cost is computed here from the reply's token counts.
        "price_input_per_mtok",
        "price_output_per_mtok",
    }
)
"""`ModelConfig` fields that decide how a request is delivered and billed, never what the
model answers: the request cache leaves them out of its key, and a resumed run may change
them."""


class ModelConfig(BaseModel):
    """How to reach one OpenAI-compatible model."""

    # An error must not echo what was given: a key typed where its variable's name belongs
    # would land in a traceback, a log or a notebook's output.
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    model: str = Field(description="Model name as the endpoint knows it.")
    base_url: str | None = Field(default=None, description="e.g. http://127.0.0.1:8000/v1")
    api_key_env: str = Field(
        default="OPENAI_API_KEY", description="Environment variable holding the API key."
    )
    temperature: float = Field(
        default=0.0, ge=0, allow_inf_nan=False, description="Sampling temperature."
    )
    top_p: float | None = Field(
        default=None, gt=0, le=1, description="Nucleus sampling: the probability mass kept."
    )
    max_tokens: int | None = Field(default=None, ge=1, description="Cap on completion tokens.")
    seed: int | None = Field(
        default=None, description="Sampling seed sent with each request (if the backend uses it)."
    )
    timeout_s: float = Field(
        default=60.0,
        gt=0,
        description="Seconds one request may take, from sending to the last byte of the reply "
        "(the endpoint answers only when generation is done, so this bounds the first byte too); "
        "when it runs out the attempt counts as a timeout and is retried.",
    )
    max_retries: int = Field(default=5, ge=0, description="Retries on 429 / 5xx / timeouts.")
    backoff_s: float = Field(
        default=1.0,
        ge=0,
        allow_inf_nan=False,
        description="First backoff delay; doubles per retry.",
    )
    max_concurrency: int | None = Field(
        default=None,
        ge=1,
        description="Cap on concurrent requests to this endpoint; None: as many as the run has "
        "episodes in flight.",
    )
    # Finite and not negative: a NaN cost is stored as null, which no reader of the run's
    # files accepts, and a negative one subtracts from the total.
    price_input_per_mtok: float = Field(
        default=0.0, ge=0, allow_inf_nan=False, description="USD per million input tokens."
    )
    price_output_per_mtok: float = Field(
        default=0.0, ge=0, allow_inf_nan=False, description="USD per million output tokens."
    )
    send_reasoning: bool = Field(
        default=False,
        description="Send earlier reasoning back as `reasoning_content` (some backends need it).",
    )
    extra_body: dict[str, Any] = Field(
        default_factory=dict, description="Extra request fields, e.g. chat_template_kwargs."
    )

    @model_validator(mode="before")
    @classmethod
    def _no_key(cls, data: Any) -> Any:
        if isinstance(data, dict) and "api_key" in data:
            # Said plainly rather than as an unknown field: a config is stored in the run's
            # manifest, so the key itself never belongs in one.
            raise ValueError(
                "api_key is not read from a config (it would be stored in manifest.json): put "
                "the key in an environment variable and give that variable's name as api_key_env"
            )
        return data

    _variable_name = field_validator("api_key_env")(key_variable_field)


DEFAULT_BASE_URL = "https://api.openai.com/v1"


def request_fields(cfg: ModelConfig) -> dict[str, Any]:
    """Every body field except messages and tools: fixed for the life of a model."""
    fields: dict[str, Any] = {"model": cfg.model, "temperature": cfg.temperature}
    if cfg.top_p is not None:
        fields["top_p"] = cfg.top_p
    if cfg.max_tokens is not None:
        fields["max_tokens"] = cfg.max_tokens
    if cfg.seed is not None:
        fields["seed"] = cfg.seed
    fields.update(cfg.extra_body)  # as the SDK's extra_body: merged into the body, last word
    return fields


class OpenAICompatibleModel:
    """`ChatModel` over any OpenAI-compatible endpoint, with the lean transport."""

    def __init__(self, config: ModelConfig, transport: Transport | None = None) -> None:
        self.config = config
        self.name = config.model
        base = (config.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip(
            "/"
        )
        self.url = f"{base}/chat/completions"
        self._who = f"{config.model} at {base}"
        key = os.environ.get(config.api_key_env) or "EMPTY"  # local servers take any key
        headers = {
            "authorization": f"Bearer {key}",
            "content-type": "application/json",
            "accept": "application/json",
            "accept-encoding": "identity",
            "user-agent": f"tau-emotion/{__version__}",
        }
        for variable, header in (
            ("OPENAI_ORG_ID", "openai-organization"),
            ("OPENAI_PROJECT_ID", "openai-project"),
        ):
            if os.environ.get(variable):
                headers[header] = os.environ[variable]
        self._transport = transport or make_transport(self.url, headers)
        self._body = BodyBuilder(request_fields(config), config.send_reasoning)
        self._limit = config.max_concurrency
        self._semaphores: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = weakref.WeakKeyDictionary()

    def _semaphore(self) -> asyncio.Semaphore | None:
        if self._limit is None:
            return None
        loop = asyncio.get_running_loop()  # a semaphore belongs to one loop, like connections
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self._limit)
        return semaphore

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Message:
        body = self._body.build(messages, tools)
        async with self._semaphore() or contextlib.nullcontext():
            return await with_retries(
                lambda: self._attempt(body),
                self.config.max_retries,
                self.config.backoff_s,
                self._who,
            )

    async def _attempt(self, body: bytes) -> Message:
        cfg = self.config
        started = time.perf_counter()
        try:
            async with asyncio.timeout(cfg.timeout_s):
                response = await self._transport.post(body)
        except TimeoutError:
            raise Retryable(
                f"no complete reply within {cfg.timeout_s:g} s (timeout_s); the request was "
                "abandoned"
            ) from None
        except ProtocolError as exc:  # the response broke off or was not HTTP
            raise Retryable(f"broken response: {exc}") from None
        except OSError as exc:
            raise Retryable(f"connection failed: {type(exc).__name__}: {exc}") from None
        if response.status != 200:
            self._raise_for_status(response)
        try:
            return to_message(
                response.body,
                time.perf_counter() - started,
                cfg.price_input_per_mtok,
                cfg.price_output_per_mtok,
            )
        except Undecodable as exc:
            raise Retryable(str(exc)) from None

    def _raise_for_status(self, response: Response) -> None:
        detail = error_detail(response.body)
        reason = f"HTTP {response.status} {response.reason}".rstrip() + (
            f": {detail}" if detail else ""
        )
        if response.status in RETRY_STATUSES or response.status >= 500:
            raise Retryable(reason, retry_after(response.headers))
        raise ModelError(f"{self._who}: {reason}")


RETRY_STATUSES = frozenset({408, 409, 429})
"""Besides every 5xx: request timeout, conflict (a busy worker) and rate limits."""


def error_detail(body: bytes) -> str:
    """The endpoint's own error message, when its body carries one."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return clean_text(body[:300].decode("utf-8", errors="replace"))[0].strip()
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return clean_text(error["message"][:300])[0]
    return clean_text(json.dumps(data)[:300])[0]
