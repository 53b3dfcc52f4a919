"""One chat-completions client over the `openai` package.

Any OpenAI-compatible server works (OpenAI, vLLM, Ollama, llama.cpp). The
client adds what a refinement loop needs on top of the plain API: retries with
backoff, a per-request timeout, an on-disk cache of deterministic requests,
token counts on every answer, and errors that say in one line what is wrong.

The answer's body is read by this module, not by `openai`'s models: a body
that is not UTF-8, not JSON, an HTML page, or JSON of another shape is a
one-line `BadResponse` naming the endpoint, never a stray exception.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from coderefine.cache import JsonCache, cache_key
from coderefine.errors import (
    AuthenticationFailed,
    BadResponse,
    EndpointUnavailable,
    EnvironmentProblem,
    ModelNotFound,
    UsageError,
)

if TYPE_CHECKING:
    import openai  # imported where used: it takes a second to load, and cached runs never need it

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
_RETRYABLE_STATUS = {408, 409, 429}
_MAX_RETRY_AFTER = 30.0
_MAX_BACKOFF = 3600.0


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Completion:
    """One answer. `cached` answers cost no call and report the tokens of the original."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    seconds: float


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
class Sampling:
    """A call's own temperature and seed, instead of the configured ones."""

    temperature: float
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


class ChatModel(Protocol):
    """What the engine needs from a model."""

    @property
    def name(self) -> str: ...

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
        sampling: Sampling | None = None,
    ) -> Completion: ...


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

    def _cache_key(self, request: dict[str, Any]) -> str | None:
        # Only deterministic requests are worth replaying: greedy decoding or a fixed seed.
        if request["temperature"] != 0 and request.get("seed") is None:
            return None
        return cache_key({"endpoint": self._source.identity, "model": self._model, **request})

    def _connect(self) -> openai.OpenAI:
        import openai

        if self._client is None:
            endpoint = self._source.endpoint()
            self._client = openai.OpenAI(
                base_url=endpoint.base_url,
                api_key=endpoint.api_key,
                timeout=self._options.timeout,
                max_retries=0,  # retries are ours, so that each is counted and bounded
            )
            if self._model is None:
                self._model = _only_served_model(self._client)
        return self._client

    def _call_with_retries(self, request: dict[str, Any]) -> Completion:
        import openai

        client = self._connect()
        model = self._model or ""  # _connect() has chosen one
        url = str(client.base_url).rstrip("/")
        attempt = 0
        while True:
            started = time.monotonic()
            try:
                raw = client.chat.completions.with_raw_response.create(model=model, **request)
                return _completion(_body(raw.content, raw.headers.get("content-type", ""), url), url, started)
            except openai.APIError as error:
                problem = _classify(error, client, self._model or "")
                if problem is not None or attempt >= self._options.retries:
                    raise problem or _gave_up(error, client, attempt + 1) from error
                delay = _retry_delay(error, self._options.backoff, attempt)
            except _Unreadable as unreadable:
                # A garbled or cut body is as passing as a 5xx; a body of the wrong kind is not.
                if not unreadable.transient or attempt >= self._options.retries:
                    raise unreadable.final(attempt + 1) from None
                delay = _backoff(self._options.backoff, attempt)
            time.sleep(delay)
            attempt += 1


def _cached(entry: dict[str, Any] | None) -> Completion | None:
    """A stored answer; an entry of another shape (damaged, foreign) is a miss."""
    if entry is None or not isinstance(entry.get("text"), str):
        return None
    return Completion(
        text=entry["text"],
        prompt_tokens=_count(entry, "prompt_tokens"),
        completion_tokens=_count(entry, "completion_tokens"),
        cached=True,
        seconds=0.0,
    )


def _only_served_model(client: openai.OpenAI) -> str:
    """The model to ask for when none was named: the endpoint's only one."""
    import openai

    url = str(client.base_url).rstrip("/")
    try:
        raw = client.models.with_raw_response.list()
        names = _model_names(_body(raw.content, raw.headers.get("content-type", ""), url), url)
    except openai.APIError as error:
        problem = _classify(error, client, "")
        raise problem or _gave_up(error, client, 1) from error
    except _Unreadable as unreadable:
        raise unreadable.final(1) from None
    if len(names) == 1:
        return names[0]
    if not names:
        raise ModelNotFound(f"the LLM endpoint at {client.base_url} serves no models")
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise UsageError(f"the LLM endpoint serves several models ({shown}): choose one with --model")


class _Unreadable(Exception):
    """An answer that is not what the protocol promises; `transient` ones are worth a retry."""

    def __init__(self, url: str, problem: str, *, transient: bool) -> None:
        super().__init__(problem)
        self.url, self.problem, self.transient = url, problem, transient

    def final(self, attempts: int) -> BadResponse:
        tries = f" ({attempts} attempts)" if attempts > 1 else ""
        return BadResponse(f"the LLM endpoint at {self.url} {self.problem}{tries}")


