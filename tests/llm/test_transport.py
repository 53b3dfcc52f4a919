"""The bounds of an exchange with the endpoint, over real HTTP: a deadline per request, a cap per answer."""

from __future__ import annotations

import gzip
import json
import socket
import time
import tracemalloc
from collections.abc import Callable

import httpcore2
import httpx2
import openai  # noqa: F401 - loaded here, not on the clock: the client imports it on its first request, in a second
import pytest

from coderefine.errors import BadResponse, EndpointUnavailable
from coderefine.llm.chat import Message
from coderefine.llm.client import LLMOptions, OpenAIChat, RemoteEndpoint
from coderefine.llm.transport import MAX_ANSWER_BYTES
from tests.scripted_llm import Reply, ScriptedLLM

Start = Callable[..., ScriptedLLM]
HELLO = [Message("user", "hello")]
SLACK = 1.0  # seconds a loaded machine may add to a deadline: far less than a trickle would take
TRICKLE = 0.05  # seconds between trickled bytes: each read gets one long before a per-read timeout


def client(server: ScriptedLLM, url: str | None = None, **options: object) -> OpenAIChat:
    settings = {"model": "scripted-model", "backoff": 0.01, "retries": 0, **options}
    return OpenAIChat(RemoteEndpoint(url or server.url, "key"), LLMOptions(**settings))  # type: ignore[arg-type]


def test_trickled_headers_end_at_the_deadline(scripted: Start) -> None:
    server = scripted([Reply("late", trickle="headers", pause=TRICKLE)])  # about 15 s to send whole
    started = time.monotonic()
    with pytest.raises(EndpointUnavailable, match=r"did not answer within the 1 s deadline \(1 attempt\)") as caught:
        client(server, timeout=1.0).complete(HELLO)
    assert time.monotonic() - started < 1.0 + SLACK
    assert str(caught.value).startswith(f"the LLM endpoint at {server.url} ")


def test_a_trickled_body_ends_at_the_deadline_and_is_retried_as_a_timeout(scripted: Start) -> None:
    server = scripted([Reply("late", trickle="body", pause=TRICKLE), "in time"])
    started = time.monotonic()
    answer = client(server, timeout=1.0, retries=1).complete(HELLO)
    assert answer.text == "in time"
    assert server.attempts == 2
    assert time.monotonic() - started < 1.0 + SLACK


def test_every_attempt_has_a_deadline_of_its_own(scripted: Start) -> None:
    server = scripted([Reply("late", trickle="body", pause=TRICKLE)] * 2)
    started = time.monotonic()
    with pytest.raises(EndpointUnavailable, match=r"within the 0.5 s deadline \(2 attempts\)"):
        client(server, timeout=0.5, retries=1).complete(HELLO)
    assert time.monotonic() - started < 2 * 0.5 + SLACK


def test_the_list_of_models_is_bounded_by_the_deadline(scripted: Start) -> None:
    models = json.dumps({"object": "list", "data": [{"id": "solo"}]}).encode()
    server = scripted(["never"], models_reply=Reply(body=models, trickle="body", pause=TRICKLE))
    started = time.monotonic()
    with pytest.raises(EndpointUnavailable, match=r"did not answer within the 1 s deadline"):
        client(server, model=None, timeout=1.0).complete(HELLO)
    assert time.monotonic() - started < 1.0 + SLACK


def test_a_huge_answer_stops_at_the_cap_and_memory_stays_bounded(scripted: Start) -> None:
    size = 64 * 1024 * 1024
    server = scripted([Reply(size=size)] * 2)  # streamed by the server, with no Content-Length
    chat = client(server, retries=1)
    tracing = tracemalloc.is_tracing()  # already, under PYTHONTRACEMALLOC
    tracemalloc.start()
    tracemalloc.reset_peak()
    held = tracemalloc.get_traced_memory()[0]
    try:
        with pytest.raises(BadResponse) as caught:
            chat.complete(HELLO)
        peak = tracemalloc.get_traced_memory()[1] - held
    finally:
        if not tracing:
            tracemalloc.stop()
    assert str(caught.value) == f"the LLM endpoint at {server.url} answered with more than {MAX_ANSWER_BYTES} bytes"
    assert server.attempts == 1  # the same endpoint asked again sends the same flood
    assert peak < 3 * MAX_ANSWER_BYTES < size / 2


def test_a_claimed_length_over_the_cap_is_refused_before_reading(scripted: Start) -> None:
    # The body trickles: reading any of it would take the whole 10 s deadline.
    server = scripted([Reply(body=b'{"choices": []}', length=2**40, trickle="body", pause=1.0)])
    started = time.monotonic()
    with pytest.raises(BadResponse, match=f"answered with more than {MAX_ANSWER_BYTES} bytes$"):
        client(server, timeout=10.0, retries=2).complete(HELLO)
    assert time.monotonic() - started < SLACK
    assert server.attempts == 1


def test_a_compressed_answer_is_refused(scripted: Start) -> None:
    # httpx would inflate it after the cap was counted: a small bomb would fill memory.
    bomb = gzip.compress(b" " * (64 * 1024 * 1024))
    server = scripted([Reply(body=bomb, encoding="gzip")])
    with pytest.raises(BadResponse, match=r"answered with a body in 'gzip' encoding, though asked for none$"):
        client(server, retries=2).complete(HELLO)
    assert server.attempts == 1


def test_the_proxy_the_environment_names_is_used_and_bounded(scripted: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    proxy = scripted([Reply("late", trickle="body", pause=TRICKLE), "through the proxy"])
    monkeypatch.setenv("HTTP_PROXY", proxy.url.removesuffix("/v1"))
    started = time.monotonic()
    # The endpoint's name resolves nowhere: only the proxy can answer for it.
    answer = client(proxy, url="http://llm.invalid/v1", timeout=1.0, retries=1).complete(HELLO)
    assert answer.text == "through the proxy"
    assert time.monotonic() - started < 1.0 + SLACK


def test_no_proxy_is_heeded(scripted: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = sock.getsockname()[1]
    server = scripted(["direct"])
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{dead}")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert client(server).complete(HELLO).text == "direct"


@pytest.mark.parametrize("proxy", [None, "http://127.0.0.1:1"])
def test_httpx_keeps_its_pool_and_backend_where_the_transport_reaches_them(proxy: str | None) -> None:
    # coderefine.llm.transport swaps the network backend of httpx's pool: these names are not public.
    pool = httpx2.HTTPTransport(proxy=proxy)._pool
    assert isinstance(pool, httpcore2.ConnectionPool)
    assert isinstance(pool._network_backend, httpcore2.NetworkBackend)
