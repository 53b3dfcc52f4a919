"""What one call may change of its process besides its result and its arguments: the working
directory, the umask, the environment, the standard streams, signal handlers, the import path and
the modules loaded, the recursion limit, the interpreter's hooks, threads left running.

A new version that changes one of these where the original does not hands its caller another
process than the original would (one call of `contextlib.chdir('/')` moves every later relative
path), so each checked call names what it changed (`changes`), and the judge compares the two
lists like any other part of the outcome. What the original itself changes a version may change
alike. A module imported for the first time is no change (a lazy import is how code loads what it
needs); a module replaced, removed or made up in `sys.modules` is.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

_OURS = {signal.SIGALRM}  # the checked call's own time limit


def snapshot() -> dict[str, Any]:
    """The process-wide state, as cheap values to compare (identities where objects are involved)."""
    mask = os.umask(0)
    os.umask(mask)
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "<gone>"
    threading = sys.modules.get("threading")
    return {
        "working directory": cwd,
        "umask": mask,
        "environment": dict(os.environ),
        "standard streams": (
            [id(stream) for stream in (sys.stdin, sys.stdout, sys.stderr)] + [_file_of(fd) for fd in (0, 1, 2)]
        ),
        "signal handlers": {number: id(_handler(number)) for number in _signals()},
        "import path": [list(sys.path), [id(item) for item in sys.meta_path], [id(item) for item in sys.path_hooks]],
        "modules": {name: id(module) for name, module in list(sys.modules.items())},
        "recursion limit": sys.getrecursionlimit(),
        "interpreter hooks": [id(sys.excepthook), id(sys.displayhook), id(sys.getprofile())],
        "threads": threading.active_count() if threading is not None else 1,
    }


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two snapshots, as sorted short names (`environment: HOME`)."""
    found = [name for name in before if name not in ("environment", "modules") and before[name] != after[name]]
    env_before, env_after = before["environment"], after["environment"]
    found += [f"environment: {key}" for key in {*env_before, *env_after} if env_before.get(key) != env_after.get(key)]
    found += [f"modules: {name}" for name in _modules_changed(before["modules"], after["modules"])]
    return sorted(found)[:20]


def _modules_changed(before: dict[str, int], after: dict[str, int]) -> list[str]:
    changed = [name for name, ident in before.items() if after.get(name) != ident]
    for name in after.keys() - before.keys():
        module = sys.modules.get(name)
        if module is None or getattr(module, "__spec__", None) is None or getattr(module, "__name__", None) != name:
            changed.append(name)  # not a module imported: an object put in its place
    return changed


def _signals() -> list[int]:
    try:
        numbers = signal.valid_signals()
    except (AttributeError, ValueError):
        return []
    return [number for number in numbers if number not in _OURS and number not in (signal.SIGKILL, signal.SIGSTOP)]


def _handler(number: int) -> Any:
    try:
        return signal.getsignal(number)
    except (OSError, ValueError):
        return None


def _file_of(fd: int) -> tuple[int, int] | None:
    try:
        found = os.fstat(fd)
    except OSError:
        return None
    return found.st_dev, found.st_ino
