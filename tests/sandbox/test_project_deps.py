"""The project's dependencies in the box: wheels fetched on the host, a source built only in a container,
refused lines never reaching pip."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox

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


@pytest.fixture
def index(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A package index on 127.0.0.1 (PEP 691's JSON pages) serving the probe's source alone; and
    the marker its setup.py would write on the host."""
    marker = tmp_path / "built-on-the-host"
    data = source_distribution(marker)
    name = "coderefine_hostile_probe-1.0.tar.gz"
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
                body, kind = data, "application/gzip"
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
    yield f"http://127.0.0.1:{server.server_address[1]}/simple", marker
    server.shutdown()
    server.server_close()


def test_a_source_without_a_wheel_is_built_in_a_container_never_on_the_host(
    index: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, marker = index
    monkeypatch.setenv("PIP_INDEX_URL", url)
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "https://pypi.org/simple")  # setuptools, to build it with
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-build-4242")
    project = tmp_path / "proj"
    project.mkdir(mode=0o755)
    project.chmod(0o755)
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
