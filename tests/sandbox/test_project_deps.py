"""The project's dependencies in the box: wheels fetched on the host for the box's own interpreter, a
source built only in a container, refused lines never reaching pip, a requirement that cannot be had
named and left out."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import tarfile
import threading
import uuid
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import docker
import docker.errors
import pytest

from coderefine.code.resources import Resources
from coderefine.config import resolve
from coderefine.sandbox import source_builds
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from coderefine.sandbox.image import default_image
from coderefine.sandbox.wheels import Fetcher, interpreter

pytestmark = pytest.mark.docker
LIMITS = Limits(timeout=30.0, memory_mb=256)
PROBE = "coderefine-hostile-probe"  # on no public index: served by the test alone


def source_distribution(marker: Path) -> bytes:
    """A source distribution whose setup.py writes `marker` wherever it runs, and records the
    API key of the environment it was built in as its summary."""
    setup = (
        "import os, pathlib\n"
        f"try:\n    pathlib.Path({str(marker)!r}).write_text('built here')\nexcept OSError:\n    pass\n"
        "from setuptools import setup\n"
        f"setup(name={PROBE!r}, version='1.0', py_modules=['probe'],"
        " description=os.environ.get('OPENAI_API_KEY', 'no key here'))\n"
    )
    files = {"setup.py": setup, "probe.py": "ANSWER = 42\n", "PKG-INFO": f"Metadata-Version: 2.1\nName: {PROBE}\n"}
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"coderefine_hostile_probe-1.0/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def readable_project(tmp_path: Path) -> Path:
    """A project folder the box's users can read, whatever the umask."""
    project = tmp_path / "proj"
    project.mkdir(mode=0o755)
    project.chmod(0o755)
    return project


@pytest.fixture
def index(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A package index on 127.0.0.1 serving the probe's source alone; and the marker its setup.py
    would write on the host."""
    marker = tmp_path / "built-on-the-host"
    with serving("coderefine_hostile_probe-1.0.tar.gz", source_distribution(marker)) as url:
        yield url, marker


def broken_wheel() -> bytes:
    """A wheel pip downloads (its metadata reads well) but refuses to install: a file of it would
    land outside the folder it installs into."""
    info = "coderefine_hostile_probe-1.0.dist-info"
    files = {
        "probe.py": "ANSWER = 42\n",
        "../outside.py": "ESCAPED = True\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {PROBE}\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


@contextlib.contextmanager
def serving(name: str, data: bytes) -> Iterator[str]:
    """A package index on 127.0.0.1 (PEP 691's JSON pages) serving one file of the probe."""
    page = {
        "meta": {"api-version": "1.0"},
        "name": PROBE,
        "files": [{"filename": name, "url": f"/files/{name}", "hashes": {"sha256": hashlib.sha256(data).hexdigest()}}],
    }

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/") == f"/simple/{PROBE}":
                body, kind = json.dumps(page).encode(), "application/vnd.pypi.simple.v1+json"
            elif self.path == f"/files/{name}":
                body, kind = data, "application/octet-stream"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple"
    finally:
        server.shutdown()
        server.server_close()


def test_a_wheel_that_does_not_install_is_named_and_the_rest_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_deps: list[str]
) -> None:
    project = readable_project(tmp_path)
    (project / "requirements.txt").write_text(f"{PROBE}==1.0\niniconfig\n")
    notes: list[str] = []
    with serving("coderefine_hostile_probe-1.0-py3-none-any.whl", broken_wheel()) as url:
        monkeypatch.setenv("PIP_INDEX_URL", url)
        monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "https://pypi.org/simple")
        with DockerSandbox(project=project, limits=LIMITS, on_note=notes.append) as box:
            fresh_deps.append(box.image)
            result = box.run("import importlib.util, iniconfig\nprint(importlib.util.find_spec('probe') is None)")
    assert result.ok and result.stdout == "True\n", result.stderr
    assert len(notes) == 1 and notes[0].startswith(
        "the project's dependency coderefine_hostile_probe-1.0-py3-none-any.whl could not be installed in the sandbox ("
    ), notes
    assert notes[0].endswith("): left out") and "outside" in notes[0], notes
    # Said again at the image's next use, as every requirement left out is.
    again: list[str] = []
    with DockerSandbox(project=project, limits=LIMITS, on_note=again.append):
        pass
    assert again == notes


