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
project is copied into a volume on it once per sandbox (the files git tracks,
without files that hold secrets: see `project_files`), readable by the sandbox's
users, and mounted read-only: so a remote engine (tcp://, ssh://) works as a
local one does.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import struct
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coderefine.sandbox import contract
from coderefine.sandbox.base import (
    DEFAULT_LIMITS,
    OWNER_LABEL,
    POOL_LABEL,
    SETUP_HINT,
    Closing,
    Limits,
    RunResult,
    SandboxUnavailable,
    engine_problem,
    parse_runner_output,
    project_path_for,
    runner_env,
    runner_request,
)
from coderefine.sandbox.image import RUNNER_IN_IMAGE, VENV_PYTHON, default_image
from coderefine.sandbox.project_copy import CopySummary, project_volume, remote_engine
from coderefine.sandbox.project_deps import DEPENDENCIES_IN_IMAGE, project_image

if TYPE_CHECKING:  # docker is imported when a sandbox starts, not with the package
    from docker import DockerClient
    from docker.models.containers import Container
    from docker.models.volumes import Volume


class _WarmRunner:
    """One container whose long-lived runner takes request paths on stdin.

    The runner answers each with one JSON line on stdout; the container's
    attach stream carries both, framed by Docker (8-byte headers).
    """

    def __init__(self, container: Container) -> None:
        self.container = container
        attached = container.attach_socket(params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
        self._attached = attached  # keeps the HTTP response (and so the socket) alive
        # A SocketIO over the engine's socket holds the socket itself in `_sock`; over ssh it is one.
        raw = getattr(attached, "_sock", attached)
        if not isinstance(raw, socket.socket):
            raise SandboxUnavailable(f"the Docker engine's attach stream is a {type(raw).__name__}, not a socket")
        self._socket = raw
        self._pending = b""

    def ask(
        self,
        request: str,
        timeout: float,
        on_gate: Callable[[str], None] | None = None,
        on_early: Callable[[str], None] | None = None,
    ) -> tuple[bytes, bytes]:
        """Send one request (a JSON line); return (the result line, the runner's stderr), or (b"", ...) if it died.

        The runner's gate lines come before the result: each goes to `on_gate` (which may wait;
        its time is not the request's), and a "timing" one is answered `go`. A check's verdict
        so far (before its symbolic search) goes to `on_early`.
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
            early = _early_line(line)
            if early is not None:
                stdout = bytearray(rest)
                if on_early is not None:
                    on_early(early)
                continue
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

        # The attach stream holds a reference of its own to the socket: closed first, or the socket
        # stays open behind a "closed" object.
        with contextlib.suppress(OSError):
            self._attached.close()
        with contextlib.suppress(OSError):
            self._socket.close()
        # Already gone, or the engine is: what failed is reported by the caller; the next start cleans up.
        with contextlib.suppress(docker.errors.DockerException, requests.exceptions.RequestException):
            self.container.remove(force=True)


def _gate_line(line: bytes) -> str | None:
    """ "timing" or "done" for one of the runner's gate lines (see sandbox/streams.py Gate), else None."""
    if not line.startswith(b'{"gate"'):
        return None
    with contextlib.suppress(ValueError):
        said = json.loads(line)
        if isinstance(said, dict) and said.get("gate") in ("timing", "done"):
            return str(said["gate"])
    return None


def _early_line(line: bytes) -> str | None:
    """The verdict's text in one of the runner's early lines (see streams.forward_early), else None."""
    if not line.startswith(b'{"early"'):
        return None
    with contextlib.suppress(ValueError):
        said = json.loads(line)
        if isinstance(said, dict) and isinstance(said.get("early"), str):
            return str(said["early"])
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


class DockerSandbox(Closing):
    """Runs drafts in warm, locked-down Docker containers."""

    kind = "docker"

    def __init__(
        self,
        *,
        image: str | None = None,
        project: Path | None = None,
        limits: Limits = DEFAULT_LIMITS,
        pool_size: int = 1,
        exclude: Sequence[str] = (),
        requirements: Sequence[str] = (),
        on_note: Callable[[str], None] | None = None,
        requirements_exclude: Sequence[str] = (),
    ) -> None:
        """`requirements`: more than the project declares, installed beside it (the test_requirements
        setting), `requirements_exclude` what of them to leave out (test_requirements_exclude);
        `on_note` hears what of the project's requirements was refused or cannot be had."""
        self.limits = limits
        self.project = project.resolve() if project else None
        self._pool_size = pool_size
        self._client = _connect()
        self.image = image or default_image()
        self._idle: list[_WarmRunner] = []
        self._lock = threading.Lock()
        self._closed = False  # then no container is started: a check cut short by the close is not run again
        self._owner = _owner_label()
        self.remote = remote_engine()
        self._volume: Volume | None = None
        self.copy_summary: CopySummary | None = None  # what the copy of the project holds and left out
        try:
            _require_image(self._client, self.image)
            if self.project is not None and image is None:
                self.image = project_image(
                    self._client, self.project, self.image, requirements, on_note, requirements_exclude
                )
            remove_stale_containers(self._client)
            if self.project is not None:
                # Always a copy, never the folder itself: files that hold secrets stay out, and the
                # sandbox's users can read the copy whoever owns the checkout (see project_tar).
                self._volume, self.copy_summary = project_volume(
                    self._client, self.image, self.project, self._owner, exclude
                )
        except BaseException:
            self._client.close()  # a sandbox that never started leaves no connection to the engine
            raise
        self._env = runner_env(
            project_path_for(self.project, "/project"),
            "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin",
            DEPENDENCIES_IN_IMAGE,
        )
        atexit.register(self.close)

    def run(
        self,
        code: str,
        *,
        timeout: float | None = None,
        files: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> RunResult:
        return self._ask(runner_request(code, f"/scratch/{uuid.uuid4().hex}", self.limits, timeout, files, args))

    def check(
        self,
        job: Mapping[str, Any],
        *,
        timeout: float,
        timing_lock: threading.Lock | None = None,
        on_early: Callable[[str], None] | None = None,
    ) -> RunResult:
        request = runner_request("", f"/scratch/{uuid.uuid4().hex}", self.limits, timeout, None, ())
        request["job"] = dict(job)
        if timing_lock is None:
            return self._ask(request, on_early=on_early)
        request["gate"] = True
        keeper = _GateKeeper(timing_lock)
        try:
            return self._ask(request, keeper, on_early)
        finally:
            keeper.release()

    def _ask(
        self,
        request: dict[str, Any],
        on_gate: Callable[[str], None] | None = None,
        on_early: Callable[[str], None] | None = None,
    ) -> RunResult:
        runner = self._take()
        try:
            # The runner enforces the run's timeout; this one only catches a runner that hangs.
            stdout, stderr = runner.ask(json.dumps(request), float(request["timeout"]) + 30, on_gate, on_early)
        except BaseException:
            runner.remove()
            raise
        result = parse_runner_output(stdout, stderr, self.kind)
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
            if self._closed:
                raise SandboxUnavailable("the sandbox was closed (the run was stopped)")
            if self._idle:
                return self._idle.pop()
        return _WarmRunner(self._start_container())

    def _give_back(self, runner: _WarmRunner) -> None:
        with self._lock:
            if len(self._idle) < self._pool_size:
                self._idle.append(runner)
                return
        runner.remove()

    def _start_container(self) -> Container:
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
                tmpfs={
                    "/scratch": f"rw,size={limits.scratch_mb}m,mode=1777",
                    "/tmp": "rw,size=16m,mode=1777",
                    # The judge's alone: the draws it keeps for a function's next check (judge/draws.py).
                    contract.DRAWS_FOLDER: f"rw,size={contract.DRAWS_MB}m,mode=0700,uid={contract.JUDGE_UID},"
                    f"gid={contract.JUDGE_UID}",
                },
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
            idle, self._idle, self._closed = self._idle, [], True
        try:
            for runner in idle:
                runner.remove()
            self._remove_leftovers()
        except (docker.errors.DockerException, requests.exceptions.RequestException, OSError):
            pass
        finally:
            self._client.close()  # its pooled connections to the engine

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


def _connect() -> DockerClient:
    try:
        import docker
    except ImportError:
        raise SandboxUnavailable("the docker package is not installed: pip install docker") from None
    client = None
    try:
        client = docker.from_env(timeout=120)
        client.ping()
    except docker.errors.DockerException as error:
        if client is not None:
            client.close()  # its pooled connection to a socket that did not answer
        what, fix = engine_problem(error)
        raise SandboxUnavailable(f"{what}: {fix}") from None
    return client


def _require_image(client: DockerClient, image: str) -> None:
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


def remove_stale_containers(client: DockerClient, owner: str | None = None) -> int:
    """Remove pool containers whose owner process is gone (or, with `owner`, that owner's), then the
    project volumes such owners left (one a container still held when its run ended)."""
    import docker.errors

    removed = 0
    # The low-level listing: no per-container inspect that races with other removals.
    for entry in client.api.containers(all=True, filters={"label": POOL_LABEL}):
        if _stale((entry.get("Labels") or {}).get(OWNER_LABEL, ""), owner):
            with contextlib.suppress(docker.errors.APIError):  # another process may remove it too
                client.api.remove_container(entry["Id"], force=True)
                removed += 1
    if owner is None:
        for volume in (client.api.volumes(filters={"label": OWNER_LABEL}) or {}).get("Volumes") or []:
            if _stale((volume.get("Labels") or {}).get(OWNER_LABEL, ""), None):
                with contextlib.suppress(docker.errors.APIError):  # in use by a live run's container, or gone
                    client.api.remove_volume(volume["Name"], force=True)
    return removed


def _stale(label: str, owner: str | None) -> bool:
    """Whether a container or volume of this owner label is to go: `owner`'s, or one whose owner
    process (on this machine) is gone."""
    if owner is not None:
        return label == owner
    label_host, _, rest = label.partition(":")
    pid = rest.partition(":")[0]
    return label_host == socket.gethostname() and pid.isdigit() and _owner_label(int(pid)) != label
