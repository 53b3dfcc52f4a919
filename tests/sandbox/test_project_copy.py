"""What of the project the sandbox's copy holds: in a git work tree the files git tracks (listed
without running anything the repository's config names), never a file that may hold a secret nor
a symbolic link out of the project; outside git every file but those. The same files in the tar
for Docker and in the local copy.

A Docker engine named by DOCKER_HOST that cannot see this machine's files: the project is copied
to it. The "remote" engine is the local one reached over TCP through a forwarder on 127.0.0.1, so
the client speaks the remote protocol and nothing is bind-mounted.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import tarfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import docker
import pytest

from coderefine.code.optimize import optimize
from coderefine.sandbox.base import OWNER_LABEL, SandboxUnavailable
from coderefine.sandbox.local import LocalSandbox, copy_read_only
from coderefine.sandbox.open import open_sandbox
from coderefine.sandbox.project_copy import CopySummary, project_files, project_tar
from tests.conftest import MakeProject
from tests.functions import FAST_DEDUPE, SLOW_DEDUPE, fenced
from tests.scripted_llm import ScriptedLLM

LOCAL_SOCKET = "/var/run/docker.sock"


def _pipe(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def remote_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """DOCKER_HOST=tcp://127.0.0.1:PORT, forwarded to the local engine's socket."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    opened: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(LOCAL_SOCKET)
            opened.extend((client, upstream))
            for pair in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=pair, daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    monkeypatch.setenv("DOCKER_HOST", address)
    yield address
    with contextlib.suppress(OSError):
        listener.shutdown(socket.SHUT_RDWR)  # a close alone leaves accept() waiting
    listener.close()
    for end in opened:  # the pipes shut them down; closing them is the fixture's
        end.close()


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    # Not readable by others: a bind mount would fail the draft user.
    return make_project({"helpers.py": SLOW_DEDUPE, ".git/secret": "not copied"}, mode=0o700)


@pytest.mark.docker
def test_the_project_is_copied_to_a_volume_not_bind_mounted(
    remote_engine: str, project: Path, docker_client: docker.DockerClient
) -> None:
    engine = docker_client  # made after remote_engine set DOCKER_HOST: the remote engine's
    assert engine.api.base_url.startswith("http://127.0.0.1")
    with open_sandbox("docker", project=project) as box:
        code = "import os, socket, helpers\nprint(helpers.dedupe([2, 2, 1]), sorted(os.listdir('/project')))\n"
        result = box.run(code + "print(socket.gethostname())")
        assert result.exit_code == 0, result.stderr
        listing, hostname = result.stdout.strip().splitlines()
        assert listing == "[2, 1] ['helpers.py', 'pyproject.toml']"
        assert box.copy_summary == CopySummary(copied=2, tracked=False)  # not a git work tree
        container = engine.containers.get(hostname)  # a container's hostname is its short id
        assert OWNER_LABEL in container.labels
        mounts = container.attrs["Mounts"]
        assert [(m["Type"], m["Destination"], m["RW"]) for m in mounts] == [("volume", "/project", False)]
        volume = mounts[0]["Name"]
    assert volume not in [v.name for v in engine.volumes.list()]  # removed with the sandbox


@pytest.mark.docker
def test_optimize_runs_its_drafts_on_the_remote_engine(
    remote_engine: str, project: Path, scripted: Callable[..., ScriptedLLM]
) -> None:
    server = scripted([fenced(FAST_DEDUPE), "Verified. NOTHING LEFT TO GAIN"])
    report = optimize(project / "helpers.py", "dedupe", base_url=server.url, model="scripted-model", max_examples=100)
    (result,) = report.results
    assert result.improved, result.refine
    assert result.metrics["correct"] is True and result.metrics["speedup_ci"][0] > 1.05


def git(root: Path, *args: str) -> None:
    identity = ("-c", "user.name=Tester", "-c", "user.email=tester@example.com")
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, stdin=subprocess.DEVNULL)


