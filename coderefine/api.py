"""The library API: what the CLI calls, and what Python callers use directly."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from coderefine import config, engine
from coderefine.cache import JsonCache, default_cache_root
from coderefine.config import Settings
from coderefine.engine import Budget, ProgressCallback, RefineOptions, RefineResult
from coderefine.errors import UsageError
from coderefine.llm import OPENAI_DEFAULT_URL, ChatModel, LLMOptions, OpenAIChat, RemoteEndpoint
from coderefine.local_model import EmbeddedServer
from coderefine.tasks import load_task, load_task_file
from coderefine.text_task import TextTask


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
        yield OpenAIChat(source, options, cache)
        return
    with EmbeddedServer(settings.model_path) as server:
        yield OpenAIChat(server, options, cache)


def refine_options(settings: Settings) -> RefineOptions:
    return RefineOptions(
        max_iterations=settings.max_iterations,
        plateau_margin=settings.plateau_margin,
        plateau_patience=settings.plateau_patience,
        budget=Budget(max_calls=settings.budget_calls, max_tokens=settings.budget_tokens),
    )


def resolve_task(task: str | Path | TextTask) -> TextTask:
    """A task given by built-in name, by task file path, or as a loaded task."""
    if isinstance(task, TextTask):
        return task
    if isinstance(task, Path):
        return load_task_file(task)
    return load_task(task)


def refine_text(
    task: str | Path | TextTask,
    text: str,
    *,
    on_iteration: ProgressCallback | None = None,
    **options: Any,
) -> RefineResult:
    """Self-Refine `text` with a plain-text task.

    `options` are any `Settings` fields (model, base_url, max_iterations,
    budget_calls, ...); what they leave out comes from the environment, then
    from `[tool.coderefine]` in pyproject.toml, then from the defaults.
    """
    settings = config.resolve(options)
    loaded = resolve_task(task)
    if not text.strip():
        raise UsageError("the input is empty")
    with open_model(settings) as model:
        return engine.refine(loaded, text, model, refine_options(settings), on_iteration)
