"""The runner's work: one request, run in a forked child under limits, and its result.

A program (`code`) is written into a fresh scratch directory and run as `python main.py`
would run it, in this process's child; a check (`job`) is judged by judge/check.py in that child.
The child has its own session, its output is capped (streams.py), and everything it left
behind is killed afterwards (processes.py); the result says how it ended: exit code, output,
timeout, memory, truncation.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import sys
import time

from .. import project_path
from ..contract import DRAFT_UID, JUDGE_UID, ORIGINAL_UID
from ..privileges import become, undumpable
from .processes import (
    become_subreaper,
    kill_everything,
    limit_child,
    oom_kills,
    ran_out_of_memory,
    remove_tree,
)
from .streams import Gate, collect

TYPE_CHECKING = False  # the runner imports as little as it can: typing only for the type checker
if TYPE_CHECKING:
    from typing import Any, NoReturn

    Request = dict[str, Any]  # a request, or a result: JSON objects

RUNNER_VERSION = 3


def main(argv: list[str]) -> int:
    undumpable()  # code under test, even as the same user, cannot read or trace the runner
    if argv[1:] == ["--serve"]:
        # One reader of stdin for requests and the host's "go" (see Gate): the host writes
        # nothing until it is answered, so no "go" is ever left in a buffer.
        for line in iter(sys.stdin.buffer.readline, b""):
            # A "go" here came for a check that ended before it (its judge died waiting): no request.
            if line.strip() and line.strip() != b"go":
                _reply(serve_one(line.strip().decode("utf-8")))
        return 0
    _reply(serve_one(argv[1]))
    return 0


def _reply(result: Request) -> None:
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


def serve_one(request_line: str) -> Request:
    """Run the request (a JSON object, or the path of a file holding one); a problem of the
    runner itself becomes `runner_error`."""
    try:
        if request_line.startswith("{"):
            request = json.loads(request_line)
        else:
            with open(request_line, encoding="utf-8") as handle:
                request = json.load(handle)
        result = run(request)
    except Exception as error:
        return {"runner_error": f"{type(error).__name__}: {error}", "runner_version": RUNNER_VERSION}
    result["runner_version"] = RUNNER_VERSION
    return result


def run(request: Request) -> Request:
    """A program (`code`, run as `python main.py`), or a check (`job`, judged by judge/check.py)."""
    if os.geteuid() == 0 and not request.get("local"):
        request["uids"] = {"draft": DRAFT_UID, "original": ORIGINAL_UID, "judge": JUDGE_UID}
    try:
        return supervise(request)
    finally:
        _clean_scratch(request)


def _prepare_workdir(request: Request) -> str:
    """In the child, as the user that runs the program: a fresh directory with its files."""
    workdir = request["workdir"]
    os.makedirs(workdir, mode=0o700)
    program = os.path.join(workdir, request.get("filename", "main.py"))
    with open(program, "w", encoding="utf-8") as handle:
        handle.write(request["code"])
    for name, text in request.get("files", {}).items():
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    return program


def _clean_scratch(request: Request) -> None:
    """Remove the run's directory, and in a container whatever code under test left in /scratch and /tmp."""
    uids = request.get("uids")
    if not uids:
        remove_tree(request["workdir"])
        return
    for uid in sorted(set(uids.values())):
        pid = os.fork()
        if pid == 0:
            try:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                for folder in ("/scratch", "/tmp"):
                    for entry in os.listdir(folder):
                        remove_tree(os.path.join(folder, entry))
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


def supervise(request: Request) -> Request:
    local = request.get("local", False)
    if local:
        become_subreaper()
    oom_before = oom_kills()
    started = time.monotonic()
    child = Child(request)
    limit = int(request["output_limit"])
    stdout, stderr, verdict, reason = collect(child, started + float(request["timeout"]), limit, child.gate)
    exit_code = kill_everything(child, kill_all_of_user=not local)
    duration = time.monotonic() - started
    oom_killed = oom_kills() > oom_before or (local and ran_out_of_memory(exit_code, stderr))
    if oom_killed and reason is None and exit_code != 0:
        # A process of the program's own that the kernel ended (a judge's call on one input) is
        # the program's to report: one that still finished well was not ended by memory.
        reason = "memory"
    result = {
        "exit_code": exit_code,
        "stdout": stdout.decode("utf-8", "replace"),
        "stderr": stderr.decode("utf-8", "replace"),
        "duration_s": round(duration, 6),
        "timed_out": reason == "timeout",
        "oom_killed": oom_killed,
        "truncated": reason == "output",
        "killed_by": reason,
        "network_isolated": not local or child.network_cut,
    }
    if "job" in request:
        result["verdict"] = _verdict_text(verdict)
    return result