def _body(data: bytes, content_type: str, url: str) -> dict[str, Any]:
    """The answer's JSON object, or `_Unreadable` saying what it is instead."""
    try:
        text = data.decode("utf-8-sig")  # JSON is UTF-8 (RFC 8259); a BOM is tolerated
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise _Unreadable(url, f"answered with a body that is not UTF-8 (byte 0x{byte:02x} at offset "
                               f"{error.start})", transient=True) from None  # fmt: skip
    if not text.strip():
        raise _Unreadable(url, "answered with an empty body", transient=True)
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        if "html" in content_type.lower() or text.lstrip().startswith("<"):
            raise _Unreadable(url, "answered with an HTML page, not JSON: check the base URL (the API's, often "
                                   "ending in /v1)", transient=False) from None  # fmt: skip
        raise _Unreadable(url, f"answered with something that is not JSON: {_one_line(text)[:80]!r}",
                          transient=True) from None  # fmt: skip
    if not isinstance(document, dict):
        raise _Unreadable(url, f"answered with JSON of the wrong shape (a {_kind(document)}, not an object)",
                          transient=False)  # fmt: skip
    return document


def _completion(document: dict[str, Any], url: str, started: float) -> Completion:
    """A chat completion from its JSON; anything else is `_Unreadable`."""
    choices = document.get("choices")
    if choices is None:
        error = document.get("error")
        if error is not None:
            message = error.get("message", error) if isinstance(error, dict) else error
            raise _Unreadable(url, f"answered with an error: {_one_line(str(message))}", transient=False)
        keys = ", ".join(map(str, list(document)[:8])) or "none"
        raise _Unreadable(url, f"answered without 'choices' (its keys: {keys})", transient=False)
    text = _answer_text(choices, url)
    usage = document.get("usage")
    return Completion(
        text=text,
        prompt_tokens=_count(usage, "prompt_tokens"),
        completion_tokens=_count(usage, "completion_tokens"),
        cached=False,
        seconds=time.monotonic() - started,
    )


def _answer_text(choices: Any, url: str) -> str:
    if not isinstance(choices, list):
        raise _Unreadable(url, f"answered with JSON of the wrong shape ('choices' is a {_kind(choices)}, "
                               "not a list)", transient=False)  # fmt: skip
    if not choices:
        return ""  # no choices at all: an empty answer, which the task then calls malformed
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(content, (str, type(None))):
        raise _Unreadable(url, "answered with JSON of the wrong shape (no text at choices[0].message.content)",
                          transient=False)  # fmt: skip
    return content or ""


def _model_names(document: dict[str, Any], url: str) -> list[str]:
    data = document.get("data")
    if not isinstance(data, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in data):
        raise _Unreadable(url, "answered /models with JSON of the wrong shape (no 'data' list of models "
                               "with an 'id')", transient=False)  # fmt: skip
    return [m["id"] for m in data]


def _count(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _kind(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", int: "number", float: "number", bool: "boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _classify(error: openai.APIError, client: openai.OpenAI, model: str) -> EnvironmentProblem | None:
    """A final (non-retryable) problem for `error`, or None when a retry may help."""
    import openai

    url = str(client.base_url).rstrip("/")
    if isinstance(error, openai.APIConnectionError):
        return None
    if isinstance(error, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return AuthenticationFailed(
            f"the LLM endpoint at {url} refused the API key ({error.status_code}): check OPENAI_API_KEY"
        )
    if isinstance(error, openai.NotFoundError):
        return ModelNotFound(
            f"the LLM endpoint at {url} does not serve model {model!r} (404): check --model, "
            "and that the base URL ends where the API starts (often /v1)"
        )
    if isinstance(error, openai.APIStatusError):
        if error.status_code in _RETRYABLE_STATUS or error.status_code >= 500:
            return None
        return EndpointUnavailable(
            f"the LLM endpoint at {url} rejected the request ({error.status_code}): {_one_line(error.message)}"
        )
    return EndpointUnavailable(f"the LLM endpoint at {url} failed: {_one_line(str(error))}")


def _gave_up(error: openai.APIError, client: openai.OpenAI, attempts: int) -> EndpointUnavailable:
    import openai

    url = str(client.base_url).rstrip("/")
    tries = f"{attempts} attempt{'s' if attempts != 1 else ''}"
    if isinstance(error, openai.APITimeoutError):
        return EndpointUnavailable(f"the LLM endpoint at {url} did not answer in time ({tries})")
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__
        reason = _one_line(str(cause)) if cause else "connection failed"
        return EndpointUnavailable(f"cannot reach the LLM endpoint at {url}: {reason} ({tries})")
    if isinstance(error, openai.APIStatusError):
        return EndpointUnavailable(f"the LLM endpoint at {url} kept failing with status {error.status_code} ({tries})")
    return EndpointUnavailable(f"the LLM endpoint at {url} failed ({tries})")


def _retry_delay(error: openai.APIError, backoff: float, attempt: int) -> float:
    """Exponential backoff, or longer when the server says how long (Retry-After, in seconds)."""
    delay: float = _backoff(backoff, attempt)
    headers = getattr(getattr(error, "response", None), "headers", None)
    asked = headers.get("retry-after") if headers is not None else None
    try:
        if asked is not None:
            delay = max(delay, min(float(str(asked)), _MAX_RETRY_AFTER))
    except ValueError:
        pass  # an HTTP date: the exponential delay is good enough
    return delay


def _backoff(backoff: float, attempt: int) -> float:
    # Bounded: many retries must not double a wait past what a clock can hold.
    return float(min(backoff * 2.0 ** min(attempt, 32), _MAX_BACKOFF))


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]
