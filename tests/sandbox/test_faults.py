"""The sandbox's own faults: the engine going away, a draft that fills the scratch space, a
project the sandbox's users could not read. Real Docker, as every sandbox test."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from coderefine.code.baseline_cache import BaselineCache, ProjectTests
from coderefine.code.check import Uncheckable, VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.base import OWNER_LABEL, Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import MakeProject
from tests.functions import FAST_TOTAL

LOCAL_SOCKET = "/var/run/docker.sock"
MODULE = (
    "def total(items: list[int]) -> int:\n    result = 0\n    for item in items:\n        result += item\n"
    "    return result\n"
)
OPTIONS = VerifyOptions(max_examples=60, rounds=6, max_timing_s=10)


class Forwarder:
    """tcp://127.0.0.1:PORT to the local engine's socket, which the test can cut at any moment."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.open: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.listener.getsockname()[1]}"

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(LOCAL_SOCKET)
            self.open += [client, upstream]
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(source, target), daemon=True).start()

    def cut(self) -> None:
        # shutdown first: a close alone leaves the socket listening while a thread waits in accept().
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for end in self.open:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


def _pipe(source: socket.socket, target: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            target.sendall(data)
    for end in (source, target):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    return make_project({"sums.py": MODULE}, mode=0o700)  # as a CI job's checkout often is: closed to others


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Forwarder]:
    forwarder = Forwarder()
    monkeypatch.setenv("DOCKER_HOST", forwarder.address)
    yield forwarder
    forwarder.cut()
    with contextlib.closing(docker.DockerClient(base_url=f"unix://{LOCAL_SOCKET}")) as client:  # what the cut left
        for container in client.containers.list(all=True, filters={"label": OWNER_LABEL}):
            if container.labels.get(OWNER_LABEL, "").split(":")[1:2] == [str(os.getpid())]:
                container.remove(force=True)


@pytest.mark.docker
def test_the_engine_going_away_is_an_environment_problem_and_closing_is_quiet(engine: Forwarder, project: Path) -> None:
    target = SourceFile.read(project / "sums.py").target("total")
    box = DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024))
    baseline = verify(box, "sums", target, None, OPTIONS)
    assert baseline.verified
    engine.cut()
    with pytest.raises(EnvironmentProblem) as caught:
        verify(box, "sums", target, FAST_TOTAL, OPTIONS, baseline=baseline.baseline)
    assert caught.value.exit_code == 3 and "\n" not in str(caught.value)
    box.close()  # no traceback from the clean-up: the engine is gone, and that was already said


@pytest.mark.docker
def test_a_draft_that_fills_the_scratch_space_harms_no_later_check(project: Path) -> None:
    filler = (
        "def total(items: list[int]) -> int:\n"
        "    for folder in ('/tmp', '/scratch'):\n"
        "        try:\n"
        "            with open(folder + '/filler', 'wb') as handle:\n"
        "                while True:\n"
        "                    handle.write(b'x' * (1 << 20))\n"
        "        except OSError:\n"
        "            pass\n"
        "    return sum(items) + 1\n"
    )
    target = SourceFile.read(project / "sums.py").target("total")
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        baseline = verify(box, "sums", target, None, OPTIONS)
        assert not verify(box, "sums", target, filler, OPTIONS, baseline=baseline.baseline).correct
        after = verify(box, "sums", target, FAST_TOTAL, OPTIONS, baseline=baseline.baseline)
        assert after.verified and after.faster
        listing = box.run("import os\nprint(sorted(os.listdir('/tmp')), sorted(os.listdir('/scratch')))", timeout=30)
        assert "filler" not in listing.stdout


