"""The model a run talks to: the configured endpoint if there is one, else the embedded model."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager

from coderefine.cache import JsonCache, default_cache_root
from coderefine.llm.chat import ChatModel
from coderefine.llm.client import OPENAI_DEFAULT_URL, LLMOptions, OpenAIChat, RemoteEndpoint
from coderefine.llm.embedded import EmbeddedServer
from coderefine.settings import Settings


@contextmanager
def open_model(settings: Settings) -> Iterator[ChatModel]:
    """The configured endpoint if there is one, else the embedded model (stopped on exit)."""
    cache = None
    if settings.cache:
        cache = JsonCache((settings.cache_dir or default_cache_root()) / "llm")
    options = LLMOptions(
        model=settings.model,
        temperature=settings.temperature,
        max_tokens=settings.max_tokens,
        timeout=settings.timeout,
        retries=settings.retries,
        backoff=settings.backoff,
        seed=settings.seed,
    )
    if settings.has_endpoint:
        # Local servers accept any key, but the client insists on one.
        source = RemoteEndpoint(settings.base_url or OPENAI_DEFAULT_URL, settings.api_key or "none")
        with closing(OpenAIChat(source, options, cache)) as chat:
            yield chat
        return
    # One server per machine, shared by concurrent runs: they would each load the model on 2 cores.
    shared = (settings.cache_dir or default_cache_root()) / "embedded"
    with (
        EmbeddedServer(settings.model_path, shared_in=shared) as server,
        closing(OpenAIChat(server, options, cache)) as chat,
    ):
        yield chat
