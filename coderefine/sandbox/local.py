"""Local (`--sandbox local`): the same runner as a host subprocess, with resource limits, a
timeout and a fresh temp directory, in a jail (jail.py): namespaces of its own (mount, pid,
network, IPC, UTS, and user where not root) and a root of its own, which holds the system, the
Python installation, the box's code, a read-only copy of the project (as the Docker sandbox's) and
the run's folder, and nothing else of the host: not the user's files, the real project, the
Docker socket. When the runner ends, the kernel ends every process the run left. For machines
without Docker: code under test runs as the user who started it (started by root, as user 10001);
where the kernel refuses the namespaces, the local sandbox is refused."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from coderefine.sandbox import jail
from coderefine.sandbox.base import (
    DEFAULT_LIMITS,
    Closing,
    Limits,
    RunResult,
    SandboxUnavailable,
    parse_runner_output,
    project_path_for,
    runner_env,
    runner_request,
)
from coderefine.sandbox.image import sandbox_dir
from coderefine.sandbox.project_copy import CopySummary, project_files


class LocalSandbox(Closing):
    """Runs drafts as host subprocesses in a jail, under resource limits: for machines without Docker."""

    kind = "local"

    def __init__(
        self, *, project: Path | None = None, limits: Limits = DEFAULT_LIMITS, exclude: Sequence[str] = ()
    ) -> None:
        self.limits = limits
        self.project = project.resolve() if project else None
        self._runner = sandbox_dir() / "runner.py"
        self._copy: Path | None = None
        self.copy_summary: CopySummary | None = None  # what the copy of the project holds and left out
        path = os.environ.get("PATH", "/usr/bin:/bin")
        self._env = runner_env([], path)
        self._probe()  # refused here, before any work, where the kernel refuses the jail
        if self.project is not None:
            self._copy = Path(tempfile.mkdtemp(prefix="coderefine-project-")) / self.project.name
            self.copy_summary = copy_read_only(self.project, self._copy, exclude)
            self._env = runner_env(project_path_for(self._copy, str(self._copy)), path)

    def run(
        self,
        code: str,
        *,
        timeout: float | None = None,
        files: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> RunResult:
        return self._ask(code, timeout, files, args, None)

    def check(
        self,
        job: Mapping[str, Any],
        *,
        timeout: float,
        timing_lock: threading.Lock | None = None,
        on_early: Callable[[str], None] | None = None,
    ) -> RunResult:
        # On the host, nothing keeps a check off the timing CPU: checks with a lock run one at a time.
        # The whole verdict comes at the end (the runner's output is read when it exits): `on_early`
        # is never called.
        with timing_lock or contextlib.nullcontext():
            return self._ask("", timeout, None, (), job)

    def _ask(
        self,
        code: str,
        timeout: float | None,
        files: Mapping[str, str] | None,
        args: Sequence[str],
        job: Mapping[str, Any] | None,
    ) -> RunResult:
        limits = self.limits if timeout is None else replace(self.limits, timeout=timeout)
        with tempfile.TemporaryDirectory(prefix="coderefine-run-") as root:
            request = runner_request(code, f"{root}/work", limits, None, files, args)
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
                done = self._jailed(root, [sys.executable, "-s", str(self._runner), str(path)], limits.timeout + 30)
            except subprocess.TimeoutExpired:
                return parse_runner_output(b"", b"the sandbox runner did not answer", self.kind)
        # The jail's network namespace has no way out, whether or not the runner cut its own.
        return replace(parse_runner_output(done.stdout, done.stderr, self.kind), network_isolated=True)

    def _probe(self) -> None:
        """Start Python in a jail: raises SandboxUnavailable where the kernel refuses the jail, or
        where Python does not start in it (it needs something of the host that is not bound in)."""
        with tempfile.TemporaryDirectory(prefix="coderefine-run-") as root:
            done = self._jailed(root, [sys.executable, "-s", "-c", ""], 30)
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit {done.returncode}"]
            raise SandboxUnavailable(jail.Refusal(f"Python does not start in it ({said[-1][:200]})").message())

    def _jailed(self, root: str, command: list[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
        """`command` in a jail whose writable folder is `root`; a refused jail raises SandboxUnavailable."""
        read_only = [str(sandbox_dir()), *([str(self._copy)] if self._copy is not None else [])]
        done = subprocess.run(
            jail.command(command, folder=root, read_only=read_only, scratch_mb=self.limits.scratch_mb),
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            env=self._env,
            cwd=root,
        )
        refusal = jail.refusal(done.returncode, done.stdout, done.stderr)
        if refusal is not None:
            raise SandboxUnavailable(refusal.message())
        return done

    @property
    def project_path(self) -> str | None:
        return str(self._copy) if self._copy is not None else None

    def close(self) -> None:
        if self._copy is not None:
            remove_copy(self._copy.parent)
            self._copy = None


def copy_read_only(project: Path, copy: Path, exclude: Sequence[str]) -> CopySummary:
    """The project's files that go into the sandbox (project_copy.project_files), read-only. A link
    among them stays in the project, so that in the copy it stays in the copy: written through, a
    link that leads out would reach the original."""
    files, summary = project_files(project, exclude)
    copy.mkdir()
    for name in files:
        source, target = project / name, copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), target)
        else:
            shutil.copy2(source, target)
            os.chmod(target, 0o444)
    for folder, _, _ in os.walk(copy):
        os.chmod(folder, 0o555)
    return summary


def remove_copy(root: Path) -> None:
    for folder, _, _ in os.walk(root):
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o755)  # read-only folders cannot lose their files
    shutil.rmtree(root, ignore_errors=True)