# What the repository below holds, and what of it the copy must hold.
TRACKED = {
    "pyproject.toml": "[project]\nname = 'repo'\n",
    "helpers.py": SLOW_DEDUPE,
    "pkg/__init__.py": "VALUE = 1\n",
    ".gitignore": "*.log\npkg/_version.py\n",
    ".env.production": "TOKEN=tracked-yet-secret\n",
}
UNTRACKED = {
    ".git-credentials": "https://user:token@example.com\n",
    ".env": "API_KEY=sk-untracked\n",
    "new_module.py": "NEW = True\n",
}
# Untracked Python modules go too: a new one not yet added, and one a build wrote (ignored by git).
MODULES = ("new_module.py", "pkg/_version.py")
IN_THE_COPY = {".gitignore", "helpers.py", "pkg/__init__.py", "pyproject.toml", "staged.py", "alias.py", *MODULES}
LEFT_OUT = CopySummary(copied=8, tracked=True, untracked=3, secrets=1, links_out=1, modules=MODULES)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A git work tree: files committed, one staged, one deleted since, links in and out, and files
    git does not track (one of them ignored)."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    for name, text in {**TRACKED, "deleted.py": "GONE = True\n"}.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text(text)
    (root / "hostname").symlink_to("/etc/hostname")
    (root / "alias.py").symlink_to("helpers.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    (root / "staged.py").write_text("STAGED = True\n")
    git(root, "add", "staged.py")
    (root / "deleted.py").unlink()
    for name, text in {**UNTRACKED, "debug.log": "ignored\n", "pkg/_version.py": "__version__ = '1.0'\n"}.items():
        (root / name).write_text(text)
    return root


def test_the_copy_holds_what_git_tracks_and_counts_what_it_left_out(repository: Path) -> None:
    files, summary = project_files(repository)
    assert set(files) == IN_THE_COPY
    assert summary == LEFT_OUT
    assert summary.describe() == (
        "the sandbox's copy: 8 files git tracks (and 2 modules it does not: new_module.py, pkg/_version.py); "
        "left out: 3 untracked, 1 that may hold a secret, 1 symbolic link out of the project"
    )


def test_the_sandbox_exclude_setting_leaves_out_tracked_files_too(repository: Path) -> None:
    files, summary = project_files(repository, exclude=("pkg",))
    assert set(files) == IN_THE_COPY - {"pkg/__init__.py", "pkg/_version.py"}
    assert summary.secrets == 2


def test_a_project_in_a_folder_of_the_repository_gets_its_own_tracked_files(repository: Path) -> None:
    files, summary = project_files(repository / "pkg")
    assert files == ("__init__.py", "_version.py")
    assert summary == CopySummary(copied=2, tracked=True, modules=("_version.py",))


def test_the_tar_for_docker_holds_the_same_files_readable_by_everyone(repository: Path) -> None:
    data, summary = project_tar(repository)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = {member.name: member for member in archive.getmembers()}
        helpers = archive.extractfile("helpers.py")
        assert helpers is not None and helpers.read() == SLOW_DEDUPE.encode()
    assert {name for name, member in members.items() if not member.isdir()} == IN_THE_COPY
    assert {name for name, member in members.items() if member.isdir()} == {"pkg"}
    assert members["alias.py"].issym() and members["alias.py"].linkname == "helpers.py"
    assert all(member.uid == 0 and member.mode & 0o444 == 0o444 for member in members.values())
    assert summary == LEFT_OUT


def test_the_local_copy_holds_the_same_files_read_only(repository: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy" / "repo"
    copy.parent.mkdir()
    summary = copy_read_only(repository, copy, ())
    found = {
        (Path(folder) / name).relative_to(copy).as_posix()
        for folder, folders, files in os.walk(copy)
        for name in [*files, *(name for name in folders if os.path.islink(Path(folder) / name))]
    }
    assert found == IN_THE_COPY
    assert os.readlink(copy / "alias.py") == "helpers.py"
    assert (copy / "helpers.py").stat().st_mode & 0o777 == 0o444 and copy.stat().st_mode & 0o777 == 0o555
    assert summary == LEFT_OUT
    with LocalSandbox(project=repository) as box:  # the sandbox gives the same account
        assert box.copy_summary == LEFT_OUT


def test_outside_git_every_file_goes_but_secrets_caches_and_links_out(make_project: MakeProject) -> None:
    project = make_project(
        {
            "helpers.py": SLOW_DEDUPE,
            "sub/module.py": "X = 1\n",
            ".env": "API_KEY=sk\n",
            ".git-credentials": "https://user:token@example.com\n",
            ".ssh/id_rsa": "key\n",
            "__pycache__/helpers.cpython-311.pyc": b"cache",
        }
    )
    (project / "outside").symlink_to(project.parent)
    (project / "inside").symlink_to("sub", target_is_directory=True)
    files, summary = project_files(project)
    assert set(files) == {"helpers.py", "inside", "pyproject.toml", "sub/module.py"}
    assert summary == CopySummary(copied=4, tracked=False, secrets=3, links_out=1)
    assert summary.describe() == (
        "the sandbox's copy: 4 files; left out: 3 that may hold a secret, 1 symbolic link out of the project"
    )


def test_listing_runs_no_program_the_repositorys_config_names(repository: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    monitor = tmp_path / "monitor.sh"
    monitor.write_text(f"#!/bin/sh\necho ran >> {marker}\n")
    monitor.chmod(0o755)
    git(repository, "config", "core.fsmonitor", str(monitor))
    files, _ = project_files(repository)
    assert set(files) == IN_THE_COPY
    assert not marker.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give the checkout to another owner")
def test_a_checkout_git_will_not_read_stops_the_copy_rather_than_copying_everything(
    repository: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # no config that marks every checkout safe
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    os.chown(repository, 65534, 65534)  # another owner's: git refuses it, as it should
    with pytest.raises(SandboxUnavailable, match=r"^cannot list the files git tracks in .*dubious ownership"):
        project_files(repository)


@pytest.mark.docker
def test_the_docker_sandbox_holds_what_git_tracks(repository: Path) -> None:
    listing = (
        "import os\n"
        "for folder, folders, files in os.walk('/project'):\n"
        "    for name in files:\n"
        "        print(os.path.relpath(os.path.join(folder, name), '/project'))\n"
    )
    with open_sandbox("docker", project=repository) as box:
        result = box.run(listing)
        summary = box.copy_summary
    assert result.exit_code == 0, result.stderr
    assert set(result.stdout.split()) == IN_THE_COPY
    assert summary == LEFT_OUT