class Killer:
    """Kills this process's sandbox containers from outside, one second after each appears, `times` times."""

    def __init__(self, times: int) -> None:
        self.client = docker.DockerClient(base_url=f"unix://{LOCAL_SOCKET}")
        self.left, self.killed = times, 0
        self.done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        try:
            self._kill_each()
        finally:
            self.client.close()

    def _kill_each(self) -> None:
        seen: set[str] = set()
        while self.left > 0 and not self.done.is_set():
            for container in self.client.containers.list(filters={"label": OWNER_LABEL}):
                mine = container.labels.get(OWNER_LABEL, "").split(":")[1:2] == [str(os.getpid())]
                if mine and container.id is not None and container.id not in seen:
                    seen.add(container.id)
                    self.done.wait(1.0)
                    with contextlib.suppress(docker.errors.APIError):
                        container.kill()
                        self.killed += 1
                        self.left -= 1
            self.done.wait(0.1)


def slow_tests(project: Path) -> None:
    """Tests that take a few seconds, so that the baseline is still running when its container is killed."""
    (project / "test_sums.py").write_text(
        "import time\nfrom sums import total\n\n\ndef test_total():\n    time.sleep(3)\n    assert total([1, 2]) == 3\n"
    )


def project_tests(box: DockerSandbox, project: Path) -> ProjectTests:
    cache = BaselineCache(None, checker="faults", baseline_tests=(), exclude=(), timeout=300.0)
    return cache.tests_of(project, box)[0]


@pytest.mark.docker
def test_a_container_killed_during_the_project_tests_is_retried(project: Path) -> None:
    slow_tests(project)
    target = SourceFile.read(project / "sums.py").target("total")
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        killer = Killer(times=1)
        tests = project_tests(box, project)
        killer.done.set()
        baseline = verify(box, "sums", target, None, OPTIONS, baseline=tests.baseline_for("sums", "total"))
    assert killer.killed == 1
    assert baseline.verified and baseline.baseline.tests == ("test_sums.py::test_total",)


@pytest.mark.docker
def test_a_container_killed_twice_is_an_environment_problem_not_bad_input(project: Path) -> None:
    slow_tests(project)
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        killer = Killer(times=2)
        with pytest.raises(EnvironmentProblem, match="the sandbox stopped during the project's tests, twice") as caught:
            project_tests(box, project)
        killer.done.set()
    assert caught.value.exit_code == 3


@pytest.mark.docker
def test_a_check_whose_container_is_killed_twice_while_the_box_works_is_that_functions_verdict(
    make_project: MakeProject,
) -> None:
    # The original's check takes seconds (each call sleeps): both its containers die under it.
    slowish = "import time\n\n\ndef slowish(n: int) -> int:\n    time.sleep(0.05)\n    return n + 1\n"
    project = make_project({"slowish.py": slowish})
    target = SourceFile.read(project / "slowish.py").target("slowish")
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        killer = Killer(times=2)
        with pytest.raises(Uncheckable, match="the sandbox stopped during the check, twice") as caught:
            verify(box, "slowish", target, None, OPTIONS)
        killer.done.set()
    assert killer.killed == 2
    assert str(caught.value).startswith("cannot check slowish: ") and caught.value.exit_code == 2


HUNGRY = (
    "def grow(n: int) -> int:\n"
    "    if n % 29 == 3:\n"
    "        return len('ab' * 1_500_000_000) + n  # 3 GB: more than the box has\n"
    "    return n * 2\n"
)


@pytest.mark.docker
def test_an_input_the_original_has_not_the_memory_for_is_left_out_and_a_draft_that_needs_more_fails(
    make_project: MakeProject,
) -> None:
    project = make_project({"hungry.py": HUNGRY})
    target = SourceFile.read(project / "hungry.py").target("grow")
    hungrier = HUNGRY.replace("n % 29 == 3", "n % 29 == 3 or n % 11 == 1")
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        baseline = verify(box, "hungry", target, None, OPTIONS)
        assert baseline.verified, baseline.found.failure
        more = verify(box, "hungry", target, hungrier, OPTIONS, baseline=baseline.baseline)
    assert more.found.failure is not None and "process died" in more.found.failure.reason
