"""Reading what an OpenAI-compatible endpoint answers, and classifying how it failed.

The answer's body is read here, not by `openai`'s models: a body that is not
UTF-8, not JSON, an HTML page, or JSON of another shape is `Unreadable`, which
becomes a one-line `BadResponse` naming the endpoint, never a stray exception.
An `openai` error is either final (a key refused, a model not served) or worth
a retry, after a delay that grows with each attempt.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from coderefine.errors import AuthenticationFailed, BadResponse, EndpointUnavailable, EnvironmentProblem, ModelNotFound
from coderefine.llm.chat import Completion

if TYPE_CHECKING:
    import openai  # imported where used: it takes a second to load, and cached runs never need it

_RETRYABLE_STATUS = {408, 409, 429}
_MAX_RETRY_AFTER = 30.0
_MAX_BACKOFF = 3600.0


class Unreadable(Exception):
    """An answer that is not what the protocol promises; `transient` ones are worth a retry."""

    def __init__(self, url: str, problem: str, *, transient: bool) -> None:
        super().__init__(problem)
        self.url, self.problem, self.transient = url, problem, transient

    def final(self, attempts: int) -> BadResponse:
        tries = f" ({attempts} attempts)" if attempts > 1 else ""
        return BadResponse(f"the LLM endpoint at {self.url} {self.problem}{tries}")


def body(data: bytes, content_type: str, url: str) -> dict[str, Any]:
    """The answer's JSON object, or `Unreadable` saying what it is instead."""
    try:
        text = data.decode("utf-8-sig")  # JSON is UTF-8 (RFC 8259); a BOM is tolerated
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise Unreadable(
            url, f"answered with a body that is not UTF-8 (byte 0x{byte:02x} at offset {error.start})", transient=True
        ) from None
    if not text.strip():
        raise Unreadable(url, "answered with an empty body", transient=True)
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        if "html" in content_type.lower() or text.lstrip().startswith("<"):
            raise Unreadable(
                url,
                "answered with an HTML page, not JSON: check the base URL (the API's, often ending in /v1)",
                transient=False,
            ) from None
        raise Unreadable(
            url, f"answered with something that is not JSON: {_one_line(text)[:80]!r}", transient=True
        ) from None
    if not isinstance(document, dict):
        raise Unreadable(
            url, f"answered with JSON of the wrong shape (a {_kind(document)}, not an object)", transient=False
        )
    return document


def completion(document: dict[str, Any], url: str, started: float) -> Completion:
    """A chat completion from its JSON; anything else is `Unreadable`."""
    choices = document.get("choices")
    if choices is None:
        error = document.get("error")
        if error is not None:
            message = error.get("message", error) if isinstance(error, dict) else error
            raise Unreadable(url, f"answered with an error: {_one_line(str(message))}", transient=False)
        keys = ", ".join(map(str, list(document)[:8])) or "none"
        raise Unreadable(url, f"answered without 'choices' (its keys: {keys})", transient=False)
    text = _answer_text(choices, url)
    usage = document.get("usage")
    return Completion(
        text=text,
        prompt_tokens=count(usage, "prompt_tokens"),
        completion_tokens=count(usage, "completion_tokens"),
        cached=False,
        seconds=time.monotonic() - started,
    )


def _answer_text(choices: Any, url: str) -> str:
    if not isinstance(choices, list):
        raise Unreadable(
            url, f"answered with JSON of the wrong shape ('choices' is a {_kind(choices)}, not a list)", transient=False
        )
    if not choices:
        return ""  # no choices at all: an empty answer, which the task then calls malformed
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(content, (str, type(None))):
        raise Unreadable(
            url, "answered with JSON of the wrong shape (no text at choices[0].message.content)", transient=False
        )
    return content or ""


def model_names(document: dict[str, Any], url: str) -> list[str]:
    data = document.get("data")
    if not isinstance(data, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in data):
        raise Unreadable(
            url,
            "answered /models with JSON of the wrong shape (no 'data' list of models with an 'id')",
            transient=False,
        )
    return [m["id"] for m in data]


def count(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _kind(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", int: "number", float: "number", bool: "boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def classify(error: openai.APIError, client: openai.OpenAI, model: str) -> EnvironmentProblem | None:
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


def gave_up(error: openai.APIError, client: openai.OpenAI, attempts: int, deadline: float) -> EndpointUnavailable:
    """Why the last of `attempts` failed; `deadline` is the seconds each had for the whole answer."""
    import openai

    url = str(client.base_url).rstrip("/")
    tries = f"{attempts} attempt{'s' if attempts != 1 else ''}"
    if isinstance(error, openai.APITimeoutError):
        return EndpointUnavailable(
            f"the LLM endpoint at {url} did not answer within the {deadline:g} s deadline ({tries})"
        )
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__
        reason = _one_line(str(cause)) if cause else "connection failed"
        return EndpointUnavailable(
            f"cannot reach the LLM endpoint at {url}: {reason} ({tries}): check that it runs, "
            "and OPENAI_BASE_URL or --base-url"
        )
    if isinstance(error, openai.APIStatusError):
        return EndpointUnavailable(f"the LLM endpoint at {url} kept failing with status {error.status_code} ({tries})")
    return EndpointUnavailable(f"the LLM endpoint at {url} failed ({tries})")


def retry_delay(error: openai.APIError, backoff: float, attempt: int) -> float:
    """Exponential backoff, or longer when the server says how long (Retry-After, in seconds)."""
    delay: float = backoff_delay(backoff, attempt)
    headers = getattr(getattr(error, "response", None), "headers", None)
    asked = headers.get("retry-after") if headers is not None else None
    try:
        if asked is not None:
            delay = max(delay, min(float(str(asked)), _MAX_RETRY_AFTER))
    except ValueError:
        pass  # an HTTP date: the exponential delay is good enough
    return delay


def backoff_delay(backoff: float, attempt: int) -> float:
    # Bounded: many retries must not double a wait past what a clock can hold.
    return float(min(backoff * 2.0 ** min(attempt, 32), _MAX_BACKOFF))


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]
