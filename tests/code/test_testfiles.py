"""coderefine/code/testfiles.py: which files are a project's tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coderefine.cli import main
from coderefine.code.testfiles import TEST_FILE_REASON, is_test_file, pytest_python_files


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pkg/core.py", False),
        ("tests/helpers.py", True),
        ("pkg/test/util.py", True),
        ("benchmarks/bench_match.py", True),
        ("pkg/benchmarking.py", False),
        ("pkg/test_core.py", True),
        ("pkg/core_test.py", True),
        ("conftest.py", True),
        ("pkg/contest.py", False),
        ("pkg/testing.py", False),
        ("pkg/attest_core.py", False),
        ("src/tests.py", True),  # unittest's and Django's one file of tests
        ("pkg/test.py", True),
        ("pkg/contests.py", False),
    ],
)
def test_names_and_folders(tmp_path: Path, name: str, expected: bool) -> None:
    assert is_test_file(tmp_path / name, tmp_path) is expected


@pytest.mark.parametrize(
    ("file", "text"),
    [
        (
            "pyproject.toml",
            "[tool.pytest.ini_options]\ntestpaths = ['pkg']\npython_files = ['check_*.py', '*_spec.py']\n",
        ),
        ("pytest.ini", "[pytest]\ntestpaths = pkg\npython_files = check_*.py *_spec.py\n"),
        ("tox.ini", "[pytest]\ntestpaths = pkg\npython_files =\n    check_*.py\n    *_spec.py\n"),
        ("setup.cfg", "[tool:pytest]\ntestpaths = pkg\npython_files = check_*.py *_spec.py\n"),
    ],
)
def test_pytest_python_files_from_each_configuration_file(tmp_path: Path, file: str, text: str) -> None:
    (tmp_path / file).write_text(text)
    assert pytest_python_files(tmp_path) == ("check_*.py", "*_spec.py")
    assert is_test_file(tmp_path / "pkg" / "deep" / "check_core.py", tmp_path)
    assert is_test_file(tmp_path / "pkg" / "core_spec.py", tmp_path)
    # testpaths says where tests are looked for: the package's own modules stay source (toolz: testpaths = toolz).
    assert not is_test_file(tmp_path / "pkg" / "core.py", tmp_path)
    assert not is_test_file(tmp_path / "checksum.py", tmp_path)


def test_a_broken_configuration_file_says_nothing(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options\n")
    assert pytest_python_files(tmp_path) == ()
    assert not is_test_file(tmp_path / "pkg" / "core.py", tmp_path)


def test_file_mode_leaves_a_test_file_alone_unless_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    test_file = project / "tests" / "test_core.py"
    test_file.write_text(
        "def helper(xs: list[int]) -> int:\n    return sum(xs)\n\n\ndef test_helper():\n    assert helper([1]) == 1\n"
    )
    assert main(["optimize", str(test_file), "--json", "--quiet", "--sandbox", "local"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert {s["target"]: s["reason"] for s in document["skipped"]} == dict.fromkeys(
        ["helper", "test_helper"], TEST_FILE_REASON
    )
    assert document["status"] == "no_improvement" and test_file.read_text().startswith("def helper")
