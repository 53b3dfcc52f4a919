"""Local (`--sandbox local`): the same runner as a host subprocess, with resource limits, a
timeout, a fresh temp directory and no network where the kernel allows an unprivileged network
namespace. For machines without Docker: code under test runs as the user who started it, on a
read-only copy of the project (as the Docker sandbox's), so that nothing it does reaches the
project's own files."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from coderefine.sandbox.base import (
    DEFAULT_LIMITS,
    Closing,
    Limits,
    RunResult,
    parse_runner_output,
    project_path_for,
    runner_env,
    runner_request,
)
from coderefine.sandbox.image import sandbox_dir
from coderefine.sandbox.project_copy import left_out


class LocalSandbox(Closing):
    """Runs drafts as host subprocesses under resource limits: for machines without Docker."""

    kind = "local"

    def __init__(
        self, *, project: Path | None = None, limits: Limits = DEFAULT_LIMITS, exclude: Sequence[str] = ()
    ) -> None:
        self.limits = limits
        self.project = project.resolve() if project else None
        self._runner = sandbox_dir() / "runner.py"
        self._copy: Path | None = None
        if self.project is not None:
            self._copy = Path(tempfile.mkdtemp(prefix="coderefine-project-")) / self.project.name
            copy_read_only(self.project, self._copy, exclude)
        path = os.environ.get("PATH", "/usr/bin:/bin")
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
                done = subprocess.run(
                    [sys.executable, "-s", str(self._runner), str(path)],
                    capture_output=True,
                    stdin=subprocess.DEVNULL,
                    timeout=limits.timeout + 30,
                    env=self._env,
                )
            except subprocess.TimeoutExpired:
                return parse_runner_output(b"", b"the sandbox runner did not answer", self.kind)
        return parse_runner_output(done.stdout, done.stderr, self.kind)

    @property
    def project_path(self) -> str | None:
        return str(self._copy) if self._copy is not None else None

    def close(self) -> None:
        if self._copy is not None:
            remove_copy(self._copy.parent)
            self._copy = None


def _special(path: str) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def copy_read_only(project: Path, copy: Path, exclude: Sequence[str]) -> None:
    """The project's files but secrets and caches (project_copy.left_out), read-only; a symbolic
    link that leads out of the copy is left out (written through, it would reach the original), and
    so are FIFOs, sockets and devices (a copy would wait on a FIFO, or refuse it)."""

    def ignored(folder: str, names: list[str]) -> set[str]:
        return {name for name in names if left_out(name, exclude) or _special(os.path.join(folder, name))}

    shutil.copytree(project, copy, ignore=ignored, symlinks=True)
    inside = str(copy) + os.sep
    for folder, folders, files in os.walk(copy):
        for name in [*folders, *files]:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                if not os.path.realpath(path).startswith(inside):
                    os.unlink(path)
            elif name in files:
                os.chmod(path, 0o444)
        os.chmod(folder, 0o555)


def remove_copy(root: Path) -> None:
    for folder, _, _ in os.walk(root):
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o755)  # read-only folders cannot lose their files
    shutil.rmtree(root, ignore_errors=True)
