"""The in-sandbox runner: runs programs under limits, one JSON result each.

    python3 runner.py REQUEST.json     # one run, result on stdout
    python3 runner.py --serve          # requests (JSON lines) on stdin, a result line for each

In a sandbox container the runner serves: it is the container's long-lived
process, and every request costs a fork rather than a new interpreter.

It is the supervisor, not the program: it writes the program into a fresh
scratch directory, runs it in a forked child process in its own session,
caps its output, enforces the wall-clock timeout, kills everything the
program left behind, and reports what happened (exit code, output, timeout,
memory, truncation). A check whose request asks for the timing gate may wait for
the host's turn before it times (see _Gate): the host's other checks run beside
it, but never time beside it. Inside Docker it runs in a warm container; with the local
fallback it runs on the host and also sets resource limits and, where the
kernel allows, cuts the child off the network.

The child is forked, not started afresh, and the runner imports little:
a run's overhead is mostly interpreter start-up, so every import counts.
Interpreter-wide settings (PYTHONHASHSEED, PYTHONPATH, PYTHONUNBUFFERED) are
therefore given to the runner itself, and the child inherits them.

Standard library only, and syntax old enough for whatever Python the sandbox image has
(annotations are never evaluated, and `typing` is not even imported).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import sys
import time

TYPE_CHECKING = False  # the runner imports as little as it can: typing only for the type checker
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, NoReturn

    Request = dict[str, Any]  # a request, or a result: JSON objects

RUNNER_VERSION = 3
DRAFT_UID = 10001  # what runs code under test, where the runner may choose (it is root in the container)
JUDGE_UID = 10002  # the judge of a check: another user, so code under test cannot signal or read it
_PR_SET_DUMPABLE = 4
VERDICT_LIMIT = 64 << 20
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> int:
    _undumpable()  # code under test, even as the same user, cannot read or trace the runner
    # This folder's modules are loaded as a package of their own (load_package): as plain
    # top-level names they would shadow the project's own `inputs`, `timing`, ...
    sys.path[0] = "/nonexistent/coderefine-runner"
    if argv[1:] == ["--serve"]:
        # One reader of stdin for requests and the host's "go" (see _Gate): the host writes
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
    """A program (`code`, run as `python main.py`), or a check (`job`, judged by judge.py)."""
    if os.geteuid() == 0 and not request.get("local"):
        request["uids"] = {"draft": DRAFT_UID, "judge": JUDGE_UID}
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
        _remove_tree(request["workdir"])
        return
    for uid in (uids["draft"], uids["judge"]):
        pid = os.fork()
        if pid == 0:
            try:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                for folder in ("/scratch", "/tmp"):
                    for entry in os.listdir(folder):
                        _remove_tree(os.path.join(folder, entry))
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


def supervise(request: Request) -> Request:
    local = request.get("local", False)
    if local:
        _become_subreaper()
    oom_before = _oom_kills()
    started = time.monotonic()
    child = _Child(request)
    limit = int(request["output_limit"])
    stdout, stderr, verdict, reason = _collect(child, started + float(request["timeout"]), limit, child.gate)
    exit_code = _kill_everything(child, kill_all_of_user=not local)
    duration = time.monotonic() - started
    oom_killed = _oom_kills() > oom_before or (local and _ran_out_of_memory(exit_code, stderr))
    if oom_killed and reason is None:
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


class _Child:
    """The program, in a forked process with its own session, stdin from /dev/null.

    A check also gets the verdict channel: a pipe only the runner reads, whose
    write end only the judge keeps (it closes it in the versions' processes);
    and, when the request asks for it, the timing gate (see _Gate).
    """

    def __init__(self, request: Request) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        cut_read, cut_write = os.pipe()  # the child says whether it got off the network
        verdict_read, verdict_write = os.pipe() if "job" in request else (None, None)
        gate = _Gate() if "job" in request and request.get("gate") else None
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            for fd in (out_read, err_read, cut_read, verdict_read, *(gate.runner_ends() if gate else ())):
                if fd is not None:
                    os.close(fd)
            _run_program(request, out_write, err_write, cut_write, verdict_write,
                         gate.judge_ends() if gate else None)
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


class _Gate:
    """The timing gate: the judge asks before it times, the host answers when no other check
    of its times (timings side by side would disturb each other), and the wait does not count
    against the check's timeout.

    The judge writes `t` on `ask`; the runner tells the host (a line `{"gate": "timing"}` on
    stdout) and, on the host's line `go` on stdin, writes a byte on `go`; the judge's `d` when it
    is done becomes `{"gate": "done"}`. Only the judge holds the judge's ends: it closes them in
    the versions' processes, like the verdict channel.
    """

    def __init__(self) -> None:
        self.ask_read, self.ask_write = os.pipe()
        self.go_read, self.go_write = os.pipe()

    def judge_ends(self) -> tuple[int, int]:
        return self.ask_write, self.go_read

    def runner_ends(self) -> tuple[int, int]:
        return self.ask_read, self.go_write

    @staticmethod
    def tell_host(what: str) -> None:
        sys.stdout.write(json.dumps({"gate": what}) + "\n")
        sys.stdout.flush()

    def host_said_go(self) -> bool:
        line = sys.stdin.buffer.readline()
        if line.strip() != b"go":
            return False
        os.write(self.go_write, b"g")
        return True

    def close(self) -> None:
        for fd in self.runner_ends():
            with contextlib.suppress(OSError):
                os.close(fd)


def _exit_code(status: int) -> int:
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _run_program(request: Request, out_write: int, err_write: int, cut_write: int, verdict_write: int | None,
                 gate_ends: tuple[int, int] | None) -> NoReturn:
    code = 1
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_write, 1)
        os.dup2(err_write, 2)
        for fd in (null, out_write, err_write):
            os.close(fd)
        cut = _limit_child(request)
        os.write(cut_write, b"1" if cut else b"0")
        os.close(cut_write)
        uids = request.get("uids")
        if "job" in request:
            code = _judge(request, verdict_write, uids, gate_ends)
        else:
            if uids:
                _become(uids["draft"])
            program = _prepare_workdir(request)
            os.chdir(request["workdir"])
            os.environ["HOME"] = os.environ["TMPDIR"] = request["workdir"]
            code = _execute(program, request.get("args", []))
    except BaseException:
        pass
    finally:
        os._exit(code)


def _judge(request: Request, verdict_write: int | None, uids: dict[str, int] | None,
           gate_ends: tuple[int, int] | None) -> int:
    """A check: judge.py, from the runner's own folder, decides it (it drops to its own user)."""
    if not uids:
        os.makedirs(request["workdir"], mode=0o700)
        os.chdir(request["workdir"])
        os.environ["HOME"] = os.environ["TMPDIR"] = request["workdir"]
    try:
        judge = load_package().judge
        return int(judge.main(request["job"], verdict_write, uids, gate_ends))
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1


PACKAGE = "_coderefine_sandbox"


def load_package() -> ModuleType:
    """This folder as the package `_coderefine_sandbox`: its modules can shadow none of the project's."""
    import importlib
    import importlib.util

    if PACKAGE not in sys.modules:
        here = os.path.dirname(os.path.abspath(__file__))
        spec = importlib.util.spec_from_file_location(
            PACKAGE, os.path.join(here, "__init__.py"), submodule_search_locations=[here])
        assert spec is not None and spec.loader is not None  # a file location always has both
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
    importlib.import_module(PACKAGE + ".judge")
    return sys.modules[PACKAGE]


def _become(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _undumpable()


def _undumpable() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _execute(program: str, args: list[str]) -> int:
    """Run the program as `python program args...` would, in this process."""
    import atexit

    sys.argv = [program, *list(args)]
    sys.path[0] = os.path.dirname(program)
    namespace = {"__name__": "__main__", "__file__": program, "__builtins__": __builtins__}
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


def _collect(child: _Child, deadline: float, limit: int,
             gate: _Gate | None = None) -> tuple[bytes, bytes, bytes, str | None]:
    """Read stdout, stderr (and a check's verdict) until they close or a limit is hit; pass
    the judge's timing requests to the host and its answers back (`gate`).

    Returns the captured bytes and why the run was cut short: "timeout",
    "output", or None. The verdict has its own, larger cap.
    """
    captured = {child.stdout: bytearray(), child.stderr: bytearray()}
    if child.verdict is not None:
        captured[child.verdict] = bytearray()
    selector = selectors.DefaultSelector()
    for fd in captured:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    if gate is not None:
        selector.register(gate.ask_read, selectors.EVENT_READ)
    total, reason, exited_at, asked_at = 0, None, None, None
    while any(fd in selector.get_map() for fd in captured):
        now = time.monotonic()
        if now >= deadline and asked_at is None:
            reason = "timeout"
            break
        if child.poll() is not None:
            # Grandchildren may hold the pipes open: drain briefly, then stop waiting.
            exited_at = exited_at or now
            if now - exited_at > 0.2:
                break
        # Waiting for the host's go, the deadline is on hold: no spinning on a timeout of 0 past it.
        wait = 0.05 if asked_at is not None else max(0.0, min(0.05, deadline - now))
        for key, _ in selector.select(timeout=wait):
            if gate is not None and key.fd in (gate.ask_read, 0):
                if key.fd == gate.ask_read:
                    said = os.read(gate.ask_read, 1)
                    if not said:
                        selector.unregister(gate.ask_read)
                    elif said == b"d":
                        gate.tell_host("done")
                    else:
                        gate.tell_host("timing")
                        asked_at = time.monotonic()
                        selector.register(0, selectors.EVENT_READ)
                    continue
                selector.unregister(0)
                if not gate.host_said_go():
                    reason = "timeout"  # the host is gone: nobody will ever say go
                    break
                assert asked_at is not None  # stdin is watched only while the judge waits for its go
                deadline += time.monotonic() - asked_at  # waiting for another check's timing is not this one's time
                asked_at = None
                continue
            chunk = os.read(key.fd, 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            if key.fd == child.verdict:
                if len(captured[child.verdict]) < VERDICT_LIMIT:
                    captured[child.verdict] += chunk
                continue
            room = max(0, limit - total)
            captured[key.fd] += chunk[:room]
            total += len(chunk)
            if total > limit:
                reason = "output"
                break
        if reason:
            break
    selector.close()
    for fd in captured:
        os.close(fd)
    if gate is not None:
        gate.close()
    verdict = bytes(captured[child.verdict]) if child.verdict is not None else b""
    return bytes(captured[child.stdout]), bytes(captured[child.stderr]), verdict, reason


def _kill_everything(child: _Child, kill_all_of_user: bool) -> int:
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


def _become_subreaper() -> None:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _limit_child(request: Request) -> bool:
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
    for path, text in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", f"{uid} {uid} 1"),
                       ("/proc/self/gid_map", f"{gid} {gid} 1")):
        try:
            with open(path, "w") as handle:
                handle.write(text)
        except OSError:
            pass
    return True


def _remove_tree(path: str) -> None:
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


def _oom_kills() -> int:
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


def _ran_out_of_memory(exit_code: int, stderr: bytes) -> bool:
    # Under RLIMIT_AS Python raises MemoryError rather than being killed.
    return exit_code != 0 and b"MemoryError" in stderr[-4096:]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