def test_a_source_without_a_wheel_is_built_in_a_container_never_on_the_host(
    index: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, marker = index
    monkeypatch.setenv("PIP_INDEX_URL", url)
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "https://pypi.org/simple")  # setuptools, to build it with
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-build-4242")
    project = readable_project(tmp_path)
    (project / "requirements.txt").write_text(f"{PROBE}==1.0\n")
    with DockerSandbox(project=project, limits=LIMITS) as box:
        result = box.run(
            f"import importlib.metadata, probe\nprint(probe.ANSWER, importlib.metadata.metadata({PROBE!r})['Summary'])"
        )
    assert result.ok and result.stdout == "42 no key here\n", result.stderr
    assert not marker.exists()  # its setup.py ran, but not here


def test_refused_lines_are_said_and_never_reach_pip(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "evil").mkdir(parents=True, mode=0o755)
    project.chmod(0o755)
    marker = tmp_path / "built-on-the-host"
    (project / "evil" / "setup.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n")
    (project / "requirements.txt").write_text("./evil\n-e ./evil\n--find-links /tmp\n")
    notes: list[str] = []
    with DockerSandbox(project=project, limits=LIMITS, on_note=notes.append) as box:
        assert box.image.startswith("coderefine-sandbox:")  # nothing left to install
    assert not marker.exists()
    assert notes == [
        "requirements.txt line 1: './evil' refused (a local path): only 'name[extras] specifier' lines are installed",
        "requirements.txt line 2: '-e ./evil' refused (an editable install): only 'name[extras] specifier' lines "
        "are installed",
        "requirements.txt line 3: '--find-links /tmp' refused (an option): only 'name[extras] specifier' lines "
        "are installed",
    ]


@pytest.fixture
def fresh_deps() -> Iterator[list[str]]:
    """The dependency images a test makes, removed after it: the next run fetches again."""
    made: list[str] = []
    yield made
    client = docker.from_env()
    for tag in made:
        with contextlib.suppress(docker.errors.APIError):
            client.images.remove(tag)
    client.close()


def test_the_wheels_are_for_the_boxs_own_interpreter(tmp_path: Path) -> None:
    """Its full version, ABI and platforms, and its markers: pip reads a requirement's marker as the
    box would, not as the host does (here the host runs another patch version than the box)."""
    client = docker.from_env()
    box = client.containers.run(
        default_image(),
        ["python3", "-c", "import sys, platform; print('%d.%d.%d' % sys.version_info[:3], platform.machine())"],
        network_mode="none",
        remove=True,
    )
    version, machine = box.decode().split()
    target = interpreter(client, default_image())
    client.close()
    assert target.version == version  # the patch too: Requires-Python is checked against it
    assert (target.implementation, target.abi) == ("cp", "cp" + "".join(version.split(".")[:2]))
    assert all(platform.endswith(machine) for platform in target.platforms)
    assert "manylinux2014_" + machine in target.platforms and "linux_" + machine in target.platforms
    assert dict(target.markers)["python_full_version"] == version

    def build(requirement: str, into: Path) -> None:
        raise AssertionError(f"{requirement} has a wheel")

    fetched = Fetcher(tmp_path, target, dict(os.environ), build).fetch(
        [f'six; python_full_version == "{version}"', f'iniconfig; python_full_version != "{version}"']
    )
    assert [wheel.name.split("-")[0] for wheel in fetched.wheels] == ["six"] and not fetched.left_out


