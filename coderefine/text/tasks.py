"""Plain-text tasks: loaded by name or from a task file, and refined (the library's `refine_text`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coderefine import config, engine
from coderefine.engine import ProgressCallback, RefineResult
from coderefine.errors import TaskError, UsageError
from coderefine.llm.open import open_model
from coderefine.taskfiles.builtin import TASK_SUFFIX, builtin_tasks_dir, list_tasks, read_task_data
from coderefine.text.task import TextTask, text_task_from_data


def load_task(name: str) -> TextTask:
    """A built-in task by name."""
    path = builtin_tasks_dir() / f"{name}{TASK_SUFFIX}"
    if not name or "/" in name or not path.is_file():
        known = ", ".join(info.name for info in list_tasks())
        raise TaskError(f"unknown task {name!r} (known: {known}; or pass --task-file PATH)")
    return load_task_file(path)


class NotATextTask(TaskError):
    """A task file of another kind (a code task's) where a plain-text task was asked for. The text
    tasks know nothing of the code ones: a caller that does can name the command (`kind`)."""

    def __init__(self, path: Path, kind: object) -> None:
        super().__init__(
            f"{path}: field kind must be 'text' for a plain-text task, not {kind!r} "
            "(a code task runs with its own command: see 'coderefine --help')"
        )
        self.path, self.kind = path, kind


def load_task_file(path: Path) -> TextTask:
    """A plain-text task from any task file; errors name the file and the field."""
    data = read_task_data(path)
    kind = data.get("kind", "text")
    if kind != "text":
        raise NotATextTask(path, kind)
    return text_task_from_data(data, str(path), path)


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
        return engine.refine(loaded, text, model, engine.options_from(settings), on_iteration)
