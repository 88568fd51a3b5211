"""A lean HTTP/1.1 client for one origin: keep-alive connections, one request each at a time.

Why not httpx: a chat-completion request is one POST of a prepared body, and at hundreds of
requests in flight httpx (and httpcore's pool scan) cost 1.5 ms of CPU per request on our
machines, more than everything else the framework does per agent step. This client is an
`asyncio.Protocol` per connection and a LIFO list of idle connections: 0.1 ms per request.

It speaks only what an OpenAI-compatible endpoint needs: ``Content-Length``, chunked and
close-delimited bodies, ``gzip``/``deflate`` bodies should a server compress anyway, TLS, and
1xx interim responses skipped. Proxies are not its job: `transport.py` sends through httpx
whenever the environment names a proxy for the endpoint. Timeouts are the caller's
(``asyncio.timeout``); a cancelled request closes its connection, which is never reused
half-read.
"""

from __future__ import annotations

import asyncio
import ssl
import zlib
from dataclasses import dataclass

MAX_HEAD_BYTES = 64 * 1024
MAX_BODY_BYTES = 256 * 1024 * 1024


class ProtocolError(Exception):
    """The connection broke or the server sent something that is not HTTP/1.1."""

    def __init__(self, message: str, sent_nothing: bool = False) -> None:
        super().__init__(message)
        # True when the connection died before any byte of a response: a reused keep-alive
        # connection the server had closed, which is safe to retry on a fresh one at once.
        self.sent_nothing = sent_nothing


@dataclass(frozen=True)
class Response:
    status: int
    reason: str
    headers: dict[str, str]
    """Lower-cased names; a repeated header keeps its last value."""
    body: bytes


class _Connection(asyncio.Protocol):
    """One TCP (or TLS) connection; parses the response to the request in flight."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[Response] | None = None
        self.reusable = True
        self._buffer = bytearray()
        self._head: tuple[int, str, dict[str, str]] | None = None
        self._received_any = False

    # asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._received_any = True
        self._buffer += data
        if self.waiter is None or self.waiter.done():
            self.reusable = False  # bytes nobody asked for: the stream is out of step
            return
        try:
            response = self._parse(eof=False)
        except ProtocolError as exc:
            self._fail(exc)
            return
        if response is not None:
            self.waiter.set_result(response)

    def eof_received(self) -> bool | None:
        self.reusable = False
        if self.waiter is not None and not self.waiter.done():
            try:
                response = self._parse(eof=True)
            except ProtocolError as exc:
                self._fail(exc)
                return None
            if response is not None:
                self.waiter.set_result(response)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.reusable = False
        self.transport = None
        if self.waiter is not None and not self.waiter.done():
            detail = f": {exc}" if exc else ""
            self._fail(
                ProtocolError(
                    f"connection closed before a complete response{detail}",
                    sent_nothing=not self._received_any,
                )
            )

    # one request

    async def request(self, data: bytes) -> Response:
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        self.waiter = loop.create_future()
        self._buffer.clear()
        self._head = None
        self._received_any = False
        self.transport.write(data)
        try:
            return await self.waiter
        except BaseException:
            self.reusable = False  # cancelled or failed mid-response: never reuse
            raise
        finally:
            self.waiter = None

    def close(self) -> None:
        self.reusable = False
        if self.transport is not None:
            self.transport.close()

    def _fail(self, exc: ProtocolError) -> None:
        self.reusable = False
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)
        if self.transport is not None:
            self.transport.close()

    def _parse(self, eof: bool) -> Response | None:
        """The complete response in the buffer, or None while more bytes are due."""
        buf = self._buffer
        while self._head is None:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > MAX_HEAD_BYTES:
                    raise ProtocolError("response headers too large")
                if eof:
                    raise ProtocolError(
                        "connection closed before the response headers",
                        sent_nothing=not buf,
                    )
                return None
            head = _parse_head(bytes(buf[:end]))
            del buf[: end + 4]
            if 100 <= head[0] < 200:  # interim (100 Continue, 103 Early Hints): skip
                continue
            self._head = head
        status, reason, headers = self._head
        if status in (204, 304):  # no body by definition, whatever the headers say
            return Response(status, reason, headers, b"")
        try:
            body = _take_body(buf, headers, eof)
        except ProtocolError as exc:
            raise ProtocolError(f"HTTP {status} {reason}: {exc}".replace("  ", " ")) from None
        if body is None:
            return None
        if headers.get("connection", "").lower() == "close":
            self.reusable = False
        return Response(status, reason, headers, _decode(body, headers))


def _parse_head(raw: bytes) -> tuple[int, str, dict[str, str]]:
    lines = raw.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise ProtocolError(f"not an HTTP/1.1 response: {lines[0][:200]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(code), reason, headers


def _take_body(buf: bytearray, headers: dict[str, str], eof: bool) -> bytes | None:
    """Remove and return the body from `buf` once it is complete (None: not yet)."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return _take_chunked(buf, eof)
    length_text = headers.get("content-length")
    if length_text is not None:
        if not length_text.isdigit() or int(length_text) > MAX_BODY_BYTES:
            raise ProtocolError(f"bad content-length {length_text!r}")
        length = int(length_text)
        if len(buf) < length:
            if eof:
                raise ProtocolError(f"response body cut off: {len(buf)} of {length} bytes arrived")
            return None
        body = bytes(buf[:length])
        del buf[:length]
        return body
    if not eof:  # no length: the body runs to the end of the connection
        if len(buf) > MAX_BODY_BYTES:
            raise ProtocolError("response body too large")
        return None
    body = bytes(buf)
    buf.clear()
    return body


