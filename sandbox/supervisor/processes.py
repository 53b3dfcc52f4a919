"""The runner's hold on processes: privileges dropped, limits set, the network cut where the
kernel allows it, everything a run left behind killed, out-of-memory kills counted, and the
files it wrote removed."""

from __future__ import annotations

import contextlib
import os
import signal

TYPE_CHECKING = False  # the runner imports as little as it can: typing only for the type checker
if TYPE_CHECKING:
    from typing import Any

    from .streams import Child

    Request = dict[str, Any]  # a request, or a result: JSON objects

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_PR_SET_CHILD_SUBREAPER = 36


def kill_everything(child: Child, kill_all_of_user: bool) -> int:
    """Kill the program's session, then whatever escaped it. Returns the program's exit code."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    exit_code = child.wait()
    if kill_all_of_user:
        # In a sandbox container the program's user owns nothing worth keeping:
        # signal -1 reaches every process of that user except this one and init.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(-1, signal.SIGKILL)
    else:
        _kill_descendants()
    return exit_code


def _kill_descendants() -> None:
    """As child subreaper, orphans of the program become ours: kill them all."""
    me = os.getpid()
    for _ in range(20):
        children = [pid for pid, parent in _parents().items() if parent == me]
        if not children:
            return
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError, PermissionError):
                pass


def _parents() -> dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields and fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    return parents


def become_subreaper() -> None:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def limit_child(request: Request) -> bool:
    """Runs in the child. Returns whether the network was cut off."""
    try:
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")  # under memory pressure the program dies, not the runner
    except OSError:
        pass
    if not request.get("local"):
        return False  # the container has the limits, and no network at all
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    memory = request.get("memory_limit")
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    processes = request.get("max_processes")
    if processes:
        # RLIMIT_NPROC counts every process of the user, so allow the ones already there.
        mine = sum(1 for pid in os.listdir("/proc") if pid.isdigit() and _owned(pid))
        resource.setrlimit(resource.RLIMIT_NPROC, (mine + processes, mine + processes))
    file_size = request.get("max_file_bytes")
    if file_size:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    return _cut_network()


def _owned(pid: str) -> bool:
    try:
        return os.stat("/proc/" + pid).st_uid == os.getuid()
    except OSError:
        return False


def _cut_network() -> bool:
    """A new user and network namespace: the child sees only a loopback that is down."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return False  # not allowed here: reported as network_isolated: false
    for path, text in (
        ("/proc/self/setgroups", "deny"),
        ("/proc/self/uid_map", f"{uid} {uid} 1"),
        ("/proc/self/gid_map", f"{gid} {gid} 1"),
    ):
        try:
            with open(path, "w") as handle:
                handle.write(text)
        except OSError:
            pass
    return True


def remove_tree(path: str) -> None:
    """shutil.rmtree(path, ignore_errors=True), without importing shutil; a file or link is unlinked."""
    if os.path.islink(path) or not os.path.isdir(path):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    for root, folders, files in os.walk(path, topdown=False):
        for name in files + folders:
            entry = os.path.join(root, name)
            try:
                if os.path.isdir(entry) and not os.path.islink(entry):
                    os.rmdir(entry)
                else:
                    os.unlink(entry)
            except OSError:
                pass
    with contextlib.suppress(OSError):
        os.rmdir(path)


def oom_kills() -> int:
    """The cgroup's OOM-kill counter (v2, then v1), or 0 where it cannot be read."""
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as handle:
                for line in handle:
                    name, _, value = line.partition(" ")
                    if name == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            continue
    return 0


def ran_out_of_memory(exit_code: int, stderr: bytes) -> bool:
    # Under RLIMIT_AS Python raises MemoryError rather than being killed.
    return exit_code != 0 and b"MemoryError" in stderr[-4096:]
