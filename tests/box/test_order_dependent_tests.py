"""A project's test that fails in a function's selection whatever the version (real Docker sandbox).

The check runs only the tests that call the function. A test that needs another one to run first
(a global that test sets, or a fixture of another folder filling pytest's session-wide doctest
namespace, as semver's documentation does) fails there with the original too: it is not the new
version's doing, and a correct draft is verified; a test the original passes still refuses a draft
that breaks it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coderefine.code.baseline_cache import BaselineCache
from coderefine.code.check import Verdict, VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project

pytestmark = pytest.mark.docker

MODULE = """\
def shout(text: str) -> str:
    out = ""
    for letter in text:
        out = out + letter.upper()
    return out + "!"
"""

FILES = {
    "words.py": MODULE,
    "shared.py": "ready = False\n",
    # runs first and never calls shout(): it is in no selection of shout's
    "tests/test_a_setup.py": "import shared\n\n\ndef test_setup():\n    shared.ready = True\n",
    "tests/test_b_shout.py": (
        "import shared\nfrom words import shout\n\n\n"
        "def test_needs_setup():\n    assert shout('ab') == 'AB!'\n    assert shared.ready\n\n\n"
        "def test_shout():\n    assert shout('xy') == 'XY!'\n    assert shout('') == '!'\n"
    ),
}

RIGHT = 'def shout(text: str) -> str:\n    return text.upper() + "!"\n'
# Right on every text but the empty one, which only the project's own test passes (a typed str
# parameter draws empty texts too, so the differential check may refuse it first: either way, refused).
WRONG = 'def shout(text: str) -> str:\n    return text.upper() + "!" if text else "?"\n'


def check(tmp_path: Path, candidate: str) -> Verdict:
    project = build_project(tmp_path / "proj", FILES)
    target = next(t for t in SourceFile.read(project / "words.py").targets() if t.name == "shout")
    cache = BaselineCache(None, checker="test", baseline_tests=(), exclude=(), timeout=120.0)
    with DockerSandbox(project=project, limits=Limits(timeout=120.0)) as box:
        tests, _ = cache.tests_of(project, box)
        found = tests.baseline_for("words", "shout")
        assert set(found.tests) == {"tests/test_b_shout.py::test_needs_setup", "tests/test_b_shout.py::test_shout"}
        baseline = verify(box, "words", target, None, VerifyOptions(), baseline=found)
        return verify(box, "words", target, candidate, VerifyOptions(), baseline=baseline.baseline)


def test_a_test_failing_with_the_original_too_does_not_refuse_a_right_draft(tmp_path: Path) -> None:
    verdict = check(tmp_path, RIGHT)
    assert verdict.correct and verdict.verified, verdict.mismatch
    assert verdict.found.tests_passed == 1  # test_shout; test_needs_setup fails with both versions


def test_a_test_the_original_passes_still_refuses(tmp_path: Path) -> None:
    verdict = check(tmp_path, WRONG)
    assert not verdict.correct
