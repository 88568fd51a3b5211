"""A scripted OpenAI-compatible Chat Completions endpoint for load tests, in its own process.

It answers ``POST .../chat/completions`` after a fixed latency with a reply chosen from the
request alone (so the same run gets the same replies): the first reply and every third one
after it call the first ``get_*`` tool the request offers, the others are text.
``GET /stats`` returns how many completions it served and when the first and last arrived,
which is what the throughput benchmark divides by (``GET /reset`` zeroes them). It is an
`asyncio.Protocol` with a hand-rolled HTTP/1.1 parser so that the endpoint, which shares the
machine's cores with the framework under test, stays cheap.

    python benchmarks/scripted_endpoint.py --port 0 --latency 0.2   # prints "PORT <n>"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from typing import Any

from bench_args import non_negative_float, port

_TOOL = re.compile(rb'"name"\s*:\s*"(get_[A-Za-z0-9_]*)"')


class Stats:
    def __init__(self) -> None:
        self.requests = 0
        self.first = 0.0
        self.last = 0.0
        self.bytes_in = 0


def reply_for(body: bytes, stats: Stats) -> bytes:
    """A completion chosen from the request: a tool call every third turn, else text."""
    turn = body.count(b'"role"')
    tool = _TOOL.search(body)
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if tool is not None and turn % 3 == 2:
        message["tool_calls"] = [
            {
                "id": f"call_{turn}",
                "type": "function",
                "function": {"name": tool.group(1).decode(), "arguments": "{}"},
            }
        ]
    else:
        message["content"] = f"Turn {turn}: could you tell me more about what you need?"
    return json.dumps(
        {
            "id": f"cmpl-{stats.requests}",
            "object": "chat.completion",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": 12},
        }
    ).encode()


def response(status: str, body: bytes) -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Endpoint(asyncio.Protocol):
    """One keep-alive connection: parse requests as they arrive, answer each after a delay."""

    def __init__(self, latency: float, stats: Stats) -> None:
        self.latency = latency
        self.stats = stats
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if len(self.buffer) < end + 4 + length:
                return
            body = self.buffer[end + 4 : end + 4 + length]
            self.buffer = self.buffer[end + 4 + length :]
            self.handle(head.split(" ", 2)[:2], body)

    def handle(self, request_line: list[str], body: bytes) -> None:
        method, path = request_line
        loop = asyncio.get_running_loop()
        if method == "GET" and path.endswith("/stats"):
            s = self.stats
            data = {"requests": s.requests, "first": s.first, "last": s.last, "bytes": s.bytes_in}
            self.send(response("200 OK", json.dumps(data).encode()))
            return
        if method == "GET" and path.endswith("/reset"):
            self.stats.__init__()  # type: ignore[misc]
            self.send(response("200 OK", b"{}"))
            return
        if method != "POST" or not path.endswith("/chat/completions"):
            self.send(response("404 Not Found", b'{"error": "not found"}'))
            return
        now = time.time()
        s = self.stats
        s.requests += 1
        s.first = s.first or now
        s.last = now
        s.bytes_in += len(body)
        data = response("200 OK", reply_for(body, s))
        if self.latency > 0:
            loop.call_later(self.latency, self.send, data)
        else:
            self.send(data)

    def send(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None


async def serve(port: int, latency: float) -> None:
    stats = Stats()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: Endpoint(latency, stats), "127.0.0.1", port, backlog=1024
    )
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=port, default=0, help="0 to 65535; 0 picks a free port.")
    parser.add_argument(
        "--latency", type=non_negative_float, default=0.2, help="Seconds before each reply."
    )
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.latency))


if __name__ == "__main__":
    main()
