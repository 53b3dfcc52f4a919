"""Builds a run's jail and starts the runner in it (jail.py writes the plan):

    python -I -S jail_setup.py PLAN      # PLAN: the plan, marshalled, in hexadecimal

New mount, pid, network, IPC and UTS namespaces (and, where not root, a user namespace that maps
the user to itself, for the right to mount); then a fork, whose child is the new pid namespace's
first process. There a tmpfs becomes the new root, with the plan's mounts in it: folders and
files of the host bound at their own paths, device nodes, a fresh /proc, tmpfs folders, links and
small files. pivot_root moves into it and the old root is detached: nothing else of the host is
left in the namespace. Every mount but the plan's writable ones becomes read-only, root gives up
its ids for the plan's unprivileged ones, and the runner replaces the child: when it ends, the
kernel kills whatever processes the run left. This process waits for it and exits as it did.

A step the kernel refuses ends the run with REFUSED and one line on stderr, starting with PREFIX.

The host's Python runs this file isolated (-I, -S): the standard library only, nothing of the
project. It starts before every run, so it imports what it must and no more: the plan comes
marshalled (the same interpreter wrote it, and marshal needs no import), not as JSON.
"""

from __future__ import annotations

import ctypes
import marshal
import os
import sys

TYPE_CHECKING = False  # no typing at run time: it would cost more than the rest of the imports
if TYPE_CHECKING:
    from typing import Any, NoReturn

    Plan = dict[str, Any]

REFUSED = 125  # the exit code of a jail the kernel refused
PREFIX = "jail: "  # the start of the refusal's line on stderr

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_NOATIME = 0x400
MS_NODIRATIME = 0x800
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
MS_RELATIME = 0x200000
MNT_DETACH = 0x2
PR_SET_PDEATHSIG = 1
SIGKILL = 9
# glibc has no pivot_root(): its system call's number, by machine.
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "ppc64": 203, "s390x": 217}
# Flags a read-only remount must keep: in a user namespace, those of the host's mount are locked.
KEPT = {"noexec": MS_NOEXEC, "noatime": MS_NOATIME, "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME}


class Refused(Exception):
    """A step the kernel refused; the message says which and why."""


def main(argv: list[str]) -> int:
    plan: Plan = marshal.loads(bytes.fromhex(argv[1]))
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        enter_namespaces(libc)
    except Refused as refusal:
        return refuse(refusal)
    child = os.fork()
    if child == 0:
        try:
            start(libc, plan)
        except Refused as refusal:
            os._exit(refuse(refusal))
        except BaseException as error:
            os._exit(refuse(Refused(f"{type(error).__name__}: {error}")))
    code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    return code if code >= 0 else 128 - code


def refuse(refusal: Refused) -> int:
    sys.stderr.write(PREFIX + " ".join(str(refusal).split()) + "\n")
    sys.stderr.flush()
    return REFUSED


def enter_namespaces(libc: ctypes.CDLL) -> None:
    """New namespaces for this process; the pid namespace is its next child's."""
    unprivileged = os.geteuid() != 0
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    if int(libc.unshare(flags | (CLONE_NEWUSER if unprivileged else 0))) != 0:
        error = ctypes.get_errno()
        if unprivileged:
            raise Refused(f"this kernel gives unprivileged users no user namespace ({os.strerror(error)})")
        raise Refused(f"cannot create new namespaces ({os.strerror(error)})")
    if unprivileged:
        uid, gid = os.getuid(), os.getgid()
        try:
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as handle:
                    handle.write(text)
        except OSError as error:
            raise Refused(f"cannot map the user into its namespace ({error.strerror})") from None


def start(libc: ctypes.CDLL, plan: Plan) -> NoReturn:
    """In the new pid namespace: the jail, then the runner in it."""
    die_with_parent(libc)
    os.umask(0o022)
    build(libc, plan)
    enter_root(libc, plan["root"])
    read_only(libc, set(plan["writable"]), {path for kind, path, _ in plan["mounts"] if kind == "device"})
    if plan["uid"] is not None:
        become(plan["uid"], plan["folder"])
        die_with_parent(libc)  # a change of ids forgets the parent's death signal
    os.execv(plan["command"][0], plan["command"])


def die_with_parent(libc: ctypes.CDLL) -> None:
    """Killed when the process that waits for it is (the host's timeout kills that one)."""
    libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)