def _verdict_text(data: bytes) -> str | None:
    """The judge's frame (see wire.py) as text, or None when it wrote none."""
    if len(data) < 4:
        return None
    size = int.from_bytes(data[:4], "big")
    body = data[4 : 4 + size]
    return body.decode("utf-8", "replace") if len(body) == size else None


class Child:
    """The program, in a forked process with its own session, stdin from /dev/null.

    A check also gets the verdict channel: a pipe only the runner reads, whose
    write end only the judge keeps (it closes it in the versions' processes);
    and, when the request asks for it, the timing gate (see streams.Gate).
    """

    def __init__(self, request: Request) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        cut_read, cut_write = os.pipe()  # the child says whether it got off the network
        verdict_read, verdict_write = os.pipe() if "job" in request else (None, None)
        gate = Gate() if "job" in request and request.get("gate") else None
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            for fd in (out_read, err_read, cut_read, verdict_read, *(gate.runner_ends() if gate else ())):
                if fd is not None:
                    os.close(fd)
            _run_program(request, out_write, err_write, cut_write, verdict_write, gate.judge_ends() if gate else None)
        for fd in (out_write, err_write, cut_write, verdict_write, *(gate.judge_ends() if gate else ())):
            if fd is not None:
                os.close(fd)
        self.stdout, self.stderr, self.verdict, self.gate = out_read, err_read, verdict_read, gate
        self.network_cut = os.read(cut_read, 1) == b"1"
        os.close(cut_read)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = _exit_code(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = _exit_code(os.waitpid(self.pid, 0)[1])
        return self.returncode


def _exit_code(status: int) -> int:
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _run_program(
    request: Request,
    out_write: int,
    err_write: int,
    cut_write: int,
    verdict_write: int | None,
    gate_ends: tuple[int, int] | None,
) -> NoReturn:
    code = 1
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_write, 1)
        os.dup2(err_write, 2)
        for fd in (null, out_write, err_write):
            os.close(fd)
        cut = limit_child(request)
        os.write(cut_write, b"1" if cut else b"0")
        os.close(cut_write)
        uids = request.get("uids")
        if "job" in request:
            code = _judge(request, verdict_write, uids, gate_ends)
        else:
            if uids:
                become(uids["draft"])
            project_path.enter()
            program = _prepare_workdir(request)
            os.chdir(request["workdir"])
            os.environ["HOME"] = os.environ["TMPDIR"] = request["workdir"]
            code = _execute(program, request.get("args", []))
    except BaseException:
        pass
    finally:
        os._exit(code)


def _judge(
    request: Request, verdict_write: int | None, uids: dict[str, int] | None, gate_ends: tuple[int, int] | None
) -> int:
    """A check: judge/check.py, from the runner's own folder, decides it (it drops to its own user)."""
    if not uids:
        os.makedirs(request["workdir"], mode=0o700)
        os.chdir(request["workdir"])
        os.environ["HOME"] = os.environ["TMPDIR"] = request["workdir"]
    try:
        from ..judge import check

        assert verdict_write is not None  # a check always has its verdict channel
        return int(check.main(request["job"], verdict_write, uids, gate_ends))
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1


def _execute(program: str, args: list[str]) -> int:
    """Run the program as `python program args...` would, in this process."""
    import atexit

    sys.argv = [program, *list(args)]
    sys.path.insert(0, os.path.dirname(program))
    namespace = {"__name__": "__main__", "__file__": program, "__builtins__": builtins}
    code = 0
    try:
        with open(program, encoding="utf-8") as handle:
            source = handle.read()
        exec(compile(source, program, "exec"), namespace)
    except SystemExit as stop:
        code = _system_exit_code(stop)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    threading = sys.modules.get("threading")
    if threading is not None and hasattr(threading, "_shutdown"):
        threading._shutdown()  # wait for non-daemon threads, as interpreter exit does
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    return code


def _system_exit_code(stop: SystemExit) -> int:
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code & 0xFF
    sys.stderr.write(str(stop.code) + "\n")
    return 1
