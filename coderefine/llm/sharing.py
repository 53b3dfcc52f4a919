"""One embedded model server per machine, shared by every run that needs it.

Each model file gets a folder (in the cache folder, `embedded/`) holding a lock file, the
running server's `server.json` (its pid and port) and a lease per run that uses it, named by the
run's process id. A run takes the lock, reuses the server that answers or starts one, and leaves
its lease; when it ends it removes the lease. The server watches the leases itself (`watch`, run
in its own process): when no lease belongs to a living process, it removes `server.json` and
exits, so that it stops when its last user is gone, even one killed outright.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

IDLE_CHECK_S = 1.0  # how often the server looks at the leases


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """The folder's lock, across processes."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def running(folder: Path) -> tuple[int, int] | None:
    """(pid, port) of the server `server.json` names, if that process is alive."""
    try:
        about = json.loads((folder / "server.json").read_text(encoding="utf-8"))
        pid, port = int(about["pid"]), int(about["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (pid, port) if _alive(pid) else None


def record(folder: Path, pid: int, port: int) -> None:
    (folder / "server.json").write_text(json.dumps({"pid": pid, "port": port}), encoding="utf-8")


def lease(folder: Path, name: str) -> Path:
    """This run's lease (call with the lock held); its name starts with the run's process id."""
    path = folder / "leases" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("", encoding="utf-8")
    return path


def holders(folder: Path) -> list[Path]:
    """The leases of living processes; those of dead ones are removed."""
    found = []
    for path in sorted((folder / "leases").glob("*")) if (folder / "leases").is_dir() else []:
        pid = path.name.split("-", 1)[0]
        if pid.isdigit() and _alive(int(pid)):
            found.append(path)
        else:
            path.unlink(missing_ok=True)
    return found


def watch(folder: Path) -> None:
    """In the server's process: exit once no living process holds a lease (the run that starts a
    server takes its lease first, so there is one from the start). The decision is taken under
    the lock, so that a run taking a lease meanwhile either finds this server gone or keeps it."""

    def loop() -> None:
        while True:
            time.sleep(IDLE_CHECK_S)
            with locked(folder):
                if holders(folder):
                    continue
                found = running(folder)
                if found is not None and found[0] == os.getpid():
                    (folder / "server.json").unlink(missing_ok=True)
                os._exit(0)

    threading.Thread(target=loop, name="lease-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True
