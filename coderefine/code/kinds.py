"""The code tasks there are. A new one is a job module with its CodeKind, listed here."""

from __future__ import annotations

from coderefine.code import optimize, readability
from coderefine.code.kind import CodeKind
from coderefine.errors import UsageError

KINDS: tuple[CodeKind, ...] = (optimize.KIND, readability.KIND)
COMMANDS: tuple[str, ...] = tuple(kind.command for kind in KINDS)


def by_command(command: str) -> CodeKind:
    """The kind `coderefine COMMAND` (or `--task COMMAND`) runs."""
    for kind in KINDS:
        if kind.command == command:
            return kind
    raise UsageError(f"unknown task {command!r} (known: {', '.join(COMMANDS)})")


def by_task(task: str) -> CodeKind:
    """The kind a report's "task" names; optimization for a report of another (a merged shard of
    an older release is still shown)."""
    return next((kind for kind in KINDS if kind.task == task), KINDS[0])
