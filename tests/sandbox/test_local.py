"""The local fallback: a host subprocess under limits, in namespaces and a root of its own, for
machines without Docker."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import uuid
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


def processes_with(marker: str) -> list[int]:
    """The host's processes whose command line holds `marker` (every pid namespace's are in /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return found


def left_behind(marker: str, then: str = "") -> str:
    """A program that starts `sleep 1000` (named `marker`) in a session of its own, through a double
    fork, waits until it runs, says so, then does `then`."""
    return (
        "import os, signal, time\n"
        "ready, tell = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        f"        os.execvp('sleep', [{marker!r}, '1000'])\n"
        "    os.write(tell, str(pid).encode())\n"
        "    os._exit(0)\n"
        "pid = int(os.read(ready, 16))\n"
        f"while {marker.encode()!r} not in open(f'/proc/{{pid}}/cmdline', 'rb').read():\n"
        "    time.sleep(0.01)\n"
        "print('running', flush=True)\n"
        f"{then}\n"
    )


def survivors(marker: str) -> list[int]:
    """The marked processes still running (killed now, so that none outlives the test)."""
    found = processes_with(marker)
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found


def test_background_children_are_killed(local: LocalSandbox) -> None:
    marker = f"coderefine-left-{uuid.uuid4().hex}"
    result = local.run(left_behind(marker))
    assert not survivors(marker)
    assert result.ok and result.stdout == "running\n", result


def test_no_process_outlives_the_run_even_when_its_supervisor_is_killed(local: LocalSandbox) -> None:
    # Code under test runs as the runner's user: it can signal the runner, which would then kill
    # nothing. In the jail, the runner is its pid namespace's first process: the kernel ignores
    # the signal, and would kill the namespace's every process were the runner to end.
    marker = f"coderefine-left-{uuid.uuid4().hex}"
    result = local.run(left_behind(marker, "os.kill(os.getppid(), signal.SIGKILL)"))
    assert not survivors(marker)
    assert result.ok and result.stdout == "running\n", result


def test_the_users_files_and_the_real_project_are_not_there(local: LocalSandbox, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("private\n")
    hidden = [home / "notes.txt", home, tmp_path / "project", tmp_path / "project" / "mypkg" / "__init__.py"]
    code = f"import os\nprint([os.path.lexists(path) for path in {[str(path) for path in hidden]!r}])\n"
    code += f"print(sorted(os.listdir({local.project_path!r})))\n"
    result = local.run(code)
    assert result.ok, result
    assert result.stdout.splitlines() == [str([False] * len(hidden)), "['mypkg']"]


def test_no_docker_socket_and_no_run_folder(local: LocalSandbox) -> None:
    paths = ["/var/run/docker.sock", "/run/docker.sock", "/run", "/var/run", "/var", "/home", "/etc/shadow"]
    result = local.run(f"import os\nprint([path for path in {paths!r} if os.path.lexists(path)])")
    assert result.ok and result.stdout == "[]\n", result


def test_tmp_is_the_runs_own(local: LocalSandbox) -> None:
    name = f"/tmp/coderefine-left-{uuid.uuid4().hex}"
    code = f"with open({name!r}, 'w') as handle:\n    handle.write('kept')\nprint(open({name!r}).read())\n"
    code += "try:\n    open('/written', 'w')\nexcept OSError as error:\n    print(error.strerror)\n"
    result = local.run(code)
    leaked = [path for path in (Path(name), Path("/written")) if path.exists()]
    for path in leaked:
        path.unlink()
    assert not leaked  # the host's /tmp and / got nothing
    assert result.ok and result.stdout.splitlines()[0] == "kept", result  # the run's own /tmp holds it
    assert result.stdout.splitlines()[1] in ("Read-only file system", "Permission denied"), result


@pytest.mark.skipif(os.geteuid() != 0, reason="maps a user namespace's user to root")
def test_refused_with_one_line_where_the_kernel_gives_no_user_namespace(tmp_path: Path) -> None:
    # A user namespace where coderefine runs as an unprivileged user (1000, root on the host, so
    # that it reads the Python installation wherever it is) and where no user namespace can be
    # made, as where the kernel refuses them to unprivileged users.
    (tmp_path / "hello.py").write_text("print('hello')\n")
    program = (
        "import ctypes, os, sys\n"
        "ready_read, ready = os.pipe()\n"
        "mapped_read, mapped = os.pipe()\n"
        "parent = os.getpid()\n"
        "mapper = os.fork()\n"
        "if mapper == 0:\n"
        "    os.read(ready_read, 1)\n"
        "    for name in ('uid_map', 'gid_map'):\n"
        "        with open(f'/proc/{parent}/{name}', 'w') as handle:\n"
        "            handle.write('1000 0 1')\n"
        "    os.write(mapped, b'x')\n"
        "    os._exit(0)\n"
        "if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) != 0:\n"
        "    sys.exit(77)\n"
        "os.write(ready, b'x')\n"
        "os.read(mapped_read, 1)\n"
        "os.waitpid(mapper, 0)\n"
        "with open('/proc/sys/user/max_user_namespaces', 'w') as handle:\n"
        "    handle.write('0')\n"
        "os.execv(sys.argv[1], sys.argv[1:])\n"
    )
    command = [sys.executable, "-m", "coderefine", "sandbox", "run", "hello.py", "--sandbox", "local"]
    done = subprocess.run(
        [sys.executable, "-c", program, *command], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    if done.returncode == 77:
        pytest.skip("no user namespace here, even for root")
    assert done.returncode == 3, done
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert "no user namespace" in done.stderr and "use Docker" in done.stderr, done.stderr
