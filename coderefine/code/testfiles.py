"""Which files of a project are its tests: `ci`, the hook and file mode leave them alone by default.

A test file is one under a `tests/` or `test/` folder, or under a `benchmarks/` or `benchmark/`
one (the project's timing tests, which pytest-benchmark runs), one named `test_*.py`, `*_test.py`,
`conftest.py`, `tests.py` or `test.py` (a unittest or Django project's one file of tests), or one
named as pytest is configured to collect (`python_files` in `pyproject.toml`, `pytest.ini`,
`tox.ini` or `setup.cfg`). pytest's `testpaths` says where tests are looked for, not what is one:
`testpaths = ["pkg"]` leaves `pkg/core.py` a source file.
"""

from __future__ import annotations

import configparser
import fnmatch
import tomllib
from collections.abc import Callable
from pathlib import Path

TEST_FOLDERS = ("tests", "test", "benchmarks", "benchmark")
TEST_FILE_NAMES = ("conftest.py", "tests.py", "test.py")
TEST_FILE_REASON = "a test file (--include-tests to work on it)"


def is_test_file(path: Path, root: Path) -> bool:
    """Whether `path` (a file of the project at `root`) is one of its tests."""
    name = path.name
    if name in TEST_FILE_NAMES or name.startswith("test_") or name.removesuffix(".py").endswith("_test"):
        return True
    try:
        relative = path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    folders = relative.parts[:-1]
    if any(folder in TEST_FOLDERS for folder in folders):
        return True
    return any(fnmatch.fnmatch(name, pattern) for pattern in pytest_python_files(root))


def pytest_python_files(root: Path) -> tuple[str, ...]:
    """pytest's `python_files` patterns, from the first of its configuration files that sets them."""
    readers = (
        ("pyproject.toml", _from_pyproject),
        ("pytest.ini", _from_ini("pytest")),
        ("tox.ini", _from_ini("pytest")),
        ("setup.cfg", _from_ini("tool:pytest")),
    )
    for name, read in readers:
        file = root / name
        if file.is_file():
            try:
                found = read(file)
            except (OSError, UnicodeDecodeError, ValueError, configparser.Error):
                continue  # a file pytest itself would complain about: not ours to judge
            if found:
                return tuple(found)
    return ()


def _from_pyproject(file: Path) -> list[str]:
    options = tomllib.loads(file.read_text(encoding="utf-8")).get("tool", {}).get("pytest", {})
    paths = options.get("ini_options", {}).get("python_files", []) if isinstance(options, dict) else []
    return [str(path) for path in paths] if isinstance(paths, list) else str(paths).split()


def _from_ini(section: str) -> Callable[[Path], list[str]]:
    def read(file: Path) -> list[str]:
        parser = configparser.ConfigParser()
        parser.read_string(file.read_text(encoding="utf-8"))
        return parser.get(section, "python_files", fallback="").split()

    return read
