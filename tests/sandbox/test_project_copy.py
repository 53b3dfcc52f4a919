"""A Docker engine named by DOCKER_HOST that cannot see this machine's files: the project is copied to it.

The "remote" engine is the local one reached over TCP through a forwarder on
127.0.0.1, so the client speaks the remote protocol and nothing is bind-mounted.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import docker
import pytest

from coderefine.code.optimize import optimize
from coderefine.sandbox.base import OWNER_LABEL
from coderefine.sandbox.open import open_sandbox
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
