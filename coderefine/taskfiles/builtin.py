"""Task files: where the built-in ones are, which there are, and reading one's TOML."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from coderefine.errors import TaskError

TASK_SUFFIX = ".toml"


def builtin_tasks_dir() -> Path:
    """The folder of built-in task files: packaged data when installed, `tasks/` in a checkout."""
    packaged = Path(str(resources.files("coderefine"))) / "_data" / "tasks"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "tasks"


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
