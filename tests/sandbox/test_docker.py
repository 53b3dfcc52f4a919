"""The Docker sandbox against hostile drafts, with the real engine.

These tests need Docker and the sandbox image (`coderefine sandbox setup`,
which .ci/run does). They fail, never skip, when either is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from coderefine.sandbox.base import POOL_LABEL, Limits
from coderefine.sandbox.docker import DockerSandbox, remove_stale_containers

LIMITS = Limits(timeout=5.0, memory_mb=256, pids=64, output_bytes=1 << 20)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DockerSandbox]:
    project = tmp_path_factory.mktemp("project")
    project.chmod(0o755)  # as a checkout is; pytest makes its folders private
    (project / "data.txt").write_text("original\n")
    (project / "mypkg").mkdir()
    (project / "mypkg" / "__init__.py").write_text("def double(x):\n    return 2 * x\n")
    with DockerSandbox(project=project, limits=LIMITS) as box:
        yield box


def our_container_ids() -> set[str]:
    with contextlib.closing(docker.from_env()) as client:
        return {c["Id"] for c in client.api.containers(all=True, filters={"label": POOL_LABEL})}


def assert_still_works(sandbox: DockerSandbox) -> None:
    result = sandbox.run("print('alive')")
    assert result.ok and result.stdout == "alive\n", result


@pytest.mark.docker
def test_a_draft_runs_and_its_output_comes_back(sandbox: DockerSandbox) -> None:
    result = sandbox.run("import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.exit(3)")
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
    assert result.sandbox == "docker"
    assert not (result.timed_out or result.oom_killed or result.truncated)


@pytest.mark.docker
def test_drafts_run_as_an_unprivileged_user_without_capabilities(sandbox: DockerSandbox) -> None:
    code = (
        "import os\n"
        "print(os.getuid())\n"
        "print([l for l in open('/proc/self/status') if l.startswith('CapEff')][0].split()[1])\n"
        "print([l for l in open('/proc/self/status') if l.startswith('NoNewPrivs')][0].split()[1])\n"
    )
    result = sandbox.run(code)
    assert result.stdout.split() == ["10001", "0000000000000000", "1"]


@pytest.mark.docker
def test_each_run_gets_a_fresh_scratch_directory(sandbox: DockerSandbox) -> None:
    first = sandbox.run("import os\nopen('left.txt', 'w').write('x')\nprint(os.getcwd())")
    second = sandbox.run("import os\nprint(os.getcwd(), os.path.exists('left.txt'))")
    assert first.ok and second.ok
    assert first.stdout != second.stdout.split()[0]
    assert second.stdout.split()[1] == "False"


@pytest.mark.docker
def test_the_project_and_its_package_are_importable_read_only(sandbox: DockerSandbox) -> None:
    result = sandbox.run("from mypkg import double\nprint(double(21))\nimport hypothesis, pytest")
    assert result.ok and result.stdout == "42\n", result.stderr


@pytest.mark.docker
def test_infinite_loop_is_killed_at_the_timeout(sandbox: DockerSandbox) -> None:
    started = time.monotonic()
    result = sandbox.run("while True:\n    pass\n", timeout=1.0)
    assert result.timed_out and result.killed_by == "timeout"
    assert 0.9 <= result.duration_s < 3
    assert time.monotonic() - started < 10
    assert_still_works(sandbox)


@pytest.mark.docker
def test_fork_bomb_is_contained(sandbox: DockerSandbox) -> None:
    code = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    result = sandbox.run(code, timeout=2.0)
    assert result.timed_out
    assert_still_works(sandbox)


@pytest.mark.docker
def test_memory_hog_is_killed_and_reported(sandbox: DockerSandbox) -> None:
    result = sandbox.run("blocks = []\nwhile True:\n    blocks.append(b'x' * (16 << 20))\n")
    assert result.oom_killed and result.killed_by == "memory"
    assert result.exit_code != 0
    assert_still_works(sandbox)


@pytest.mark.docker
def test_100_mb_of_output_is_capped(sandbox: DockerSandbox) -> None:
    result = sandbox.run("import sys\nfor _ in range(100):\n    sys.stdout.write('x' * (1 << 20))\n")
    assert result.truncated and result.killed_by == "output"
    assert len(result.stdout) <= LIMITS.output_bytes
    assert_still_works(sandbox)


@pytest.mark.docker
def test_the_mounted_project_cannot_be_written(sandbox: DockerSandbox) -> None:
    code = (
        "for action in (lambda: open('/project/data.txt', 'w').write('hacked'),\n"
        "               lambda: open('/project/new.txt', 'w').write('x')):\n"
        "    try:\n        action()\n        print('wrote')\n"
        "    except OSError as error:\n        print(type(error).__name__, error.errno)\n"
    )
    result = sandbox.run(code)
    assert result.stdout.splitlines() == ["OSError 30", "OSError 30"]  # EROFS
    assert sandbox.project is not None
    assert (sandbox.project / "data.txt").read_text() == "original\n"
    assert not (sandbox.project / "new.txt").exists()


@pytest.mark.docker
def test_no_network_not_even_the_hosts_loopback(sandbox: DockerSandbox) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        code = (
            "import socket\n"
            f"for address in (('1.1.1.1', 53), ('127.0.0.1', {port})):\n"
            "    try:\n        socket.create_connection(address, timeout=2)\n        print('connected')\n"
            "    except OSError as error:\n        print(type(error).__name__)\n"
            "print(sorted(name for _, name in socket.if_nameindex()))\n"
        )
        result = sandbox.run(code)
    assert result.stdout.splitlines()[:2] == ["OSError", "ConnectionRefusedError"]
    assert result.stdout.splitlines()[2] == "['lo']"


@pytest.mark.docker
def test_host_files_outside_the_mounts_are_invisible(sandbox: DockerSandbox, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    code = f"import os\nprint(os.path.exists({str(secret)!r}), os.path.exists('/root/.bash_history'))\n"
    result = sandbox.run(code)
    assert result.stdout == "False False\n"
    host = sandbox.run("print(open('/etc/hostname').read().strip())")
    assert host.stdout.strip() != socket.gethostname()


@pytest.mark.docker
def test_code_under_test_cannot_kill_the_runner(sandbox: DockerSandbox) -> None:
    # The runner is another user's: code under test can neither signal it nor anything else there.
    result = sandbox.run("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    assert result.killed_by is None and result.exit_code == 1
    assert "PermissionError" in result.stderr
    assert_still_works(sandbox)


@pytest.mark.docker
def test_a_draft_that_does_not_parse_is_a_failed_run(sandbox: DockerSandbox) -> None:
    result = sandbox.run("def broken(:\n")
    assert result.exit_code == 1 and "SyntaxError" in result.stderr
    assert result.killed_by is None


@pytest.mark.docker
def test_background_processes_do_not_survive_the_run(sandbox: DockerSandbox) -> None:
    sandbox.run("import subprocess\nsubprocess.Popen(['sleep', '300'], start_new_session=True)\n")
    result = sandbox.run(
        "import os\n"
        "names = [open(f'/proc/{p}/comm').read().strip() for p in os.listdir('/proc') if p.isdigit()]\n"
        "print('sleep' in names)\n"
    )
    assert result.stdout == "False\n"


@pytest.mark.docker
def test_stale_containers_and_volumes_of_a_dead_owner_are_removed(docker_client: docker.DockerClient) -> None:
    client = docker_client
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    label = f"{socket.gethostname()}:{dead.stdout.strip()}:1"
    image = client.images.list(filters={"label": "coderefine.sandbox=image"})[0]
    assert image.id is not None
    stale = client.containers.create(image.id, ["sleep", "1"], labels={POOL_LABEL: "pool", "coderefine.owner": label})
    volume = client.volumes.create(labels={"coderefine.owner": label})  # a project's copy it left behind
    assert remove_stale_containers(client) >= 1
    with pytest.raises(docker.errors.NotFound):
        stale.reload()
    with pytest.raises(docker.errors.NotFound):
        volume.reload()


@pytest.mark.docker
def test_containers_are_removed_on_close(tmp_path: Path) -> None:
    before = our_container_ids()
    with DockerSandbox(limits=LIMITS) as box:
        assert box.run("print(1)").ok
        during = our_container_ids() - before
        assert len(during) == 1
    assert not (our_container_ids() & during)


@pytest.mark.docker
def test_ctrl_c_removes_the_containers(tmp_path: Path) -> None:
    script = tmp_path / "loop.py"
    script.write_text("import time\nwhile True:\n    time.sleep(1)\n")
    before = our_container_ids()
    # Ctrl-C as a terminal sends it, even where this test runs with SIGINT ignored (a background job).
    process = subprocess.Popen(
        [sys.executable, "-m", "coderefine", "sandbox", "run", str(script), "--timeout", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (our_container_ids() - before):
        time.sleep(0.2)
    if not (our_container_ids() - before):
        process.kill()
        _, err = process.communicate(timeout=30)
        pytest.fail(f"the run never started a container (exit {process.returncode}): {err.strip()[-500:]}")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err.strip() == "coderefine: interrupted"
    assert not (our_container_ids() - before)


@pytest.mark.docker
def test_third_party_dependencies_of_the_project_are_installed(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "app").mkdir(parents=True)
    project.chmod(0o755)
    (project / "requirements.txt").write_text("six==1.16.0\n-e .\n")
    (project / "app" / "__init__.py").write_text("import six\n\ndef kind():\n    return six.__name__\n")
    with DockerSandbox(project=project, limits=LIMITS) as box:
        result = box.run("from app import kind\nprint(kind())")
        image = box.image
    assert result.ok and result.stdout == "six\n", result.stderr
    assert image.startswith("coderefine-deps:")
    started = time.monotonic()
    with DockerSandbox(project=project, limits=LIMITS) as again:
        assert again.image == image  # built once, found by the requirements' hash
    assert time.monotonic() - started < 10


@pytest.mark.docker
def test_a_test_only_dependency_is_installed_too(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    project.chmod(0o755)
    (project / "pyproject.toml").write_text(
        "[project]\nname = 'proj'\n\n[project.optional-dependencies]\ntest = ['six==1.16.0']\n"
    )
    (project / "tests" / "test_it.py").write_text("import six\n\ndef test_six():\n    assert six.PY3\n")
    with DockerSandbox(project=project, limits=LIMITS) as box:
        result = box.run("import six\nprint(six.__name__)")
    assert result.ok and result.stdout == "six\n", result.stderr


@pytest.mark.docker
def test_a_project_without_dependencies_uses_the_sandbox_image(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    with DockerSandbox(project=tmp_path, limits=LIMITS) as box:
        assert box.image.startswith("coderefine-sandbox:")


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coderefine", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


@pytest.mark.docker
def test_a_project_closed_to_others_is_copied_and_readable(tmp_path: Path) -> None:
    project = tmp_path / "private"
    project.mkdir(mode=0o700)  # as a CI job's temporary checkout often is
    (project / "secretless.py").write_text("VALUE = 42\n")
    (project / "secretless.py").chmod(0o600)
    (project / ".env").write_text("TOKEN=never-in-the-sandbox\n")
    with DockerSandbox(project=project, limits=LIMITS) as box:
        result = box.run("import os, secretless\nprint(secretless.VALUE, sorted(os.listdir('/project')))\n")
    assert result.stdout.strip() == "42 ['secretless.py']", result.stderr


@pytest.mark.docker
def test_cli_sandbox_run_json(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    script = tmp_path / "hello.py"
    script.write_text("import sys\nprint('hi')\nsys.exit(4)\n")
    done = run_cli("sandbox", "run", str(script), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {"exit_code", "stdout", "stderr", "duration_s", "timed_out", "oom_killed", "truncated"} <= set(result)
    assert (result["exit_code"], result["stdout"], result["sandbox"]) == (4, "hi\n", "docker")


@pytest.mark.docker
def test_cli_sandbox_run_plain_reports_a_timeout(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    script = tmp_path / "spin.py"
    script.write_text("print('start', flush=True)\nwhile True:\n    pass\n")
    done = run_cli("sandbox", "run", str(script), "--timeout", "1", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == "start\n"
    assert done.stderr.strip().startswith("coderefine: docker sandbox: killed (timeout) after 1.")


def test_cli_sandbox_run_missing_file(tmp_path: Path) -> None:
    done = run_cli("sandbox", "run", str(tmp_path / "absent.py"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"coderefine: file not found: {tmp_path / 'absent.py'}"


def test_docker_unreachable_is_exit_3_naming_the_fix(tmp_path: Path) -> None:
    script = tmp_path / "hello.py"
    script.write_text("print('hi')\n")
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no.sock"}
    done = run_cli("sandbox", "run", str(script), env=env, cwd=tmp_path)
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    host = f"unix://{tmp_path}/no.sock"
    assert done.stderr == (
        f"coderefine: the Docker engine at {host} (DOCKER_HOST) does not answer: no socket there: check that "
        "address, or unset DOCKER_HOST to use this machine's engine\n"
    )


def test_an_engine_that_does_not_answer_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import docker.errors

    from coderefine.sandbox.base import engine_problem

    refused = docker.errors.DockerException(
        "Error while fetching server API version: ('Connection aborted.', ConnectionRefusedError(111, "
        "'Connection refused'))"
    )
    missing = docker.errors.DockerException(
        "Error while fetching server API version: ('Connection aborted.', FileNotFoundError(2, "
        "'No such file or directory'))"
    )
    denied = docker.errors.DockerException(
        "Error while fetching server API version: ('Connection aborted.', PermissionError(13, 'Permission denied'))"
    )
    monkeypatch.delenv("DOCKER_HOST", raising=False)
    assert engine_problem(missing) == ("Docker is not available: no socket there", "run 'coderefine sandbox setup'")
    assert engine_problem(denied)[1].startswith("add the user to the docker group")
    monkeypatch.setenv("DOCKER_HOST", "tcp://10.0.0.7:2375")
    what, fix = engine_problem(refused)
    assert what == "the Docker engine at tcp://10.0.0.7:2375 (DOCKER_HOST) does not answer: connection refused"
    assert "sandbox setup" not in fix and "DOCKER_HOST" in fix


@pytest.mark.docker
def test_missing_image_is_exit_3_naming_the_fix(tmp_path: Path) -> None:
    script = tmp_path / "hello.py"
    script.write_text("print('hi')\n")
    env = {**os.environ, "CODEREFINE_SANDBOX_IMAGE": "coderefine-sandbox:absent"}
    done = run_cli("sandbox", "run", str(script), env=env, cwd=tmp_path)
    assert done.returncode == 3
    assert done.stderr.strip() == (
        "coderefine: the sandbox image coderefine-sandbox:absent is missing: run 'coderefine sandbox setup'"
    )


@pytest.mark.docker
def test_doctor_says_all_is_well(tmp_path: Path) -> None:
    done = run_cli("sandbox", "doctor", "--json", cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"], report
    assert [check["name"] for check in report["checks"]] == [
        "docker package",
        "docker daemon",
        "sandbox image",
        "sandbox run",
    ]


@pytest.mark.docker
def test_doctor_names_what_is_missing(tmp_path: Path) -> None:
    env = {**os.environ, "CODEREFINE_SANDBOX_IMAGE": "coderefine-sandbox:absent"}
    done = run_cli("sandbox", "doctor", env=env, cwd=tmp_path)
    assert done.returncode == 3
    assert "MISSING  sandbox image: coderefine-sandbox:absent is missing (fix: coderefine sandbox setup)" in done.stdout


@pytest.mark.docker
def test_setup_is_idempotent(tmp_path: Path) -> None:
    done = run_cli("sandbox", "setup", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(present)" in done.stdout.splitlines()[-1]
    assert "building" not in done.stdout
