"""Run a real HTTP server on 127.0.0.1 for the duration of a test (shared by the model,
emotion and embedding tests that talk to OpenAI-compatible endpoints)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


def bypass_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never route loopback traffic through a proxy from the environment."""
    for var in PROXY_VARIABLES:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@contextmanager
def serving(httpd: ThreadingHTTPServer) -> Iterator[ThreadingHTTPServer]:
    """Serve `httpd` from a daemon thread; shut it down and close the socket afterwards."""
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


class LoopbackServer(ThreadingHTTPServer):
    """A threading server that takes a client hanging up mid-reply in its stride. Clients
    under test time out on purpose (and on a loaded machine, sooner than planned); the
    stock server would print that broken pipe's traceback into the output the tests read."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the client went away: nothing to report
        super().handle_error(request, client_address)


def loopback(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """A server for `handler` on 127.0.0.1 at a free port (not started yet)."""
    return LoopbackServer(("127.0.0.1", 0), handler)
