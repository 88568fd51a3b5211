"""Where a prepared request body goes: the lean HTTP/1.1 client, or httpx behind a proxy.

Both send the same bytes to ``<base_url>/chat/completions`` and return the status, headers
and raw body; neither retries (`retry.py` does) or times out (the caller's
``asyncio.timeout`` does, so one limit covers connecting, sending and reading). Connections
belong to an event loop, so each loop gets its own pool: a model object survives being used
from several ``asyncio.run`` calls (the tracer does that).
"""

from __future__ import annotations

import asyncio
import ssl
import urllib.request
import weakref
from typing import Protocol
from urllib.parse import urlsplit

from tau_emotion.models.http1 import Http1Pool, ProtocolError, Response


class Transport(Protocol):
    async def post(self, body: bytes) -> Response:
        """POST one JSON body; raises `ProtocolError` or `OSError` when no response came."""
        ...


def _tls_context() -> ssl.SSLContext:
    try:  # the CA bundle httpx (and so the OpenAI SDK) trusts, when it is installed
        import certifi

        return ssl.create_default_context(cafile=certifi.where())
    except ImportError:
        return ssl.create_default_context()


class DirectTransport:
    """The lean client (`http1.py`): one keep-alive pool per event loop."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self._host = parts.hostname
        self._port = parts.port or (443 if parts.scheme == "https" else 80)
        self._tls = _tls_context() if parts.scheme == "https" else None
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.netloc.rpartition("@")[2]
        lines = [f"POST {path} HTTP/1.1", f"host: {host}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self._head = ("\r\n".join(lines) + "\r\ncontent-length: ").encode("latin-1")
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Http1Pool] = (
            weakref.WeakKeyDictionary()
        )

    async def post(self, body: bytes) -> Response:
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            pool = self._pools[loop] = Http1Pool(self._host, self._port, self._tls)
        return await pool.request(self._head + str(len(body)).encode() + b"\r\n\r\n" + body)


class HttpxTransport:
    """httpx, which reads proxies (and their certificates) from the environment."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self._url = url
        self._headers = headers
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, object] = (
            weakref.WeakKeyDictionary()
        )

    async def post(self, body: bytes) -> Response:
        import httpx  # deferred: only proxied endpoints need it

        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if not isinstance(client, httpx.AsyncClient):
            client = httpx.AsyncClient(
                timeout=None, limits=httpx.Limits(max_connections=None), trust_env=True
            )
            self._clients[loop] = client
        try:
            r = await client.post(self._url, content=body, headers=self._headers)
        except httpx.TransportError as exc:
            raise ProtocolError(f"{type(exc).__name__}: {exc}") from exc
        headers = {k.lower(): v for k, v in r.headers.items()}
        return Response(r.status_code, r.reason_phrase, headers, r.content)


def uses_proxy(url: str) -> bool:
    """Whether the environment routes `url` through a proxy (``*_PROXY``, ``NO_PROXY``)."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    if not (proxies.get(parts.scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(parts.hostname or "")


def make_transport(url: str, headers: dict[str, str]) -> Transport:
    return HttpxTransport(url, headers) if uses_proxy(url) else DirectTransport(url, headers)
