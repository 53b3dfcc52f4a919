"""Inputs from the project's tests' fixtures (real Docker sandbox): a method of a class no drawn
argument can build (its constructor reads a file), which the tests never call, is checked on the
instances a fixture made, and so is a function whose parameter's hint names the class."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coderefine.code.baseline_cache import BaselineCache, ProjectTests
from coderefine.code.check import VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project

pytestmark = pytest.mark.docker

MODULE = '''\
import json


class Shelf:
    """Sizes read from a JSON file: no drawn argument makes one."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        self.name = data["name"]
        self.sizes = list(data["sizes"])

    def largest(self):
        best = None
        for size in self.sizes:
            if best is None or size > best:
                best = size
        return best


def spread(shelf: Shelf):
    return max(shelf.sizes) - min(shelf.sizes) if shelf.sizes else 0


class Label:
    def __init__(self, text):
        self.text = text
'''
CONFTEST = """\
import json
import threading

import pytest

from shelf import Label, Shelf

SIZES = [[3, 1, 2], [5], [], [7, 7, -1, 4], [-3, -8]]


@pytest.fixture(params=range(len(SIZES)))
def shelf(request, tmp_path):
    path = tmp_path / "shelf.json"
    path.write_text(json.dumps({"name": f"shelf {request.param}", "sizes": SIZES[request.param]}))
    return Shelf(str(path))


@pytest.fixture
def locked(shelf):
    shelf.lock = threading.Lock()  # a value that does not pickle: left out
    return shelf


@pytest.fixture
def label():
    return Label("x")
"""
TESTS = """\
def test_named(shelf, label):
    assert shelf.name.startswith("shelf") and label.text == "x"


def test_locked(locked):
    assert locked.lock is not None
"""
KEY = "shelf:Shelf.largest"
OPTIONS = VerifyOptions(max_examples=40, rounds=6, max_timing_s=5)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"shelf.py": MODULE, "tests/conftest.py": CONFTEST, "tests/test_shelf.py": TESTS}
    return build_project(tmp_path_factory.mktemp("fixtures") / "shelf", files)


@pytest.fixture(scope="module")
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def tests(box: DockerSandbox, project: Path) -> ProjectTests:
    cache = BaselineCache(None, checker="fixtures", baseline_tests=(), exclude=(), timeout=300.0)
    found, _ = cache.tests_of(project, box, functions=frozenset({KEY, "shelf:spread"}))
    return found


def test_a_method_no_constructor_call_reaches_is_checked_on_the_fixtures_instances(
    box: DockerSandbox, project: Path, tests: ProjectTests
) -> None:
    record = tests.files["tests/test_shelf.py"]
    assert not record.calls.get(KEY) and not record.failed, record
    # Five shelves, each once however many tests take it; the locked ones do not pickle.
    assert set(record.fixtures) == {KEY, "shelf:spread"} and len(record.fixtures[KEY]) == 5, record.fixtures
    target = SourceFile.read(project / "shelf.py").target("Shelf.largest")
    baseline = verify(box, "shelf", target, None, OPTIONS, baseline=tests.baseline_for("shelf", "Shelf.largest"))
    assert baseline.correct and baseline.found.sources == {"fixture": 5}, baseline.found
    assert baseline.checked == 5 and not baseline.verified, baseline.found  # five are below the floor
    right = "def largest(self):\n    return max(self.sizes, default=None)\n"
    assert verify(box, "shelf", target, right, OPTIONS, baseline=baseline.baseline).correct
    wrong = verify(
        box, "shelf", target, "def largest(self):\n    return max(self.sizes)\n", OPTIONS, baseline=baseline.baseline
    )
    assert not wrong.correct and "Shelf" in (wrong.found.counterexample or ""), wrong.found
    # A parameter hinted with the class gets them too.
    hinted = SourceFile.read(project / "shelf.py").target("spread")
    spread = verify(box, "shelf", hinted, None, OPTIONS, baseline=tests.baseline_for("shelf", "spread"))
    assert spread.correct and spread.found.sources == {"fixture": 5}, spread.found
