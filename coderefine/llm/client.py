"""One chat-completions client over the `openai` package.

Any OpenAI-compatible server works (OpenAI, vLLM, Ollama, llama.cpp). The
client adds what a refinement loop needs on top of the plain API: retries with
backoff, a deadline per request (the whole exchange, however slowly the bytes
come) and a cap on the size of an answer (both kept by `transport`), an on-disk
cache of deterministic requests, token counts on every answer, and errors that
say in one line what is wrong.

The answer's body is read by `answers`, not by `openai`'s models: a body
that is not UTF-8, not JSON, an HTML page, or JSON of another shape is a
one-line `BadResponse` naming the endpoint, never a stray exception.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from coderefine.cache import JsonCache, cache_key
from coderefine.errors import ModelNotFound, UsageError
from coderefine.llm import answers
from coderefine.llm.chat import Completion, Message, Sampling

if TYPE_CHECKING:
    import openai  # imported where used: it takes a second to load, and cached runs never need it

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"


@dataclass(frozen=True)
class LLMOptions:
    model: str | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    timeout: float = 120.0
    retries: int = 3
    backoff: float = 1.0  # first retry waits this long; each next one twice as long
    seed: int | None = None


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str


class EndpointSource(Protocol):
    """Where requests go. `endpoint()` may start a server, so it is called lazily."""

    @property
    def identity(self) -> str:
        """Names the model behind the endpoint for cache keys (no ports, no secrets)."""
        ...

    @property
    def default_model(self) -> str | None: ...

    def endpoint(self) -> Endpoint: ...


@dataclass(frozen=True)
class RemoteEndpoint:
    base_url: str
    api_key: str

    @property
    def identity(self) -> str:
        return self.base_url.rstrip("/")

    @property
    def default_model(self) -> str | None:
        return OPENAI_DEFAULT_MODEL if self.identity == OPENAI_DEFAULT_URL else None

    def endpoint(self) -> Endpoint:
        return Endpoint(self.base_url, self.api_key)


class OpenAIChat:
    """A `ChatModel` speaking the chat-completions protocol through `openai`."""

    def __init__(
        self,
        source: EndpointSource,
        options: LLMOptions,
        cache: JsonCache | None = None,
    ) -> None:
        self._source = source
        self._options = options
        self._cache = cache
        self._client: openai.OpenAI | None = None
        self._model: str | None = options.model or source.default_model

    @property
    def name(self) -> str:
        return self._model or f"{self._source.identity} (model chosen by the server)"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
        sampling: Sampling | None = None,
    ) -> Completion:
        """One answer; `sampling` replaces the configured temperature and seed for this call."""
        temperature = sampling.temperature if sampling else self._options.temperature
        seed = sampling.seed if sampling else self._options.seed
        request: dict[str, Any] = {
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
            "max_tokens": max_tokens or self._options.max_tokens,
        }
        if stop:
            request["stop"] = list(stop)
        if seed is not None:
            request["seed"] = seed
        if self._model is None:
            self._connect()  # the served model's name is part of the cache key
        key = self._cache_key(request)
        if key is not None and self._cache is not None:
            hit = _cached(self._cache.get(key))
            if hit is not None:
                return hit
        completion = self._call_with_retries(request)
        if key is not None and self._cache is not None:
            self._cache.put(
                key,
                {
                    "text": completion.text,
                    "prompt_tokens": completion.prompt_tokens,
                    "completion_tokens": completion.completion_tokens,
                    "request": request,
                    "model": self._model,
                },
            )
        return completion

    def close(self) -> None:
        """Close the connections; a request still in flight on another thread fails."""
        if self._client is not None:
            self._client.close()

    def _cache_key(self, request: dict[str, Any]) -> str | None:
        # Only deterministic requests are worth replaying: greedy decoding or a fixed seed.
        if request["temperature"] != 0 and request.get("seed") is None:
            return None
        return cache_key({"endpoint": self._source.identity, "model": self._model, **request})

    def _connect(self) -> openai.OpenAI:
        import openai

        from coderefine.llm import transport

        if self._client is None:
            endpoint = self._source.endpoint()
            self._client = openai.OpenAI(
                base_url=endpoint.base_url,
                api_key=endpoint.api_key,
                timeout=self._options.timeout,
                max_retries=0,  # retries are ours, so that each is counted and bounded
                http_client=openai.DefaultHttpxClient(transport=transport.BoundedTransport(endpoint.base_url)),
            )
            if self._model is None:
                self._model = _only_served_model(self._client, self._options.timeout)
        return self._client

    def _call_with_retries(self, request: dict[str, Any]) -> Completion:
        import openai

        from coderefine.llm import transport

        client = self._connect()
        model = self._model or ""  # _connect() has chosen one
        url = str(client.base_url).rstrip("/")
        attempt = 0
        while True:
            started = time.monotonic()
            try:
                with transport.deadline(self._options.timeout):
                    raw = client.chat.completions.with_raw_response.create(model=model, **request)
                return answers.completion(
                    answers.body(raw.content, raw.headers.get("content-type", ""), url), url, started
                )
            except openai.APIError as error:
                problem = answers.classify(error, client, self._model or "")
                if problem is not None or attempt >= self._options.retries:
                    raise problem or answers.gave_up(error, client, attempt + 1, self._options.timeout) from error
                delay = answers.retry_delay(error, self._options.backoff, attempt)
            except answers.Unreadable as unreadable:
                # A garbled or cut body is as passing as a 5xx; a body of the wrong kind (or size) is not.
                if not unreadable.transient or attempt >= self._options.retries:
                    raise unreadable.final(attempt + 1) from None
                delay = answers.backoff_delay(self._options.backoff, attempt)
            time.sleep(delay)
            attempt += 1


def _cached(entry: dict[str, Any] | None) -> Completion | None:
    """A stored answer; an entry of another shape (damaged, foreign) is a miss."""
    if entry is None or not isinstance(entry.get("text"), str):
        return None
    return Completion(
        text=entry["text"],
        prompt_tokens=answers.count(entry, "prompt_tokens"),
        completion_tokens=answers.count(entry, "completion_tokens"),
        cached=True,
        seconds=0.0,
    )


def _only_served_model(client: openai.OpenAI, timeout: float) -> str:
    """The model to ask for when none was named: the endpoint's only one."""
    import openai

    from coderefine.llm import transport

    url = str(client.base_url).rstrip("/")
    try:
        with transport.deadline(timeout):
            raw = client.models.with_raw_response.list()
        names = answers.model_names(answers.body(raw.content, raw.headers.get("content-type", ""), url), url)
    except openai.APIError as error:
        problem = answers.classify(error, client, "")
        raise problem or answers.gave_up(error, client, 1, timeout) from error
    except answers.Unreadable as unreadable:
        raise unreadable.final(1) from None
    if len(names) == 1:
        return names[0]
    if not names:
        raise ModelNotFound(f"the LLM endpoint at {client.base_url} serves no models")
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise UsageError(f"the LLM endpoint serves several models ({shown}): choose one with --model")
