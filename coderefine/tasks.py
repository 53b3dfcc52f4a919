"""Finding and loading tasks: the built-in task files, or a user's own."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from coderefine.errors import TaskError
from coderefine.text_task import TextTask, text_task_from_data

TASK_SUFFIX = ".toml"


def builtin_tasks_dir() -> Path:
    """The folder of built-in task files: packaged data when installed, `tasks/` in a checkout."""
    packaged = Path(str(resources.files("coderefine"))) / "_data" / "tasks"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "tasks"


@dataclass(frozen=True)
class TaskInfo:
    name: str
    kind: str
    description: str
    path: Path


def list_tasks() -> list[TaskInfo]:
    """Every built-in task, by name."""
    infos = []
    for path in sorted(builtin_tasks_dir().glob(f"*{TASK_SUFFIX}")):
        data = read_task_data(path)
        infos.append(
            TaskInfo(
                name=str(data.get("name", path.stem)),
                kind=str(data.get("kind", "text")),
                description=str(data.get("description", "")),
                path=path,
            )
        )
    return infos


def load_task(name: str) -> TextTask:
    """A built-in task by name."""
    path = builtin_tasks_dir() / f"{name}{TASK_SUFFIX}"
    if not name or "/" in name or not path.is_file():
        known = ", ".join(info.name for info in list_tasks())
        raise TaskError(f"unknown task {name!r} (known: {known}; or pass --task-file PATH)")
    return load_task_file(path)


CODE_COMMANDS = {"code_optimization": "optimize", "code_readability": "readability"}


def load_task_file(path: Path) -> TextTask:
    """A plain-text task from any task file; errors name the file and the field."""
    data = read_task_data(path)
    kind = data.get("kind", "text")
    if kind in CODE_COMMANDS:
        raise TaskError(f"{path} is a code task: run it with 'coderefine {CODE_COMMANDS[kind]}'")
    if kind != "text":
        raise TaskError(f"{path}: field kind must be 'text' for a plain-text task, not {kind!r}")
    return text_task_from_data(data, str(path), path)


def read_task_data(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskError(f"task file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise TaskError(f"cannot read task file {path}: {error}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TaskError(f"{path}: not valid TOML: {error}") from None
