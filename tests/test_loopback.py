"""The loopback test server stays quiet when a client hangs up on it (a client timing out
is what several tests provoke) and still reports a real error in a handler."""

from __future__ import annotations

import socket
import time
from http.server import BaseHTTPRequestHandler

import pytest

from loopback import loopback, serving


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/broken":
            raise ValueError("a handler bug")
        time.sleep(0.2)  # the client has gone by now
        self.send_response(200)
        self.end_headers()
        for _ in range(64):
            self.wfile.write(b"x" * 65536)


def _hang_up(port: int, path: str) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    time.sleep(0.5)


def test_a_client_hanging_up_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    with serving(loopback(_Slow)) as httpd:
        _hang_up(httpd.server_address[1], "/slow")
    assert "Traceback" not in capfd.readouterr().err


def test_a_handler_error_is_still_reported(capfd: pytest.CaptureFixture[str]) -> None:
    with serving(loopback(_Slow)) as httpd:
        _hang_up(httpd.server_address[1], "/broken")
    assert "ValueError: a handler bug" in capfd.readouterr().err