def _take_chunked(buf: bytearray, eof: bool) -> bytes | None:
    parts: list[bytes] = []
    pos = 0
    while True:
        line_end = buf.find(b"\r\n", pos)
        if line_end < 0:
            break
        size_text = bytes(buf[pos:line_end]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise ProtocolError(f"bad chunk size {size_text[:40]!r}") from None
        start = line_end + 2
        if size == 0:
            trailer_end = buf.find(b"\r\n\r\n", line_end)
            if buf[start : start + 2] == b"\r\n":
                trailer_end, skip = start, 2
            elif trailer_end >= 0:
                skip = 4
            else:
                break
            del buf[: trailer_end + skip]
            return b"".join(parts)
        if len(buf) < start + size + 2:
            break
        parts.append(bytes(buf[start : start + size]))
        pos = start + size + 2
    if eof:
        raise ProtocolError("chunked response body cut off")
    return None


def _decode(body: bytes, headers: dict[str, str]) -> bytes:
    encoding = headers.get("content-encoding", "identity").lower()
    try:
        if encoding == "gzip":
            return zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if encoding == "deflate":
            return zlib.decompress(body)
    except zlib.error as exc:
        raise ProtocolError(f"could not decompress the {encoding} body: {exc}") from None
    return body


class Http1Pool:
    """Keep-alive connections to one origin (scheme, host, port)."""

    def __init__(self, host: str, port: int, tls: ssl.SSLContext | None) -> None:
        self.host = host
        self.port = port
        self._tls = tls
        self._idle: list[_Connection] = []

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(
            _Connection,
            self.host,
            self.port,
            ssl=self._tls,
            server_hostname=self.host if self._tls else None,
        )
        return conn

    async def request(self, data: bytes) -> Response:
        """Send one complete request (head and body) and read its response."""
        while self._idle:
            conn = self._idle.pop()  # the most recently used: least likely to be stale
            if not conn.reusable or conn.transport is None or conn.transport.is_closing():
                conn.close()
                continue
            try:
                response = await conn.request(data)
            except ProtocolError as exc:
                conn.close()
                if exc.sent_nothing:
                    continue  # the server had closed this idle connection: try another
                raise
            except BaseException:  # cancelled (a timeout) or broken: never reuse
                conn.close()
                raise
            self._release(conn)
            return response
        conn = await self._connect()
        try:
            response = await conn.request(data)
        except BaseException:
            conn.close()
            raise
        self._release(conn)
        return response

    def _release(self, conn: _Connection) -> None:
        if conn.reusable and conn.transport is not None and not conn.transport.is_closing():
            self._idle.append(conn)
        else:
            conn.close()

    def close(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()
