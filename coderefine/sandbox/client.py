"""Where drafts run: a Docker sandbox with a warm pool, or a local fallback.

Docker (the default): each container has no network, memory, CPU and pids
limits, a read-only root filesystem with small tmpfs scratch space, and all
capabilities dropped with no-new-privileges. Everything in it runs as an
unprivileged user. The container's process is the runner (sandbox/runner.py),
kept warm between runs: each run is a request on its stdin, answered by a
forked fresh process in a fresh scratch directory, so a run costs a fork
rather than a `docker exec`. A container that saw a run cut short (timeout,
memory, output, a killed runner) is thrown away.
Containers are labelled with their owner, removed when the sandbox closes,
and stale ones from a killed coderefine are removed at the next start.
The Docker engine is the one `DOCKER_HOST` names (else the local socket). The
project is copied into a volume on it once per sandbox, without files that
hold secrets (see `left_out`), readable by the sandbox's users, and mounted
read-only: so a remote engine (tcp://, ssh://) works as a local one does.

Local (`--sandbox local`): the same runner as a host subprocess, with
resource limits, a timeout, a fresh temp directory and no network where the
kernel allows an unprivileged network namespace.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.image import RUNNER_IN_IMAGE, VENV_PYTHON, default_image, sandbox_dir
from coderefine.sandbox.project_deps import project_image

POOL_LABEL = "coderefine.sandbox"
OWNER_LABEL = "coderefine.owner"
SETUP_HINT = "run 'coderefine sandbox setup'"


class SandboxUnavailable(EnvironmentProblem):
    """Docker, its daemon or the sandbox image is missing."""


@dataclass(frozen=True)
class Limits:
    timeout: float = 10.0  # seconds of wall-clock time per run
    memory_mb: int = 512
    cpus: float = 1.0
    pids: int = 128
    output_bytes: int = 1 << 20  # stdout and stderr together
    scratch_mb: int = 64


@dataclass(frozen=True)
class RunResult:
    exit_code: int | None
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool
    oom_killed: bool
    truncated: bool
    sandbox: str  # "docker" or "local"
    killed_by: str | None = None  # "timeout", "memory", "output", "runner_killed"
    network_isolated: bool = True
    verdict: str | None = None  # a check's verdict (JSON), from the judge's own channel

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.killed_by is None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Sandbox(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def project_path(self) -> str | None:
        """Where the project is, as the code in the sandbox sees it."""
        ...

    def run(
        self,
        code: str,
        *,
        timeout: float | None = None,
        files: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> RunResult: ...

    def check(self, job: Mapping[str, Any], *, timeout: float,
              timing_lock: threading.Lock | None = None) -> RunResult:  # fmt: skip
        """Run one check (sandbox/judge.py) on a job of the contract; its verdict is in `verdict`.

        With `timing_lock`, checks may run side by side: the check holds the lock while it
        times, and the time it waits for it does not count against `timeout`.
        """
        ...

    def close(self) -> None: ...


def _request(
    code: str, workdir: str, limits: Limits, timeout: float | None,
    files: Mapping[str, str] | None, args: Sequence[str],
) -> dict[str, Any]:  # fmt: skip
    return {
        "code": code,
        "files": dict(files or {}),
        "args": list(args),
        "workdir": workdir,
        "timeout": limits.timeout if timeout is None else timeout,
        "output_limit": limits.output_bytes,
    }


def _runner_env(python_path: list[str], path: str) -> dict[str, str]:
    """The runner's environment; the forked program inherits it, hash seed included."""
    env = {
        "PATH": path,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",  # the same set and dict order in every run, for comparisons
        "PYTHONUNBUFFERED": "1",  # output written before a kill is kept
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if python_path:
        env["PYTHONPATH"] = os.pathsep.join(python_path)
    return env


def _project_path(project: Path | None, mount: str) -> list[str]:
    """Where the project's code is imported from: its root, and src/ when it has one."""
    if project is None:
        return []
    paths = [mount]
    if (project / "src").is_dir():
        paths.append(f"{mount}/src")
    return paths


def _parse_runner_output(stdout: bytes, stderr: bytes, kind: str) -> RunResult:
    """The runner's JSON line, or a result saying the runner itself was killed."""
    lines = stdout.decode("utf-8", "replace").strip().splitlines()
    try:
        data = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and "runner_error" in data:
        raise EnvironmentProblem(f"the sandbox runner failed: {data['runner_error']}")
    if not isinstance(data, dict):
        return RunResult(
            exit_code=None, stdout="", stderr=stderr.decode("utf-8", "replace")[-2000:],
            duration_s=0.0, timed_out=False, oom_killed=False, truncated=False,
            sandbox=kind, killed_by="runner_killed",
        )  # fmt: skip
    return RunResult(
        exit_code=data["exit_code"],
        stdout=data["stdout"],
        stderr=data["stderr"],
        duration_s=data["duration_s"],
        timed_out=data["timed_out"],
        oom_killed=data["oom_killed"],
        truncated=data["truncated"],
        sandbox=kind,
        killed_by=data["killed_by"],
        network_isolated=kind == "docker" or bool(data["network_isolated"]),
        verdict=data.get("verdict") if isinstance(data.get("verdict"), str) else None,
    )


class _Closing:
    """`with sandbox:` closes it on the way out, Ctrl-C included."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class _WarmRunner:
    """One container whose long-lived runner takes request paths on stdin.

    The runner answers each with one JSON line on stdout; the container's
    attach stream carries both, framed by Docker (8-byte headers).
    """

    def __init__(self, container: Any) -> None:
        self.container = container
        attached = container.attach_socket(params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
        self._attached = attached  # keeps the HTTP response (and so the socket) alive
        self._socket: socket.socket = getattr(attached, "_sock", attached)
        self._pending = b""

    def ask(self, request: str, timeout: float,
            on_gate: Callable[[str], None] | None = None) -> tuple[bytes, bytes]:  # fmt: skip
        """Send one request (a JSON line); return (the result line, the runner's stderr), or (b"", ...) if it died.

        The runner's gate lines come before the result: each goes to `on_gate` (which may wait;
        its time is not the request's), and a "timing" one is answered `go`.
        """
        deadline = time.monotonic() + timeout
        self._socket.sendall(request.encode() + b"\n")
        stdout, stderr = bytearray(), bytearray()
        while True:
            while b"\n" not in stdout:
                frame = self._frame(deadline)
                if frame is None:
                    return b"", bytes(stderr)
                stream, data = frame
                (stdout if stream == 1 else stderr).extend(data)
            line, _, rest = bytes(stdout).partition(b"\n")
            gate = _gate_line(line) if on_gate is not None else None
            if gate is None or on_gate is None:
                return bytes(stdout), bytes(stderr)
            stdout = bytearray(rest)
            waited_from = time.monotonic()
            on_gate(gate)
            deadline += time.monotonic() - waited_from
            if gate == "timing":
                self._socket.sendall(b"go\n")

    def _frame(self, deadline: float) -> tuple[int, bytes] | None:
        header = self._read(8, deadline)
        if header is None:
            return None
        stream, size = struct.unpack(">BxxxL", header)
        data = self._read(size, deadline)
        return None if data is None else (stream, data)

    def _read(self, size: int, deadline: float) -> bytes | None:
        while len(self._pending) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self._socket.settimeout(remaining)
            try:
                chunk = self._socket.recv(65536)
            except (TimeoutError, OSError):
                return None
            if not chunk:
                return None  # the runner is gone: the container stopped
            self._pending += chunk
        data, self._pending = self._pending[:size], self._pending[size:]
        return data

    def remove(self) -> None:
        import docker.errors
        import requests.exceptions

        with contextlib.suppress(OSError):
            self._socket.close()
        # Already gone, or the engine is: what failed is reported by the caller; the next start cleans up.
        with contextlib.suppress(docker.errors.DockerException, requests.exceptions.RequestException):
            self.container.remove(force=True)


def _gate_line(line: bytes) -> str | None:
    """"timing" or "done" for one of the runner's gate lines (see sandbox/runner.py _Gate), else None."""
    if not line.startswith(b'{"gate"'):
        return None
    with contextlib.suppress(ValueError):
        said = json.loads(line)
        if isinstance(said, dict) and said.get("gate") in ("timing", "done"):
            return str(said["gate"])
    return None


class _GateKeeper:
    """The host's side of one check's gate: `lock` held from the runner's "timing" to its "done"
    (or the check's end, whichever comes first)."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock, self.held = lock, False

    def __call__(self, said: str) -> None:
        if said == "timing" and not self.held:
            self.lock.acquire()
            self.held = True
        elif said == "done":
            self.release()

    def release(self) -> None:
        if self.held:
            self.held = False
            self.lock.release()


class DockerSandbox(_Closing):
    """Runs drafts in warm, locked-down Docker containers."""

    kind = "docker"

    def __init__(
        self,
        *,
        image: str | None = None,
        project: Path | None = None,
        limits: Limits = Limits(),
        pool_size: int = 1,
        exclude: Sequence[str] = (),
    ) -> None:
        self.limits = limits
        self.project = project.resolve() if project else None
        self._pool_size = pool_size
        self._client = _connect()
        self.image = image or default_image()
        _require_image(self._client, self.image)
        if self.project is not None and image is None:
            self.image = project_image(self._client, self.project, self.image)
        remove_stale_containers(self._client)
        self._idle: list[_WarmRunner] = []
        self._lock = threading.Lock()
        self._owner = _owner_label()
        self.remote = remote_engine()
        self._volume: Any = None
        if self.project is not None:
            # Always a copy, never the folder itself: files that hold secrets stay out, and the
            # sandbox's users can read the copy whoever owns the checkout (see _project_tar).
            self._volume = _project_volume(self._client, self.image, self.project, self._owner, exclude)
        self._env = _runner_env(_project_path(self.project, "/project"), "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin")
        atexit.register(self.close)

    def run(
        self,
        code: str,
        *,
        timeout: float | None = None,
        files: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> RunResult:
        return self._ask(_request(code, f"/scratch/{uuid.uuid4().hex}", self.limits, timeout, files, args))

    def check(self, job: Mapping[str, Any], *, timeout: float,
              timing_lock: threading.Lock | None = None) -> RunResult:  # fmt: skip
        request = _request("", f"/scratch/{uuid.uuid4().hex}", self.limits, timeout, None, ())
        request["job"] = dict(job)
        if timing_lock is None:
            return self._ask(request)
        request["gate"] = True
        keeper = _GateKeeper(timing_lock)
        try:
            return self._ask(request, keeper)
        finally:
            keeper.release()

    def _ask(self, request: dict[str, Any], on_gate: Callable[[str], None] | None = None) -> RunResult:
        runner = self._take()
        try:
            # The runner enforces the run's timeout; this one only catches a runner that hangs.
            stdout, stderr = runner.ask(json.dumps(request), float(request["timeout"]) + 30, on_gate)
        except BaseException:
            runner.remove()
            raise
        result = _parse_runner_output(stdout, stderr, self.kind)
        if result.killed_by is None:
            self._give_back(runner)
        else:
            runner.remove()  # a run cut short may have left the container in any state
        return result

    @property
    def project_path(self) -> str | None:
        return "/project" if self.project is not None else None

    def _take(self) -> _WarmRunner:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return _WarmRunner(self._start_container())

    def _give_back(self, runner: _WarmRunner) -> None:
        with self._lock:
            if len(self._idle) < self._pool_size:
                self._idle.append(runner)
                return
        runner.remove()

    def _start_container(self) -> Any:
        import docker.errors
        import requests.exceptions

        volumes: dict[str, dict[str, str]] = {}
        if self._volume is not None:
            volumes[self._volume.name] = {"bind": "/project", "mode": "ro"}
        limits = self.limits
        try:
            return self._client.containers.run(
                self.image,
                [VENV_PYTHON, "-s", RUNNER_IN_IMAGE, "--serve"],
                name=f"coderefine-{os.getpid()}-{uuid.uuid4().hex[:12]}",
                detach=True,
                stdin_open=True,
                init=True,
                # The runner starts as root with three capabilities only: to run code under test
                # and its judge as two different unprivileged users, and to kill what they leave.
                user="0:0",
                environment=self._env,
                network_mode="none",
                read_only=True,
                tmpfs={"/scratch": f"rw,size={limits.scratch_mb}m,mode=1777", "/tmp": "rw,size=16m,mode=1777"},
                cap_drop=["ALL"],
                cap_add=["SETUID", "SETGID", "KILL"],
                security_opt=["no-new-privileges"],
                mem_limit=f"{limits.memory_mb}m",
                memswap_limit=f"{limits.memory_mb}m",
                nano_cpus=int(limits.cpus * 1e9),
                pids_limit=limits.pids,
                volumes=volumes,
                labels={POOL_LABEL: "pool", OWNER_LABEL: self._owner},
            )
        except docker.errors.ImageNotFound:
            raise SandboxUnavailable(f"the sandbox image {self.image} is missing: {SETUP_HINT}") from None
        except docker.errors.APIError as error:
            raise SandboxUnavailable(f"cannot start a sandbox container: {error.explanation}") from None
        except (docker.errors.DockerException, requests.exceptions.RequestException) as error:
            reason = " ".join(str(error).split())[:200]
            raise SandboxUnavailable(f"the Docker engine went away ({reason}): {SETUP_HINT}") from None

    def close(self) -> None:
        """Remove this sandbox's containers and volume; best effort when the engine is gone (what
        went wrong before, not the clean-up, is the error to show: the next start removes leftovers)."""
        import docker.errors
        import requests.exceptions

        atexit.unregister(self.close)
        with self._lock:
            idle, self._idle = self._idle, []
        try:
            for runner in idle:
                runner.remove()
            self._remove_leftovers()
        except (docker.errors.DockerException, requests.exceptions.RequestException, OSError):
            pass

    def _remove_leftovers(self) -> None:
        # Containers of this process that are still running (a run interrupted by Ctrl-C). A new
        # client: a request cut short by Ctrl-C can leave the old one's pooled connection unusable.
        import docker
        import docker.errors

        cleaner = docker.from_env(timeout=30)  # the same engine: the client was made from the environment too
        try:
            remove_stale_containers(cleaner, owner=self._owner)
            if self._volume is not None:
                with contextlib.suppress(docker.errors.APIError):
                    cleaner.volumes.get(self._volume.name).remove(force=True)
                self._volume = None
        finally:
            cleaner.close()


# Never copied into the sandbox: version control, environments and caches (size), and files that
# hold secrets, which a draft could otherwise read and put into the text that goes to the model.
_NOT_COPIED = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox", "node_modules", ".mypy_cache",
               ".pytest_cache", ".ruff_cache", ".hypothesis", ".benchmarks", "coderefine-report"}  # fmt: skip
SECRET_PATTERNS = (".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", ".netrc", ".npmrc", ".pypirc", ".aws",
                   ".ssh", ".gnupg", ".docker", "id_rsa*", "id_ed25519*", "*.secret", "secrets.*")  # fmt: skip


def left_out(name: str, extra: Sequence[str] = ()) -> bool:
    """Whether a file or folder of this name stays out of the sandbox's copy of the project."""
    import fnmatch

    if name in _NOT_COPIED:
        return True
    return any(fnmatch.fnmatch(name, pattern) for pattern in (*SECRET_PATTERNS, *extra))


def remote_engine() -> bool:
    """Whether `DOCKER_HOST` names an engine on another machine (one that cannot see our files)."""
    return os.environ.get("DOCKER_HOST", "").startswith(("tcp://", "ssh://", "http://", "https://"))


def _project_volume(client: Any, image: str, project: Path, owner: str, exclude: Sequence[str]) -> Any:
    """A volume on the engine holding a copy of the project, readable by the draft user."""
    import docker.errors

    volume = client.volumes.create(name=f"coderefine-project-{uuid.uuid4().hex[:12]}", labels={OWNER_LABEL: owner})
    try:
        helper = client.containers.create(image, ["true"], network_disabled=True, user="0",
                                          volumes={volume.name: {"bind": "/project", "mode": "rw"}})  # fmt: skip
        try:
            helper.put_archive("/project", _project_tar(project, exclude))
        finally:
            helper.remove(force=True)
    except docker.errors.APIError as error:
        volume.remove(force=True)
        raise SandboxUnavailable(f"cannot copy the project to the Docker engine: {error.explanation}") from None
    return volume


def _project_tar(project: Path, exclude: Sequence[str] = ()) -> bytes:
    import io
    import tarfile

    def readable(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        if left_out(Path(info.name).name, exclude):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mode |= 0o555 if info.isdir() else 0o444
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for entry in sorted(project.iterdir()):
            archive.add(entry, arcname=entry.name, filter=readable)
    return buffer.getvalue()


def _connect() -> Any:
    try:
        import docker
    except ImportError:
        raise SandboxUnavailable("the docker package is not installed: pip install docker") from None
    try:
        client = docker.from_env(timeout=120)
        client.ping()
    except docker.errors.DockerException as error:
        reason = " ".join(str(error).split())[:200]
        raise SandboxUnavailable(f"Docker is not available ({reason}): {SETUP_HINT}") from None
    return client


def _require_image(client: Any, image: str) -> None:
    import docker.errors

    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        raise SandboxUnavailable(f"the sandbox image {image} is missing: {SETUP_HINT}") from None


def _owner_label(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}:{pid}:{_process_start(pid)}"


def _process_start(pid: int) -> str:
    """The process's start time in clock ticks since boot: with the pid, a unique identity."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "gone"
    return stat[stat.rfind(")") + 2 :].split()[19]


def remove_stale_containers(client: Any, owner: str | None = None) -> int:
    """Remove pool containers whose owner process is gone (or, with `owner`, that owner's)."""
    import docker.errors

    removed = 0
    host = socket.gethostname()
    # The low-level listing: no per-container inspect that races with other removals.
    for entry in client.api.containers(all=True, filters={"label": POOL_LABEL}):
        label = (entry.get("Labels") or {}).get(OWNER_LABEL, "")
        if owner is not None:
            stale = label == owner
        else:
            label_host, _, rest = label.partition(":")
            pid = rest.partition(":")[0]
            stale = label_host == host and pid.isdigit() and _owner_label(int(pid)) != label
        if stale:
            with contextlib.suppress(docker.errors.APIError):  # another process may remove it too
                client.api.remove_container(entry["Id"], force=True)
                removed += 1
    return removed


class LocalSandbox(_Closing):
    """Runs drafts as host subprocesses under resource limits: for machines without Docker."""

    kind = "local"

    def __init__(self, *, project: Path | None = None, limits: Limits = Limits()) -> None:
        self.limits = limits
        self.project = project.resolve() if project else None
        self._runner = sandbox_dir() / "runner.py"
        self._env = _runner_env(_project_path(self.project, str(self.project)), os.environ.get("PATH", "/usr/bin:/bin"))

    def run(
        self,
        code: str,
        *,
        timeout: float | None = None,
        files: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> RunResult:
        return self._ask(code, timeout, files, args, None)

    def check(self, job: Mapping[str, Any], *, timeout: float,
              timing_lock: threading.Lock | None = None) -> RunResult:  # fmt: skip
        # On the host, nothing keeps a check off the timing CPU: checks with a lock run one at a time.
        with timing_lock or contextlib.nullcontext():
            return self._ask("", timeout, None, (), job)

    def _ask(
        self, code: str, timeout: float | None, files: Mapping[str, str] | None, args: Sequence[str],
        job: Mapping[str, Any] | None,
    ) -> RunResult:  # fmt: skip
        limits = self.limits if timeout is None else replace(self.limits, timeout=timeout)
        with tempfile.TemporaryDirectory(prefix="coderefine-run-") as root:
            request = _request(code, f"{root}/work", limits, None, files, args)
            if job is not None:
                request["job"] = dict(job)
            request.update(
                local=True,
                memory_limit=limits.memory_mb << 20,
                max_processes=limits.pids,
                max_file_bytes=limits.scratch_mb << 20,
            )
            path = Path(root) / "request.json"
            path.write_text(json.dumps(request), encoding="utf-8")
            try:
                done = subprocess.run(
                    [sys.executable, "-s", str(self._runner), str(path)],
                    capture_output=True, stdin=subprocess.DEVNULL, timeout=limits.timeout + 30, env=self._env,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return _parse_runner_output(b"", b"the sandbox runner did not answer", self.kind)
        return _parse_runner_output(done.stdout, done.stderr, self.kind)

    @property
    def project_path(self) -> str | None:
        return str(self.project) if self.project is not None else None

    def close(self) -> None:
        pass  # each run cleans up after itself


def open_sandbox(
    kind: str = "docker",
    *,
    project: Path | None = None,
    limits: Limits = Limits(),
    image: str | None = None,
    exclude: Sequence[str] = (),
    pool_size: int = 1,
) -> DockerSandbox | LocalSandbox:
    """`exclude`: file name patterns the Docker sandbox's copy of the project leaves out, besides secrets;
    `pool_size`: how many warm containers to keep (one per check that may run side by side)."""
    if kind == "docker":
        return DockerSandbox(image=image, project=project, limits=limits, exclude=exclude, pool_size=pool_size)
    if kind == "local":
        return LocalSandbox(project=project, limits=limits)
    raise ValueError(f"unknown sandbox kind {kind!r}")
