"""The local fallback: a host subprocess under limits, for machines without Docker."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coderefine.sandbox.base import Limits
from coderefine.sandbox.local import LocalSandbox

LIMITS = Limits(timeout=5.0, memory_mb=256, pids=64, output_bytes=1 << 20)


@pytest.fixture
def local(tmp_path: Path) -> Iterator[LocalSandbox]:
    project = tmp_path / "project"
    (project / "mypkg").mkdir(parents=True)
    (project / "mypkg" / "__init__.py").write_text("def double(x):\n    return 2 * x\n")
    (project / ".env").write_text("API_KEY=sk-secret\n")
    (project / "outside").symlink_to(tmp_path)
    with LocalSandbox(project=project, limits=LIMITS) as sandbox:
        copy = sandbox.project_path
        yield sandbox
    assert copy is not None and not Path(copy).exists()  # the copy is gone with the sandbox


def test_code_under_test_writes_nothing_of_the_project(local: LocalSandbox, tmp_path: Path) -> None:
    source = tmp_path / "project" / "mypkg" / "__init__.py"
    before = source.read_bytes()
    code = (
        "import logging, os, mypkg\n"
        "handler = logging.FileHandler(mypkg.__file__)\n"
        "logging.getLogger('x').addHandler(handler)\n"
        "logging.getLogger('x').error('owned')\n"
    )
    result = local.run(code)
    assert source.read_bytes() == before  # it wrote, if at all, into a copy
    if os.geteuid() != 0:  # root writes where permissions say no: the copy is what protects the project
        assert not result.ok and "Permission" in result.stderr
    assert local.project_path is not None and not local.project_path.startswith(str(tmp_path / "project"))
    # Secrets stay out of the copy, and so does a link that leads out of the project.
    listing = local.run(f"import os\nprint(sorted(os.listdir({local.project_path!r})))")
    assert listing.ok and "mypkg" in listing.stdout, listing.stdout
    assert ".env" not in listing.stdout and "outside" not in listing.stdout, listing.stdout


def test_runs_with_the_project_importable(local: LocalSandbox) -> None:
    result = local.run("from mypkg import double\nprint(double(4))")
    assert result.ok and result.stdout == "8\n"
    assert result.sandbox == "local"


def test_timeout(local: LocalSandbox) -> None:
    result = local.run("while True:\n    pass\n", timeout=1.0)
    assert result.timed_out and result.killed_by == "timeout"
    assert result.duration_s < 3


def test_memory_limit(local: LocalSandbox) -> None:
    result = local.run("blocks = []\nwhile True:\n    blocks.append(b'x' * (16 << 20))\n")
    assert result.oom_killed and result.killed_by == "memory"


def test_output_cap(local: LocalSandbox) -> None:
    result = local.run("import sys\nfor _ in range(100):\n    sys.stdout.write('x' * (1 << 20))\n")
    assert result.truncated and len(result.stdout) <= LIMITS.output_bytes


def test_fresh_temp_dir_removed_afterwards(local: LocalSandbox) -> None:
    result = local.run("import os\nprint(os.getcwd())")
    assert result.ok
    assert not Path(result.stdout.strip()).exists()


def test_network_is_cut_where_the_kernel_allows(local: LocalSandbox) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        result = local.run(
            "import socket\n"
            f"try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n    print('connected')\n"
            "except OSError as error:\n    print(type(error).__name__)\n"
        )
    # The result says honestly whether the network was cut; here (Linux, user namespaces) it is.
    assert result.network_isolated
    assert result.stdout.strip() in ("OSError", "ConnectionRefusedError")


def test_background_children_are_killed(local: LocalSandbox, tmp_path: Path) -> None:
    started, marker = tmp_path / "started", tmp_path / "marker"
    # The child says it runs at once (else its absence later would prove nothing), then would write
    # the marker two seconds after the run ended, were it still alive.
    late = f"import time; open({str(started)!r}, 'w').close(); time.sleep(2); open({str(marker)!r}, 'w')"
    code = (
        f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {late!r}], start_new_session=True)\n"
        "time.sleep(1)\n"
    )
    assert local.run(code).ok
    time.sleep(3)
    assert started.exists()
    assert not marker.exists()
