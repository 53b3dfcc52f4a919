"""The local sandbox's jail: what a run's own root holds, and the command that starts the runner in it.

A run gets new mount, pid, network, IPC and UTS namespaces (and, where not root, a user namespace
that maps the user to itself) and a root of its own: a tmpfs holding, read-only, only what the
runner needs (the system's programs and libraries, the Python installation, a few files of /etc,
the box's code, the project's copy), the run's folder (writable), a fresh /proc, its own /tmp and
/dev. No other path of the host exists inside: not the user's home, the real checkout, /run or the
Docker socket. The runner is the first process of the new pid namespace: when it ends, the kernel
kills every process the run left. Started by root, the run gives up root for SANDBOX_UID, as in
the Docker sandbox. jail_setup.py builds it; where the kernel refuses, the run is refused.
"""

from __future__ import annotations

import glob
import marshal
import os
import pwd
import site
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from coderefine.sandbox import jail_setup

SANDBOX_UID = 10001  # who runs inside when root starts the run: the Docker sandbox's user for code under test
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs read from /etc (the loader's cache, the time zone, name lookup's order, the
# alternatives' links); not its secrets, users or hosts.
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "nsswitch.conf", "host.conf")
ETC_MORE = ("alternatives", "mime.types", "os-release", "python3*")
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
DEV_LINKS = (
    ("fd", "/proc/self/fd"),
    ("stdin", "/proc/self/fd/0"),
    ("stdout", "/proc/self/fd/1"),
    ("stderr", "/proc/self/fd/2"),
)
HOSTS = "127.0.0.1 localhost\n::1 localhost\n"


@dataclass(frozen=True)
class Refusal:
    """Why the kernel refused the jail, in a few words."""

    reason: str

    def message(self) -> str:
        return f"the local sandbox cannot isolate its runs here: {self.reason}; use Docker ('coderefine sandbox setup')"


def command(runner: Sequence[str], *, folder: str, read_only: Iterable[str], scratch_mb: int) -> list[str]:
    """The command that runs `runner` jailed: `folder` (the run's, empty but for the request) is
    its writable folder, `read_only` (the box's code, the project's copy) is bound in besides the
    system and Python; /tmp and /dev/shm are tmpfs of `scratch_mb` MiB."""
    uid = SANDBOX_UID if os.geteuid() == 0 else None
    root = os.path.join(folder, ".root")
    os.mkdir(root)
    plan = {
        "root": root,
        "folder": folder,
        "mounts": _mounts(folder, read_only, scratch_mb, uid),
        "writable": ["/tmp", "/dev/shm", os.path.realpath(folder)],
        "uid": uid,
        "command": list(runner),
    }
    return [sys.executable, "-I", "-S", jail_setup.__file__, marshal.dumps(plan).hex()]


def refusal(returncode: int, stdout: bytes, stderr: bytes) -> Refusal | None:
    """The jail's refusal, if it was refused (the runner never started)."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    if returncode != jail_setup.REFUSED or stdout.strip() or not lines or not lines[-1].startswith(jail_setup.PREFIX):
        return None
    return Refusal(lines[-1].removeprefix(jail_setup.PREFIX))


def _mounts(folder: str, read_only: Iterable[str], scratch_mb: int, uid: int | None) -> list[tuple[str, str, str]]:
    """The jail's mounts as (kind, path, value), parents first; see jail_setup.build."""
    links: dict[str, str] = {}
    binds = {_resolve(path, links) for path in [*_python(), *_system(), *read_only] if os.path.exists(path)}
    scratch = f"mode=1777,size={scratch_mb}m"
    mounts = [
        *(("bind", path, "") for path in _outermost(binds)),
        *(("link", path, target) for path, target in links.items()),
        ("bind-rw", _resolve(folder, links), ""),
        ("tmpfs", "/tmp", scratch),
        ("tmpfs", "/dev", "mode=755,size=64k"),
        ("tmpfs", "/dev/shm", scratch),
        *(("device", path, "") for path in DEVICES if os.path.exists(path)),
        *(("link", f"/dev/{name}", target) for name, target in DEV_LINKS),
        ("proc", "/proc", ""),
        *(("file", f"/etc/{name}", text) for name, text in _identity(uid).items()),
    ]
    return sorted(mounts, key=lambda mount: mount[1].split("/"))


def _python() -> list[str]:
    """The Python installation at its own paths: a venv's and its base's folders, the interpreter's."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    executable = os.path.realpath(sys.executable)
    return [*prefixes, *site.getsitepackages(), os.path.dirname(sys.executable), os.path.dirname(executable)]


def _system() -> list[str]:
    etc = [f"/etc/{name}" for name in ETC]
    etc += [path for pattern in ETC_MORE for path in glob.glob(f"/etc/{pattern}")]
    return [*SYSTEM, *etc]


def _resolve(path: str, links: dict[str, str], depth: int = 0) -> str:
    """`path` with no link on the way: where it is bound. Each link on the way is kept in `links`
    (path -> its target), so that inside the jail the path leads to the same place."""
    current = "/"
    for part in Path(os.path.abspath(path)).parts[1:]:
        step = os.path.join(current, part)
        if os.path.islink(step) and depth < 40:
            target = os.readlink(step)
            links[step] = target
            step = _resolve(os.path.normpath(os.path.join(current, target)), links, depth + 1)
        current = step
    return current


def _outermost(paths: Iterable[str]) -> list[str]:
    """The paths none of the others holds (the root itself never: it would hold the whole host)."""
    kept: list[str] = []
    for path in sorted(path for path in paths if path != "/"):
        if not any(path.startswith(outer.rstrip("/") + "/") for outer in kept):
            kept.append(path)
    return kept


def _identity(uid: int | None) -> dict[str, str]:
    """/etc/passwd and /etc/group of the jail: root, the user it runs as, nobody."""
    user_id = uid if uid is not None else os.getuid()
    group_id = uid if uid is not None else os.getgid()
    user = "sandbox"
    if uid is None:
        try:
            user = pwd.getpwuid(user_id).pw_name
        except KeyError:
            user = "user"
    users = {0: "root", user_id: user, 65534: "nobody"}
    groups = {0: "root", group_id: user, 65534: "nogroup"}
    return {
        "passwd": "".join(f"{name}:x:{number}:{number}::/tmp:/bin/sh\n" for number, name in users.items()),
        "group": "".join(f"{name}:x:{number}:\n" for number, name in groups.items()),
        "hosts": HOSTS,
    }