def test_only_the_tests_needs_are_installed_and_what_cannot_be_had_is_named(
    tmp_path: Path, fresh_deps: list[str]
) -> None:
    """dev (docs and build tools) is left out where a test group names the tests' needs; a package that
    does not exist and one whose versions need a newer Python are named, and the rest installed."""
    project = readable_project(tmp_path)
    (project / "pyproject.toml").write_text(
        "[project]\nname = 'proj'\n"
        "[dependency-groups]\ndev = ['sphinx', {include-group = 'test'}]\n"
        f"test = ['iniconfig', 'coderefine-no-such-package-{uuid.uuid4().hex[:8]}>=9', 'django>=6',"
        " {include-group = 'speedups'}]\n"
        "speedups = ['MarkupSafe']\n"  # compiled: its wheel must fit the box's ABI and platform
    )
    notes: list[str] = []
    with DockerSandbox(project=project, limits=LIMITS, on_note=notes.append) as box:
        fresh_deps.append(box.image)
        result = box.run(
            "import importlib.util, iniconfig, markupsafe._speedups\n"
            "print([importlib.util.find_spec(name) is None for name in ('sphinx', 'django')])"
        )
    assert result.ok and result.stdout == "[True, True]\n", result.stderr
    assert len(notes) == 2, notes
    missing, too_new = notes
    assert re.fullmatch(
        r"the project's requirement 'coderefine-no-such-package-\w+>=9' \(from pyproject.toml \[dependency-groups\] "
        r"test\) cannot be had for Python 3\.11\.\d+: no such package on https://pypi.org/simple: left out",
        missing,
    )
    assert re.fullmatch(
        r"the project's requirement 'django>=6' \(from pyproject.toml \[dependency-groups\] test\) cannot be had "
        r"for Python 3\.11\.\d+: django 6\.\S+ needs Python >=3\.12: left out",
        too_new,
    )


def test_the_projects_file_leaves_requirements_and_groups_out(tmp_path: Path, fresh_deps: list[str]) -> None:
    """test_requirements_exclude only takes away: the project's own pyproject.toml may say it."""
    project = readable_project(tmp_path)
    (project / "pyproject.toml").write_text(
        "[project]\nname = 'proj'\ndependencies = ['six']\n"
        "[project.optional-dependencies]\ntest = ['iniconfig', 'proj[docs]']\ndocs = ['sphinx']\n"
        "[tool.coderefine]\ntest_requirements_exclude = ['Six', 'group:docs']\n"
    )
    settings = resolve(environ={}, start=project)
    assert settings.test_requirements_exclude == ("Six", "group:docs")
    with Resources(settings, LIMITS) as resources:
        box = resources.sandbox(project)
        assert isinstance(box, DockerSandbox)
        fresh_deps.append(box.image)
        result = box.run(
            "import importlib.util, iniconfig\nprint([importlib.util.find_spec(n) is None for n in ('six', 'sphinx')])"
        )
    assert result.ok and result.stdout == "[True, True]\n", result.stderr


def test_requirements_that_conflict_keep_the_first_and_name_the_other(tmp_path: Path) -> None:
    """pip names no one requirement of a conflict: each is resolved alone, then together one at a time."""
    client = docker.from_env()
    target = interpreter(client, default_image())

    def build(requirement: str, into: Path) -> None:
        source_builds.build(client, default_image(), requirement, target.version, target.pip_download(), into, {})

    fetched = Fetcher(tmp_path, target, dict(os.environ), build).fetch(["six==1.16.0", "iniconfig", "six==1.15.0"])
    client.close()
    assert sorted(wheel.name.split("-")[0] for wheel in fetched.wheels) == ["iniconfig", "six"]
    assert any(wheel.name.startswith("six-1.16.0-") for wheel in fetched.wheels)
    assert [(item.requirement, item.reason) for item in fetched.left_out] == [
        ("six==1.15.0", "it conflicts with the others: The user requested six==1.16.0; The user requested six==1.15.0")
    ]


def test_a_package_that_reads_its_own_version_imports(tmp_path: Path) -> None:
    """`importlib.metadata.version` of the project itself (mounted, not installed) finds the version
    the project declares: here dynamic in pyproject.toml, read from the sdist's PKG-INFO."""
    project = readable_project(tmp_path)
    (project / "pyproject.toml").write_text("[project]\nname = 'Own_Version'\ndynamic = ['version']\n")
    (project / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: Own_Version\nVersion: 2.6.3\n")
    (project / "own_version").mkdir()
    (project / "own_version" / "__init__.py").write_text(
        "import importlib.metadata\n__version__ = importlib.metadata.version('own-version')\n"
    )
    with DockerSandbox(project=project, limits=LIMITS) as box:
        result = box.run("import own_version\nprint(own_version.__version__)")
    assert result.ok and result.stdout == "2.6.3\n", result.stderr