def build(libc: ctypes.CDLL, plan: Plan) -> None:
    """The new root: a tmpfs on plan["root"], and the plan's mounts in it, parents first."""
    root = plan["root"]
    try:
        mount(libc, None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the host's mounts
    except Refused as refusal:
        if os.geteuid() == 0:
            raise
        # As where AppArmor restricts unprivileged user namespaces (recent Ubuntu).
        raise Refused(
            f"this kernel lets unprivileged users make a user namespace but not mount in it: {refusal}"
        ) from None
    mount(libc, "tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=1m")
    own = {os.stat(root).st_dev}  # the file systems this jail made: the only ones it creates files in
    for kind, path, value in plan["mounts"]:
        target = root + path
        if kind == "link":
            if not os.path.lexists(target):
                make_parent(target, own)
                os.symlink(value, target)
        elif kind == "file":
            make_parent(target, own)
            with open(target, "x", encoding="utf-8") as handle:
                handle.write(value)
        elif kind in ("tmpfs", "proc"):
            make_point(target, True, own)
            mount(libc, kind, target, kind, MS_NOSUID | MS_NODEV | (MS_NOEXEC if kind == "proc" else 0), value)
            own.add(os.stat(target).st_dev)
        else:  # "bind" (read-only later), "bind-rw", "device": host paths at their own paths
            make_point(target, os.path.isdir(path), own)
            mount(libc, path, target, None, MS_BIND | (MS_REC if kind == "bind" else 0))


def make_point(target: str, folder: bool, own: set[int]) -> None:
    """A mount point at `target` (a folder, or an empty file), unless there is one already."""
    if os.path.lexists(target):
        return
    make_parent(target, own)
    if folder:
        os.mkdir(target)
    else:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))


def make_parent(target: str, own: set[int]) -> None:
    """`target`'s folder, made only on the jail's own file systems: never inside a folder of the host."""
    parent = os.path.dirname(target)
    if not os.path.lexists(parent):
        make_parent(parent, own)
        os.mkdir(parent)
    if os.stat(parent).st_dev not in own:
        raise Refused(f"{target} would be made in a folder of the host")


def enter_root(libc: ctypes.CDLL, root: str) -> None:
    """pivot_root into `root`; the old root, stacked on it, is detached."""
    number = PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise Refused(f"no pivot_root system call known for {os.uname().machine}")
    os.chdir(root)
    if int(libc.syscall(number, b".", b".")) != 0:
        raise Refused(f"pivot_root: {os.strerror(ctypes.get_errno())}")
    if int(libc.umount2(b".", MNT_DETACH)) != 0:
        raise Refused(f"cannot detach the old root: {os.strerror(ctypes.get_errno())}")
    os.chdir("/")


def read_only(libc: ctypes.CDLL, writable: set[str], devices: set[str]) -> None:
    """Every mount read-only but the writable ones and /proc (a run writes its own process's
    settings there); none runs set-user-ID programs, none but the device nodes opens devices."""
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        mounts = [line.split() for line in handle]
    for fields in mounts:
        point = unescape(fields[4])
        if point == "/proc":
            continue
        flags = MS_REMOUNT | MS_BIND | MS_NOSUID | (0 if point in devices else MS_NODEV)
        flags |= 0 if point in writable else MS_RDONLY
        for option in fields[5].split(","):
            flags |= KEPT.get(option, 0)
        mount(libc, None, point, None, flags)


def unescape(field: str) -> str:
    """A path of /proc/self/mountinfo: spaces, tabs, newlines and backslashes come as octal escapes."""
    for code in ("040", "011", "012", "134"):
        field = field.replace("\\" + code, chr(int(code, 8)))
    return field


def become(uid: int, folder: str) -> None:
    """Root gives up its ids for `uid`'s (and no groups); the run's folder becomes that user's."""
    try:
        os.chown(folder, uid, uid)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except OSError as error:
        raise Refused(f"cannot run as user {uid} ({error.strerror})") from None


def mount(
    libc: ctypes.CDLL, source: str | None, target: str, kind: str | None, flags: int, data: str | None = None
) -> None:
    def text(value: str | None) -> bytes | None:
        return value.encode() if value is not None else None

    if int(libc.mount(text(source), text(target), text(kind), ctypes.c_ulong(flags), text(data))) != 0:
        what = f"{source} on {target}" if source and source.startswith("/") else target
        raise Refused(f"cannot mount {what} ({os.strerror(ctypes.get_errno())})")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
