"""What every sandbox is: its limits, a run's result, the interface, and the runner's request
and answer (sandbox/runner.py) that Docker and local sandboxes share."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.shipped import load

POOL_LABEL = "coderefine.sandbox"
OWNER_LABEL = "coderefine.owner"
SETUP_HINT = "run 'coderefine sandbox setup'"

# What a failed connection to the engine says, in a few words, by what its text holds.
_CAUSES = (
    ("Connection refused", "connection refused"),
    ("No such file", "no socket there"),
    ("FileNotFoundError", "no socket there"),
    ("Permission denied", "permission denied"),
    ("Name or service not known", "unknown host"),
    ("nodename nor servname", "unknown host"),
    ("timed out", "no answer in time"),
)


def engine_problem(error: Exception) -> tuple[str, str]:
    """(what is wrong, how to fix it) for a Docker engine that did not answer: the address that
    DOCKER_HOST names is checked, not Docker installed anew; this machine's engine is started by
    `coderefine sandbox setup`, and a socket refused to this user is a permission to grant."""
    text = " ".join(str(error).split())
    cause = next((short for needle, short in _CAUSES if needle in text), text[:120])
    host = os.environ.get("DOCKER_HOST")
    if host:
        return f"the Docker engine at {host} (DOCKER_HOST) does not answer: {cause}", (
            "check that address, or unset DOCKER_HOST to use this machine's engine"
        )
    if cause == "permission denied":
        return "Docker's socket refuses this user: permission denied", (
            "add the user to the docker group (then log in again), or run as root"
        )
    return f"Docker is not available: {cause}", SETUP_HINT


class SandboxUnavailable(EnvironmentProblem):
    """Docker, its daemon or the sandbox image is missing."""


class RunnerFailed(EnvironmentProblem):
    """The box's runner answered with an error of its own instead of a result: the environment's
    problem unless the box still runs a program (see check.box_works)."""


@dataclass(frozen=True)
class Limits:
    timeout: float = 10.0  # seconds of wall-clock time per run
    memory_mb: int = 512
    cpus: float = 1.0
    pids: int = 128
    output_bytes: int = 1 << 20  # stdout and stderr together
    scratch_mb: int = 64


DEFAULT_LIMITS = Limits()


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

    def check(
        self,
        job: Mapping[str, Any],
        *,
        timeout: float,
        timing_lock: threading.Lock | None = None,
        on_early: Callable[[str], None] | None = None,
    ) -> RunResult:
        """Run one check (sandbox/judge.py) on a job of the contract; its verdict is in `verdict`.

        With `timing_lock`, checks may run side by side: the check holds the lock while it
        times, and the time it waits for it does not count against `timeout`. A job that asks
        for it (`early`) gives its verdict so far, as JSON text, to `on_early` before its symbolic
        search, where the sandbox can (a sandbox that cannot just gives the whole verdict at the end).
        """
        ...

    def close(self) -> None: ...


def runner_request(
    code: str,
    workdir: str,
    limits: Limits,
    timeout: float | None,
    files: Mapping[str, str] | None,
    args: Sequence[str],
) -> dict[str, Any]:
    return {
        "code": code,
        "files": dict(files or {}),
        "args": list(args),
        "workdir": workdir,
        "timeout": limits.timeout if timeout is None else timeout,
        "output_limit": limits.output_bytes,
    }


def runner_env(python_path: list[str], path: str, dependencies: str | None = None) -> dict[str, str]:
    """The runner's environment, the whole of it; the forked program inherits it, hash seed included.
    The project's import roots and its dependencies' folder are named, not put on PYTHONPATH: only the
    processes that run the project's code put them on their path (sandbox/project_path.py)."""
    names = load("project_path.py")
    env = {
        "PATH": path,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",  # the same set and dict order in every run, for comparisons
        "PYTHONUNBUFFERED": "1",  # output written before a kill is kept
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if python_path:
        env[names.PROJECT_PATH] = os.pathsep.join(python_path)
    if dependencies:
        env[names.DEPENDENCIES] = dependencies
    return env


def project_path_for(project: Path | None, mount: str) -> list[str]:
    """Where the project's code is imported from: its root, and src/ when it has one."""
    if project is None:
        return []
    paths = [mount]
    if (project / "src").is_dir():
        paths.append(f"{mount}/src")
    return paths


def parse_runner_output(stdout: bytes, stderr: bytes, kind: str) -> RunResult:
    """The runner's JSON line, or a result saying the runner itself was killed."""
    lines = stdout.decode("utf-8", "replace").strip().splitlines()
    try:
        data = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and "runner_error" in data:
        raise RunnerFailed(f"the sandbox runner failed: {data['runner_error']}")
    if not isinstance(data, dict):
        return RunResult(
            exit_code=None,
            stdout="",
            stderr=stderr.decode("utf-8", "replace")[-2000:],
            duration_s=0.0,
            timed_out=False,
            oom_killed=False,
            truncated=False,
            sandbox=kind,
            killed_by="runner_killed",
        )
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


class Closing:
    """`with sandbox:` closes it on the way out, Ctrl-C included."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
