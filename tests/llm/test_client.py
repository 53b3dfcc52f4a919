"""The LLM client over real HTTP: retries, timeouts, cache, model choice, errors."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from coderefine.cache import JsonCache
from coderefine.errors import AuthenticationFailed, EndpointUnavailable, ModelNotFound, UsageError
from coderefine.llm.chat import Message
from coderefine.llm.client import LLMOptions, OpenAIChat, RemoteEndpoint
from tests.scripted_llm import Reply, ScriptedLLM

Start = Callable[..., ScriptedLLM]
HELLO = [Message("user", "hello")]


def client(server: ScriptedLLM, cache: JsonCache | None = None, **options: object) -> OpenAIChat:
    settings = {"model": "scripted-model", "backoff": 0.01, **options}
    return OpenAIChat(RemoteEndpoint(server.url, "key"), LLMOptions(**settings), cache)  # type: ignore[arg-type]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_retries_on_rate_limits_and_server_errors(scripted: Start, status: int) -> None:
    server = scripted([Reply(status=status), Reply(status=status), "fine"])
    answer = client(server, retries=2).complete(HELLO)
    assert answer.text == "fine"
    assert server.attempts == 3
    assert answer.prompt_tokens == 1 and answer.completion_tokens == 1


def test_retries_after_a_timeout(scripted: Start) -> None:
    server = scripted([Reply("late", delay=3.0), "in time"])
    answer = client(server, timeout=0.5, retries=1).complete(HELLO)
    assert answer.text == "in time"
    assert server.attempts == 2


def test_gives_up_after_the_retries_with_the_reason(scripted: Start) -> None:
    server = scripted([Reply(status=500)] * 3)
    with pytest.raises(EndpointUnavailable, match=r"kept failing with status 500 \(3 attempts\)"):
        client(server, retries=2).complete(HELLO)
    assert server.attempts == 3


def test_timeouts_that_never_end_name_the_url(scripted: Start) -> None:
    server = scripted([Reply("late", delay=2.0)] * 2)
    with pytest.raises(EndpointUnavailable, match=r"did not answer within the 0.3 s deadline \(2 attempts\)") as caught:
        client(server, timeout=0.3, retries=1).complete(HELLO)
    assert server.url in str(caught.value)


def test_unreachable_endpoint_names_the_url() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    chat = OpenAIChat(RemoteEndpoint(url, "key"), LLMOptions(model="m", retries=1, backoff=0.01))
    with pytest.raises(EndpointUnavailable, match=f"cannot reach the LLM endpoint at {url}"):
        chat.complete(HELLO)


def test_authentication_failure_is_not_retried(scripted: Start) -> None:
    server = scripted(["never"], api_key="right")
    chat = OpenAIChat(RemoteEndpoint(server.url, "wrong"), LLMOptions(model="scripted-model", retries=3))
    with pytest.raises(AuthenticationFailed, match="refused the API key"):
        chat.complete(HELLO)
    assert server.remaining == 1


def test_unknown_model_is_named(scripted: Start) -> None:
    server = scripted(["never"])
    with pytest.raises(ModelNotFound, match="does not serve model 'gpt-nope'"):
        client(server, model="gpt-nope").complete(HELLO)


def test_the_only_served_model_is_chosen_when_none_is_named(scripted: Start) -> None:
    server = scripted(["hi"], models=("solo-model",))
    answer = client(server, model=None).complete(HELLO)
    assert answer.text == "hi"
    assert server.requests[0]["model"] == "solo-model"


def test_several_served_models_ask_for_a_choice(scripted: Start) -> None:
    server = scripted(["hi"], models=("a", "b"))
    with pytest.raises(UsageError, match=r"several models \(a, b\): choose one with --model"):
        client(server, model=None).complete(HELLO)


def test_deterministic_requests_are_answered_from_the_cache(scripted: Start, tmp_path: Path) -> None:
    server = scripted(["first", "second"])
    cache = JsonCache(tmp_path / "llm")
    first = client(server, cache).complete(HELLO)
    again = client(server, cache).complete(HELLO)
    assert (first.text, first.cached) == ("first", False)
    assert (again.text, again.cached) == ("first", True)
    assert again.prompt_tokens == first.prompt_tokens
    assert server.attempts == 1
    other = client(server, cache).complete([Message("user", "something else")])
    assert (other.text, other.cached) == ("second", False)


def test_sampled_requests_are_never_cached(scripted: Start, tmp_path: Path) -> None:
    server = scripted(["one", "two"])
    cache = JsonCache(tmp_path / "llm")
    assert client(server, cache, temperature=0.7).complete(HELLO).text == "one"
    assert client(server, cache, temperature=0.7).complete(HELLO).text == "two"


def test_a_damaged_cache_entry_is_a_miss(scripted: Start, tmp_path: Path) -> None:
    server = scripted(["first", "again"])
    cache = JsonCache(tmp_path / "llm")
    client(server, cache).complete(HELLO)
    for entry in (tmp_path / "llm").rglob("*.json"):
        entry.write_text("{not json")
    assert client(server, cache).complete(HELLO).text == "again"


def test_a_cache_that_cannot_be_written_is_said_once_and_passed_over(
    scripted: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"  # a folder that cannot be made: as a full disk, writes fail
    blocker.write_text("")
    server = scripted(["one", "two"])
    chat = OpenAIChat(RemoteEndpoint(server.url, "k"), LLMOptions(model="scripted-model"), JsonCache(blocker / "cache"))
    answers = [chat.complete([Message("user", text)]).text for text in ("first", "second")]
    assert answers == ["one", "two"]  # the answers still come, the run goes on
    said = capsys.readouterr().err.splitlines()
    assert said == [f"coderefine: the cache cannot be written ({blocker / 'cache'}: Not a directory): nothing is kept"]
