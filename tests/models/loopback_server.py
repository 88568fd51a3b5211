"""A real HTTP server on 127.0.0.1 speaking the Chat Completions protocol, driven by a script."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from loopback import loopback, serving


@dataclass(frozen=True)
class RawReply:
    """Bytes written verbatim as the whole response (status line included), after `delay`
    seconds; the connection is closed afterwards unless `keep_open`."""

    data: bytes
    delay: float = 0.0
    keep_open: bool = False


Reply = tuple[int, dict[str, Any] | str, dict[str, str]] | RawReply


def completion(
    content: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
    reasoning: str | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    if reasoning:
        message["reasoning_content"] = reasoning
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def function_call(name: str, arguments: str, call_id: str = "call_1") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


class ChatServer:
    def __init__(self, replies: list[Reply], keep_alive: bool = False) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.connections: set[int] = set()
        server = self

        class Handler(BaseHTTPRequestHandler):
            # HTTP/1.1 keeps connections open between requests; 1.0 closes after each one
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                server.connections.add(id(self.connection))
                server.requests.append(
                    {
                        "path": self.path,
                        "body": json.loads(self.rfile.read(length)),
                        "auth": self.headers.get("authorization"),
                    }
                )
                reply = (
                    server.replies.pop(0) if server.replies else (500, {"error": "no reply"}, {})
                )
                if isinstance(reply, RawReply):
                    time.sleep(reply.delay)
                    try:
                        self.wfile.write(reply.data)
                        self.wfile.flush()
                    except OSError:
                        pass  # the client gave up first (a timeout test)
                    self.close_connection = not reply.keep_open
                    return
                status, body, headers = reply
                data = (body if isinstance(body, str) else json.dumps(body)).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self.httpd = loopback(Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@contextmanager
def chat_server(replies: list[Reply], keep_alive: bool = False) -> Iterator[ChatServer]:
    server = ChatServer(replies, keep_alive)
    with serving(server.httpd):
        yield server
