"""The versions' processes, as the judge sees them: each forked before anything is checked, under
another user where the sandbox allows it and never dumpable, on the CPUs the check may use, with a
pipe each way."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from typing import Any

from .. import contract, project_path, wire
from ..privileges import become
from ..version import executor


def close_all_but(keep: set[int]) -> None:
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


@dataclass(frozen=True)
class Cpus:
    """Where a check runs: its timing on one CPU, the same for both versions; the rest of it on
    `work`. With a timing gate, checks run side by side and `work` leaves the timing CPU to the
    one check that times."""

    timing: int
    work: frozenset[int]

    @classmethod
    def of_this_process(cls, side_by_side: bool) -> Cpus:
        try:
            allowed = frozenset(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return cls(timing=-1, work=frozenset())
        timing = min(allowed)
        others = allowed - {timing}
        return cls(timing=timing, work=others if side_by_side and others else frozenset({timing}))

    def move_here(self, cpus: frozenset[int]) -> None:
        """This process onto `cpus` (nothing where the platform cannot pin)."""
        if cpus and self.timing >= 0:
            with contextlib.suppress(AttributeError, OSError):
                os.sched_setaffinity(0, cpus)


class Worker:
    """A version's process, as the judge sees it: a pipe each way."""

    def __init__(
        self, target: contract.TargetSpec, candidate: str | None, project: str | None, uid: int | None, cpus: Cpus
    ) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            settle_in({request_read, answer_write}, uid, cpus)
            executor.main_for_child(request_read, answer_write, target, candidate, project)
        os.close(request_read)
        os.close(answer_write)
        self.requests, self.answers = request_write, answer_read
        self.ready: dict[str, Any] = {}

    def move(self, cpus: frozenset[int]) -> None:
        if cpus:
            self.ask({"kind": "pin", "cpus": sorted(cpus)}, 30.0)

    def send(self, request: dict[str, Any]) -> None:
        try:
            wire.send_pickle(self.requests, request)
        except OSError as error:
            raise wire.ChannelClosed(f"the version's process is gone: {error}") from None

    def answer(self, timeout: float) -> dict[str, Any]:
        try:
            data = wire.receive_json(self.answers, time.monotonic() + timeout)
        except wire.ChannelClosed as problem:
            return {"crashed": str(problem)}
        return data if isinstance(data, dict) else {"crashed": "an answer that is not an object"}

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            self.send(request)
        except wire.ChannelClosed as problem:
            return {"crashed": str(problem)}
        return self.answer(timeout)

    def exited(self) -> bool:
        """Whether the process has ended (it is then reaped)."""
        try:
            return os.waitpid(self.pid, os.WNOHANG)[0] != 0
        except ChildProcessError:
            return True

    def stop(self) -> None:
        with contextlib.suppress(OSError, wire.ChannelClosed):
            self.send({"kind": "stop"})
        end_child(self.pid, (self.requests, self.answers))


def end_child(pid: int, fds: tuple[int, ...]) -> None:
    """Kill a forked process that was asked to stop (it may not have listened), reap it and close
    its channels."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, 9)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def settle_in(keep: set[int], uid: int | None, cpus: Cpus) -> None:
    """A process just forked from the judge to run the project's code (a version's, the planner's):
    no standard streams, nothing of the judge's open but `keep`, another user's ids, the project on
    its path, a scratch folder of its own, the check's work CPUs."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    close_all_but(keep)
    become(uid)
    project_path.enter()
    with contextlib.suppress(OSError):
        os.chdir(scratch_dir())
    cpus.move_here(cpus.work)


def scratch_dir() -> str:
    import tempfile

    path = tempfile.mkdtemp(prefix="v-", dir="/scratch" if os.path.isdir("/scratch") else None)
    os.environ["HOME"] = os.environ["TMPDIR"] = path
    return path
