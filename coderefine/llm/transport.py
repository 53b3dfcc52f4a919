"""The HTTP exchange with an LLM endpoint, bounded in time and in size.

The endpoint's bytes are untrusted, and `httpx`'s timeouts are per read: an
endpoint that trickles a byte now and then holds a request for ever, and
nothing stops one that answers with gigabytes. Here, within `deadline(seconds)`
every connect, read and write of a request gets at most what is left of it,
so the whole exchange (headers and body, however slowly they come) ends by
then as an `httpx` timeout; and `BoundedTransport` stops reading an answer past
`MAX_ANSWER_BYTES`, which is then `Unreadable`.
"""

from __future__ import annotations

import contextvars
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from ssl import SSLContext
from typing import Any

import httpcore2
import httpx2

from coderefine.llm.answers import Unreadable

MAX_ANSWER_BYTES = 8 * 1024 * 1024
"""The most an answer may hold. The JSON of a chat completion of a few thousand tokens is well
under 1 MiB; an endpoint that sends more is broken or hostile, and reading stops there."""
_TOO_LARGE = f"answered with more than {MAX_ANSWER_BYTES} bytes"

# The deadline of the request under way in this thread (or task): reads happen in the caller's thread.
_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Bound every request made inside to end, headers and body, `seconds` from now."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def _left(timeout: float | None, late: type[httpcore2.TimeoutException]) -> float | None:
    """`timeout`, cut to what is left of the deadline; `late` when nothing is."""
    end = _deadline.get()
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise late("the request's deadline has passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore2.NetworkStream):
    """A connection whose every read and write waits no longer than the deadline allows."""

    def __init__(self, stream: httpcore2.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore2.NetworkStream:
        secure = self._stream.start_tls(ssl_context, server_hostname, _left(timeout, httpcore2.ConnectTimeout))
        return _Stream(secure)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore2.NetworkBackend):
    """httpcore's own backend, handing out connections that keep the deadline."""

    def __init__(self, backend: httpcore2.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None,
    ) -> httpcore2.NetworkStream:
        limit = _left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._backend.connect_tcp(host, port, limit, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None
    ) -> httpcore2.NetworkStream:
        limit = _left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._backend.connect_unix_socket(path, limit, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class BoundedTransport(httpx2.HTTPTransport):
    """httpx's transport to one endpoint (through the proxy the environment names for it), with
    the deadline on every connection and the cap on every answer."""

    def __init__(self, url: str) -> None:
        super().__init__(proxy=_environment_proxy(url))
        self._url = url.rstrip("/")
        # httpx builds its pool (direct, through an HTTP or a SOCKS proxy) with httpcore's default
        # network backend and takes no other; the pool hands `_network_backend` to every connection
        # it opens. Neither name is public: were one renamed, reading it fails here, loudly, and
        # tests/llm/test_transport.py fails too.
        self._pool._network_backend = _Backend(self._pool._network_backend)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        # httpx inflates a compressed body after the transport has counted it: a small bomb
        # would fill memory. Chat answers are small enough to come as they are.
        request.headers["Accept-Encoding"] = "identity"
        response = super().handle_request(request)
        problem = _refused(response.headers)
        if problem is not None:
            response.close()
            raise Unreadable(self._url, problem, transient=False)
        assert isinstance(response.stream, httpx2.SyncByteStream)
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_Capped(response.stream, self._url),
            extensions=response.extensions,
        )

    def __del__(self) -> None:
        # As openai's own httpx client does: a client dropped unclosed closes its connections.
        with suppress(Exception):
            self.close()


def _refused(headers: httpx2.Headers) -> str | None:
    """Why an answer is malformed by its headers alone, before any of its body is read; None if not."""
    encoding = headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        return f"answered with a body in {encoding!r} encoding, though asked for none"
    length = headers.get("content-length", "").strip()
    if length.isdigit() and int(length) > MAX_ANSWER_BYTES:
        return _TOO_LARGE
    return None


class _Capped(httpx2.SyncByteStream):
    """An answer's body that ends in `Unreadable` as soon as it passes `MAX_ANSWER_BYTES`."""

    def __init__(self, stream: httpx2.SyncByteStream, url: str) -> None:
        self._stream = stream
        self._url = url

    def __iter__(self) -> Iterator[bytes]:
        size = 0
        for chunk in self._stream:
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise Unreadable(self._url, _TOO_LARGE, transient=False)
            yield chunk

    def close(self) -> None:
        self._stream.close()


def _environment_proxy(url: str) -> str | None:
    """The proxy the environment names for `url` (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY): httpx
    heeds them only when it builds its own transport."""
    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"
